"""Coverage by simulation: over many independent seeds, the 95% intervals the tool prints
for a quantity whose true value is known cover it in 93-97% of runs (issue #11, item 9).

The quantities:

- **An exact probability.** With ``basic`` declaring and no bold stand (``three-card``,
  ``bold_stand=off``), a seat plays its own hand exactly when it holds a trump or an ace
  (P2; a weak hand takes the miss or passes, whatever the position). Its hand is 3 of
  the 51 cards left beside the indicator, of which 15 are good (the 12 other trumps and
  the 3 other aces) and 36 are not, so ``play_rate`` is ``1 - C(36,3)/C(51,3) =
  2737/4165`` for every seat at every position, deal after deal: seat 0's count of plays
  in a run is Binomial(deals, 2737/4165) (the shuffle's own bias, below 2**-26 a draw,
  aside). ``summary_table`` prints it with a Wilson interval (seat 0), and the table's
  ``all`` row prints the same probability as a per-deal mean with the normal interval of
  ``mean_se`` (deals are the unit).
- **A paired difference that is 0 by construction.** Two ``pots`` arms that differ only
  in which seat plays ``cautious`` (seat 0 or seat 1, everyone else ``basic``), on the
  same decks session by session. A session's first dealer is drawn uniformly (up to the
  multiply-shift's bias below 2**-29) and apart from the decks (R2), so renumbering the
  seats turns one arm into the other: any table-level statistic of a session, such as
  the looed players per deal, has the same distribution in both arms and its paired
  difference has mean exactly 0, though it differs from session to session.
  ``analysis.pots.paired`` prints it with its normal interval.

Why these bands hold (the seeds are fixed, so each test is deterministic; the numbers say
how unlikely a correct tool is to fail on an arbitrary choice of seeds, and how unlikely a
90% interval printed as 95% is to pass). Over R independent runs the covered count is
Binomial(R, c), c the interval's true coverage:

- Wilson at 1,000 deals and p = 2737/4165: c = 0.95069 exactly (summed over the binomial;
  ``test_the_band_passes_a_95_percent_interval_and_fails_a_90_percent_one`` recomputes
  it); with R = 2,000 the band [0.93, 0.97] holds with probability 0.99997. With
  z = 1.64, c = 0.89741 and the band holds with probability 3e-7.
- the ``all`` row's normal interval at 1,000 deals: c = 0.9496 (from the exact
  distribution of the number of seats holding a good hand, 400,000 simulated runs;
  within 0.0005 of the nominal level, as the central limit theorem says at this n):
  the band holds with probability 0.99994; z = 1.64 gives c = 0.8990, which passes with
  probability 8e-7.
- the pots difference at 256 sessions of 5 deals: c = 0.9502 +- 0.0015 (20,000 runs of
  this test's set-up, seeds 100000-119999); with R = 2,000 the band holds with
  probability 0.99996 (>= 0.9995 even at c = 0.947); z = 1.64 gives c = 0.8955 (the
  same 20,000 runs), which passes with probability 6e-8.

A standard error divided by n instead of sqrt(n) shrinks the normal intervals 16-fold
(256 sessions) to 32-fold (1,000 deals) and their coverage to a few percent; both tests
of a normal interval also compare the printed SE with the spread of the estimates across
the runs. Either mistake fails these tests. The runs
take about 5 s in all (the kernel on one thread, 2,000 small runs per quantity).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pytest
from scipy import stats as sps

from loo_sim import Rules
from loo_sim.analysis.miss import heuristic_table
from loo_sim.analysis.pots import paired
from loo_sim.analysis.simulate import summary_table
from loo_sim.base.stats import Z95, wilson
from loo_sim.game.policy import Policy, parse_table
from loo_sim.run.decisions import heuristics
from loo_sim.run.sessions import Arm, run_pots
from loo_sim.simulate import simulate

P_PLAY = 1 - comb(36, 3) / comb(51, 3)  # 2737/4165: a trump or an ace among 3 of the 51 cards
RUNS = 2_000
DEALS = 1_000
SESSIONS, SESSION_DEALS = 256, 5
BAND = (0.93, 0.97)


def _in_band(covered: np.ndarray) -> float:
    rate = float(np.mean(covered))
    assert BAND[0] <= rate <= BAND[1], f"coverage {rate:.4f} over {len(covered)} runs, outside {BAND}"
    return rate


def _band_probability(coverage: float, runs: int) -> float:
    """P(the covered share of ``runs`` independent runs lies in BAND) at true ``coverage``."""
    lo, hi = int(np.ceil(BAND[0] * runs)), int(np.floor(BAND[1] * runs))
    return float(sps.binom.cdf(hi, runs, coverage) - sps.binom.cdf(lo - 1, runs, coverage))


def _wilson_coverage(n: int, p: float, z: float) -> float:
    """The exact coverage of the Wilson interval for Binomial(n, p)."""
    k = np.arange(n + 1)
    hits = np.array([lo <= p <= hi for lo, hi in (wilson(int(i), n, z) for i in k)])
    return float(sps.binom.pmf(k, n, p)[hits].sum())


def test_the_play_probability_is_2737_in_4165():
    assert Fraction(comb(51, 3) - comb(36, 3), comb(51, 3)) == Fraction(2737, 4165)
    assert pytest.approx(2737 / 4165, abs=1e-15) == P_PLAY


def test_the_band_passes_a_95_percent_interval_and_fails_a_90_percent_one():
    c95, c90 = _wilson_coverage(DEALS, P_PLAY, Z95), _wilson_coverage(DEALS, P_PLAY, 1.64)
    assert c95 == pytest.approx(0.95069, abs=1e-5) and c90 == pytest.approx(0.89741, abs=1e-5)
    assert _band_probability(c95, RUNS) > 0.9999
    assert _band_probability(0.947, RUNS) > 0.999  # the normal intervals' coverage, with room
    assert _band_probability(0.9, RUNS) < 1e-5  # a 90% interval printed as 95%


@pytest.fixture(scope="module")
def one_thread():
    """Small kernel runs are fastest on one numba thread (the machines are shared); the
    setting is restored afterwards."""
    from numba import get_num_threads, set_num_threads

    before = get_num_threads()
    set_num_threads(1)
    yield
    set_num_threads(before)


@pytest.fixture(scope="module")
def play_rate_rows(one_thread):
    """The play_rate rows (seat 0 and all) of summary_table, one run per seed."""
    rules = Rules.preset("three-card", bold_stand="off")
    rows = []
    for seed in range(RUNS):
        df = summary_table(simulate(rules, "basic", deals=DEALS, seed=10_000 + seed, threads=1))
        play = df[df.metric == "play_rate"].set_index("seat")
        rows.append((play.loc["0"], play.loc["all"]))
    return rows


def test_wilson_intervals_of_an_exact_probability_cover_it_95_percent_of_runs(play_rate_rows):
    seat0 = [s for s, _ in play_rate_rows]
    assert {r["method"] for r in seat0} == {"wilson"} and {r["n"] for r in seat0} == {DEALS}
    covered = np.array([r["ci_low"] <= P_PLAY <= r["ci_high"] for r in seat0])
    _in_band(covered)
    # the runs are independent and unbiased: their mean is within a few SEs of the truth
    values = np.array([r["value"] for r in seat0])
    assert abs(values.mean() - P_PLAY) < 4 * values.std(ddof=1) / np.sqrt(RUNS)


def test_per_deal_mean_intervals_of_an_exact_probability_cover_it_95_percent_of_runs(play_rate_rows):
    table = [a for _, a in play_rate_rows]
    assert {r["method"] for r in table} == {"per-deal mean"}
    covered = np.array([r["ci_low"] <= P_PLAY <= r["ci_high"] for r in table])
    _in_band(covered)
    # the printed SE is the spread of the estimate across runs (not sqrt(n) too small or large)
    values = np.array([r["value"] for r in table])
    ses = np.array([r["se"] for r in table])
    assert ses.mean() == pytest.approx(values.std(ddof=1), rel=0.06)


@pytest.fixture(scope="module")
def symmetric_arms():
    """Two arms that are one another with the seats renumbered: cautious at seat 0, at seat 1."""
    rules = Rules.preset("limited")
    a = Arm("cautious at seat 0", rules, parse_table(["cautious", "basic", "basic", "basic", "basic"], 5))
    b = Arm("cautious at seat 1", rules, parse_table(["basic", "cautious", "basic", "basic", "basic"], 5))
    return a, b


def test_paired_intervals_of_a_difference_zero_by_symmetry_cover_0_95_percent_of_runs(symmetric_arms, one_thread):
    rows = []
    for seed in range(RUNS):
        df = paired(run_pots(list(symmetric_arms), SESSIONS, SESSION_DEALS, 20_000 + seed))
        rows.append(df[df.metric == "looed_per_shared_deal"].iloc[0])
    diffs = np.array([r["diff"] for r in rows])
    ses = np.array([r["se"] for r in rows])
    assert np.all(ses > 0) and np.count_nonzero(diffs) > 0.9 * RUNS  # random, not zero by identity
    covered = np.array([r["ci_low"] <= 0.0 <= r["ci_high"] for r in rows])
    _in_band(covered)
    assert ses.mean() == pytest.approx(diffs.std(ddof=1), rel=0.06)


def test_an_arm_against_an_identical_arm_differs_by_exactly_zero(symmetric_arms, one_thread):
    a, _ = symmetric_arms
    df = paired(run_pots([a, Arm("the same again", a.rules, list(a.policies))], 128, 20, 7))
    assert len(df) > 0
    assert (df["diff"] == 0.0).all() and (df["se"] == 0.0).all()
    assert (df["ci_low"] == 0.0).all() and (df["ci_high"] == 0.0).all()


def test_a_heuristic_against_itself_differs_by_exactly_zero():
    rules = Rules.preset("three-card")
    basic = Policy.parse("basic")
    res = heuristics(rules, parse_table("basic", 5), 0, [basic, basic], ["basic", "basic again"], 8_192, 3)
    df = heuristic_table(res)
    again = df.iloc[1]
    assert again["diff_vs_baseline"] == 0.0 and again["diff_se_paired"] == 0.0
    assert again["diff_ci_low"] == 0.0 and again["diff_ci_high"] == 0.0
    assert again["diff_se_unpaired"] > 0  # the two arms themselves vary: only the pairing makes it exact
