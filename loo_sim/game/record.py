"""The deal record (the fields docs/rules.md and the conformance deals require)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from loo_sim.game.cards import card_str

OVERFLOW_LIMIT = 1e100  # a session stops (flagged) once its pot passes this: squares stay finite
EXACT_LIMIT = 2.0**53  # R3: past this, float64 chips are no longer exact


@dataclass
class Trick:
    leader: int
    cards: list[tuple[int, int]]  # (seat, card) in play order
    winner: int

    def to_dict(self) -> dict[str, Any]:
        return {"leader": self.leader, "cards": [[s, card_str(c)] for s, c in self.cards], "winner": self.winner}


@dataclass
class DealTrace:
    """What a replay shows beyond the record: hands, the miss, exchanges, the stock."""

    dealer: int
    carried: float
    hands: list[list[int]]  # as dealt
    miss: list[int]  # the miss as dealt ([] when none)
    exchanges: list[tuple[int, list[int], list[int]]] = field(default_factory=list)  # seat, thrown, drawn
    reveal_trick: int | None = None  # first_renounce: the trick after which trumps were turned
    civil_tricks: list[int] = field(default_factory=list)  # tricks where Pam be civil was invoked
    outcome: str = "play"  # play | lone | nobody | flush
    lone_seat: int | None = None
    paths: Counter[str] = field(default_factory=Counter)  # rule branches taken, e.g. "R8 case 2"
    options: dict[int, list[str]] = field(default_factory=dict)  # declarations on offer to each seat


@dataclass
class DealRecord:
    trump: str | None
    indicator: int | None
    single_pot: bool
    declarations: list[str]
    tricks: list[Trick]
    tricks_won: list[int]
    flush_winner: int | None
    looed: list[int]
    shares: list[float]
    penalties: list[float]
    antes: list[float]
    pot_start: float
    pot_next: float
    trace: DealTrace | None = field(default=None, repr=False, compare=False)

    @property
    def exact(self) -> bool:
        """R3: False when some amount of this deal passed 2**53 (float64 no longer exact)."""
        amounts = [self.pot_start, self.pot_next, *self.shares, *self.penalties, *self.antes]
        return max(abs(a) for a in amounts) <= EXACT_LIMIT

    def net(self) -> list[float]:
        """P4 payoff of each seat: shares - antes - penalties."""
        return [s - a - p for s, a, p in zip(self.shares, self.antes, self.penalties)]

    def to_dict(self) -> dict[str, Any]:
        """Exactly the record keys, JSON-ready (cards as text, chips as floats)."""
        return {
            "trump": self.trump,
            "indicator": None if self.indicator is None else card_str(self.indicator),
            "single_pot": self.single_pot,
            "declarations": list(self.declarations),
            "tricks": [t.to_dict() for t in self.tricks],
            "tricks_won": list(self.tricks_won),
            "flush_winner": self.flush_winner,
            "looed": list(self.looed),
            "shares": [float(x) for x in self.shares],
            "penalties": [float(x) for x in self.penalties],
            "antes": [float(x) for x in self.antes],
            "pot_start": float(self.pot_start),
            "pot_next": float(self.pot_next),
        }
