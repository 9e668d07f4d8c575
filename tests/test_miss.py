"""Take-the-miss analysis: counterfactual replays (P4), calibrated tables (P3), hand
classes (P5), heuristic comparison, stopping rule."""

import math

import numpy as np
import pytest

from loo_sim import Rules
from loo_sim.analysis.miss import chart_table, heuristic_table
from loo_sim.analysis.simulate import class_table
from loo_sim.config import BLOCK, ROUND_BLOCKS
from loo_sim.engine.deal import play_deal_reference
from loo_sim.game.cards import suit_of
from loo_sim.game.classes import MISS_ROW, N_COLS, ROW_TOP, hand_class
from loo_sim.game.policy import Policy, parse_table
from loo_sim.game.ranking import TrumpState
from loo_sim.kernel import abi as L
from loo_sim.rng import HEURISTIC_SESSION, MISS_SESSION, seat_draws, shuffled_deck
from loo_sim.run.decisions import decisions, heuristics
from loo_sim.run.simulate import simulate
from loo_sim.run.strength import cache_dir, calibrate_counts, load, strength_for

ACTIONS = L.DECL_NAMES


def _draws(seed, k, table, session):
    return [seat_draws(seed, k, s, session) if p.play == "random" else None for s, p in enumerate(table)]


def test_p4_both_arms_see_the_same_deck_and_other_seats_cards():
    # Each deal is replayed once per declaration on offer to the focal seat. Recomputed
    # here with the reference engine: every arm deals the same hands to every seat and the
    # same miss, the seats before the focal seat declare the same, and the kernel's
    # aggregates are exactly the sums of these paired payoffs, in the cell of what the
    # seat saw (class, position, the miss on offer to take or defend with, earlier seats in).
    rules = Rules.preset("three-card")
    table = parse_table(["basic", "cautious/high", "basic/random", "always", "nothing-takes-miss"], 5)
    seed, focal, deals = 3, 2, 400
    res = decisions(rules, table, deals, seed, focal=[focal])
    n = np.zeros((*L.CHART_SHAPE, 4))
    total = np.zeros_like(n)
    pair_n = np.zeros((*L.CHART_SHAPE, len(L.PAIRS)))
    pair_sum = np.zeros_like(pair_n)
    replays = 0
    for k in range(deals):
        deck, dealer = shuffled_deck(seed, k, MISS_SESSION), k % 5
        base = play_deal_reference(rules, deck, dealer, 0.0, table, _draws(seed, k, table, MISS_SESSION))
        options = base.trace.options[focal]
        if len(options) < 2:
            continue
        order = [(dealer + 1 + i) % 5 for i in range(5)]
        earlier = order[: order.index(focal)]
        cls = hand_class(base.trace.hands[focal], TrumpState(suit_of(base.indicator), rules.pam))
        position = order.index(focal) + 1
        offer = int("miss" in options or "defend" in options)
        already_in = sum(base.declarations[s] != "pass" for s in earlier)
        cell = (cls, position, offer, min(already_in, 3))
        pay = {}
        for action in options:
            rec = play_deal_reference(rules, deck, dealer, 0.0, table, _draws(seed, k, table, MISS_SESSION),
                                      forced=(focal, action))  # fmt: skip
            replays += 1
            assert rec.trace.hands == base.trace.hands and rec.trace.miss == base.trace.miss
            assert rec.indicator == base.indicator
            assert [rec.declarations[s] for s in earlier] == [base.declarations[s] for s in earlier]
            assert rec.declarations[focal] == action
            a = ACTIONS.index(action)
            pay[a] = rec.net()[focal]
            n[cell][a] += 1
            total[cell][a] += pay[a]
        for p, (a, b) in enumerate(L.PAIRS):
            if a in pay and b in pay:
                pair_n[cell][p] += 1
                pair_sum[cell][p] += pay[a] - pay[b]
    assert replays > 2 * deals * 0.5  # most deals offered a real choice
    assert n[:, :, 1].sum() > 0 and n[:, :, 0].sum() > 0  # both with and without the miss on offer
    assert n[..., 1:, :].sum() > 0  # earlier seats in
    assert np.array_equal(res.totals[..., L.CF_N : L.CF_N + 4], n)
    assert np.allclose(res.totals[..., L.CF_SUM : L.CF_SUM + 4], total, rtol=1e-12, atol=1e-9)
    assert np.array_equal(res.totals[..., L.CF_PAIR_N : L.CF_PAIR_N + len(L.PAIRS)], pair_n)
    assert np.allclose(res.totals[..., L.CF_PAIR_SUM : L.CF_PAIR_SUM + len(L.PAIRS)], pair_sum, atol=1e-9)


