"""Unlimited pots said honestly (issue #31 item 8): the pots study's quantiles of pots past
10^16 against an independent count of the same sessions, made by the reference engine."""

import numpy as np
import pytest

from loo_sim import Rules
from loo_sim.analysis.pots import balances, bin_edges, pot_by_deal
from loo_sim.game import abi as L
from loo_sim.game.policy import parse_table
from loo_sim.run.api import play_session
from loo_sim.run.sessions import Arm, run_pots

QCOLS = {0.05: "q05", 0.25: "q25", 0.5: "q50", 0.75: "q75", 0.95: "q95"}


@pytest.fixture(scope="module")
def always_in():
    """Three-card, everyone always in: the pot multiplies by the looed count (2 or more) each
    deal, passing 10^16 near deal 30 and 10^25 by deal 55. The kernel's aggregates and the
    reference engine's sessions on the same decks (seed 7, sessions 0..199)."""
    rules = Rules.preset("three-card")
    sessions, deals, seed = 200, 60, 7
    res = run_pots([Arm("x", rules, parse_table("always", 5))], sessions, deals, seed)
    ref = [play_session(rules, "always", deals, seed=seed, session=i) for i in range(sessions)]
    return res, ref


def test_pot_quantiles_past_1e16_are_within_the_bin_bound_of_an_independent_count(always_in):
    # Every pot at the start of every deal, from the reference engine's records, and numpy's
    # quantile of them (the same definition: the smallest value reaching q). Bins a decade
    # wide past 10^16 printed a median of 3.19e19 where this count gives 1.43e19.
    res, ref = always_in
    table = pot_by_deal(res).set_index("deal")
    checked = 0
    for j in range(res.deals):
        pots = np.array([s.deals[j].pot_start for s in ref if len(s.deals) > j])
        for q, col in QCOLS.items():
            expected = np.quantile(pots, q, method="inverted_cdf")
            if expected > 1e16:
                checked += 1
                assert abs(table.loc[j, col] / expected - 1) < 0.075, (j, col, table.loc[j, col], expected)
    assert checked >= 100


def test_balance_quantiles_past_1e16_are_within_the_bin_bound(always_in):
    res, ref = always_in
    finals = np.array([s.balances for s in ref])
    table = balances(res).set_index("seat")
    for seat in range(5):
        for q, col in QCOLS.items():
            expected = np.quantile(finals[:, seat], q, method="inverted_cdf")
            assert abs(expected) > 1e16
            assert abs(table.loc[seat, col] / expected - 1) < 0.075, (seat, col, table.loc[seat, col], expected)


def test_bins_are_32_per_decade_at_every_size_and_the_numpy_twin_agrees():
    from loo_sim.kernel.bins import pot_bin
    from loo_sim.run.session_pots import pot_bins

    edges = bin_edges()
    ratio = edges[2:-1] / edges[1:-2]
    assert np.allclose(ratio, 10 ** (1 / 32), rtol=1e-9)  # the same width from 1 to the top
    assert edges[-2] == L.POT_TOP and edges[-1] == np.inf
    # a session stops once its pot passes OVERFLOW_LIMIT; a deal multiplies it by at most
    # 1 + MAX_PLAYERS; a balance adds at most MAX_SESSION_DEALS such pots
    from loo_sim.base.checks import MAX_SESSION_DEALS

    assert L.OVERFLOW_LIMIT * (1 + L.MAX_PLAYERS) * MAX_SESSION_DEALS < L.POT_TOP
    rng = np.random.default_rng(5)
    amounts = np.concatenate([10 ** rng.uniform(-1, 115, 4000), 10.0 ** np.arange(0, 113), [0.0, 1.0, 1e300, np.inf]])
    assert list(pot_bins(amounts)) == [pot_bin(float(x)) for x in amounts]


# ---- the tournament's league under the unlimited penalty ------------------------------------------
T_POLICIES = ("basic", "cautious", "always")
T_SESSIONS, T_DEALS, T_SEED = 60, 30, 5


def _reference_results(rules):
    """Each heuristic's chips per deal in each session [session, heuristic], from the reference
    engine's sessions of every lineup (lineup r seats heuristic (i + r) mod H at seat i)."""
    from loo_sim.game.policy import Policy
    from loo_sim.run.tournament import lineups

    h = len(T_POLICIES)
    policies = [Policy.parse(p) for p in T_POLICIES]
    x = np.zeros((T_SESSIONS, h))
    for k in range(T_SESSIONS):
        chips, deals = np.zeros(h), np.zeros(h)
        for lineup in lineups(list(range(h)), rules.players):
            ref = play_session(rules, [policies[i] for i in lineup], T_DEALS, seed=T_SEED, session=k)
            for s, who in enumerate(lineup):
                chips[who] += ref.balances[s]
                deals[who] += len(ref.deals)
        x[k] = chips / deals
    return x


