"""The statistics primitives (loo_sim/stats.py) against independent oracles: scipy for
the Wilson interval, the normal quantile and the standard error of a mean, numpy on raw
per-deal samples for the streamed mean, SE and ratio (the kernel streams sums; here the
samples are kept), scipy's paired bootstrap and the spread across independent samples
for the ratio's delta-method SE. tests/test_coverage.py checks the intervals the tables
print by their coverage over many seeds."""

import math

import numpy as np
import pytest
from scipy import stats as sps

from loo_sim.base.stats import Z95, estimate, mean_se, normal_ci, ratio_se, wilson


def test_z95_is_the_normal_975_quantile():
    assert sps.norm.ppf(0.975) == Z95  # to the last bit


@pytest.mark.parametrize("k, n", [(0, 1), (1, 1), (0, 10), (10, 10), (3, 10), (1, 2), (17, 400), (0, 100_000),
                                  (99_999, 100_000), (49_700, 100_000)])  # fmt: skip
def test_wilson_matches_scipy_including_none_and_all(k, n):
    ci = sps.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(ci.low, abs=1e-14) and hi == pytest.approx(ci.high, abs=1e-14)
    assert 0.0 <= lo <= hi <= 1.0
    assert lo <= k / n + 1e-15 and hi >= k / n - 1e-15  # at k = 0 or n, the interval ends at the estimate


def test_wilson_of_no_trials_is_undefined():
    assert all(math.isnan(x) for x in wilson(0, 0))


@pytest.mark.parametrize("n", [2, 3, 50, 10_000])
def test_mean_se_from_sums_matches_numpy_on_the_samples(n):
    x = np.random.default_rng(n).normal(3.0, 2.5, size=n) ** 3  # skewed, far from zero mean
    m, se = mean_se(float(x.sum()), float((x * x).sum()), n)
    assert m == pytest.approx(x.mean(), rel=1e-12)
    assert se == pytest.approx(x.std(ddof=1) / math.sqrt(n), rel=1e-9)


def test_mean_se_needs_two_samples_for_an_se():
    assert math.isnan(mean_se(0.0, 0.0, 0)[0])
    m, se = mean_se(4.0, 16.0, 1)
    assert m == 4.0 and math.isnan(se)
    assert mean_se(10.0, 50.0, 2) == (5.0, 0.0)  # no spread: SE 0, not a negative variance's NaN


def _delta_method_se(x: np.ndarray, y: np.ndarray) -> float:
    """SE of sum(x)/sum(y) by the delta method, written from the sample covariance matrix:
    Var(xbar/ybar) ~ (Var(xbar) - 2 r Cov(xbar, ybar) + r^2 Var(ybar)) / ybar^2."""
    n = len(x)
    r = x.mean() / y.mean()
    (sxx, sxy), (_, syy) = np.cov(x, y, ddof=1)
    return math.sqrt((sxx - 2 * r * sxy + r * r * syy) / n) / y.mean()