def test_heuristic_runs_match_the_reference_engine():
    rules = Rules.preset("classic-limited", players=6)
    table = parse_table("basic", 6)
    names = ["basic", "cautious", "nothing-takes-miss/low"]
    res = heuristics(rules, table, 1, [Policy.parse(x) for x in names], names, 300, seed=5, carried=6.0)
    for h, name in enumerate(names):
        seat_table = list(table)
        seat_table[1] = Policy.parse(name)
        nets = [
            play_deal_reference(rules, shuffled_deck(5, k, HEURISTIC_SESSION), k % 6, 6.0, seat_table).net()[1]
            for k in range(300)
        ]
        assert math.isclose(res.totals[h, L.H_SUM], sum(nets), rel_tol=1e-12, abs_tol=1e-9)


def test_no_miss_action_anywhere_without_a_miss():
    rules = Rules.preset("three-card", miss=False)
    table = parse_table("basic", 5)
    chart = chart_table(decisions(rules, table, 20_000, seed=1))
    assert len(chart) > 0 and "miss" not in set(chart.action)
    names = ["basic", "nothing-takes-miss", "threshold:play=0.5,miss=0.4", "ev"]
    heur = heuristic_table(heuristics(rules, table, 0, [Policy.parse(x) for x in names], names, 20_000, seed=1))
    assert (heur.miss_rate == 0).all()


@pytest.mark.parametrize("preset", ["three-card", "five-card", "classic-limited"])
def test_p5_a_hand_with_the_top_trump_is_never_looed_in_the_tables(preset):
    # The top trump (the ace, or Pam in five-card) wins the trick it is played to, and
    # every card is played: such a hand cannot lose every trick.
    table = strength_for(Rules.preset(preset))
    top = list(range(ROW_TOP * N_COLS, (ROW_TOP + 1) * N_COLS))
    assert table.counts[top].sum() > 10_000
    assert (table.probs[top, 2:, 0] == 0).all()


def test_calibrated_p0_under_always_matches_the_simulated_loo_rate_by_class():
    # Calibration plays m-seat tables where everyone plays; with m = players this is the
    # table `simulate --policy always` plays, so P(0 tricks | class) must match the loo
    # rate simulate reports for hands of that class (independent seeds), within sampling error.
    rules = Rules.preset("three-card")
    table = strength_for(rules)
    res = simulate(rules, "always", 300_000, seed=77, by_class=True)
    df = class_table(res)
    checked = 0
    for r in df.itertuples(index=False):
        if r.hand_class == MISS_ROW or r.hands < 5000:
            continue
        p_cal = table.probs[r.hand_class, 5, 0]
        n_cal = table.counts[r.hand_class, 5].sum()
        se = math.sqrt(p_cal * (1 - p_cal) / n_cal + r.loo_rate * (1 - r.loo_rate) / r.hands)
        assert abs(r.loo_rate - p_cal) < 4.5 * se + 1e-12, (r.label, r.loo_rate, p_cal)
        checked += 1
    assert checked >= 20


def test_paired_standard_errors_are_smaller_than_unpaired():
    rules = Rules.preset("three-card")
    names = ["basic", "always", "cautious", "nothing-takes-miss", "ev"]
    heur = heuristic_table(heuristics(rules, parse_table("basic", 5), 0, [Policy.parse(x) for x in names], names,
                                      60_000, seed=4))  # fmt: skip
    others = heur[heur.heuristic != "basic"]
    assert (others.diff_se_paired < others.diff_se_unpaired).all()


def test_precision_stopping_rule_is_reproducible():
    rules = Rules.preset("three-card")
    table = parse_table("basic", 5)
    names = ["basic", "cautious"]
    cands = [Policy.parse(x) for x in names]
    loose = heuristics(rules, table, 0, cands, names, 10 * ROUND_BLOCKS * BLOCK, seed=2, precision=5.0)
    assert loose.deals == ROUND_BLOCKS * BLOCK  # met after the first whole round
    tight = heuristics(rules, table, 0, cands, names, 3 * ROUND_BLOCKS * BLOCK, seed=2, precision=1e-6)
    assert tight.deals == 3 * ROUND_BLOCKS * BLOCK  # never met: runs to --deals
    mid1 = heuristics(rules, table, 0, cands, names, 20 * ROUND_BLOCKS * BLOCK, seed=2, precision=0.04)
    mid2 = heuristics(rules, table, 0, cands, names, 20 * ROUND_BLOCKS * BLOCK, seed=2, precision=0.04)
    assert mid1.deals == mid2.deals and np.array_equal(mid1.totals, mid2.totals)
    half = 1.96 * heuristic_table(mid1).diff_se_paired.iloc[1]
    assert half < 0.04 and mid1.deals < 20 * ROUND_BLOCKS * BLOCK


