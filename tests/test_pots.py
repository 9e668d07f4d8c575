"""Sessions and pot dynamics (docs/rules.md R10, R3): kernel sessions agree with the
reference engine's, and the aggregates obey identities with independent reasons."""

import math

import numpy as np
import pytest

from loo_sim import Rules
from loo_sim.analysis.pots import arm_stats, balances, max_pot_ccdf, paired, pot_by_deal
from loo_sim.game import abi as L
from loo_sim.game.policy import parse_table
from loo_sim.report.kinds.pots import parse_compare
from loo_sim.run.api import play_session
from loo_sim.run.sessions import Arm, make_arms, run_pots

from .sessions_kernel import record_sessions

CASES = [
    ("three-card", {}, "basic", 12),
    ("limited", {"bankroll": 20}, ["basic", "cautious", "always/random", "nothing-takes-miss", "ev"], 40),
    ("classic-limited", {"players": 6, "final_pot": "discard"}, "basic", 25),
    (
        "five-card",
        {"bankroll": 60},
        ["basic", "always", "cautious/high/flush-chase", "threshold:play=0.5,miss=0.3", "basic/low"],
        20,
    ),  # fmt: skip
    ("three-card", {}, "always", 230),  # unlimited and everyone in: overflow stop
    ("irish", {"players": 4, "bankroll": 30}, "basic/random", 30),
]


@pytest.mark.parametrize("preset, overrides, policy, deals", CASES)
def test_r10_kernel_sessions_agree_with_the_reference_deal_by_deal(preset, overrides, policy, deals):
    rules = Rules.preset(preset, **overrides)
    arm = Arm("x", rules, parse_table(policy, rules.players))
    sessions = range(0, 200, 4)  # 50 sessions a case, 300 in all
    kernel = record_sessions(arm, 11, sessions, deals)
    for i, ker in zip(sessions, kernel):
        ref = play_session(rules, arm.policies, deals, seed=11, session=i)
        assert len(ker["records"]) == len(ref.deals), (preset, i)
        for j, (k, r) in enumerate(zip(ker["records"], ref.deals)):
            assert k.to_dict() == r.to_dict(), (preset, i, j)
        assert np.allclose(ker["balances"], ref.balances, rtol=1e-12, atol=1e-9)
        assert (ker["ruined"], ker["inexact_from"], ker["overflow_at"]) == (ref.ruined, ref.inexact_from,
                                                                             ref.overflow_at)  # fmt: skip
        assert math.isclose(ker["final_pot"], ref.final_pot, rel_tol=1e-12, abs_tol=1e-9)


def test_overflow_and_ruin_paths_are_reached():
    rules = Rules.preset("three-card")
    big = record_sessions(Arm("x", rules, parse_table("always", 5)), 11, [0], 230)[0]
    assert big["overflow_at"] is not None and big["inexact_from"] is not None
    poor = record_sessions(Arm("x", rules.replace(bankroll=20, penalty="limited"), parse_table("basic", 5)), 11,
                           range(10), 40)  # fmt: skip
    assert any(s["ruined"] is not None for s in poor)


@pytest.mark.parametrize("preset, overrides", [("limited", {}), ("classic-limited", {"final_pot": "discard"}),
                                               ("five-card", {"bankroll": 40})])  # fmt: skip
def test_r3_chips_conserved_over_whole_sessions(preset, overrides):
    rules = Rules.preset(preset, **overrides)
    res = run_pots([Arm("x", rules, parse_table("basic", rules.players))], 500, 40, seed=2)
    balances = sum(res.scal[0, L.S_BAL + s] for s in range(rules.players))
    left = res.scal[0, L.S_FINAL_POT] if overrides.get("final_pot") == "discard" else 0.0
    scale = sum(abs(res.scal[0, L.S_BAL_SQ + s]) ** 0.5 for s in range(rules.players))
    assert abs(balances + left) <= 1e-9 * max(scale, 1.0)


