"""A rule (docs/policies.md P3b) as the kernel runs it: a table of ints that travels in the
seat's row of the policy matrix (``game/abi.py`` P_RULE onwards; ``run/args.py`` puts it
there), read by one function compiled once (``kernel/rule.py``). A new rule is new data,
never new code: no rule recompiles the kernel.

A rule's conditions are made of a few distinct comparisons (its *tests*: ``trumps >= 1``,
``aces >= 1``; a flag standing alone is the test ``flag != 0``). Whatever the cards, the
truth of every clause follows from the truth of the tests, so the rule is evaluated here,
once, for every combination of them: ``holds[key]``, bit c set when clause c's condition
holds, for the key whose bit j is the truth of test j. At a declaration the kernel
computes the tests (each a feature and a comparison), looks up ``holds[key]``, keeps the
clauses whose action is on offer (``offered[options]``) and takes the first of them; none
left means play was the only option (P3b). No branch of it depends on the cards but the
comparisons' own, and the cost is the tests', not the clauses'.

The row, from P_RULE::

    [n_tests, n_clauses, cheap, offered[0..15],
     action[0..n_clauses-1],
     test[0..n_tests-1] as (feature, comparison, 2 * kind + 1 if the other side is a
                            feature, the whole number or the other feature),
     holds[0..2**n_tests - 1]]

``offered[m]``: the clauses whose action is on offer to a seat whose options are the
mask m (bits 1 << DECL_*); a comparison is the outcomes it accepts (CMP_MASKS); a test's
kind says how the kernel reads its features (KIND_*: a count of a mask against a number,
cheap whole numbers, or features computed one by one), ``cheap`` whether any test reads
the cheap whole numbers.

The reference engine does not use this form: it walks the tree (``engine/rule.py``).
"""

from __future__ import annotations

from loo_sim.base.errors import LooError
from loo_sim.game.decl import DECL_NAMES
from loo_sim.game.rule_syntax import (
    FEATURES,
    And,
    Compare,
    Condition,
    Flag,
    Name,
    Not,
    Rule,
)

# a comparison as the outcomes it accepts, bit 0: less, bit 1: equal, bit 2: greater (the
# kernel shifts it by the outcome: no branch on the comparison)
# the kernel's numbers of the features, by how it computes them: the cards of a mask (a
# popcount), other whole numbers cheap to compute (computed together when a rule reads any),
# then those it computes one by one when read (the costly longest_suit and flush; pot,
# penalty and pot_ratio, in chips)
COUNTED = ("trumps", "aces", "faces")
CHEAP = COUNTED + ("trumps_known", "top_trump", "highest_trump", "best_plain", "position", "players", "later",
                   "earlier_in", "miss_taken", "miss_on_offer", "can_pass", "dealer_case", "clean")  # fmt: skip
KERNEL_ORDER = CHEAP + ("longest_suit", "flush", "pot", "penalty", "pot_ratio")
FEATURE_CODES = {name: code for code, name in enumerate(KERNEL_ORDER)}
assert set(KERNEL_ORDER) == {f.name for f in FEATURES} and len(KERNEL_ORDER) == len(FEATURES)
KIND_COUNTED, KIND_CHEAP, KIND_READ = 0, 1, 2  # how the kernel reads a test (times 2, plus 1 against a feature)
CMP_MASKS = {"<": 0b001, "==": 0b010, "<=": 0b011, ">": 0b100, "!=": 0b101, ">=": 0b110}
OPTION_MASKS = 16  # a seat's options as a mask of bits 1 << DECL_* (game/abi.py O_OPTIONS)
RC_TESTS, RC_CLAUSES, RC_CHEAP = 0, 1, 2  # slots of the row from P_RULE; RC_CHEAP: 1 if a test reads CHEAP
RC_OFFER = 3  # one per option mask
RC_ACTIONS = RC_OFFER + OPTION_MASKS  # the clauses' actions, then the tests, then the table
TEST_WIDTH = 4
MAX_TESTS = 12  # 2**12 table entries (32 KB) per rule seat
MAX_CLAUSES = 62  # bits of an int64 key, the sign bit spared
_MIRROR = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}  # 1 < trumps is trumps > 1

