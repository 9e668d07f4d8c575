"""How simulated players decide (POLICIES.md P1-P3), in readable Python.

A :class:`Policy` is data: three family names (declare / play / exchange). The
functions below are the reference form of each family; the kernel has its own copy
that must agree with them deal for deal. A policy only ever sees what its seat may
see: its own hand, the turn-up once turned, the cards played so far.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from . import layout as L
from .cards import ACE, JACK, QUEEN, rank_of
from .errors import LooError
from .ranking import TrumpState

DECLARE_FAMILIES = ("always", "basic", "cautious", "nothing-takes-miss")
PLAY_FAMILIES = ("basic", "high", "low", "random")
EXCHANGE_FAMILIES = ("basic", "none", "keep-trumps", "flush-chase")

PLAY, PASS, MISS, DEFEND = "play", "pass", "miss", "defend"


@dataclass(frozen=True)
class Policy:
    """One seat's policy: ``DECLARE[/PLAY[/EXCHANGE]]`` (omitted parts are ``basic``)."""

    declare: str = "basic"
    play: str = "basic"
    exchange: str = "basic"

    @classmethod
    def parse(cls, text: str | Policy) -> Policy:
        if isinstance(text, Policy):
            return text
        parts = [p.strip().lower() for p in str(text).strip().split("/")]
        if len(parts) > 3 or not parts[0]:
            raise LooError(f"policy {text!r}: expected DECLARE[/PLAY[/EXCHANGE]], e.g. cautious/high/keep-trumps")
        parts += ["basic"] * (3 - len(parts))
        for part, allowed, what in zip(
            parts, (DECLARE_FAMILIES, PLAY_FAMILIES, EXCHANGE_FAMILIES), ("declaration", "play", "exchange")
        ):
            if part not in allowed:
                raise LooError(f"policy {text!r}: unknown {what} family {part!r}; allowed {', '.join(allowed)}")
        return cls(*parts)

    def __str__(self) -> str:
        return f"{self.declare}/{self.play}/{self.exchange}"

    @property
    def is_deterministic(self) -> bool:
        return self.play != "random"


def parse_table(policy: str | Policy | Sequence[str | Policy] | None, players: int) -> list[Policy]:
    """One policy for the whole table, or one per seat (seat 0 first)."""
    if policy is None:
        policy = "basic"
    if isinstance(policy, (str, Policy)):
        return [Policy.parse(policy)] * players
    table = [Policy.parse(p) for p in policy]
    if len(table) != players:
        raise LooError(f"policy: {len(table)} policies given for {players} players; give one, or one per seat")
    return table


def parse_seat_policies(default: str | None, seat_items: Sequence[str] | None, players: int) -> list[Policy]:
    """CLI form: ``--policy P`` for all, then ``--seat-policy SEAT=P`` overrides."""
    table = parse_table(default or "basic", players)
    for item in seat_items or ():
        if "=" not in item:
            raise LooError(f"--seat-policy {item!r}: expected SEAT=POLICY, e.g. 2=cautious")
        seat_text, text = item.split("=", 1)
        try:
            seat = int(seat_text)
        except ValueError:
            raise LooError(f"--seat-policy {item!r}: seat {seat_text!r} is not a number 0..{players - 1}") from None
        if not 0 <= seat < players:
            raise LooError(f"--seat-policy {item!r}: seat {seat} is not a seat; allowed 0..{players - 1}")
        table[seat] = Policy.parse(text)
    return table


def policies_to_array(table: Sequence[Policy]) -> np.ndarray:
    """A table of policies as the kernel's int matrix [seat, declare/play/exchange]."""
    out = np.zeros((len(table), 3), dtype=np.int64)
    for seat, p in enumerate(table):
        out[seat, L.P_DECLARE] = L.DECLARE_CODES[p.declare]
        out[seat, L.P_PLAY] = L.PLAY_CODES[p.play]
        out[seat, L.P_EXCHANGE] = L.EXCHANGE_CODES[p.exchange]
    return out


# ---- declaring (P2, P3) -------------------------------------------------------------
@dataclass(frozen=True)
class DeclareChoice:
    """What a seat may do at its declaration (R4, R8, R9b)."""

    may_pass: bool
    miss_on_offer: bool
    dealer_case: int = 0  # R8 dealer's defence: 2 (play/defend) or 3 (play/pass), else 0


def _trumps(hand: Sequence[int], ts: TrumpState) -> list[int]:
    return [c for c in hand if ts.is_trump(c)]


def _has_ace(hand: Sequence[int]) -> bool:
    return any(rank_of(c) == ACE for c in hand)