def test_limited_pot_growth_is_antes_plus_penalties_minus_shares():
    # An accounting identity from the same run's aggregates: each deal's pot grows by the
    # antes and the loo payments and shrinks by the shares paid out.
    rules = Rules.preset("limited")
    res = run_pots([Arm("x", rules, parse_table(["basic", "cautious", "always", "basic", "ev"], 5))], 400, 50, seed=3)
    stats = arm_stats(res).set_index("metric")["value"]
    growth = stats["pot_growth_per_deal"]
    predicted = stats["antes_per_deal"] + rules.penalty_amount * stats["looed_per_deal"] - stats["shares_paid_per_deal"]
    assert math.isclose(growth, predicted, rel_tol=1e-9, abs_tol=1e-9)


def test_unlimited_always_pot_grows_geometrically_as_the_looed_counts_say():
    # Everyone plays three tricks at five: at least two seats are looed every deal, and
    # each pays the whole pot, so pot_next = looed * pot_start and log10(pot) grows by
    # log10(looed) per deal (plus the antes, worth at most log10(1 + 2**-j) at deal j).
    rules = Rules.preset("three-card")
    deals = 40
    res = run_pots([Arm("x", rules, parse_table("always", 5))], 600, deals, seed=4)
    hist = res.scal[0, L.S_LOOED_HIST : L.S_LOOED_HIST + L.MAX_PLAYERS + 1]
    assert hist[0] == 0 and hist[1] == 0 and hist.sum() == 600 * deals
    mean_log_looed = (hist[2:] * np.log10(np.arange(2, L.MAX_PLAYERS + 1))).sum() / hist.sum()
    stats = arm_stats(res).set_index("metric")
    largest = stats.loc["log10_largest_pot"]
    predicted = math.log10(15) + (deals - 1) * mean_log_looed
    ante_effect = sum(math.log10(1 + 2.0**-j) for j in range(1, deals))
    assert predicted - 4 * largest.se <= largest.value <= predicted + ante_effect + 4 * largest.se
    medians = pot_by_deal(res).q50.to_numpy()
    # the pot at least doubles each deal; a binned median is within 7.5% of the true one
    assert (medians[1:] >= 2 * medians[:-1] / 1.075**2).all()


def test_r3_the_2_53_flag_fires_and_aggregates_stay_finite():
    rules = Rules.preset("three-card")
    res = run_pots([Arm("x", rules, parse_table("always", 5))], 128, 400, seed=5)
    stats = arm_stats(res).set_index("metric")["value"]
    assert stats["inexact_past_2_53_probability"] == 1.0 and stats["overflow_stop_probability"] == 1.0
    first = np.nonzero(res.deal_stats[0, :, L.DS_INEXACT_FIRST])[0]
    assert 20 <= first[0] <= 40  # 15 * 3**j passes 2**53 near deal 30
    for arr in (res.scal, res.deal_stats, res.pot_hist, res.pot_sum, res.max_sum, res.bal_sum):
        assert np.isfinite(arr).all()


def test_same_seed_same_aggregates_with_one_or_two_threads():
    import numba

    arms = make_arms(Rules.preset("three-card"), lambda n: parse_table("basic", n),
                     parse_compare(["penalty=limited,unlimited", "policy=basic,cautious"]))  # fmt: skip
    numba.set_num_threads(1)
    one = run_pots(arms, 300, 30, seed=6)
    numba.set_num_threads(2)
    two = run_pots(arms, 300, 30, seed=6)
    assert np.array_equal(one.scal, two.scal) and np.array_equal(one.pot_hist, two.pot_hist)
    assert len(arms) == 4 and arms[0].name == "penalty=limited, policy=basic"


def test_arms_share_decks_so_the_comparison_is_paired():
    # Deal j of session i is shuffled from (seed, i, j) in every arm: with the same
    # players, the same hands are dealt whatever the penalty.
    a = play_session(Rules.preset("limited"), "basic", 5, seed=9, session=4)
    b = play_session(Rules.preset("unlimited"), "cautious", 5, seed=9, session=4)
    assert [d.trace.hands for d in a.deals] == [d.trace.hands for d in b.deals]


def test_compare_values_keep_threshold_commas():
    parsed = parse_compare(["policy=basic,threshold:play=0.6,miss=0.3,ev", "penalty=limited,unlimited"])
    assert parsed == [("policy", ["basic", "threshold:play=0.6,miss=0.3", "ev"]), ("penalty", ["limited", "unlimited"])]


