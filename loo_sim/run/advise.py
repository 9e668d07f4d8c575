"""Advice for the hand a seat holds when it declares (``loo-sim advise``, issue #25 item 1):
the expected net chips of *this* hand under each declaration on offer, by P4's paired
replays, on deals of the cards the seat cannot see drawn consistently with what it knows.

What it knows: its hand, the indicator (when turned), the pot carried in, and what the
earlier seats declared. The unseen cards are dealt at random around the hand and the
indicator (a full shuffle, then the known cards swapped into their places, which keeps
every arrangement of the rest equally likely), and a deal is kept only when the earlier
seats, declaring by the table's policies on it, declare exactly what the seat saw:
**rejection sampling**, exact for any policy (a mixed one draws from its seat's stream,
so a kept deal's draws are as likely as the declarations they made). Each kept deal is
played once per declaration on offer, the seat's declaration forced (the later seats
declare by the table, as they would), on the same deck and streams, so the differences
are paired (P4). The dealer is seat 0, so position p (1 = the eldest hand) is seat p mod N.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from loo_sim.base.errors import IllegalAction, LooError
from loo_sim.base.rng import ADVISE_SESSION, MASK64, shuffled_deck
from loo_sim.game import abi as L
from loo_sim.game.cards import card_str
from loo_sim.game.deal_input import DealInput, build_deck, deal_slots, indicator_used
from loo_sim.game.decl import Decl
from loo_sim.game.options import Penalty, Trump
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules
from loo_sim.run.advice import Advice, collect, half_widths
from loo_sim.run.args import kernel_args
from loo_sim.run.rounds import ProgressFn
from loo_sim.run.strength import resolve_strength

FIRST_BATCH = 8192  # deals drawn in the first batch; later batches aim at the precision asked for
MAX_BATCH = 1 << 20
EARLIER_WORDS = ("play", "pass", "miss")


@dataclass
class DeclarationQuestion:
    """What the seat at ``position`` knows when it declares."""

    rules: Rules
    position: int  # 1 = the eldest hand ... players = the dealer
    hand: list[int]
    table: list[Policy]  # one policy per seat (seat 0 is the dealer)
    indicator: int | None = None
    earlier: tuple[str, ...] = ()  # the declarations of positions 1 .. position - 1
    carried: float = 0.0

    @property
    def seat(self) -> int:
        return self.position % self.rules.players


def seat_of(position: int, players: int) -> int:
    """The seat of a position when the dealer is seat 0."""
    return position % players


@dataclass
class Offer:
    """What the seat is offered: its declarations, and the pot it plays for."""

    options: list[str]
    pot_start: float
    penalty: float  # what a loo costs (R3)


def check_question(q: DeclarationQuestion) -> Offer:
    """What is on offer to the seat, after checking the question (one line each, naming
    the flag); the earlier declarations are checked by the rules (the reference engine's
    refusal, with the rule)."""
    rules, n, h = q.rules, q.rules.players, q.rules.hand_size
    if not 1 <= q.position <= n:
        raise LooError(f"--position {q.position}: there is no position {q.position} at a table of {n} "
                       f"(1 = the eldest hand ... {n} = the dealer)")  # fmt: skip
    if len(q.hand) != h:
        raise LooError(f"--hand: {len(q.hand)} card{'s' * (len(q.hand) != 1)} given; a hand holds {h} (R2)")
    twice = next((c for i, c in enumerate(q.hand) if c in q.hand[:i]), None)
    if twice is not None:
        raise LooError(f"--hand: {card_str(twice)} is given twice; each card is in the deck once")
    if q.indicator is not None:
        if not indicator_used(rules, q.carried):
            raise LooError(f"--indicator: trump = {rules.trump.value} turns no indicator (R6)")
        if not indicator_seen(rules, q.carried):
            raise LooError("--indicator: here the indicator is turned only at the first renounce (R6: trump = "
                           "first_renounce, or R8: a single pot), so no seat sees it when declaring")  # fmt: skip
        if q.indicator in q.hand:
            raise LooError(f"--indicator {card_str(q.indicator)} is also in --hand; each card is in the deck once")
    before = q.position - 1
    if len(q.earlier) != before:
        seats = "no seat declares" if before == 0 else f"positions 1..{before} declare"
        raise LooError(f"--earlier: {len(q.earlier)} declaration{'s' * (len(q.earlier) != 1)} given, but before "
                       f"position {q.position} {seats}; give one for each, in order")  # fmt: skip
    for i, word in enumerate(q.earlier, 1):
        if word not in EARLIER_WORDS:
            raise LooError(f"--earlier: position {i}'s {word!r} is not a declaration an earlier seat makes; "
                           f"allowed {', '.join(EARLIER_WORDS)}")  # fmt: skip
    return _options(q)


def _options(q: DeclarationQuestion) -> Offer:
    """The declarations on offer, from one deal of the reference engine with the earlier
    declarations forced (a declaration the rules refuse is said with its rule)."""
    from loo_sim.run.api import play_deal

    n = q.rules.players
    inp = DealInput(hands={q.seat: list(q.hand)}, indicator=q.indicator)
    deck = build_deck(q.rules, 0, q.carried, inp, shuffled_deck(0, 0)).deck
    forced = {seat_of(i, n): word for i, word in enumerate(q.earlier, 1)}
    try:
        rec = play_deal(q.rules, deck, 0, q.carried, q.table, forced=forced)
    except IllegalAction as e:
        text = str(e)
        for i in range(1, n):
            text = text.replace(f"seat {i} ", f"position {i} ")
        raise LooError(f"--earlier: {text}") from None
    assert rec.trace is not None
    options = [d.label for d in Decl if d.label in rec.trace.options.get(q.seat, [])]
    return Offer(options, rec.pot_start, loo_penalty(q.rules, rec.pot_start))


def loo_penalty(rules: Rules, pot_start: float) -> float:
    """R3: what a loo costs: the whole pot (unlimited), the fixed amount (limited), or
    the smaller of the two (capped), as the engine charges it."""
    if rules.penalty is Penalty.UNLIMITED:
        return pot_start
    if rules.penalty is Penalty.LIMITED:
        return rules.penalty_amount
    return min(pot_start, rules.penalty_amount)


def indicator_seen(rules: Rules, carried: float) -> bool:
    """Whether the seats see the indicator when they declare (R6 turn-up, not a single pot, R8)."""
    return rules.trump is Trump.TURN_UP and not rules.is_single_pot(carried)


def fixed_places(q: DeclarationQuestion) -> tuple[np.ndarray, np.ndarray]:
    """The deck positions (R2's deal order, the dealer seat 0) of the seat's cards and of
    the indicator, and the cards that go there."""
    slots = deal_slots(q.rules, 0, q.carried)
    places = [i for i, s in enumerate(slots) if s == q.seat]
    cards = list(q.hand)
    if q.indicator is not None:
        places.append(slots.index("indicator"))
        cards.append(q.indicator)
    return np.array(places, dtype=np.int64), np.array(cards, dtype=np.int64)


def conditioned_decks(seed: int, first: int, count: int, places: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """Decks first..first+count-1 of the advice stream, each a uniform shuffle with the
    known cards swapped into their places: every arrangement of the unseen cards is
    equally likely (the swap maps exactly 52 shuffles onto each deck with the card in place)."""
    from loo_sim.run.records import shuffled_decks

    decks = shuffled_decks(seed, count, first, session=ADVISE_SESSION)
    rows = np.arange(count)
    for place, card in zip(places.tolist(), cards.tolist()):
        where = np.argmax(decks == card, axis=1)
        decks[rows, where] = decks[rows, place]
        decks[rows, place] = card
    return decks


class _Player:
    """Plays batches of decks with the seat's declaration forced (the kernel's play_rows)."""

    def __init__(self, q: DeclarationQuestion, seed: int) -> None:
        table = q.table
        self.args = kernel_args(q.rules, table, resolve_strength(q.rules, table, None))
        self.keys = (np.uint64(seed & MASK64), np.uint64(ADVISE_SESSION))
        self.seat = q.seat
        self.carried = float(q.carried)

    def play(self, decks: np.ndarray, deal_ids: np.ndarray, action: int) -> tuple[np.ndarray, np.ndarray]:
        from loo_sim.run.records import play_batch

        count = decks.shape[0]
        dealers, carried = np.zeros(count, dtype=np.int64), np.full(count, self.carried, dtype=np.float64)
        return play_batch(self.args, self.keys, decks, dealers, carried, deal_ids, self.seat, action)


def _payoff(of: np.ndarray, seat: int) -> np.ndarray:
    return of[:, L.F_SHARES + seat] - of[:, L.F_ANTES + seat] - of[:, L.F_PENALTIES + seat]


def _kept(q: DeclarationQuestion, oi: np.ndarray, offer_bits: int) -> np.ndarray:
    """The deals whose earlier seats declared as the seat saw, with the same options on offer."""
    n = q.rules.players
    keep = oi[:, L.O_OPTIONS + q.seat] == offer_bits
    for i, word in enumerate(q.earlier, 1):
        keep &= oi[:, L.O_DECL + seat_of(i, n)] == int(Decl[word.upper()])
    return keep


def _next_batch(pay: np.ndarray, attempts: int, precision: float, cap: int) -> int:
    """How many deals to draw next: enough for the precision at the rate seen so far."""
    kept = pay.shape[0]
    if kept < 2 or pay.shape[1] < 2:
        return FIRST_BATCH if kept == 0 else min(MAX_BATCH, 4 * attempts)
    worst = float(np.max(half_widths(pay)))
    needed = kept * (worst / precision) ** 2 * 1.1 if math.isfinite(worst) else 4 * kept
    more = min(max(needed, 100) - kept, cap - kept)
    rate = kept / attempts
    return int(min(MAX_BATCH, max(FIRST_BATCH, more / rate)))


def declaration_advice(
    q: DeclarationQuestion,
    *,
    precision: float = 0.05,
    max_deals: int = 1_000_000,
    seed: int = 0,
    progress: ProgressFn | None = None,
    offer: Offer | None = None,
) -> Advice:
    """Each declaration on offer to the seat: its paired payoffs on deals drawn
    consistently with what the seat knows, until every difference from the best action
    has a 95% half-width below ``precision`` or ``max_deals`` deals were kept."""
    options = (offer or check_question(q)).options
    start = time.perf_counter()
    codes = [int(Decl[a.upper()]) for a in options]
    offer_bits = sum(1 << c for c in codes)
    places, cards = fixed_places(q)
    player = _Player(q, seed)

    def batch(attempts: int, pay: np.ndarray) -> tuple[np.ndarray, int]:
        count = _next_batch(pay, attempts, precision, max_deals)
        decks = conditioned_decks(seed, attempts, count, places, cards)
        deal_ids = np.arange(attempts, attempts + count, dtype=np.uint64)
        oi, of = player.play(decks, deal_ids, codes[0])
        keep = _kept(q, oi, offer_bits)
        columns = [_payoff(of, q.seat)[keep]]
        for code in codes[1:]:
            columns.append(_payoff(player.play(decks[keep], deal_ids[keep], code)[1], q.seat))
        return np.stack(columns, axis=1), count

    never = (f"--earlier: none of {{attempts:,}} deals drawn around this hand has the earlier seats declare "
             f"{','.join(q.earlier)} under this table's policies; those declarations (almost) never happen there")
    pay, attempts, stopped = collect(batch, len(codes), precision, max_deals, progress, never)
    notes = _notes(q, attempts, pay.shape[0])
    return Advice(options, pay, attempts, precision, stopped, time.perf_counter() - start, notes)


def _notes(q: DeclarationQuestion, attempts: int, kept: int) -> list[str]:
    notes = []
    if q.earlier:
        share = kept / attempts if attempts else 0.0
        notes.append(f"unseen cards dealt at random and kept only where positions 1..{q.position - 1} declare "
                     f"{','.join(q.earlier)} under the table's policies (rejection): {kept:,} of {attempts:,} deals "
                     f"kept ({share:.1%})")  # fmt: skip
    else:
        notes.append(f"unseen cards dealt at random around the hand: {kept:,} deals")
    if q.indicator is None and indicator_seen(q.rules, q.carried):
        notes.append("the indicator was not given, so it is drawn with the unseen cards (you would see it)")
    return notes
