"""How simulated players decide (docs/policies.md P1-P3), in readable Python: the reference
form of each family. The kernel has its own copy that must agree with it deal for deal.
A policy only ever sees what its seat may see: its own hand, the turn-up once turned,
the cards played so far.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from loo_sim.base.errors import LooError
from loo_sim.engine.rule import rule_declaration, rule_features
from loo_sim.game.cards import ACE, JACK, QUEEN, rank_of, suit_of
from loo_sim.game.decl import DECL_NAMES, DEFEND, MISS, PASS, PLAY
from loo_sim.game.infosets import seat_infoset
from loo_sim.game.legality import is_flush, pam_flush
from loo_sim.game.policy import CALIBRATED, Policy
from loo_sim.game.ranking import TrumpState
from loo_sim.game.rule import parsed
from loo_sim.game.rules import Rules


# ---- declaring (P2, P3) -------------------------------------------------------------
@dataclass(frozen=True)
class DeclareChoice:
    """What a seat may do at its declaration (R4, R8, R9b)."""

    may_pass: bool
    miss_on_offer: bool
    # R8 dealer's defence: 2 (play/defend) or 3 (play/pass), else 0; 1 (the dealer takes
    # the pot without play) never reaches a policy
    dealer_case: int = 0
    # R9c dealer_takes_miss: in case 2 the dealer may also take the miss (``miss_on_offer``
    # stays False there, so every P3 family keeps its play/defend rule)
    dealer_miss: bool = False

    @property
    def allowed(self) -> list[str]:
        """The declarations on offer, in name order."""
        offer = (
            {PLAY}
            | ({PASS} if self.may_pass else set())
            | ({MISS} if self.miss_on_offer or self.dealer_miss else set())
        )
        return sorted(offer | ({DEFEND} if self.dealer_case == 2 else set()))


def _trumps(hand: Sequence[int], ts: TrumpState) -> list[int]:
    return [c for c in hand if ts.is_trump(c)]


def _has_ace(hand: Sequence[int]) -> bool:
    return any(rank_of(c) == ACE for c in hand)


def worth_playing(hand: Sequence[int], ts: TrumpState) -> bool:
    """P2: a trump (Pam counts) or an ace; while trumps are unknown, an ace."""
    return _has_ace(hand) or bool(_trumps(hand, ts))


def four_of_a_suit(hand: Sequence[int], ts: TrumpState, rules: Rules) -> bool:
    """P3 flush-aware: at least four cards of one suit, Pam (in play) counting towards any
    suit under the rules' ``pam_flush`` reading; without it Pam is the club it is."""
    wild = pam_flush(rules) and any(ts.is_pam(c) for c in hand)
    suits = Counter(suit_of(c) for c in hand if not (wild and ts.is_pam(c)))
    return max(suits.values(), default=0) + wild >= 4


def flush_clause(hand: Sequence[int], ts: TrumpState, rules: Rules) -> str | None:
    """P3 flush-aware: which of its two clauses holds for the hand, judged at the
    declaration: ``"flush"`` (a flush by the show's own test, R9 ``is_flush``),
    ``"four of a suit"`` (where ``exchange`` is on), or None. Both need ``flush``."""
    if not rules.flush:
        return None
    if is_flush(hand, ts, rules):
        return "flush"
    if rules.exchange and four_of_a_suit(hand, ts, rules):
        return "four of a suit"
    return None


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
    strength: object = None  # run.strength.StrengthTable
    chart: object = None  # [class, position, miss on offer, earlier seats in (bin)] best declaration, -1 unknown
    table: object = None  # table family: [information set, action] probabilities (P6), NaN rows unknown
    uniform: Callable[[], float] | None = None  # table family: the seat's one uniform draw (a mixed row)
    miss_taken: bool = False  # rule family (P3b): an earlier seat took the miss
    clean: bool = False  # rule family: no chips were carried into the deal


def seats_expected(ctx: DeclareContext, p_in: float) -> int:
    """Seats expected in the deal: those in, this one, and the later ones at the entry rate."""
    return min(ctx.players, max(2, ctx.already_in + 1 + int(ctx.later * p_in + 0.5)))


def expected_chips(probs, pot: float, hand_size: int, penalty: float) -> float:
    """EV of playing a hand whose trick counts follow ``probs``: shares won minus the loo."""
    tricks = 0.0
    for k in range(1, hand_size + 1):
        tricks += k * probs[k]
    return pot * tricks / hand_size - probs[0] * penalty


def table_declaration(row, uniform: Callable[[], float] | None) -> str | None:
    """P6: a strategy table's row [p_pass, p_play, p_miss, p_defend] decides: a pure row
    (one action of probability 1) without a draw; a mixed row draws one uniform u from
    the seat's stream and takes the first action whose running sum of probabilities, in
    code order, exceeds u. None where the table does not know the information set."""
    if row is None or math.isnan(row[0]):
        return None
    for code, p in enumerate(row):
        if p == 1.0:
            return DECL_NAMES[code]
    if uniform is None:
        raise LooError("a mixed strategy table needs the seat's random stream")
    u = uniform()
    total, last = 0.0, None
    for code, p in enumerate(row):
        if p > 0.0:
            last = DECL_NAMES[code]
            total += float(p)
            if u < total:
                return last
    return last


def declare_calibrated(policy: Policy, hand: Sequence[int], ts: TrumpState, choice: DeclareChoice,
                       ctx: DeclareContext) -> str | None:  # fmt: skip
    """threshold, ev, chart and table (P3, P6); None where chart's best action is not on
    offer or the table does not know the information set."""
    from loo_sim.game.classes import MISS_ROW, earlier_in_bin, hand_class

    cls = hand_class(hand, ts)
    if policy.declare == "table":
        mask = sum(1 << DECL_NAMES.index(name) for name in choice.allowed)
        key = seat_infoset(cls, ctx.position, ctx.already_in, mask, ctx.pot, ctx.penalty)
        row = None if key < 0 or ctx.table is None else ctx.table[key]  # type: ignore[index]
        return table_declaration(row, ctx.uniform)
    if policy.declare == "chart":  # the cell of what this seat sees (P4): the miss on offer, to take or defend with
        offer = int(choice.miss_on_offer or choice.dealer_case == 2)
        best = int(ctx.chart[cls, ctx.position, offer, earlier_in_bin(ctx.already_in)])  # type: ignore[index]
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
            ctx: DeclareContext | None = None, rules: Rules | None = None) -> str:  # fmt: skip
    """The declaration of one seat: play / pass / miss / defend. ``rules`` feeds
    flush-aware (its flush clauses read ``flush``, ``exchange`` and ``pam_flush``) and the
    rule family's ``flush`` feature."""
    family = policy.declare
    if family == "rule":
        if ctx is None or rules is None:
            raise LooError(f"policy {policy}: the rule family needs what the seat sees (its context and the rules)")
        features = rule_features(hand, ts, rules, choice.allowed, dealer_case=choice.dealer_case,
                                 position=ctx.position, players=ctx.players, earlier_in=ctx.already_in,
                                 miss_taken=ctx.miss_taken, clean=ctx.clean, pot=ctx.pot,
                                 penalty=ctx.penalty)  # fmt: skip
        return rule_declaration(parsed(policy.rule), features, choice.allowed)
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
    if family == "flush-aware":
        if rules is None:
            raise LooError(f"policy {policy}: the flush-aware family needs the rules")
        # as basic, with the flush clauses counted as worth playing (never in R8 case 2)
        strong = worth_playing(hand, ts) or (choice.dealer_case != 2 and flush_clause(hand, ts, rules) is not None)
        family = "basic"
    else:
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
