"""A perfect-information card-play solver (docs/policies.md P7): the readable reference.

Given every hand, what is known about trumps, the leader, the cards already played to
the current trick and the rules, :func:`solve` returns each seat's final number of
tricks when every seat plays **max^n**: the seat to move plays the legal card whose
subgame gives itself the highest payoff, seeing every card (the hidden indicator
included, so under ``first_renounce`` it knows which suit the reveal will make trumps).

Payoffs (R3, R8), per seat of the deal, from its final trick count ``k``:

    pot_start * k / hand_size              (its shares; what the engine's ``score`` pays)
    - penalty   when k == 0                (the loo; never for the defender)

A defender (R8) pays no loo and its shares stay in the pot; its payoff is
``pot_start * k / hand_size`` all the same (it maximizes what stays in the pot).

**Tie-break.** Among legal cards of equal own payoff (exact float equality) the seat
plays the one of lowest card power (P1, ``TrumpState.power`` with the trumps known
*before* the card is played, so the first lead of ``first_lead`` compares by rank), then
the lowest card number. Power already breaks ties by suit, so the second key never
decides; it is kept so the rule is total.

**The rules** are those of ``engine/tricks.py`` ``_Deal.play_tricks``, line by line: the
legal cards come from ``game.legality`` (``lead_options`` with ``first_trick`` and
``single_pot``; ``follow_options``); Pam be civil (R9) holds Pam back from a follower
when the ace of trumps was led and civil applies, unless Pam is its last card; under
``first_lead`` the first card led sets trumps (R6); under ``first_renounce`` a follower
who holds no card of the led suit while trumps are unknown marks a renounce, and when
that trick is complete the indicator is turned and the trick is judged with the new
trumps (R6); the winner leads the next trick (R7).

**Exactness.** The search is exact everywhere; no cards are merged as equivalent.
Its two shortcuts change only the speed: a node stops trying cards once one reaches
the most the mover can still get (every trick left; a later card could only tie, and
ties keep the earlier one); and the value of a position at the start of a trick is
memoised, keyed on all the rest of the deal depends on (the hands, the leader, the
trick number, the tricks won so far, trumps and whether the indicator is turned).
Measured on one core (``bash scripts/dev.sh bench --solver``, a shared two-core machine),
five seats in the deal, from the first lead: about 120 three-card solves/s, 0.7-1.4
five-card solves/s. ``kernel/solver.py`` is its numba twin (the same answers, exactly;
tests/test_kernel_solver.py) with more shortcuts (its docstring lists them), some 500-650
times faster in the same run.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from loo_sim.game.cards import ACE, PAM, make_card, suit_of
from loo_sim.game.legality import follow_options, lead_options
from loo_sim.game.ranking import TrumpState
from loo_sim.game.rules import Rules, Trump


@dataclass(frozen=True)
class Position:
    """A moment of trick play with every card known (a node of the perfect-information game).

    ``seats`` are the seats in the deal in the engine's ``in_deal`` order (the eldest hand
    first); ``leader`` led (or is to lead) the current trick, and ``trick`` holds the
    ``(seat, card)`` pairs already played to it, so the seat to move is the next one
    after them in the rotation of ``seats`` from ``leader`` (:attr:`to_move`).
    ``trump`` is what is known now (None while unknown, R6); ``indicator`` is the card
    after the hands (turned at the reveal under ``first_renounce``: the solver knows it);
    ``turned_up`` is the indicator once turned, else None (as ``lead_options`` takes it).
    ``civil`` and ``renounced`` are the current trick's Pam-be-civil and renounce flags.
    """

    rules: Rules
    seats: tuple[int, ...]
    hands: Mapping[int, tuple[int, ...]]
    leader: int
    trick: tuple[tuple[int, int], ...]
    trick_index: int
    tricks_won: Mapping[int, int]
    trump: int | None
    mode: Trump
    indicator: int | None
    turned_up: int | None
    civil: bool
    renounced: bool
    single_pot: bool
    pot_start: float
    penalty: float
    defender: int | None

    @property
    def order(self) -> tuple[int, ...]:
        """The current trick's seats in playing order, the leader first."""
        start = self.seats.index(self.leader)
        return self.seats[start:] + self.seats[:start]

    @property
    def to_move(self) -> int:
        return self.order[len(self.trick)]

    def payoffs(self, tricks: Mapping[int, int]) -> tuple[float, ...]:
        """Each seat's payoff (in ``seats`` order) for final trick counts ``tricks``."""
        return tuple(_payoff(self, s, tricks[s]) for s in self.seats)