def test_pots_cli_writes_every_output_and_warns_past_2_53(tmp_path, capsys):
    import json

    import pandas as pd

    from loo_sim.cli import main

    out = tmp_path / "pots"
    rc = main(["pots", "--preset", "three-card", "--policy", "always", "--compare", "penalty=limited,unlimited",
               "--sessions", "100", "--session-deals", "40", "--seed", "2", "--out", str(out)])  # fmt: skip
    captured = capsys.readouterr()
    assert rc == 0
    assert "warning: penalty=unlimited" in captured.err and "2**53" in captured.err and "deal" in captured.err
    names = {"pot_by_deal.csv", "max_pot.csv", "balances.csv", "balance_histogram.csv", "arms.csv", "paired.csv",
             "fan.png", "max_pot.png", "balances.png", "summary.md", "run.json"}  # fmt: skip
    assert names <= {p.name for p in out.iterdir()}
    arms = pd.read_csv(out / "arms.csv")
    assert set(arms.arm) == {"penalty=limited", "penalty=unlimited"}
    summary = (out / "summary.md").read_text()
    looed = arms[(arms.arm == "penalty=limited") & (arms.metric == "looed_per_deal")].iloc[0]
    row = next(line for line in summary.splitlines() if line.startswith("| looed players per deal |"))
    assert f"{looed.value:.3f} [" in row or f"{looed.value:.4f} [" in row
    run = json.loads((out / "run.json").read_text())
    assert run["command"].startswith("loo-sim pots") and len(run["arms"]) == 2


@pytest.mark.parametrize(
    "args, fragment",
    [(["--compare", "penalty"], "--compare"), (["--compare", "colour=red,blue"], "colour"),
     (["--compare", "penalty=limited,unlimted"], "penalty"), (["--sessions", "0"], "sessions"),
     (["--session-deals", "-2"], "session-deals"), (["--bankroll", "-5"], "bankroll"), (["--seed", "x"], "seed")],
)  # fmt: skip
def test_pots_cli_bad_input_is_one_line(args, fragment, tmp_path, capsys):
    from loo_sim.cli import main

    out = tmp_path / "o"
    rc = main(["pots", *args, "--out", str(out)])
    err = capsys.readouterr().err
    assert rc != 0 and err.startswith("error:") and err.count("\n") == 1 and fragment in err
    assert not out.exists() or not any(out.iterdir())


def test_pot_by_deal_carries_the_inexact_flag_column():
    res = run_pots([Arm("x", Rules.preset("three-card"), parse_table("always", 5))], 64, 60, seed=8)
    fan = pot_by_deal(res)
    flags = fan.inexact_sessions.to_numpy()
    assert flags[0] == 0 and flags[-1] == 64 and (np.diff(flags) >= 0).all()
    # the flag rises exactly when the pots pass 2**53 (pots are the largest amounts here)
    passed = fan[fan.q95 > 2.0**53].deal.min()
    assert fan[fan.deal == passed - 1].inexact_sessions.iloc[0] < 64


# ---- exact counts where pots are discrete (issue 11) ---------------------------------------------
def _reference_sessions(rules, policy, sessions, deals, seed):
    return [play_session(rules, policy, deals, seed=seed, session=i) for i in range(sessions)]


def test_r3_limited_pot_quantiles_are_pots_that_occur_with_the_looed_count_distribution():
    # Limited penalty at five (R3): deal 0 has a clean pot of 5 antes of 3, is always
    # contested (bold stand, R4), and each looed player pays 3, so the pot at the start of
    # deal 1 is 15 + 3 * (players looed in deal 0). Its distribution is counted here from
    # the reference engine's sessions on the same decks, and the kernel's streamed counts
    # must match it exactly: every printed quantile a value of the form 15 + 3k (log bins
    # averaged 24 and 27 into 24.4, a pot no game can have).
    rules = Rules.preset("limited")
    sessions, seed = 300, 21
    ref = _reference_sessions(rules, "basic", sessions, 3, seed)
    looed0 = np.array([len(s.deals[0].looed) for s in ref])
    expected = 15 + 3 * looed0
    assert [s.deals[1].pot_start for s in ref] == list(expected)  # the formula, from the records
    assert len(set(expected)) >= 3
    res = run_pots([Arm("limited", rules, parse_table("basic", 5))], sessions, 3, seed)
    counts = res.pot_exact[0, 1]
    assert np.array_equal(np.flatnonzero(counts), np.unique(expected))
    assert np.array_equal(counts[np.unique(expected)], np.unique(expected, return_counts=True)[1])
    assert res.pot_hist[0, 1].sum() == 0  # nothing binned
    row = pot_by_deal(res).set_index("deal").loc[1]
    assert row.binned_sessions == 0
    for q, col in ((0.05, "q05"), (0.25, "q25"), (0.5, "q50"), (0.75, "q75"), (0.95, "q95")):
        assert row[col] == np.quantile(expected, q, method="inverted_cdf"), col
        assert (row[col] - 15) % 3 == 0
    assert row.q95 > row.q05  # a real spread, not a point mass