Test = tuple[str, str, str | int]  # (feature, comparison, the other feature's name or a whole number)


def test_of(c: Compare | Flag) -> Test:
    """A comparison or flag as a test: the feature on the left (a constant on the left is
    mirrored: ``1 < trumps`` is ``trumps > 1``); a flag alone is ``flag != 0``."""
    if isinstance(c, Flag):
        return (c.name, "!=", 0)
    left, op, right = c.left, c.op, c.right
    if not isinstance(left, Name):
        left, op, right = right, _MIRROR[op], left
    assert isinstance(left, Name)
    return (left.name, op, right.name if isinstance(right, Name) else right.value)


def rule_tests(rule: Rule) -> list[Test]:
    """The distinct tests of a rule, in the order they are first read."""
    found: dict[Test, None] = {}

    def walk(c: Condition) -> None:
        if isinstance(c, (Compare, Flag)):
            found.setdefault(test_of(c))
        elif isinstance(c, Not):
            walk(c.item)
        else:
            for item in c.items:
                walk(item)

    for clause in rule.clauses:
        if clause.condition is not None:
            walk(clause.condition)
    return list(found)


def _holds(c: Condition, truth: dict[Test, bool]) -> bool:
    if isinstance(c, (Compare, Flag)):
        return truth[test_of(c)]
    if isinstance(c, Not):
        return not _holds(c.item, truth)
    if isinstance(c, And):
        return all(_holds(x, truth) for x in c.items)
    return any(_holds(x, truth) for x in c.items)


def _kind(test: Test) -> int:
    """How the kernel reads a test: KIND_COUNTED (a count of a mask against a number),
    KIND_CHEAP (cheap whole numbers on both sides), else KIND_READ."""
    feature, _, other = test
    if feature in COUNTED and not isinstance(other, str):
        return KIND_COUNTED
    if feature in CHEAP and (not isinstance(other, str) or other in CHEAP):
        return KIND_CHEAP
    return KIND_READ


def rule_program(rule: Rule) -> list[int]:
    """The row of ``rule`` (module docstring), to be stored from column P_RULE of its seat's
    policy row; a LooError when the rule is too large for it."""
    tests = rule_tests(rule)
    clauses = rule.clauses
    if len(tests) > MAX_TESTS or len(clauses) > MAX_CLAUSES:
        raise LooError(f"rule {str(rule)[:60]!r}...: {len(tests)} different comparisons in {len(clauses)} clauses; "
                       f"the kernel takes up to {MAX_TESTS} comparisons and {MAX_CLAUSES} clauses (a comparison "
                       "written twice counts once)")  # fmt: skip
    codes = [DECL_NAMES.index(clause.action) for clause in clauses]
    offered = [sum(1 << c for c, a in enumerate(codes) if (mask >> a) & 1) for mask in range(OPTION_MASKS)]
    kinds = [_kind(test) for test in tests]
    cheap = any(kind != KIND_COUNTED and (feature in CHEAP or other in CHEAP)
                for (feature, _, other), kind in zip(tests, kinds))  # fmt: skip
    row = [len(tests), len(clauses), int(cheap), *offered, *codes]
    for (feature, op, other), kind in zip(tests, kinds):
        is_feature = isinstance(other, str)
        row += [FEATURE_CODES[feature], CMP_MASKS[op], 2 * kind + is_feature,
                FEATURE_CODES[other] if is_feature else other]  # fmt: skip
    for key in range(1 << len(tests)):
        truth = {test: bool((key >> j) & 1) for j, test in enumerate(tests)}
        row.append(sum(1 << c for c, clause in enumerate(clauses)
                       if clause.condition is None or _holds(clause.condition, truth)))  # fmt: skip
    return row