def _correlated_deals(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-deal (x, y) like (tricks won, hands played): y counts, x a share of y."""
    gen = np.random.default_rng(seed)
    y = gen.integers(1, 6, size=n).astype(float)
    x = gen.binomial(y.astype(int), 0.35).astype(float)
    return x, y


@pytest.mark.parametrize("n, seed", [(40, 1), (1_000, 2), (50_000, 3)])
def test_ratio_se_matches_the_delta_method_on_raw_samples(n, seed):
    x, y = _correlated_deals(n, seed)
    assert np.corrcoef(x, y)[0, 1] > 0.5  # strongly correlated: the covariance term matters
    r, se = ratio_se(x.sum(), y.sum(), (x * x).sum(), (x * y).sum(), (y * y).sum(), n)
    assert r == pytest.approx(x.sum() / y.sum(), rel=1e-12)
    expected = _delta_method_se(x, y)
    assert se == pytest.approx(expected, rel=1e-9)
    # the same formula without the covariance term is far off: the test would catch its loss
    r0 = x.mean() / y.mean()
    (sxx, _), (_, syy) = np.cov(x, y, ddof=1)
    no_cov = math.sqrt((sxx + r0 * r0 * syy) / n) / y.mean()
    assert abs(no_cov - expected) > 0.2 * expected


def test_ratio_se_is_undefined_without_a_denominator_or_a_second_deal():
    assert all(math.isnan(v) for v in ratio_se(1.0, 0.0, 1.0, 0.0, 0.0, 10))
    assert all(math.isnan(v) for v in ratio_se(1.0, 2.0, 1.0, 2.0, 4.0, 1))


@pytest.mark.parametrize("value, se", [(0.0, 1.0), (-3.25, 0.04), (1e6, 250.0)])
def test_normal_ci_is_scipys_normal_interval(value, se):
    lo, hi = normal_ci(value, se)
    ref_lo, ref_hi = sps.norm.interval(0.95, loc=value, scale=se)
    assert lo == pytest.approx(ref_lo, rel=1e-12, abs=1e-12) and hi == pytest.approx(ref_hi, rel=1e-12, abs=1e-12)
    assert normal_ci(value, se, z=1.0) == (value - se, value + se)


def test_estimate_uses_the_given_interval_else_the_normal_one():
    row = estimate(2.0, 0.5, n=10, method="mean")
    assert (row["ci_low"], row["ci_high"]) == normal_ci(2.0, 0.5)
    assert row["value"] == 2.0 and row["se"] == 0.5 and row["n"] == 10 and row["method"] == "mean"
    wil = estimate(0.3, 0.01, *wilson(3, 10), n=10, method="wilson")
    assert (wil["ci_low"], wil["ci_high"]) == wilson(3, 10)
    bare = estimate(1.0)
    assert math.isnan(bare["se"]) and math.isnan(bare["ci_low"]) and math.isnan(bare["ci_high"])


# ---- more independent oracles: scipy's SEM, the bootstrap, and the spread across replications ----
@pytest.mark.parametrize("seed", [5, 6])
def test_mean_se_is_scipys_standard_error_of_the_mean(seed):
    x = np.random.default_rng(seed).exponential(7.0, size=777) - 2.0
    m, se = mean_se(float(x.sum()), float((x * x).sum()), len(x))
    assert se == pytest.approx(sps.sem(x), rel=1e-9)
    lo, hi = normal_ci(m, se)
    ref_lo, ref_hi = sps.norm.interval(0.95, loc=np.mean(x), scale=sps.sem(x))
    assert lo == pytest.approx(ref_lo, rel=1e-9) and hi == pytest.approx(ref_hi, rel=1e-9)


def _ratio_of_sums(x, y, axis=-1):
    return x.sum(axis=axis) / y.sum(axis=axis)


def test_ratio_se_agrees_with_scipys_paired_bootstrap():
    """The bootstrap knows nothing of the delta method: resampling deals (x and y together)
    gives the SE of sum(x)/sum(y) directly. Dropping the covariance term misses it by far."""
    x, y = _correlated_deals(2_000, 11)
    n = len(x)
    _, se = ratio_se(x.sum(), y.sum(), (x * x).sum(), (x * y).sum(), (y * y).sum(), n)
    boot = sps.bootstrap((x, y), _ratio_of_sums, paired=True, vectorized=True, n_resamples=4_000, batch=500,
                         method="percentile", random_state=np.random.default_rng(12))  # fmt: skip
    assert se == pytest.approx(boot.standard_error, rel=0.05)
    r = x.sum() / y.sum()
    (sxx, _), (_, syy) = np.cov(x, y, ddof=1)
    no_cov = math.sqrt((sxx + r * r * syy) / n) / y.mean()
    assert abs(no_cov - boot.standard_error) > 0.3 * boot.standard_error


def test_ratio_se_is_the_spread_of_the_ratio_across_independent_samples():
    """Over 4,000 independent samples of 300 deals, the SD of the ratio estimates is what
    ratio_se says each sample's SE is (to the 1.1% that 4,000 replications allow)."""
    gen = np.random.default_rng(13)
    y = gen.integers(1, 6, size=(4_000, 300)).astype(float)
    x = gen.binomial(y.astype(int), 0.35).astype(float)
    ratios = x.sum(axis=1) / y.sum(axis=1)
    ses = [ratio_se(a.sum(), b.sum(), (a * a).sum(), (a * b).sum(), (b * b).sum(), len(a))[1] for a, b in zip(x, y)]
    assert np.mean(ses) == pytest.approx(ratios.std(ddof=1), rel=0.05)