@pytest.mark.parametrize("final_pot", ["discard", "share"])
def test_r10_largest_pot_and_balance_quantiles_are_exact(final_pot):
    # Limited pots and their shares are whole chips; a shared final pot adds fifths. The
    # balance quantiles must be the reference sessions' own (numpy's inverted_cdf), and the
    # largest-pot tail the exact share at every largest pot that occurred.
    rules = Rules.preset("limited", final_pot=final_pot)
    sessions, deals, seed = 192, 12, 5
    ref = _reference_sessions(rules, "basic", sessions, deals, seed)
    res = run_pots([Arm("x", rules, parse_table("basic", 5))], sessions, deals, seed)
    bal = balances(res)
    for s in range(5):
        values = np.array([r.balances[s] for r in ref])
        row = bal[bal.seat == s].iloc[0]
        assert row.binned_sessions == 0
        for q, col in ((0.05, "q05"), (0.25, "q25"), (0.5, "q50"), (0.75, "q75"), (0.95, "q95")):
            assert row[col] == pytest.approx(np.quantile(values, q, method="inverted_cdf"), abs=1e-9)
    if final_pot == "share":
        assert any(not float(v).is_integer() for v in bal[["q05", "q25", "q50", "q75", "q95"]].to_numpy().ravel())
    largest = np.array([max(d.pot_start for d in r.deals) for r in ref])
    ccdf = max_pot_ccdf(res)
    assert list(ccdf.pot) == sorted(set(largest))
    for pot, share in zip(ccdf.pot, ccdf.share_at_least):
        assert share == (largest >= pot).mean()


def test_chip_quantile_merges_exact_values_and_bins_in_value_order():
    from loo_sim.analysis.pots import chip_quantile

    exact = np.zeros(L.EXACT_CHIPS)
    exact[[3, 10]] = [2, 1]
    hist, sums = np.zeros(L.NB_POT), np.zeros(L.NB_POT)
    b = 1 + int(L.POT_BINS_PER_DECADE * math.log10(5.5))
    hist[b], sums[b] = 2, 11.0  # two pots of 5.5 (fractional: binned)
    # sorted: 3, 3, 5.5, 5.5, 10
    assert [chip_quantile(exact, hist, sums, q) for q in (0.2, 0.4, 0.41, 0.8, 0.81, 1.0)] == [3, 3, 5.5, 5.5, 10, 10]


def test_memory_does_not_grow_with_sessions():
    from loo_sim.run.sessions import pot_exact_bound
    from loo_sim.run.tasks import pots_shapes

    arms = [Arm("x", Rules.preset("limited"), parse_table("basic", 5))]
    small, large = run_pots(arms, 64, 10, 1), run_pots(arms, 640, 10, 1)
    for field in ("scal", "deal_stats", "pair", "pot_exact", "pot_hist", "max_exact", "bal_exact", "bal_hist"):
        assert getattr(small, field).shape == getattr(large, field).shape, field
    assert pots_shapes(1, 10)["pots"] == (1, L.SESSION_BLOCK, 10)  # a block's rows: one block of sessions
    assert pot_exact_bound(4, 50) == L.EXACT_CHIPS
    bound = pot_exact_bound(10, 100_000)  # the exact counts stay within the budget for long sessions
    assert 64 <= bound < L.EXACT_CHIPS and 10 * 100_000 * bound <= max(L.EXACT_BUDGET, 10 * 100_000 * 64)


