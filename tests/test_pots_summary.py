"""The pots study's summary.md (issue 11): one table of arms x metrics with intervals printed
at a precision they support, and sentences that claim only what the paired intervals say."""

import re

import numpy as np
import pytest

from loo_sim import Rules
from loo_sim.analysis.pots import (
    arm_stats,
    balance_histogram,
    balances,
    max_pot_ccdf,
    paired,
    pot_by_deal,
)
from loo_sim.analysis.pots_text import pots_summary
from loo_sim.analysis.text import interval_text
from loo_sim.game.policy import parse_table
from loo_sim.report.kinds.pots import parse_compare
from loo_sim.run.sessions import make_arms, run_pots

INTERVAL = re.compile(r"\[([^\[\] ]+), ([^\[\] ]+)\]")


def _tables(res):
    return {"pot_by_deal": pot_by_deal(res), "max_pot": max_pot_ccdf(res), "balances": balances(res),
            "balance_histogram": balance_histogram(res), "arms": arm_stats(res), "paired": paired(res)}  # fmt: skip


@pytest.fixture(scope="module")
def grid_run():
    base = Rules.preset("three-card", bankroll=150)
    arms = make_arms(base, lambda n: parse_table("basic", n),
                     parse_compare(["penalty=limited,unlimited", "policy=basic,cautious"]))  # fmt: skip
    res = run_pots(arms, 640, 30, seed=2)
    tables = _tables(res)
    return res, tables, pots_summary(res, tables, "three-card", "loo-sim pots ...")


def test_interval_ends_never_print_alike():
    # the old summary printed a paired ruin difference as "+1 (95% CI [+1, +1])"
    assert interval_text(1.0, 0.99962, 1.0, signed=True) == "+1.00000 [+0.99962, +1.00000]"
    rng = np.random.default_rng(0)
    for _ in range(2000):
        value = float(rng.choice([1, -1]) * 10 ** rng.uniform(-6, 6))
        half = abs(value) * 10 ** rng.uniform(-6.5, 1)  # narrower than 1e-7 of the value: printed as exact
        for pct in (False, True):
            text = interval_text(value, value - half, value + half, pct=pct, signed=True)
            ((lo, hi),) = INTERVAL.findall(text)
            assert lo != hi, text


def test_interval_text_precision_follows_the_interval():
    assert interval_text(2.13214, 2.12811, 2.13617) == "2.132 [2.128, 2.136]"
    assert interval_text(0.0015, 0.0007, 0.0033, pct=True) == "0.15% [0.07%, 0.33%]"
    assert interval_text(1.0, 0.999, 1.0, pct=True) == "100% [99.90%, 100%]"
    assert interval_text(50.0, 50.0, 50.0) == "50"  # known exactly: no interval
    assert interval_text(-43.27, -43.34, -43.21, signed=True) == "-43.27 [-43.34, -43.21]"
    assert interval_text(-0.01, -1.5, 1.5) == "0.0 [-1.5, 1.5]"  # no "-0.0"
    assert interval_text(2.5e45, 1.1e45, 3.9e45) == "2.5e+45 [1.1e+45, 3.9e+45]"


def test_summary_is_one_table_of_arms_by_metrics(grid_run):
    res, tables, text = grid_run
    names = [a.name for a in res.arms]
    table = [line for line in text.split("## The arms")[1].split("##")[0].splitlines() if line.startswith("|")]
    assert table[0] == "| | " + " | ".join(names) + " |"
    assert all(line.count("|") == len(names) + 2 for line in table)
    labels = [line.split("|")[1].strip() for line in table[2:]]
    for label in ("looed players per deal", "ruin within 30 deals", "deals per session", "pot growth per deal (chips)"):
        assert label in labels
    # each cell is the CSV's number with its interval
    stats = tables["arms"].set_index(["arm", "metric"])
    row = next(line for line in table if line.startswith("| looed players per deal |")).split("|")[2:-1]
    for name, cell in zip(names, row):
        r = stats.loc[(name, "looed_per_deal")]
        assert cell.strip() == interval_text(r.value, r.ci_low, r.ci_high)
    # and no interval anywhere prints both ends alike
    for lo, hi in INTERVAL.findall(text):
        assert lo != hi
    # rendered as a table in the batch report's HTML
    from loo_sim.report.html import _MARKDOWN

    assert _MARKDOWN.render(text).count("<table>") == 2  # the arms, the final balances


def _pair_line(text: str, option: str, x: str, y: str, same: str) -> str:
    head = f"- **{option}={x}** against **{option}={y}** ({same}):"
    (line,) = [line for line in text.splitlines() if line.startswith(head)]
    return line


def test_sentences_name_only_significant_paired_differences(grid_run):
    res, tables, text = grid_run
    pair = tables["paired"]
    # every arm pair that differs in one option has its sentence, not only pairs with the first arm
    line = _pair_line(text, "penalty", "unlimited", "limited", "policy=cautious")
    name = {a.name: a for a in res.arms}
    x, y = "penalty=unlimited, policy=cautious", "penalty=limited, policy=cautious"
    assert x in name and y in name
    rows = pair[(pair.arm == x) & (pair.baseline == y)].set_index("metric")
    claims = line.split(": ", 1)[1].split(". ")[0]
    quiet = line.split("No significant difference in ")[1].split(". ")[0] if "No significant" in line else ""
    for metric, label in (("ruin", "ruin"), ("deals_per_session", "deals per session")):
        r = rows.loc[metric]
        significant = r.ci_low > 0 or r.ci_high < 0
        assert (re.search(rf"{label} [+-]\d", claims) is not None) == significant, (metric, line)
        assert (label in quiet) == (not significant), (metric, line)
    assert len([ln for ln in text.splitlines() if ln.startswith("- **")]) == 4  # 2 x 2 grid: four one-option pairs


def test_looed_difference_between_penalties_is_said_to_come_from_the_deals_one_arm_played(grid_run):
    res, tables, text = grid_run
    line = _pair_line(text, "penalty", "unlimited", "limited", "policy=basic")
    r = tables["paired"].set_index(["arm", "baseline", "metric"]).loc[
        ("penalty=unlimited, policy=basic", "penalty=limited, policy=basic", "looed_per_shared_deal")]  # fmt: skip
    assert r["diff"] == 0 and r.shared_deals_looed_differ == 0 and r.baseline_only_deals > 0
    assert f"Every one of the {int(r.shared_deals):,} deals both played had the same number of looed players" in line
    assert f"the {int(r.baseline_only_deals):,} deals only limited played" in line
    assert "fewer looed players" not in line and "more looed players" not in line
    # where the policies differ, the looed difference on shared deals is stated with its interval
    line = _pair_line(text, "policy", "cautious", "basic", "penalty=limited")
    r = tables["paired"].set_index(["arm", "baseline", "metric"]).loc[
        ("penalty=limited, policy=cautious", "penalty=limited, policy=basic", "looed_per_shared_deal")]  # fmt: skip
    assert r.ci_high < 0 and "fewer looed players per deal than basic" in line


def test_an_interval_narrower_than_float_rounding_prints_as_the_value():
    # every session's largest pot was 27: the SE is the rounding of a sum of squares
    assert interval_text(27.000000001, 26.99999988, 27.00000012) == "27"
