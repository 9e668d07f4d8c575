"""The backbone: the kernel and the reference engine agree on every field of every
deal (docs/design.md property 1), over every preset with a spread of overrides, per-seat
policy mixes (random play included: both engines read the same seat streams; rule seats,
P3b, with the P3 families' rule forms and random rules),
dealers, carried pots, and decks arranged so that rare paths occur. Strength tables,
charts and strategy tables (P6: pure, mixed and unknown rows) are synthetic (random but
valid): the calibrated families must agree whatever their tables say. The test also
counts the rule branches the reference engine took, so a spread that stops reaching a
special path of R4-R9 (or P3, P6) fails loudly."""

from collections import Counter

import pytest

from loo_sim import Rules, play_deals
from loo_sim.game.paths import RulePath
from loo_sim.game.rules import PRESETS
from tests.data import load_conformance
from tests.dealgen import random_deals, with_rule_seats, with_table_seats
from tests.engines import assert_engines_agree, assert_paths_reached, reference_paths

DEALS_PER_PRESET = 2000
TABLE_DEALS_PER_PRESET = 600
RULE_DEALS_PER_PRESET = 600
PATHS_SEEN: Counter = Counter()
REQUIRED_PATHS = list(RulePath)  # every special path of R4-R9b and P3


@pytest.mark.parametrize("preset", list(PRESETS))
def test_kernel_agrees_with_reference(preset):
    PATHS_SEEN.update(assert_engines_agree(None, random_deals(2026, preset, DEALS_PER_PRESET), label=preset))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_kernel_agrees_with_reference_at_strategy_table_seats_p6(preset):
    # table seats decide from pure, mixed (a draw from the seat's own stream) and unknown rows
    deals = with_table_seats(random_deals(2027, preset, TABLE_DEALS_PER_PRESET), seed=2027)
    PATHS_SEEN.update(assert_engines_agree(None, deals, label=f"{preset} with table seats"))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_kernel_agrees_with_reference_at_rule_seats_p3b(preset):
    # rule seats: the P3 families' rule forms and random rules (every feature, every kind of
    # condition) beside the spread's own policies
    deals = with_rule_seats(random_deals(2028, preset, RULE_DEALS_PER_PRESET), seed=2028)
    PATHS_SEEN.update(assert_engines_agree(None, deals, label=f"{preset} with rule seats"))


def test_kernel_agrees_on_conformance_deals():
    for i, d in enumerate(load_conformance()):
        rules = Rules.preset(d["preset"], **d["overrides"])
        rec = play_deals(rules, [d["deck"]], [d["dealer"]], [d["carried"]], d["policy"], engine="kernel")[0]
        assert rec.to_dict() == d["expected"], f"conformance line {i + 1}"


def test_every_special_path_was_reached():
    if len(PATHS_SEEN) == 0:  # run alone: play the spread now
        for preset in PRESETS:
            PATHS_SEEN.update(reference_paths(random_deals(2026, preset, DEALS_PER_PRESET)))
            deals = with_table_seats(random_deals(2027, preset, TABLE_DEALS_PER_PRESET), seed=2027)
            PATHS_SEEN.update(reference_paths(deals))
    assert_paths_reached(PATHS_SEEN, REQUIRED_PATHS, "the differential spread")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_kernel_batches_agree_deal_after_deal(preset):
    # One call of the kernel plays many deals through the same scratch record, as
    # simulate does: a slot that one deal leaves stale must not leak into the next.
    deals = random_deals(77, preset, 600)
    rules, policy = deals[0]["rules"], deals[0]["policy"]
    decks = [d["deck"] for d in deals]
    dealers = [d["dealer"] % rules.players for d in deals]
    carried = [d["carried"] for d in deals]
    extra = dict(seed=5, strength=deals[0]["strength"], chart=deals[0]["chart"], tables=deals[0]["tables"])
    ker = play_deals(rules, decks, dealers, carried, policy, engine="kernel", **extra)
    ref = play_deals(rules, decks, dealers, carried, policy, engine="reference", **extra)
    for i, (k, r) in enumerate(zip(ker, ref)):
        assert k.to_dict() == r.to_dict(), f"{preset} batch deal {i}"