def _payoff(pos: Position, seat: int, k: int) -> float:
    # the same float the engine's score gives: shares - penalties (a defender: its shares)
    won = pos.pot_start * k / pos.rules.hand_size
    return won - pos.penalty if k == 0 and seat != pos.defender else won


class _Search:
    """One solve: the fixed facts of the deal, the memo, and the recursion.

    Inside, seats are indices into ``pos.seats``; a state is (hands, leader index, trick
    cards, trick index, tricks won, trump, indicator turned, civil, renounced).
    """

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.rules = pos.rules
        self.n = len(pos.seats)
        self.h = pos.rules.hand_size
        self.pam = pos.rules.pam
        # payoff of seat index i ending with k tricks
        self.pay = [[_payoff(pos, s, k) for k in range(self.h + 1)] for s in pos.seats]
        # the best payoff seat index i can still reach, by its tricks so far and tricks left
        self.cap = [
            [[max(row[k : k + left + 1]) for left in range(self.h + 1)] for k in range(self.h + 1)] for row in self.pay
        ]
        self.ts = {trump: TrumpState(trump, self.pam) for trump in (None, 0, 1, 2, 3)}
        self.memo: dict[tuple, tuple[int, ...]] = {}
        self.nodes = 0

    # ---- the rules at one node (mirrors _Deal.play_tricks) ----------------------------
    def options(self, hand: tuple[int, ...], cards: tuple[int, ...], t: int, trump: int | None,
                turned: bool, civil: bool) -> tuple[list[int], bool]:  # fmt: skip
        """The mover's legal cards, and whether it renounces (R6 first_renounce)."""
        ts = self.ts[trump]
        if not cards:
            turned_up = self.pos.indicator if turned else None
            legal = lead_options(list(hand), ts, self.rules, first_trick=t == 0, single_pot=self.pos.single_pot,
                                 turned_up=turned_up).cards  # fmt: skip
            return list(legal), False
        held = list(hand)
        if civil and PAM in held and len(held) > 1:  # R9 Pam be civil: held back unless the last card
            held = [c for c in held if c != PAM]
        legal = follow_options(held, list(cards), ts, self.rules).cards
        renounces = trump is None and all(suit_of(c) != suit_of(cards[0]) for c in held)
        return list(legal), renounces

    def children(self, state: tuple) -> Iterator[tuple[int, tuple]]:
        """(card, next state or final trick counts) for each legal card, in tie-break order
        (lazily: a cut in ``value`` skips building the rest)."""
        hands, li, cards, t, won, trump, turned, civil, renounced = state
        mover = (li + len(cards)) % self.n
        legal, renounces = self.options(hands[mover], cards, t, trump, turned, civil)
        ts = self.ts[trump]
        legal.sort(key=lambda c: (ts.power(c), c))  # ties go to the first: lowest power, lowest card
        for card in legal:
            new_trump, new_civil, new_turned = trump, civil, turned
            if not cards:
                if self.pos.mode is Trump.FIRST_LEAD and trump is None:
                    new_trump = suit_of(card)  # R6 first_lead: the first card led sets trumps
                new_civil = (self.rules.pam and self.rules.pam_be_civil and new_trump is not None
                             and card == make_card(ACE, new_trump))  # fmt: skip
            new_renounced = renounced or renounces
            new_hands = hands[:mover] + (tuple(c for c in hands[mover] if c != card),) + hands[mover + 1 :]
            new_cards = cards + (card,)
            if len(new_cards) < self.n:
                yield card, (new_hands, li, new_cards, t, won, new_trump, new_turned, new_civil, new_renounced)
                continue
            if new_renounced and self.pos.mode is Trump.FIRST_RENOUNCE:
                assert self.pos.indicator is not None
                new_trump, new_turned = suit_of(self.pos.indicator), True  # judged with the new trumps
            winner = (li + self.ts[new_trump].winner_index(list(new_cards))) % self.n
            new_won = won[:winner] + (won[winner] + 1,) + won[winner + 1 :]
            if t + 1 == self.h:
                yield card, new_won
            else:
                yield card, (new_hands, winner, (), t + 1, new_won, new_trump, new_turned, False, False)

    # ---- max^n ------------------------------------------------------------------------
    def value(self, state: tuple) -> tuple[int, ...]:
        """Final trick counts (per seat index) under max^n play from ``state``."""
        key = None
        if not state[2]:  # the start of a trick: the only place two histories meet
            key = (state[0], state[1], state[3], state[4], state[5], state[6])
            hit = self.memo.get(key)
            if hit is not None:
                return hit
        self.nodes += 1
        mover = (state[1] + len(state[2])) % self.n
        # exact cut: once a card reaches the most the mover can still get, no later card is
        # strictly better, and ties keep the earlier card anyway
        cap = self.cap[mover][state[4][mover]][self.h - state[3]]
        best: tuple[int, ...] | None = None
        best_pay = 0.0
        for _card, nxt in self.children(state):
            final = self.result(nxt)
            p = self.pay[mover][final[mover]]
            if best is None or p > best_pay:  # strictly better only: ties keep the earlier card
                best, best_pay = final, p
                if p >= cap:
                    break
        assert best is not None, "a seat to move always has a legal card"
        if key is not None:
            self.memo[key] = best
        return best

    def result(self, nxt: tuple) -> tuple[int, ...]:
        # a tuple of ints is a finished deal; a 9-tuple state is not (hands is a tuple of tuples)
        return nxt if isinstance(nxt[0], int) else self.value(nxt)

    def root(self) -> tuple:
        pos = self.pos
        hands = tuple(tuple(sorted(pos.hands[s])) for s in pos.seats)
        li = pos.seats.index(pos.leader)
        cards = tuple(c for _, c in pos.trick)
        won = tuple(pos.tricks_won[s] for s in pos.seats)
        turned = pos.turned_up is not None
        return (hands, li, cards, pos.trick_index, won, pos.trump, turned, pos.civil, pos.renounced)


