"""Random well-formed ``rule:`` declarations (docs/policies.md P3b) for the tests: as
hypothesis strategies of syntax trees (``rules()``) and from a plain ``random.Random``
(``random_rule``, for the differential spread's rule seats). Every comparison is of one
kind (a rank letter only against a rank, a flag against 0 or 1, ...), ``and`` / ``or``
nest as the parser builds them (never an ``and`` directly inside an ``and``), and the
clauses without ``if`` cover every option set, so each tree is one the parser returns."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from loo_sim.game.rule_code import MAX_TESTS, rule_tests
from loo_sim.game.rule_syntax import (
    ACTIONS,
    CASE,
    CHIPS,
    COMPARISONS,
    COUNT,
    FEATURES,
    FLAG,
    RANK,
    RATIO,
    And,
    Clause,
    Compare,
    Flag,
    Name,
    Not,
    Number,
    Or,
    Rank,
    Rule,
)

BY_KIND = {kind: [f.name for f in FEATURES if f.kind == kind] for kind in (COUNT, RANK, FLAG, CASE, CHIPS, RATIO)}
NUMBERS = {COUNT: range(0, 5), RANK: range(0, 16), FLAG: range(0, 2), CASE: (0, 2, 3), CHIPS: range(0, 40),
           RATIO: range(0, 5)}  # fmt: skip
# endings of a rule: clauses without ``if`` that cover every option set (P3b)
TAILS = (("play",), ("pass", "play"), ("defend", "miss", "pass", "play"), ("defend", "pass", "play"),
         ("miss", "pass", "defend"), ("pass", "miss", "defend", "play"), ("defend", "play"))  # fmt: skip


def _operand(draw, kind: str, feature: bool):
    if feature:
        return Name(draw(BY_KIND[kind]))
    if kind == RANK and draw([True, False]):
        return Rank(draw([10, 11, 12, 13, 14]))
    return Number(draw(list(NUMBERS[kind])))


def _comparison(draw) -> Compare | Flag:
    """A comparison of one kind, or a flag alone; a constant on either side."""
    kind = draw([COUNT, COUNT, RANK, FLAG, CASE, CHIPS, RATIO])
    if kind == FLAG and draw([True, False]):
        return Flag(draw(BY_KIND[FLAG]))
    left = Name(draw(BY_KIND[kind]))
    right = _operand(draw, kind, kind in (COUNT, RANK, CHIPS) and draw([False, False, False, True]))
    if draw([False, False, True]) and not isinstance(right, Name):
        left, right = right, left
    return Compare(left, draw(list(COMPARISONS)), right)


def _condition(draw, depth: int):
    """A condition as the parser builds it: and / or of two or more items, flattened."""
    shape = draw(["leaf", "leaf", "not", "and", "or"] if depth > 0 else ["leaf"])
    if shape == "leaf":
        return _comparison(draw)
    if shape == "not":
        return Not(_condition(draw, depth - 1))
    kind = And if shape == "and" else Or
    items = []
    for _ in range(draw([2, 2, 3])):
        item = _condition(draw, depth - 1)
        items.extend(item.items if isinstance(item, kind) else (item,))
    return kind(tuple(items))


def _rule(draw) -> Rule:
    clauses = [Clause(draw(list(ACTIONS)), _condition(draw, draw([0, 1, 2]))) for _ in range(draw([1, 1, 2, 3]))]
    for action in draw(list(TAILS)):
        clauses.append(Clause(action))
    rule = Rule(tuple(clauses))
    return rule if len(rule_tests(rule)) <= MAX_TESTS else Rule(tuple(c for c in clauses if c.condition is None))


@st.composite
def rules(draw) -> Rule:
    """A hypothesis strategy of rule trees, each one the parser returns for its text."""
    return _rule(lambda options: draw(st.sampled_from(list(options))))


def random_rule(rng: random.Random) -> Rule:
    """A random rule tree from ``rng`` (the differential spread's rule seats)."""
    return _rule(rng.choice)
