"""Statistics primitives on streamed sums (docs/design.md property 6): a proportion's Wilson
interval, a mean and its standard error, a ratio with its delta-method SE, and the
normal interval from an SE. The kernel streams sums, so these take sums, not samples.

Plain arithmetic with no other dependency, so it sits with the foundations: the tables
(``analysis``) use it, and so does a run's stopping rule (``run.decisions``).
tests/test_stats.py checks it against scipy and numpy on raw samples."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion."""
    if trials <= 0:
        return (math.nan, math.nan)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_se(total: float, total_sq: float, n: float) -> tuple[float, float]:
    """Mean and its standard error from a sum and a sum of squares."""
    if n <= 0:
        return (math.nan, math.nan)
    mean = total / n
    if n < 2:
        return (mean, math.nan)
    var = max(total_sq - n * mean * mean, 0.0) / (n - 1)
    return (mean, math.sqrt(var / n))


def ratio_se(x: float, y: float, xx: float, xy: float, yy: float, n: float) -> tuple[float, float]:
    """Ratio estimate sum(x)/sum(y) over n independent deals, with its delta-method SE."""
    if y <= 0 or n < 2:
        return (math.nan, math.nan)
    r = x / y
    ybar = y / n
    resid_sq = xx - 2 * r * xy + r * r * yy  # sum over deals of (x_i - r y_i)^2
    var = max(resid_sq, 0.0) / (n - 1) / (n * ybar * ybar)
    return (r, math.sqrt(var))


def normal_ci(value: float, se: float, z: float = Z95) -> tuple[float, float]:
    """The normal (Wald) interval value +- z * se."""
    return (value - z * se, value + z * se)


def estimate(value: float, se: float = math.nan, lo: float = math.nan, hi: float = math.nan, n: float = math.nan,
             method: str = "") -> dict:  # fmt: skip
    """One estimate as the columns of a long-form table: value, se, its 95% interval
    (``lo``, ``hi`` when given, e.g. Wilson's; else the normal interval from ``se``), n, method."""
    if lo != lo and se == se:  # no interval given, an SE known
        lo, hi = normal_ci(value, se)
    return dict(value=value, se=se, ci_low=lo, ci_high=hi, n=n, method=method)
