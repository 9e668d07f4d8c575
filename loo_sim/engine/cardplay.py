"""The solver play families (docs/policies.md P8), readable: ``perfect`` and ``pimc:N``.

``perfect`` sees every card: it plays the card max^n plays in the true position (P7).
``pimc:N`` sees what a player at the table sees (:class:`Sight`), draws N deals of the
cards it cannot see that are consistent with it, solves each with every card open
(P7's ``card_values``) and plays the legal card whose payoff to itself, summed over the
samples, is highest (ties: P7's order, the lowest power first).

**What the seat knows.** Its own hand, and the cards it has held and let go (its hand
as dealt, the miss if it took it, so also its own discards); every card played so far
and by whom; the indicator once turned; who is in the deal and how many cards each
still holds. Every other card is *unseen*: the other hands, the miss or a dead hand,
the stock, other seats' discards, and the indicator while it is hidden (R6
``first_renounce``: the solver needs it, so it is sampled too).

**Consistent.** A sample gives each other seat in the deal as many unseen cards as it
holds; it is consistent when, with those hands, every card that seat has played was
legal when it was played (R7 lead duties and followers, R9 Pam be civil): with the hand
it held then, its sampled cards plus the cards it played since. That is the voids shown
by failures to follow or to trump, the heads not made, and the lead duties, all at
once. Not used: the declarations (what a seat's play or pass says about its hand) and,
in five-card games, that no hand in the deal was a flush at the show.

**The draw**, from the seat's own stream (each step one call ``draw(n)``, as the
``random`` family draws), the same in both engines:

1. the unseen cards in card-number order, and for each other seat in the deal (in the
   deal's order, the eldest first) the unseen cards it *may* hold: those that, added
   alone to the cards it is known to have held at each of its plays, keep that play
   legal;
2. an attempt shuffles the unseen cards (forward Fisher-Yates: for i = 0 .. u-2, swap
   place i with i + draw(u - i)); each other seat in turn takes the first cards of the
   shuffle, not yet taken, that it may hold, as many as it holds; then a hidden
   indicator is the first card not taken. An attempt fails when a seat finds too few
   cards, or when the full test of consistency fails;
3. attempts go on until N samples are consistent or 8N attempts were made; with no
   consistent sample at all the seat plays as ``basic``.

A seat with one legal card plays it without drawing. The samples are not exactly
uniform over the consistent deals (each seat's cards are uniform given the seats dealt
before it); both engines draw the same samples, which is what the differential test
checks. ``kernel/cardplay.py`` is the numba twin.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from loo_sim.engine.solver import Position, card_values
from loo_sim.game.cards import PAM
from loo_sim.game.legality import follow_options, lead_options
from loo_sim.game.ranking import TrumpState
from loo_sim.game.rules import Rules

ATTEMPTS_PER_SAMPLE = 8  # pimc:N gives up after 8N attempts (game.abi.PIMC_ATTEMPTS)
CardValues = Callable[[Position], Mapping[int, Sequence[float]]]


@dataclass(frozen=True)
class Play:
    """One card played, with what decided its legality then (engine ``play_tricks``)."""

    seat: int
    card: int
    trick: int  # trick index
    before: tuple[int, ...]  # the cards of the trick played before it (empty: a lead)
    trump: int | None  # trumps known when it was played
    civil: bool  # R9 Pam be civil held for this trick (followers)
    turned_up: int | None  # the indicator if turned by then (lead duties)


def legal_then(play: Play, hand: Sequence[int], rules: Rules, single_pot: bool) -> list[int]:
    """The cards that were legal for ``play``'s seat had it held ``hand`` (as play_tricks)."""
    ts = TrumpState(play.trump, rules.pam)
    if not play.before:
        return lead_options(list(hand), ts, rules, first_trick=play.trick == 0, single_pot=single_pot,
                            turned_up=play.turned_up).cards  # fmt: skip
    held = list(hand)
    if play.civil and PAM in held and len(held) > 1:
        held = [c for c in held if c != PAM]
    return follow_options(held, list(play.before), ts, rules).cards


