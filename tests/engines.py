"""The two-engine check, reusable for every rule option: the kernel and the reference
engine must give the same record, field for field, for every deal (docs/design.md property
1), and the reference engine's spread must reach the rule paths (``RulePath``) the
deals were made for. A new rule option gets both checks with one call::

    rules = Rules.preset("five-card", new_option=True)
    assert_engines_agree(rules, deals_for(rules, seed=1, count=500), required=[RulePath.R9C_NEW_OPTION])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from loo_sim import play_deals
from loo_sim.game.paths import RulePath
from loo_sim.game.record import DealRecord
from loo_sim.game.rules import Rules


def play(deal: dict, engine: str, rules: Rules | None = None) -> DealRecord:
    """One deal (a dict as ``tests.dealgen`` makes them) through one engine; ``rules``
    stands in for the deal's own."""
    rules = deal["rules"] if rules is None else rules
    return play_deals(rules, [deal["deck"]], [deal["dealer"]], [deal["carried"]], deal["policy"], engine=engine,
                      seed=deal["seed"], strength=deal["strength"], chart=deal["chart"],
                      tables=deal.get("tables"))[0]  # fmt: skip


def reference_paths(deals: Iterable[dict], rules: Rules | None = None) -> Counter:
    """The rule paths the reference engine takes over ``deals``, with their counts."""
    seen: Counter = Counter()
    for d in deals:
        seen.update(play(d, "reference", rules).trace.paths)
    return seen


def assert_paths_reached(seen: Counter, required: Iterable[RulePath], where: str = "the spread") -> None:
    missing = [str(p) for p in required if seen[p] == 0]
    assert not missing, f"{where} never reached: {missing}"


def assert_engines_agree(rules: Rules | None, deals: Iterable[dict], *, required: Iterable[RulePath] = (),
                         label: str = "") -> Counter:  # fmt: skip
    """Play every deal through both engines and assert the records agree; then assert the
    reference engine took each ``required`` rule path at least once. ``rules`` (None: each
    deal's own) is the rule set played. Returns the rule paths taken, with their counts."""
    seen: Counter = Counter()
    for i, d in enumerate(deals):
        ref = play(d, "reference", rules)
        seen.update(ref.trace.paths)
        ker = play(d, "kernel", rules)
        assert ker.to_dict() == ref.to_dict(), f"{label} deal {i}: {d['overrides']} {d['policy']} dealer {d['dealer']}"
    assert_paths_reached(seen, required, label or "the deals")
    return seen
