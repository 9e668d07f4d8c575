"""Numbers in words, for every study's summary.md: chips, intervals at the precision they
support, and shares. ``simulate_text``, ``miss_text``, ``pots_text``, ``variants_text`` and
``equilibrium_text`` all write their numbers with these, so a figure reads the same in each.
"""

from __future__ import annotations

import math

from loo_sim.base.stats import normal_ci


def per_deal_ci(mean: float, se: float) -> str:
    """A mean in chips per deal with its normal 95% interval: ``+0.12 chips per deal, 95% CI [...]``."""
    lo, hi = normal_ci(mean, se)
    return f"{mean:+.2f} chips per deal, 95% CI [{lo:+.2f}, {hi:+.2f}]"


def chips_text(x: float) -> str:
    """Chips as a person reads them: 21, 1,520, 3.4e+12."""
    if x != x:
        return "n/a"
    if abs(x) >= 1e7:
        return f"{x:.3g}"
    if abs(x) >= 100 or float(x).is_integer():
        return f"{x:,.0f}"
    return f"{x:.2f}"


def prose_number(x: float) -> str:
    """A number for prose: 4 significant digits, thousands separated where whole and large."""
    if x != x:
        return "n/a"
    if abs(x) >= 1e6:
        return f"{x:.3g}"
    return f"{x:,.4g}" if abs(x) >= 1000 else f"{x:.4g}"


def interval_decimals(lo: float, hi: float) -> int:
    """Decimals that show an interval's half-width to one significant digit (two when it
    starts with 1 or 2), and more if its ends would still print alike (never ``[+1, +1]``)."""
    half = (hi - lo) / 2
    d = 0
    if half > 0 and math.isfinite(half):
        e = math.floor(math.log10(half))
        d = max(0, -e + (1 if half / 10.0**e < 3 else 0))
    while d < 12 and f"{lo:.{d}f}" == f"{hi:.{d}f}":
        d += 1
    return d


def decimals_text(x: float, d: int, signed: bool = False, unit: str = "") -> str:
    """``x`` with ``d`` decimals, thousands separated (0, and 100 of a percentage, without
    decimals), or in scientific notation past 1e7; no sign on a number that prints as 0."""
    if x != x:
        return "n/a"
    if abs(x) < 1e-12:
        x = 0.0
    sign = "+" if signed else ""
    if math.isfinite(x) and abs(x) >= 1e7:
        return f"{x:{sign}.3g}{unit}"
    if unit == "%" and abs(abs(x) - 100) < 1e-9:
        x, d = math.copysign(100.0, x), 0
    if x == 0:
        d = 0
    text = f"{x:{sign},.{d}f}"
    if not text.strip("+-0.,"):  # prints as zero
        text = text.lstrip("+-")
    return text + unit


def interval_text(value: float, lo: float, hi: float, *, pct: bool = False, signed: bool = False) -> str:
    """A value with its 95% interval at a precision the interval supports:
    ``2.132 [2.128, 2.136]``, ``0.35% [0.27%, 0.44%]``; a value known exactly (an
    interval of width 0) prints alone; without an interval, three significant digits."""
    scale, unit = (100.0, "%") if pct else (1.0, "")
    v, a, b = value * scale, lo * scale, hi * scale
    if v != v:
        return "n/a"
    if a != a or b != b:
        d = 0 if v == 0 or abs(v) >= 100 else max(0, 2 - math.floor(math.log10(abs(v))))
        return decimals_text(v, d, signed, unit)
    if b - a <= 1e-7 * abs(v) or a == b:  # known exactly, up to the rounding of sums of squares
        if not math.isfinite(v) or abs(v - round(v)) <= 1e-7 * abs(v):
            return decimals_text(float(round(v)) if math.isfinite(v) else v, 0, signed, unit)
        return decimals_text(v, max(0, 3 - math.floor(math.log10(abs(v)))), signed, unit)  # four significant digits
    if abs(v) >= 1e7 and math.isfinite(v):
        sign, g = "+" if signed else "", 2
        if b > a and math.isfinite(b - a):
            g = max(2, math.floor(math.log10(max(abs(a), abs(b)))) - math.floor(math.log10((b - a) / 2)) + 1)
        while g < 17 and f"{a:.{g}g}" == f"{b:.{g}g}":
            g += 1
        return f"{v:{sign}.{g}g}{unit} [{a:{sign}.{g}g}{unit}, {b:{sign}.{g}g}{unit}]"
    d = interval_decimals(a, b)
    v_text, a_text, b_text = (decimals_text(x, d, signed, unit) for x in (v, a, b))
    return f"{v_text} [{a_text}, {b_text}]"


def percent(share: float) -> str:
    """A share as a person reads it: 62%, 0.4%, under 0.1% (never "0%" unless it is 0)."""
    if share == 0:
        return "0%"
    if share == 1:
        return "100%"
    if share < 0.001:
        return "under 0.1%"
    if share > 0.999:
        return "over 99.9%"
    if share < 0.01 or share > 0.99:
        return f"{share:.1%}"
    return f"{share:.0%}"
