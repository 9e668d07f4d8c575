"""The rest of a deal after the asking seat's card (``loo-sim advise --play``, #25): the
seat's net chips for the whole deal (P4: ``shares - antes - penalties``) when it plays a
card now and every seat then plays by one card-play family (``--then``).

* ``perfect``: the P7 solver's value of each card (the kernel's ``run.solver.card_values``,
  the same answers as ``engine/solver.py``), as P8's ``perfect`` seats play it out.
* ``basic``, ``high``, ``low``: :func:`play_on`, the trick loop of ``engine/tricks.py`` from
  the position, line by line, with the family's card (P2, P3).
* the others (``pimc:N``, ``random``): the whole deal again through the reference engine,
  its declarations forced and the script played by ``ScriptedPlay``, then the card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from loo_sim.base.rng import seat_streams
from loo_sim.engine.deal import play_deal_reference
from loo_sim.engine.policies import choose_card
from loo_sim.engine.script import ScriptedPlay
from loo_sim.engine.solver import Position
from loo_sim.game.cards import ACE, PAM, make_card, suit_of
from loo_sim.game.deal_input import Play
from loo_sim.game.legality import follow_options, lead_options
from loo_sim.game.policy import Policy
from loo_sim.game.ranking import TrumpState
from loo_sim.game.rules import Trump

FAST_FAMILIES = ("basic", "high", "low")  # deterministic families play_on plays


def net_chips(pos: Position, seat: int, tricks: int, ante: float) -> float:
    """P4's payoff from the final trick count: shares - antes - penalties (a defender's
    shares stay in the pot, R8, and it pays no loo)."""
    if seat == pos.defender:
        return -ante
    shares = pos.pot_start * tricks / pos.rules.hand_size
    return shares - ante - (pos.penalty if tricks == 0 else 0.0)


def perfect_values(pos: Position, ante: float) -> dict[int, float]:
    """Each legal card -> the seat to move's net chips when every seat then plays max^n (P7)."""
    from loo_sim.run.solver import card_values  # numba compiles the solver on first use

    mover = pos.seats.index(pos.to_move)
    return {card: pay[mover] - (0.0 if pos.to_move == pos.defender else ante) for card, pay in card_values(pos).items()}


def play_on(pos: Position, card: int, family: str) -> dict[int, int]:
    """Each seat's final tricks when the seat to move plays ``card`` and every seat then
    plays by ``family`` (deterministic: basic, high, low); ``engine/tricks.py``'s loop."""
    rules, policy = pos.rules, Policy(play=family)
    hands = {s: list(pos.hands[s]) for s in pos.seats}
    won = dict(pos.tricks_won)
    leader, t, trump, turned = pos.leader, pos.trick_index, pos.trump, pos.turned_up is not None
    played, civil, renounced = list(pos.trick), pos.civil, pos.renounced
    pick: int | None = card
    while t < rules.hand_size:
        start = pos.seats.index(leader)
        order = pos.seats[start:] + pos.seats[:start]
        for seat in order[len(played) :]:
            cards = [c for _, c in played]
            ts = TrumpState(trump, rules.pam)
            hand = hands[seat]
            if not cards:
                options = lead_options(hand, ts, rules, first_trick=t == 0, single_pot=pos.single_pot,
                                       turned_up=pos.indicator if turned else None).cards  # fmt: skip
            else:
                if civil and PAM in hand and len(hand) > 1:  # R9 Pam be civil
                    hand = [c for c in hand if c != PAM]
                options = follow_options(hand, cards, ts, rules).cards
                if trump is None and all(suit_of(c) != suit_of(cards[0]) for c in hand):
                    renounced = True  # R6 first_renounce: this trick reveals trumps
            chosen = choose_card(policy, options, cards, ts) if pick is None else pick
            pick = None
            if not cards:
                if pos.mode is Trump.FIRST_LEAD and trump is None:
                    trump = suit_of(chosen)
                civil = rules.pam and rules.pam_be_civil and trump is not None and chosen == make_card(ACE, trump)
            hands[seat].remove(chosen)
            played.append((seat, chosen))
        if renounced and pos.mode is Trump.FIRST_RENOUNCE:
            assert pos.indicator is not None
            trump, turned = suit_of(pos.indicator), True  # the trick is judged with the new trumps
        winner = order[TrumpState(trump, rules.pam).winner_index([c for _, c in played])]
        won[winner] += 1
        leader, t, played, civil, renounced = winner, t + 1, [], False, False
    return won


class _Candidate:
    """The card hook of an engine replay: the script, then the candidate card, then None."""

    def __init__(self, play: Play, card: int) -> None:
        self.script = ScriptedPlay(play)
        self.total = sum(len(trick) for trick in play)
        self.card = card

    def __call__(self, pos: Position) -> int | None:
        if self.script.used < self.total:
            return self.script(pos)
        if self.card is not None:
            card, self.card = self.card, None
            return card
        return None


def replay_values(rules, deck: Sequence[int], carried: float, table: Sequence[Policy], declarations: dict[int, str],
                  play: Play, options: Sequence[int], then: Policy, me: int, seed: int, session: int, index: int,
                  dealer: int = 0) -> dict[int, float]:  # fmt: skip
    """Each card -> the seat's net chips, the deal replayed by the reference engine with the
    declarations seen, the script, the card, then ``then``'s card play for every seat (the
    same streams for every card: paired)."""
    from loo_sim.run.api import solver_values

    policies = [replace(p, play=then.play, samples=then.samples, infer=then.infer) for p in table]
    values = solver_values(rules, policies)
    out = {}
    for card in options:
        draws = seat_streams(seed, index, policies, session)
        rec = play_deal_reference(rules, deck, dealer, carried, policies, draws, forced=declarations,
                                  card_hook=_Candidate(play, card), card_values=values)  # fmt: skip
        out[card] = rec.shares[me] - rec.antes[me] - rec.penalties[me]
    return out
