"""The tricks of a deal in the reference engine (docs/rules.md R6, R7, R9 Pam be civil):
each seat's legal cards, its policy's card (or the solver's, P8, or a card hook's), trumps
set by the first lead or turned at the first renounce, and the perfect-information
Position and the sight a seat has at each card.

A mixin of ``engine/deal.py``'s ``_Deal``, whose state it reads and writes; the twin of
``kernel/tricks.py``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loo_sim.base.errors import LooError
from loo_sim.engine.cardplay import Play, Sight, perfect_card, pimc_card
from loo_sim.engine.infer import Declared, Evidence, choice_of, infer_samples
from loo_sim.engine.policies import choose_card
from loo_sim.game.cards import ACE, PAM, make_card, suit_of
from loo_sim.game.decl import DEFEND, MISS, PLAY
from loo_sim.game.legality import follow_options, lead_options
from loo_sim.game.paths import RulePath
from loo_sim.game.policy import SOLVER_PLAY, Policy
from loo_sim.game.ranking import TrumpState
from loo_sim.game.record import Trick
from loo_sim.game.rules import Trump

if TYPE_CHECKING:
    from loo_sim.engine.solver import Position


class TrickPlay:
    """R6, R7: the trick play of ``_Deal`` (engine/deal.py holds the state)."""

    # ---- R6, R7: the tricks -----------------------------------------------------------
    def play_tricks(self) -> None:
        rules, hook = self.rules, self.card_hook
        leader = self.in_deal[0]  # the eldest hand in the deal
        for t in range(self.h):
            start = self.in_deal.index(leader)
            seats = self.in_deal[start:] + self.in_deal[:start]
            cards: list[int] = []
            played: list[tuple[int, int]] = []
            civil = False
            renounced = False
            for seat in seats:
                pick = hook(self.position(leader, t, played, civil, renounced)) if hook else None
                hand = self.hands[seat]
                if not cards:
                    options, path = lead_options(hand, self.ts, rules, first_trick=t == 0, single_pot=self.single,
                                                 turned_up=self.turned_up)  # fmt: skip
                else:
                    if civil and PAM in hand:  # R9 Pam be civil
                        if len(hand) > 1:
                            hand = [c for c in hand if c != PAM]
                        self.mark(RulePath.R9_CIVIL_HELD_BACK if len(hand) < len(self.hands[seat])
                                  else RulePath.R9_CIVIL_LAST_CARD)  # fmt: skip
                    options, path = follow_options(hand, cards, self.ts, rules)
                    if self.trump is None and all(suit_of(c) != suit_of(cards[0]) for c in hand):
                        renounced = True  # R6 first_renounce: this trick reveals trumps
                if path is not None:
                    self.mark(path)
                if pick is None and self.policies[seat].play in SOLVER_PLAY:
                    pick = self.solver_card(seat, options, cards, self.position(leader, t, played, civil, renounced))
                if pick is None:
                    pick = choose_card(self.policies[seat], options, cards, self.ts, self.draws[seat])
                card = pick
                assert card in options
                if self.keep_plays:
                    self.plays.append(Play(seat, card, t, tuple(cards), self.trump, civil, self.turned_up))
                if not cards:
                    if self.mode is Trump.FIRST_LEAD and self.trump is None:
                        self.trump = suit_of(card)  # R6 first_lead: the first card led sets trumps
                    civil = (
                        rules.pam
                        and rules.pam_be_civil
                        and self.trump is not None
                        and card == make_card(ACE, self.trump)
                    )  # every play family invokes it (P3)
                    if civil:
                        self.trace.civil_tricks.append(t)
                self.hands[seat].remove(card)
                cards.append(card)
                played.append((seat, card))
            if renounced and self.mode is Trump.FIRST_RENOUNCE:
                self.turn_indicator()  # the trick is judged with the new trumps
                self.trace.reveal_trick = t
                self.mark(RulePath.R6_FIRST_RENOUNCE_REVEALED)
            winner = seats[self.ts.winner_index(cards)]
            self.tricks.append(Trick(leader=leader, cards=played, winner=winner))
            self.tricks_won[winner] += 1
            leader = winner
        if self.mode is Trump.FIRST_RENOUNCE and self.trump is None:
            self.mark(RulePath.R6_FIRST_RENOUNCE_NEVER)
        if self.mode is Trump.FIRST_LEAD:
            self.mark(RulePath.R6_FIRST_LEAD)

    def solver_card(self, seat: int, options: list[int], cards: list[int], pos: Position) -> int:
        """P8: the card of a ``perfect`` or ``pimc:N`` seat (engine/cardplay.py)."""
        from loo_sim.engine.solver import card_values  # only the solver families need it

        policy, values = self.policies[seat], self.card_values or card_values
        if policy.play == "perfect":
            return perfect_card(pos, options, values)
        draw = self.draws[seat]
        if draw is None:
            raise LooError(f"policy {policy}: the play family pimc needs a random stream")

        def basic() -> int:
            return choose_card(Policy(), options, cards, self.ts)

        if policy.infer:  # pimc:N:infer: the samples agree with the declarations too (engine/infer.py)
            evidence = self.evidence(seat, policy.infer)
            return pimc_card(pos, self.sight(seat), options, policy.samples, draw, basic, values,
                             lambda sight, n, draw: infer_samples(sight, evidence, n, draw))  # fmt: skip
        return pimc_card(pos, self.sight(seat), options, policy.samples, draw, basic, values)

    def sight(self, seat: int) -> Sight:
        """What ``seat`` knows now (P8): the cards it can place, the other seats in the deal
        with the cards each holds, the plays so far, whether the indicator is hidden."""
        known = set(self.trace.hands[seat]) | set(self.hands[seat]) | {p.card for p in self.plays}
        if self.declarations[seat] in (MISS, DEFEND):
            known |= set(self.miss)  # it took the miss: its dealt hand is dead, and it knows it
        if self.indicator_turned:
            known.add(self.indicator)
        others = tuple((s, len(self.hands[s])) for s in self.in_deal if s != seat)
        hidden = self.indicator is not None and not self.indicator_turned
        return Sight(self.rules, self.single, seat, frozenset(known), others, tuple(self.plays), hidden)

    def evidence(self, seat: int, model: str) -> Evidence:
        """The declarations a ``pimc:N:infer=MODEL`` seat reads (engine/infer.py): every other
        seat's, in declaration order, with its options and the trumps of the declarations; a
        seat that played is not judged where the deal has an R9 exchange."""
        trump = suit_of(self.indicator) if self.mode is Trump.TURN_UP and self.indicator is not None else None
        judged = tuple(Declared(other, self.declarations[other], choice_of(self.trace.options[other]),
                                self.declarations[other] != PLAY) for other in self.order
                       if other != seat and not (self.declarations[other] == PLAY and self.exchanges))  # fmt: skip
        return Evidence(self.rules, model, TrumpState(trump, self.rules.pam), judged)

    def position(self, leader: int, t: int, played: list[tuple[int, int]], civil: bool, renounced: bool) -> Position:
        """The perfect-information Position (engine/solver.py) before the next card of trick
        ``t``, led by ``leader``, with ``played`` already in it."""
        from loo_sim.engine.solver import Position  # only card hooks need it

        return Position(
            rules=self.rules, seats=tuple(self.in_deal), hands={s: tuple(self.hands[s]) for s in self.in_deal},
            leader=leader, trick=tuple(played), trick_index=t, tricks_won={s: self.tricks_won[s] for s in self.in_deal},
            trump=self.trump, mode=self.mode, indicator=self.indicator, turned_up=self.turned_up, civil=civil,
            renounced=renounced, single_pot=self.single, pot_start=self.pot_start, penalty=self.loo_penalty(),
            defender=self.defender,
        )  # fmt: skip
