"""The 1,500 conformance deals (shared/conformance, from an independent
implementation of docs/rules.md and docs/policies.md) replayed through the engines."""

import math

import pytest

from loo_sim import Rules, play_deal
from tests.data import load_conformance

DEALS = load_conformance()


def assert_record_matches(got: dict, expected: dict, where: str) -> None:
    assert set(got) == set(expected), where
    for key, want in expected.items():
        have = got[key]
        if isinstance(want, float) or (isinstance(want, list) and want and isinstance(want[0], float)):
            wants = want if isinstance(want, list) else [want]
            haves = have if isinstance(have, list) else [have]
            assert len(haves) == len(wants), f"{where}: {key}"
            for a, b in zip(haves, wants):
                assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12), f"{where}: {key} {have} != {want}"
        else:
            assert have == want, f"{where}: {key} {have} != {want}"


def test_conformance_file_is_whole():
    assert len(DEALS) == 1500
    assert {d["preset"] for d in DEALS} >= {"three-card", "five-card", "irish", "irish-classic", "classic-limited"}


@pytest.mark.parametrize("engine", ["reference"])
def test_conformance_deals_agree(engine):
    for i, d in enumerate(DEALS):
        rules = Rules.preset(d["preset"], **d["overrides"])
        rec = play_deal(rules, d["deck"], d["dealer"], d["carried"], d["policy"])
        assert_record_matches(rec.to_dict(), d["expected"], f"line {i + 1} ({d['preset']} {d['overrides']})")