def worth_playing(hand: Sequence[int], ts: TrumpState) -> bool:
    """P2: a trump (Pam counts) or an ace; while trumps are unknown, an ace."""
    return _has_ace(hand) or bool(_trumps(hand, ts))


def cautious_strong(hand: Sequence[int], ts: TrumpState) -> bool:
    """P3 cautious: a trump of queen or higher (Pam counts), or two or more trumps."""
    if ts.trump is None:
        return _has_ace(hand)
    trumps = _trumps(hand, ts)
    return len(trumps) >= 2 or any(ts.is_pam(c) or rank_of(c) >= QUEEN for c in trumps)


def holds_nothing(hand: Sequence[int], ts: TrumpState) -> bool:
    """P3 nothing-takes-miss: no ace, no face card (K, Q, J) and no trump."""
    return not _trumps(hand, ts) and all(rank_of(c) < JACK for c in hand)


def declare(policy: Policy, hand: Sequence[int], ts: TrumpState, choice: DeclareChoice) -> str:
    """The declaration of one seat: play / pass / miss / defend."""
    family = policy.declare
    if family in ("always", "nothing-takes-miss"):
        if choice.dealer_case:
            return PLAY
        if family == "nothing-takes-miss" and choice.miss_on_offer and holds_nothing(hand, ts):
            return MISS
        return PLAY
    strong = worth_playing(hand, ts) if family == "basic" else cautious_strong(hand, ts)
    if strong:
        return PLAY
    if choice.dealer_case == 2:
        return DEFEND
    if family == "basic" and choice.miss_on_offer and not choice.dealer_case:
        return MISS
    return PASS if choice.may_pass else PLAY


# ---- exchanging (P2, P3) ------------------------------------------------------------
def choose_discards(policy: Policy, hand: Sequence[int], ts: TrumpState, stock_size: int) -> list[int]:
    """Cards to throw (R9 exchange); never more than the stock holds."""
    family = policy.exchange
    if family == "none":
        return []
    if family == "keep-trumps" and ts.trump is not None:
        candidates = [c for c in hand if not ts.is_trump(c)]
    elif family == "flush-chase" and _flush_shape(hand, ts) is not None:
        candidates = _flush_shape(hand, ts) or []
    else:  # basic, and the fall-backs of keep-trumps and flush-chase
        candidates = [c for c in hand if not ts.is_trump(c) and rank_of(c) != ACE]
    if len(candidates) > stock_size:  # short stock: the lowest-power candidates first
        candidates = sorted(candidates, key=ts.power)[:stock_size]
    return candidates


def _flush_shape(hand: Sequence[int], ts: TrumpState) -> list[int] | None:
    """P3 flush-chase, counting Pam as wild: [] holding a flush, [odd card] holding four
    of a suit (or three plus Pam), None otherwise."""
    wild = [c for c in hand if ts.is_pam(c)]
    rest = [c for c in hand if not ts.is_pam(c)]
    by_suit: dict[int, list[int]] = {}
    for c in rest:
        by_suit.setdefault(c // 13, []).append(c)
    longest = max((len(v) for v in by_suit.values()), default=0)
    if longest + len(wild) >= 5:
        return []
    if longest + len(wild) == 4 and len(hand) == 5:
        suit = max(by_suit, key=lambda s: len(by_suit[s]))
        return [c for c in rest if c // 13 != suit]
    return None


# ---- card play (P2, P3) -------------------------------------------------------------
def choose_card(
    policy: Policy,
    legal: Sequence[int],
    trick: Sequence[int],
    ts: TrumpState,
    draw: Callable[[int], int] | None = None,
) -> int:
    """The card a seat plays from its legal cards, with ``trick`` the cards played so far.

    ``draw(n)`` gives a uniform int below n from the seat's own random stream
    (family ``random``); the legal cards are then taken in card order.
    """
    family = policy.play
    if family == "random":
        if draw is None:
            raise LooError("policy play family 'random' needs a random stream")
        ordered = sorted(legal)
        return ordered[draw(len(ordered))]
    by_power = sorted(legal, key=ts.power)
    if family == "high" or (family == "basic" and not trick):
        return by_power[-1]
    if family == "low":
        return by_power[0]
    winners = [c for c in by_power if wins_as_things_stand(c, trick, ts)]
    return winners[0] if winners else by_power[0]


def wins_as_things_stand(card: int, trick: Sequence[int], ts: TrumpState) -> bool:
    """P1: played now, would ``card`` be the winning card of the trick so far?"""
    if not trick:
        return True
    cards = list(trick) + [card]
    return ts.winner_index(cards) == len(cards) - 1
