"""game/paths.py: one set of rule-path names, for the reference engine's ``mark()`` and
the differential test's required list."""

import pytest

from loo_sim import Rules
from loo_sim.engine.deal import _Deal
from loo_sim.game.decl import DECL_NAMES
from loo_sim.game.paths import RulePath, calibrated_path, dealer_case_path, flush_aware_path
from loo_sim.game.policy import CALIBRATED, Policy


def test_each_name_starts_with_its_section():
    for path in RulePath:
        assert path.name.split("_")[0] == path.value.split()[0].upper(), path


def test_mark_counts_a_rule_path_and_rejects_any_other_name():
    rules = Rules.preset("three-card")
    deal = _Deal(rules, list(range(52)), 0, 0.0, [Policy.parse("basic")] * rules.players, [None] * rules.players)
    deal.mark(RulePath.R4_NOBODY)
    deal.mark("R4 nobody")
    assert deal.trace.paths == {"R4 nobody": 2}
    with pytest.raises(ValueError):
        deal.mark("R4 nobdy")


def test_parameterised_paths_are_members():
    flush_aware = {flush_aware_path(c) for c in ("flush", "four of a suit")}
    assert {calibrated_path(f, a) for f in CALIBRATED for a in DECL_NAMES} | flush_aware == {
        p for p in RulePath if p.startswith(("P3 ", "P6 "))
    }
    with pytest.raises(ValueError):
        flush_aware_path("straight")
    assert dealer_case_path(2, "defend") is RulePath.R8_CASE_2_DEFEND
    assert dealer_case_path(3, "pass") is RulePath.R8_CASE_3_PASS
    with pytest.raises(ValueError):
        dealer_case_path(2, "pass")  # R8 case 2: the dealer may not pass