def _check(pos: Position) -> None:
    expected = pos.order[: len(pos.trick)]
    if tuple(s for s, _ in pos.trick) != expected:
        raise ValueError(f"trick {pos.trick} is not played in the order {expected} from leader {pos.leader}")
    if len(pos.trick) >= len(pos.seats) or pos.trick_index >= pos.rules.hand_size:
        raise ValueError("the position has no card left to play")
    if not pos.trick and (pos.civil or pos.renounced):
        raise ValueError("civil and renounced belong to a trick under way: both are False before its lead")


def solve(position: Position) -> dict[int, int]:
    """Each seat's final number of tricks (those won so far plus those it wins from here)
    when every seat plays max^n with the P7 payoffs and tie-break."""
    _check(position)
    search = _Search(position)
    final = search.value(search.root())
    return dict(zip(position.seats, final))


def card_values(position: Position) -> dict[int, tuple[float, ...]]:
    """For the seat to move: each legal card -> the payoff vector (per seat, in ``seats``
    order) of the subgame after it is played (every seat then playing max^n)."""
    _check(position)
    search = _Search(position)
    out = {}
    for card, nxt in search.children(search.root()):
        final = search.result(nxt)
        out[card] = tuple(search.pay[i][k] for i, k in enumerate(final))
    return out


def best_card(position: Position) -> int:
    """The card max^n plays for the seat to move (P7 tie-break: lowest power, then number)."""
    _check(position)
    search = _Search(position)
    mover = position.seats.index(position.to_move)
    best, best_pay = None, 0.0
    for card, nxt in search.children(search.root()):
        p = search.pay[mover][search.result(nxt)[mover]]
        if best is None or p > best_pay:
            best, best_pay = card, p
    assert best is not None
    return best
