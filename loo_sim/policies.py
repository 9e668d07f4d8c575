"""How simulated players decide (POLICIES.md P1-P3), in readable Python.

A :class:`Policy` is data: three family names (declare / play / exchange). The
functions below are the reference form of each family; the kernel has its own copy
that must agree with them deal for deal. A policy only ever sees what its seat may
see: its own hand, the turn-up once turned, the cards played so far.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .cards import ACE, JACK, QUEEN, rank_of
from .errors import LooError
from .ranking import TrumpState

DECLARE_FAMILIES = ("always", "basic", "cautious", "nothing-takes-miss", "threshold", "ev")
CALIBRATED = ("threshold", "ev", "chart")  # families that read strength tables or a chart
PLAY_FAMILIES = ("basic", "high", "low", "random")
EXCHANGE_FAMILIES = ("basic", "none", "keep-trumps", "flush-chase")

PLAY, PASS, MISS, DEFEND = "play", "pass", "miss", "defend"


@dataclass(frozen=True)
class Policy:
    """One seat's policy: ``DECLARE[/PLAY[/EXCHANGE]]`` (omitted parts are ``basic``)."""

    declare: str = "basic"
    play: str = "basic"
    exchange: str = "basic"
    play_at: float = 0.0  # threshold: play when P(at least one trick) >= play_at
    miss_below: float = 0.0  # threshold: take the miss when P(at least one trick) < miss_below

    @classmethod
    def parse(cls, text: str | Policy) -> Policy:
        if isinstance(text, Policy):
            return text
        parts = [p.strip().lower() for p in str(text).strip().split("/")]
        if len(parts) > 3 or not parts[0]:
            raise LooError(f"policy {text!r}: expected DECLARE[/PLAY[/EXCHANGE]], e.g. cautious/high/keep-trumps")
        parts += ["basic"] * (3 - len(parts))
        declare_part, _, params = parts[0].partition(":")
        parts[0] = declare_part
        for part, allowed, what in zip(
            parts, (DECLARE_FAMILIES, PLAY_FAMILIES, EXCHANGE_FAMILIES), ("declaration", "play", "exchange")
        ):
            if part not in allowed:
                raise LooError(f"policy {text!r}: unknown {what} family {part!r}; allowed {', '.join(allowed)}")
        if declare_part == "threshold":
            play_at, miss_below = _threshold_params(text, params)
            return cls(parts[0], parts[1], parts[2], play_at, miss_below)
        if params:
            raise LooError(f"policy {text!r}: only threshold takes parameters (threshold:play=P,miss=M)")
        return cls(*parts)

    def __str__(self) -> str:
        declare = self.declare
        if declare == "threshold":
            declare = f"threshold:play={self.play_at:g},miss={self.miss_below:g}"
        return f"{declare}/{self.play}/{self.exchange}"

    @property
    def is_deterministic(self) -> bool:
        return self.play != "random"


def _threshold_params(text: object, params: str) -> tuple[float, float]:
    values: dict[str, float] = {}
    for item in filter(None, (p.strip() for p in params.split(","))):
        key, _, value = item.partition("=")
        if key not in ("play", "miss") or not value:
            raise LooError(f"policy {text!r}: threshold takes play=P,miss=M (probabilities 0..1)")
        try:
            number = float(value)
        except ValueError:
            raise LooError(f"policy {text!r}: {key}={value!r} is not a number; allowed 0..1") from None
        if not 0.0 <= number <= 1.0:
            raise LooError(f"policy {text!r}: {key}={value} is not allowed; allowed 0..1")
        values[key] = number
    if set(values) != {"play", "miss"}:
        raise LooError(f"policy {text!r}: threshold needs both play=P and miss=M, e.g. threshold:play=0.6,miss=0.3")
    return values["play"], values["miss"]


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


@dataclass(frozen=True)
class DeclareContext:
    """What a seat knows at its declaration beyond its hand, for the calibrated families."""

    position: int  # 1 = the dealer's left ... players = the dealer
    already_in: int  # earlier seats that came in
    later: int  # seats declaring after this one
    players: int
    pot: float  # pot_start
    hand_size: int
    penalty: float  # what a loo costs here: the pot (unlimited) or penalty_amount
    strength: object = None  # strength.StrengthTable
    chart: object = None  # [class, position] best declaration code, -1 unknown


def seats_expected(ctx: DeclareContext, p_in: float) -> int:
    """Seats expected in the deal: those in, this one, and the later ones at the entry rate."""
    return min(ctx.players, max(2, ctx.already_in + 1 + int(ctx.later * p_in + 0.5)))


def expected_chips(probs, pot: float, hand_size: int, penalty: float) -> float:
    """EV of playing a hand whose trick counts follow ``probs``: shares won minus the loo."""
    tricks = 0.0
    for k in range(1, hand_size + 1):
        tricks += k * probs[k]
    return pot * tricks / hand_size - probs[0] * penalty


def declare_calibrated(policy: Policy, hand: Sequence[int], ts: TrumpState, choice: DeclareChoice,
                       ctx: DeclareContext) -> str | None:  # fmt: skip
    """threshold, ev and chart (P3); None where chart's best action is not on offer."""
    from .classes import MISS_ROW, hand_class
    from .layout import DECL_NAMES

    cls = hand_class(hand, ts)
    if policy.declare == "chart":
        best = int(ctx.chart[cls, ctx.position])  # type: ignore[index]
        name = DECL_NAMES[best] if best >= 0 else None
        if name == PLAY or (name == MISS and choice.miss_on_offer) or (name == DEFEND and choice.dealer_case == 2):
            return name
        if name == PASS and choice.may_pass and choice.dealer_case != 2:
            return PASS
        return None
    table = ctx.strength
    m = seats_expected(ctx, table.p_in)  # type: ignore[union-attr]
    probs = table.probs  # type: ignore[union-attr]
    if policy.declare == "threshold":
        q = 1.0 - probs[cls, m, 0]
        if q >= policy.play_at:
            return PLAY
        if choice.dealer_case == 2:
            return DEFEND
        if choice.miss_on_offer and q < policy.miss_below:
            return MISS
        return PASS if choice.may_pass else PLAY
    # ev: the best of play, pass (0), miss and defend (0); ties go to the first in that order
    best_name, value = PLAY, expected_chips(probs[cls, m], ctx.pot, ctx.hand_size, ctx.penalty)
    if choice.may_pass and choice.dealer_case != 2 and value < 0.0:
        best_name, value = PASS, 0.0
    if choice.miss_on_offer:
        miss_value = expected_chips(probs[MISS_ROW, m], ctx.pot, ctx.hand_size, ctx.penalty)
        if miss_value > value:
            best_name, value = MISS, miss_value
    if choice.dealer_case == 2 and value < 0.0:
        best_name = DEFEND
    return best_name


def declare(policy: Policy, hand: Sequence[int], ts: TrumpState, choice: DeclareChoice,
            ctx: DeclareContext | None = None) -> str:  # fmt: skip
    """The declaration of one seat: play / pass / miss / defend."""
    family = policy.declare
    if family in CALIBRATED:
        if ctx is None:
            raise LooError(f"policy {policy}: the {family} family needs its strength tables or chart")
        action = declare_calibrated(policy, hand, ts, choice, ctx)
        if action is not None:
            return action
        family = "basic"
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