@pytest.fixture(scope="module")
def unlimited_tournament():
    from loo_sim.game.policy import Policy
    from loo_sim.run.tournament import run_tournament

    rules = Rules.preset("three-card", players=5)
    res = run_tournament(rules, [Policy.parse(p) for p in T_POLICIES], list(T_POLICIES), T_SESSIONS, T_DEALS, T_SEED)
    return res, _reference_results(rules)


def test_league_medians_and_their_intervals_are_order_statistics_of_the_sessions(unlimited_tournament):
    # The median session (numpy's inverted_cdf: rank ceil(n/2)) and the distribution-free 95%
    # interval, the order statistics of ranks n/2 -+ 1.96 sqrt(n)/2 (the count of sessions
    # below the median is binomial(n, 1/2)), of the reference engine's per-session results.
    import math

    from loo_sim.analysis.tournament import league_table

    res, x = unlimited_tournament
    assert np.abs(x).max() > 20 * np.median(np.abs(x))  # a heavy tail: what the medians are for
    league = league_table(res).set_index("heuristic")
    n = T_SESSIONS
    half = 1.959963984540054 * math.sqrt(n) / 2
    ranks = {"median": math.ceil(n / 2), "median_ci_low": math.floor(n / 2 - half),
             "median_ci_high": math.ceil(n / 2 + half)}  # fmt: skip
    for h, name in enumerate(T_POLICIES):
        ordered = np.sort(x[:, h])
        assert league.loc[name, "median"] == pytest.approx(np.quantile(x[:, h], 0.5, method="inverted_cdf"), rel=0.075)
        for col, rank in ranks.items():
            assert league.loc[name, col] == pytest.approx(ordered[rank - 1], rel=0.075), (name, col)
    assert list(league.index) == sorted(T_POLICIES, key=lambda p: -np.quantile(x[:, T_POLICIES.index(p)], 0.5,
                                                                              method="inverted_cdf"))  # fmt: skip


def test_the_share_of_the_largest_sessions_is_the_sessions_own(unlimited_tournament):
    from loo_sim.analysis.tournament import top_share

    res, x = unlimited_tournament
    for h in range(len(T_POLICIES)):
        a = np.sort(np.abs(x[:, h]))[::-1]
        k = 0.01 * len(a)  # the top 1%: 0.6 of a session here, the largest taken in part
        expected = (a[: int(k)].sum() + (k - int(k)) * a[int(k)]) / a.sum()
        assert top_share(res.result_hist[h], res.result_sum[h]) == pytest.approx(expected, rel=0.075)


def test_an_unlimited_tournament_prints_medians_and_says_why_no_mean(tmp_path):
    # Before: the league printed means such as +15460860135.802 [-11804481512.649, ...] resting
    # on a handful of sessions; now the medians, why no mean, and what head to head is.
    import pandas as pd

    from loo_sim.analysis.text import interval_text
    from loo_sim.cli import main

    out = tmp_path / "t"
    assert main(["tournament", "--preset", "three-card", "--policies", ",".join(T_POLICIES), "--sessions",
                 str(T_SESSIONS), "--session-deals", str(T_DEALS), "--seed", str(T_SEED), "--out", str(out)]) == 0
    text = (out / "summary.md").read_text()
    league = pd.read_csv(out / "league.csv")
    table = [line for line in text.splitlines() if line.startswith("| ")][1:]
    assert len(table) == len(T_POLICIES)
    for line, r in zip(table, league.itertuples()):
        assert line == (f"| {r.heuristic} | {interval_text(r.median, r.median_ci_low, r.median_ci_high, signed=True)}"
                        f" | {T_SESSIONS} |")  # fmt: skip
        assert f"{r.chips_per_deal:+.3f}" not in text
    assert "No mean is shown" in text and "per-table means" in text and "not differences of the league" in text


def test_a_limited_tournament_keeps_its_means_and_says_what_head_to_head_is(tmp_path):
    from loo_sim.cli import main

    out = tmp_path / "t"
    assert main(["tournament", "--preset", "limited", "--policies", "basic,cautious", "--sessions", "40",
                 "--session-deals", "8", "--seed", "2", "--out", str(out)]) == 0  # fmt: skip
    text = (out / "summary.md").read_text()
    assert "| heuristic | chips per deal | 95% interval | sessions |" in text and "No mean" not in text
    assert "per-table means" in text and "not differences of the league" in text