def test_strength_tables_are_cached_by_rules(tmp_path, monkeypatch):
    monkeypatch.setenv("LOO_SIM_CACHE", str(tmp_path))
    rules = Rules.preset("three-card", lead="classic", players=4)  # not shipped
    assert load(rules) is None
    first = strength_for(rules, deals=4096)
    path = cache_dir() / f"{first.key}.npz"
    assert path.exists()
    again = load(rules)
    assert again is not None and np.array_equal(again.counts, first.counts) and again.p_in == first.p_in
    other = Rules.preset("three-card", lead="classic", players=4, penalty="limited")
    assert load(other) is None  # another rule set, another key
    assert np.array_equal(calibrate_counts(rules, 4096), first.counts)  # deterministic


def test_strength_for_says_where_its_table_came_from(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LOO_SIM_CACHE", str(tmp_path))
    assert strength_for(Rules.preset("three-card")).source == "shipped"
    rules = Rules.preset("three-card", lead="ace", players=4)  # not shipped
    said = []
    first = strength_for(rules, deals=4096, notify=said.append)
    assert first.source == "calibrated" and said[0].startswith("calibrating") and said[-1].startswith("calibrated in")
    assert strength_for(rules, notify=said.append).source == "cache" and len(said) == 2  # nothing to say
    assert strength_for(rules, force=True, deals=4096).source == "calibrated"
    assert capsys.readouterr().out == ""  # the library prints nothing itself


def test_calibration_counts_do_not_depend_on_the_table_size():
    # The m-seat runs are the same whatever rules.players is (the shipped tables reuse them).
    small = calibrate_counts(Rules.preset("three-card", players=3), 4096)
    large = calibrate_counts(Rules.preset("three-card", players=8), 4096)
    assert np.array_equal(small, large)


def test_miss_cli_writes_every_output_and_the_summary_numbers_come_from_the_csvs(tmp_path, capsys):
    import json

    import pandas as pd

    from loo_sim.cli import main

    out = tmp_path / "miss"
    rc = main(["miss", "--preset", "limited", "--players", "5", "--players", "4", "--carried", "0", "--carried", "12",
               "--deals", "8192", "--seed", "3", "--out", str(out)])  # fmt: skip
    assert rc == 0
    names = {"chart.csv", "chart.png", "heuristics.csv", "heuristics.png", "sweep.csv", "sweep.png",
             "sweep_classes.csv", "summary.md", "run.json"}  # fmt: skip
    assert names <= {p.name for p in out.iterdir()}
    for png in ("chart.png", "heuristics.png", "sweep.png"):
        assert (out / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    chart = pd.read_csv(out / "chart.csv")
    assert set(chart.action) <= {"pass", "play", "miss", "defend"} and chart.best.any()
    heur = pd.read_csv(out / "heuristics.csv")
    summary = (out / "summary.md").read_text()
    for r in heur.itertuples(index=False):
        if r.heuristic != "basic":
            assert f"{r.diff_vs_baseline:+.2f} chips per deal, 95% CI [{r.diff_ci_low:+.2f}" in summary
    sweep = pd.read_csv(out / "sweep.csv")
    assert set(sweep.players) == {4, 5} and set(sweep.carried) == {0, 12}
    assert "The hand-class grid" in summary and "top trump" in summary
    run = json.loads((out / "run.json").read_text())
    assert run["seed"] == 3 and run["command"].startswith("loo-sim miss")


@pytest.mark.parametrize(
    "args, fragment",
    [(["--deals", "0"], "deals"), (["--players", "9"], "players"), (["--carried", "-1"], "carried"),
     (["--precision", "0"], "precision"), (["--focal", "7"], "focal"), (["--policy", "threshold"], "threshold")],
)  # fmt: skip
def test_miss_cli_bad_input_is_one_line(args, fragment, tmp_path, capsys):
    from loo_sim.cli import main

    out = tmp_path / "o"
    rc = main(["miss", *args, "--out", str(out)])
    err = capsys.readouterr().err
    assert rc != 0 and err.startswith("error:") and err.count("\n") == 1 and fragment in err
    assert not out.exists() or not any(out.iterdir())
