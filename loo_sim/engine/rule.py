"""The ``rule:`` family in the reference engine (docs/policies.md P3b): the features of what
a seat sees when it declares, in readable Python over its cards, and the rule's tree
walked clause by clause. The kernel has its own twin (``kernel/rule.py``: the features
from bit masks, the rule as a compiled program); both must give the same deals.
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Callable, Sequence

from loo_sim.game.cards import ACE, JACK, KING, PAM, make_card, rank_of
from loo_sim.game.decl import MISS, PASS, PLAY
from loo_sim.game.legality import is_flush
from loo_sim.game.ranking import TrumpState
from loo_sim.game.rule_syntax import And, Compare, Condition, Flag, Name, Not, Number, Operand, Rank, Rule
from loo_sim.game.rules import Rules

Features = dict[str, float]

COMPARE: dict[str, Callable[[float, float], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}  # fmt: skip


def card_rank(card: int, ts: TrumpState) -> int:
    """A card's rank as rules write it: 2..14 (ace 14), Pam 15."""
    return 15 if ts.is_pam(card) else rank_of(card) + 2


def hand_features(hand: Sequence[int], ts: TrumpState, rules: Rules) -> Features:
    """The features of the cards alone (P3b), with what is known of trumps."""
    known = ts.trump is not None
    trumps = [c for c in hand if ts.is_trump(c)]  # none while trumps are unknown
    plain = [c for c in hand if not ts.is_trump(c)]
    top = (PAM if ts.pam else make_card(ACE, ts.trump)) if known else None  # P5's top trump
    by_suit = Counter(ts.suit(c) for c in hand)  # Pam counts in the trump suit
    return {
        "trumps": len(trumps),
        "top_trump": int(top is not None and top in hand),
        "highest_trump": max((card_rank(c, ts) for c in trumps), default=0),
        "aces": sum(1 for c in hand if rank_of(c) == ACE),
        "faces": sum(1 for c in hand if JACK <= rank_of(c) <= KING),
        "best_plain": max((card_rank(c, ts) for c in plain), default=0),
        "longest_suit": max(by_suit.values(), default=0),
        "flush": int(is_flush(hand, ts, rules)),
        "trumps_known": int(known),
    }


def pot_ratio(pot: float, penalty: float) -> float:
    """pot / penalty: 1 when both are 0, above every number when only the penalty is."""
    if penalty == 0:
        return 1.0 if pot == 0 else float("inf")
    return pot / penalty


def rule_features(hand: Sequence[int], ts: TrumpState, rules: Rules, allowed: Sequence[str], *, dealer_case: int,
                  position: int, players: int, earlier_in: int, miss_taken: bool, clean: bool, pot: float,
                  penalty: float) -> Features:  # fmt: skip
    """Every feature of P3b for one seat at its declaration: its hand as dealt, the trump
    state, its options (``allowed``, R8's ``dealer_case``) and what it knows of the table
    (engine/declare.py fills these from the deal)."""
    return hand_features(hand, ts, rules) | {
        "position": position,
        "players": players,
        "later": players - position,
        "earlier_in": earlier_in,
        "miss_taken": int(miss_taken),
        "miss_on_offer": int(MISS in allowed),
        "can_pass": int(PASS in allowed),
        "dealer_case": dealer_case,
        "clean": int(clean),
        "pot": pot,
        "penalty": penalty,
        "pot_ratio": pot_ratio(pot, penalty),
    }


def _value(x: Operand, features: Features) -> float:
    if isinstance(x, Name):
        return features[x.name]
    assert isinstance(x, (Number, Rank))
    return x.value


def holds(c: Condition, features: Features) -> bool:
    """Whether the condition holds for these features."""
    if isinstance(c, Compare):
        return COMPARE[c.op](_value(c.left, features), _value(c.right, features))
    if isinstance(c, Flag):
        return features[c.name] != 0
    if isinstance(c, Not):
        return not holds(c.item, features)
    if isinstance(c, And):
        return all(holds(x, features) for x in c.items)
    return any(holds(x, features) for x in c.items)


def rule_declaration(rule: Rule, features: Features, allowed: Sequence[str]) -> str:
    """The first clause whose action is on offer and whose condition holds; a seat whose
    only option is play plays (the parser's coverage check leaves no other case)."""
    for clause in rule.clauses:
        if clause.action in allowed and (clause.condition is None or holds(clause.condition, features)):
            return clause.action
    return PLAY