# ---- paired comparisons on the deals both arms played --------------------------------------------
def test_looed_difference_is_measured_on_the_deals_both_arms_played():
    # basic declares the same hands whatever the penalty, so on every deal both arms
    # play, the same players are looed; unlimited sessions end sooner (ruin). The paired
    # difference over shared deals must be exactly 0, and the deals only one arm played
    # are counted from the reference engine's sessions on the same decks.
    base = Rules.preset("limited", bankroll=60)
    arms = make_arms(base, lambda n: parse_table("basic", n), parse_compare(["penalty=limited,unlimited"]))
    sessions, deals, seed = 96, 25, 3
    res = run_pots(arms, sessions, deals, seed)
    lim = _reference_sessions(arms[0].rules, "basic", sessions, deals, seed)
    unl = _reference_sessions(arms[1].rules, "basic", sessions, deals, seed)
    shared = [min(len(a.deals), len(b.deals)) for a, b in zip(lim, unl)]
    assert sum(len(a.deals) for a in lim) > sum(shared)  # ruin ends unlimited sessions early
    for a, b, n in zip(lim, unl, shared):
        assert [len(d.looed) for d in a.deals[:n]] == [len(d.looed) for d in b.deals[:n]]
    row = paired(res).set_index("metric").loc["looed_per_shared_deal"]
    assert row["diff"] == 0 and row.ci_low == 0 == row.ci_high
    assert row.shared_deals == sum(shared) and row.shared_deals_looed_differ == 0
    assert row.baseline_only_deals == sum(len(a.deals) for a in lim) - sum(shared) and row.arm_only_deals == 0
    only = sum(len(d.looed) for a, n in zip(lim, shared) for d in a.deals[n:])
    assert row.baseline_only_looed_per_deal == pytest.approx(only / row.baseline_only_deals)
    # while the per-arm rates over all deals differ: that difference is the deals only one played
    stats = arm_stats(res).set_index(["arm", "metric"]).value
    assert stats[(arms[0].name, "looed_per_deal")] != stats[(arms[1].name, "looed_per_deal")]


def test_paired_looed_difference_where_policies_differ_matches_the_reference():
    base = Rules.preset("limited")
    arms = make_arms(base, lambda n: parse_table("basic", n), parse_compare(["policy=basic,cautious,always"]))
    sessions, deals, seed = 64, 8, 4
    res = run_pots(arms, sessions, deals, seed)
    table = paired(res)
    assert len(table[table.metric == "looed_per_shared_deal"]) == 3  # every pair, not only against the first
    ref = {a.name: _reference_sessions(a.rules, a.policies, sessions, deals, seed) for a in arms}
    for x, y in ((1, 0), (2, 0), (2, 1)):
        rx, ry = ref[arms[x].name], ref[arms[y].name]
        d = [sum(len(p.looed) - len(q.looed) for p, q in zip(a.deals, b.deals)) for a, b in zip(rx, ry)]
        row = table[(table.arm == arms[x].name) & (table.baseline == arms[y].name)].set_index("metric")
        r = row.loc["looed_per_shared_deal"]
        assert r["diff"] == pytest.approx(sum(d) / (sessions * deals))
        assert r.se == pytest.approx(np.std(d, ddof=1) / math.sqrt(sessions) / deals)
        assert r.shared_deals == sessions * deals and r.arm_only_deals == r.baseline_only_deals == 0


def test_pot_bin_edges_bracket_every_amount_the_kernel_bins():
    # The tables read a log bin back as [edge b, edge b+1): an amount the kernel puts in
    # bin b must lie inside those edges (a shift by one bin would put it outside), across
    # the whole range, its decade boundaries and the last bin above abi.POT_TOP.
    from loo_sim.analysis.pots import bin_edges
    from loo_sim.kernel.bins import pot_bin

    edges = bin_edges()
    rng = np.random.default_rng(3)
    amounts = np.concatenate([10 ** rng.uniform(0, 115, 5000), 10.0 ** np.arange(0, 115),
                              [1.0, 1.5, 9.99, 24.0, 27.0, 1e300]])  # fmt: skip
    for x in amounts:
        b = pot_bin(float(x))
        assert edges[b] <= x * (1 + 1e-12) and x < edges[b + 1] * (1 + 1e-12), (x, b, edges[b], edges[b + 1])
    assert pot_bin(0.5) == 0 and edges[0] == 0.0 and edges[1] == 1.0
