"""`loo-sim miss --carried session` (issue #17 item 4): each chart deal's carried pot drawn
from the pots met in sessions, and the chart's pot bucket."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from loo_sim.base import rng
from loo_sim.game.policy import Policy, parse_table
from loo_sim.game.rules import Rules
from loo_sim.run.session_pots import POT_BUCKET_NAMES, fixed_pots, pot_buckets, session_pots

LIMITED = Rules.preset("limited", players=5)
BASIC = parse_table("basic", 5)


@pytest.fixture(scope="module")
def dist():
    return session_pots(LIMITED, BASIC, sessions=300, deals=30, burn_in=5, seed=4)


def test_the_distribution_counts_the_carried_pots_the_pots_study_counts(dist):
    # The same sessions (seed, i, j) counted by run.sessions (pot at the start of each
    # deal, by deal) give the same counts, once the antes are taken off.
    from loo_sim.run.sessions import Arm, run_pots

    res = run_pots([Arm("a", LIMITED, BASIC)], 300, 30, seed=4)
    counts = res.pot_exact[0, 5:].sum(axis=0)  # deals 5..29, by pot_start
    total = counts.sum() + res.pot_hist[0, 5:].sum()
    assert dist.counted == total == 300 * 25 and dist.sessions == 300
    assert dist.exact.all() and res.pot_hist[0, 5:].sum() == 0
    expected = {v - 15.0: c / total for v, c in enumerate(counts) if c}
    assert dict(zip(dist.values.tolist(), dist.prob.tolist())) == pytest.approx(expected, rel=1e-12)
    assert all(v % 3 == 0 for v in dist.values)  # R3: 3 chips per looed player (or a pot nobody took)
    assert (dist.se > 0).all() and dist.prob.sum() == pytest.approx(1.0)
    assert dist.mean == pytest.approx(float((dist.values * dist.prob).sum()))
    buckets = pot_buckets(LIMITED, dist.values)
    for b in range(len(POT_BUCKET_NAMES)):
        assert dist.bucket_prob[b] == pytest.approx(dist.prob[buckets == b].sum(), abs=1e-12)


def test_drawn_carried_pots_follow_the_session_distribution(dist):
    n = 40_000
    drawn = dist.draw(4, rng.MISS_CARRIED_SESSION, range(n))
    for v, p in zip(dist.values, dist.prob):
        freq = (drawn == v).mean()
        se = np.sqrt(p * (1 - p) / n)
        assert abs(freq - p) < 4 * se + 1e-12, (v, freq, p)
    assert set(drawn) <= set(dist.values)
    # the heuristics' deals draw from a stream of their own
    other = dist.draw(4, rng.HEURISTIC_CARRIED_SESSION, range(200))
    assert not np.array_equal(other, drawn[:200])


def test_the_kernel_draws_the_pots_the_python_side_draws(dist):
    from loo_sim.kernel.session_pots import deal_carried

    seed, draw = np.uint64(4), np.uint64(rng.MISS_CARRIED_SESSION)
    kernel = [deal_carried(0.0, dist.values, dist.cum, seed, draw, k) for k in range(3000)]
    assert kernel == dist.draw(4, rng.MISS_CARRIED_SESSION, range(3000)).tolist()
    assert deal_carried(7.5, np.zeros(0), np.zeros(0), seed, draw, 3) == 7.5  # a fixed pot


def test_pick_takes_the_first_atom_whose_cumulative_probability_exceeds_the_draw():
    cum = [0.25, 0.5, 1.0]
    assert [rng.pick(cum, u) for u in (0.0, 0.2499, 0.25, 0.7, 0.999999)] == [0, 0, 1, 2, 2]
    assert rng.pick([0.3, 0.9999999], 0.99999995) == 1  # rounding past the last: the last atom
    assert 0.0 <= rng.carried_uniform(1, rng.MISS_CARRIED_SESSION, 5) < 1.0


def test_a_one_valued_distribution_reproduces_the_fixed_carried_chart_exactly():
    from loo_sim.analysis.miss import ALL, CHART_COLUMNS, chart_table
    from loo_sim.run.decisions import decisions, heuristics

    fixed = decisions(LIMITED, BASIC, 6000, 3, carried=15.0)
    one = decisions(LIMITED, BASIC, 6000, 3, pots=fixed_pots(LIMITED, BASIC, [15.0], [1.0]))
    assert np.array_equal(fixed.totals, one.totals) and one.carried == 15.0
    assert one.by_pot.shape[0] == len(POT_BUCKET_NAMES)
    assert one.by_pot[4].sum() == one.totals.sum() and one.by_pot[:4].sum() == 0  # pot 30 = 10 penalties: >8
    a, b = chart_table(fixed), chart_table(one)
    assert "pot_bucket" not in a.columns and list(b.columns[:6]) == [*CHART_COLUMNS[:5], "pot_bucket"]
    pooled = b[b.pot_bucket == ALL].drop(columns="pot_bucket").reset_index(drop=True)
    pd.testing.assert_frame_equal(pooled, a)
    assert set(b.pot_bucket) == {ALL, ">8"}
    names = ["basic", "cautious"]
    candidates = [Policy.parse(x) for x in names]
    h1 = heuristics(LIMITED, BASIC, 0, candidates, names, 3000, 3, carried=15.0)
    h2 = heuristics(LIMITED, BASIC, 0, candidates, names, 3000, 3, pots=fixed_pots(LIMITED, BASIC, [15.0], [1.0]))
    assert np.array_equal(h1.totals, h2.totals)


def test_the_chart_of_session_pots_is_the_same_for_the_same_seed_and_any_threads(dist):
    import numba

    from loo_sim.run.decisions import decisions

    numba.set_num_threads(1)
    one = decisions(LIMITED, BASIC, 9000, 8, pots=dist)
    again = decisions(LIMITED, BASIC, 9000, 8, pots=dist)
    numba.set_num_threads(2)
    two = decisions(LIMITED, BASIC, 9000, 8, pots=dist)
    other = decisions(LIMITED, BASIC, 9000, 9, pots=dist)
    assert np.array_equal(one.by_pot, again.by_pot) and np.array_equal(one.by_pot, two.by_pot)
    assert not np.array_equal(one.by_pot, other.by_pot)
    assert np.array_equal(one.totals, one.by_pot.sum(axis=0))
    assert np.count_nonzero(one.by_pot.reshape(len(POT_BUCKET_NAMES), -1).sum(axis=1)) == 2  # 4-8 and >8
    numba.set_num_threads(1)
    d1 = session_pots(LIMITED, BASIC, sessions=130, deals=20, burn_in=3, seed=2)
    numba.set_num_threads(2)
    d2 = session_pots(LIMITED, BASIC, sessions=130, deals=20, burn_in=3, seed=2)
    assert np.array_equal(d1.values, d2.values) and np.array_equal(d1.prob, d2.prob)
    assert np.array_equal(d1.se, d2.se)


def test_a_miss_study_with_session_pots_writes_the_distribution_and_says_how_it_was_made():
    from loo_sim.report.command import command
    from loo_sim.report.kinds import MissStudy
    from loo_sim.report.running import run_study

    study = MissStudy(preset="limited", carried=["Session"], sessions=100, session_deals=20, burn_in=4, deals=4096,
                      seed=1)  # fmt: skip
    assert study.carried == ["session"] and study.session_pots
    out = run_study(study, out="o")
    dist = out.tables["session_pots"]
    assert list(dist.columns[:4]) == ["carried", "pot_start", "probability", "se"]
    assert dist.probability.sum() == pytest.approx(1.0) and set(dist.pot_bucket) <= set(POT_BUCKET_NAMES)
    assert "pot_bucket" in out.tables["chart"].columns and "chart-by-pot" in out.figures
    assert "100 sessions of 20 deals" in out.summary and "the first 4 deals" in out.summary
    assert "1,600 deals were counted" in out.summary and "session_pots.csv" in out.summary
    assert out.info["session_pots"]["deals_counted"] == {"5": 1600}
    cmd = command(study, "o")
    assert "--carried session --sessions 100 --session-deals 20 --burn-in 4" in cmd


def test_under_the_unlimited_penalty_the_summary_says_the_pots_grow_and_the_bucket_is_the_first():
    from loo_sim.report.kinds import MissStudy
    from loo_sim.report.running import run_study

    out = run_study(MissStudy(preset="three-card", carried=["session"], sessions=64, session_deals=12, burn_in=2,
                              deals=4096, seed=3))  # fmt: skip
    assert "grows without bound" in out.summary and "always the first bucket (<=1)" in out.summary
    chart = out.tables["chart"]
    assert set(chart.pot_bucket) == {"all", "<=1"}
    assert (out.tables["session_pots"].pot_bucket == "<=1").all()


BAD = [
    (["--carried", "sesion"], "--carried 'sesion'"),
    (["--carried", "session", "--carried", "5"], "--carried"),
    (["--carried", "session", "--sessions", "0"], "--sessions"),
    (["--carried", "session", "--session-deals", "0"], "--session-deals"),
    (["--carried", "session", "--session-deals", "20", "--burn-in", "20"], "--burn-in: 20 is not allowed"),
    (["--carried", "session", "--burn-in", "-1"], "--burn-in"),
    (["--sessions", "10"], "--sessions: goes with carried = 'session'"),
    (["--carried", "3", "--burn-in", "2"], "--burn-in: goes with"),
]


@pytest.mark.parametrize("argv, fragment", BAD)
def test_bad_session_options_are_refused_in_one_line(capsys, tmp_path, argv, fragment):
    from loo_sim.cli import main

    out = tmp_path / "o"
    rc = main(["miss", *argv, "--deals", "100", "--out", str(out)])
    captured = capsys.readouterr()
    assert rc == 2, captured.err
    assert "Traceback" not in captured.err + captured.out
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], captured.err
    assert not out.exists()


def test_a_config_may_ask_for_session_pots_and_its_problems_are_named():
    from loo_sim.report.kinds import MissStudy

    assert MissStudy(preset="limited", carried=["session"]).problems() == []
    problems = dict(MissStudy(preset="limited", carried=["session", 3.0], burn_in=60).problems())
    assert "carried" in problems and "burn_in" in problems
    assert "sessions" in dict(MissStudy(preset="limited", sessions=5).problems())
    assert "carried[0]" in dict(MissStudy(preset="limited", carried=["sessions"]).problems())


def test_the_chart_plot_draws_one_pot_bucket():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from loo_sim.analysis.miss import chart_table
    from loo_sim.plots.miss_chart import decision_chart
    from loo_sim.run.decisions import decisions

    res = decisions(LIMITED, BASIC, 4096, 5, pots=fixed_pots(LIMITED, BASIC, [0.0, 15.0], [0.5, 0.5]))
    chart = chart_table(res)
    assert set(chart.pot_bucket) == {"all", "4-8", ">8"}
    fig, ax = plt.subplots()
    decision_chart(ax, chart, "all", pot_bucket="4-8", miss_on_offer=True)
    assert "pot 4-8 penalties" in ax.get_title()
    plt.close(fig)


def test_ctrl_c_in_the_sessions_keeps_what_finished_and_plays_no_chart():
    from loo_sim.report.kinds import MissStudy
    from loo_sim.report.running import run_study

    def factory(label):
        if label != "sessions":
            raise AssertionError(f"no stage after the sessions runs: {label}")

        def stop(done, total):
            raise KeyboardInterrupt

        return stop

    study = MissStudy(preset="limited", carried=["session"], sessions=300, session_deals=20, deals=4096)
    out = run_study(study, progress=factory)
    assert out.partial and out.unit == "sessions" and out.total == 300 and 0 < out.done < 300
    assert list(out.tables) == ["session_pots"] and "chart" not in out.tables
    assert f"after {out.done:,} of 300 sessions" in out.summary
