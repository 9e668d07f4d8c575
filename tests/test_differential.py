"""The backbone: the kernel and the reference engine agree on every field of every
deal (DESIGN.md property 1), over every preset with a spread of overrides, per-seat
policy mixes (random play included: both engines read the same seat streams),
dealers, carried pots, and decks arranged so that rare paths occur. Strength tables
and charts are synthetic (random but valid): the calibrated families must agree
whatever their tables say. The test also counts the rule branches the reference
engine took, so a spread that stops reaching a special path of R4-R9 fails loudly."""

from collections import Counter

import pytest

from loo_sim import play_deals
from loo_sim.game.rules import PRESETS

from .conftest import load_conformance
from .dealgen import random_deals

DEALS_PER_PRESET = 2000
PATHS_SEEN: Counter = Counter()

REQUIRED_PATHS = [
    "R4 lone player", "R4 nobody", "R4 may not pass", "R4 bold stand everyone", "R4 bold stand last_and_dealer",
    "R5 miss played", "R6 first_lead", "R6 first_renounce: trumps revealed", "R6 first_renounce: never revealed",
    "R7 ace: ace led first", "R7 ace: Pam led first", "R7 trump: a trump led", "R7 trump: ace led first",
    "R7 trump: king led first (ace turned up)", "R7 classic: ace led first",
    "R7 classic: king led first (ace turned up)", "R7 classic: highest of two or more trumps",
    "R7 head the trick", "R7 trick trumped: any card of the suit", "R7 must_trump: overtrump",
    "R7 must_trump: undertrump", "R7 trump_to_win: winning trump", "R7 trump_to_win: no winning trump, any card",
    "R8 case 1", "R8 case 2 defend", "R8 case 2 play", "R8 case 3 pass", "R8 case 3 play",
    "R9 Pam be civil: Pam held back", "R9 Pam be civil: Pam the last card", "R9 exchange takes the last of the stock",
    "R9 stock empty", "R9 plain flush", "R9 trump flush", "R9 Pam-flush", "R9 two flushes", "R9 flush tie to elder",
    "R9b club law", "P3 threshold play", "P3 threshold pass", "P3 threshold miss", "P3 ev play", "P3 ev pass",
    "P3 ev miss", "P3 chart play", "P3 chart pass", "P3 chart miss",
]  # fmt: skip


def _play(d, engine):
    return play_deals(d["rules"], [d["deck"]], [d["dealer"]], [d["carried"]], d["policy"], engine=engine,
                      seed=d["seed"], strength=d["strength"], chart=d["chart"])[0]  # fmt: skip


@pytest.mark.parametrize("preset", list(PRESETS))
def test_kernel_agrees_with_reference(preset):
    for i, d in enumerate(random_deals(2026, preset, DEALS_PER_PRESET)):
        ref = _play(d, "reference")
        PATHS_SEEN.update(ref.trace.paths)
        ker = _play(d, "kernel")
        assert ker.to_dict() == ref.to_dict(), f"{preset} deal {i}: {d['overrides']} {d['policy']} dealer {d['dealer']}"


def test_kernel_agrees_on_conformance_deals():
    for i, d in enumerate(load_conformance()):
        from loo_sim import Rules

        rules = Rules.preset(d["preset"], **d["overrides"])
        rec = play_deals(rules, [d["deck"]], [d["dealer"]], [d["carried"]], d["policy"], engine="kernel")[0]
        assert rec.to_dict() == d["expected"], f"conformance line {i + 1}"


def test_every_special_path_was_reached():
    if len(PATHS_SEEN) == 0:  # run alone: play the spread now
        for preset in PRESETS:
            for d in random_deals(2026, preset, DEALS_PER_PRESET):
                PATHS_SEEN.update(_play(d, "reference").trace.paths)
    missing = [p for p in REQUIRED_PATHS if PATHS_SEEN[p] == 0]
    assert not missing, f"the differential spread never reached: {missing}"


@pytest.mark.parametrize("preset", list(PRESETS))
def test_kernel_batches_agree_deal_after_deal(preset):
    # One call of the kernel plays many deals through the same scratch record, as
    # simulate does: a slot that one deal leaves stale must not leak into the next.
    deals = random_deals(77, preset, 600)
    rules, policy = deals[0]["rules"], deals[0]["policy"]
    decks = [d["deck"] for d in deals]
    dealers = [d["dealer"] % rules.players for d in deals]
    carried = [d["carried"] for d in deals]
    extra = dict(seed=5, strength=deals[0]["strength"], chart=deals[0]["chart"])
    ker = play_deals(rules, decks, dealers, carried, policy, engine="kernel", **extra)
    ref = play_deals(rules, decks, dealers, carried, policy, engine="reference", **extra)
    for i, (k, r) in enumerate(zip(ker, ref)):
        assert k.to_dict() == r.to_dict(), f"{preset} batch deal {i}"