@dataclass(frozen=True)
class Sight:
    """What a seat at the table knows at one card decision (see the module docstring)."""

    rules: Rules
    single_pot: bool
    seat: int
    known: frozenset[int]  # cards the seat can place: its own, played, the turned indicator
    others: tuple[tuple[int, int], ...]  # (seat, cards it holds) of each other seat in the deal
    plays: tuple[Play, ...]  # every card played so far, in order
    hidden_indicator: bool  # the indicator exists and is not turned: it is sampled too

    def unseen(self) -> list[int]:
        return [c for c in range(52) if c not in self.known]

    def history(self, seat: int) -> list[tuple[Play, frozenset[int]]]:
        """``seat``'s plays, each with the cards it is known to have held then: the card
        and the cards it played since."""
        own = [p for p in self.plays if p.seat == seat]
        return [(p, frozenset(q.card for q in own[i:])) for i, p in enumerate(own)]

    def may_hold(self, seat: int, unseen: Sequence[int]) -> set[int]:
        """The unseen cards that, each added alone, keep every play of ``seat`` legal."""
        hist = self.history(seat)
        return {x for x in unseen
                if all(p.card in legal_then(p, [*held, x], self.rules, self.single_pot) for p,
                       held in hist)}  # fmt: skip

    def consistent(self, hands: Mapping[int, Sequence[int]]) -> bool:
        """Every play of every other seat legal with its sampled cards plus those it played since."""
        for seat, _ in self.others:
            for p, held in self.history(seat):
                if p.card not in legal_then(p, [*hands[seat], *held], self.rules, self.single_pot):
                    return False
        return True


def sample_deals(
    sight: Sight, samples: int, draw: Callable[[int], int]
) -> list[tuple[dict[int, list[int]], int | None]]:
    """Up to ``samples`` consistent deals of the unseen cards: (seat -> hand, the hidden
    indicator or None), drawn as the module docstring says."""
    unseen = sight.unseen()
    allowed = {seat: sight.may_hold(seat, unseen) for seat, _ in sight.others}
    out: list[tuple[dict[int, list[int]], int | None]] = []
    attempts = 0
    while len(out) < samples and attempts < ATTEMPTS_PER_SAMPLE * samples:
        attempts += 1
        order = shuffled(unseen, draw)
        taken: set[int] = set()
        hands: dict[int, list[int]] = {}
        for seat, count in sight.others:
            hand = [c for c in order if c not in taken and c in allowed[seat]][:count]
            if len(hand) < count:
                break
            taken.update(hand)
            hands[seat] = hand
        else:
            indicator = next(c for c in order if c not in taken) if sight.hidden_indicator else None
            if sight.consistent(hands):
                out.append((hands, indicator))
    return out


def shuffled(unseen: Sequence[int], draw: Callable[[int], int]) -> list[int]:
    """One attempt's shuffle (forward Fisher-Yates: for i = 0 .. u-2, swap place i with
    i + draw(u - i)); pimc:N and pimc:N:infer (engine/infer.py) shuffle alike."""
    order = list(unseen)
    for i in range(len(order) - 1):
        j = i + draw(len(order) - i)
        order[i], order[j] = order[j], order[i]
    return order


def tie_break_order(pos: Position, options: Sequence[int]) -> list[int]:
    """P7's order among equal payoffs: the lowest power (trumps as known now), then card number."""
    ts = TrumpState(pos.trump, pos.rules.pam)
    return sorted(options, key=lambda c: (ts.power(c), c))


def best_of(totals: Mapping[int, float], order: Sequence[int]) -> int:
    """The card of highest total, the first in ``order`` among equals."""
    best = order[0]
    for card in order[1:]:
        if totals[card] > totals[best]:
            best = card
    return best


def perfect_card(pos: Position, options: Sequence[int], values: CardValues = card_values) -> int:
    """``perfect``: the card max^n plays with every card open (P7)."""
    if len(options) == 1:
        return options[0]
    mover = pos.seats.index(pos.to_move)
    vals = values(pos)
    return best_of({c: vals[c][mover] for c in options}, tie_break_order(pos, options))


Sampler = Callable[[Sight, int, Callable[[int], int]], list[tuple[dict[int, list[int]], "int | None"]]]


def pimc_card(pos: Position, sight: Sight, options: Sequence[int], samples: int, draw: Callable[[int], int],
              basic: Callable[[], int], values: CardValues = card_values,
              sampler: Sampler = sample_deals) -> int:  # fmt: skip
    """``pimc:N``: the card of highest summed payoff over N consistent samples; ``basic``
    gives the card to play when no sample is consistent. ``sampler`` draws them (P8's
    ``sample_deals``; pimc:N:infer's whole-layout draw, engine/infer.py)."""
    if len(options) == 1:
        return options[0]
    mover = pos.seats.index(pos.to_move)
    totals = dict.fromkeys(options, 0.0)
    drawn = sampler(sight, samples, draw)
    if not drawn:
        return basic()
    for hands, indicator in drawn:
        sample = replace(pos, hands={**pos.hands, **{s: tuple(h) for s, h in hands.items()}},
                         indicator=pos.indicator if indicator is None else indicator)  # fmt: skip
        vals = values(sample)
        for card in options:
            totals[card] += vals[card][mover]
    return best_of(totals, tie_break_order(pos, options))
