"""The rule-variants study's plots: each rule set's value of a metric, and its paired
difference from the baseline. Object API only (no ``pyplot``); see :mod:`loo_sim.plots._common`."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from loo_sim.errors import LooError
from loo_sim.plots._common import require


def variant_bars(ax: Axes, table: pd.DataFrame, metric: str = "loo_rate", title: str | None = None) -> Axes:
    """One horizontal bar per rule variant for ``metric`` with its 95% interval.

    Parameters
    ----------
    ax : the Axes to draw on.
    table : long-form variants table (columns row, metric, value, ci_low, ci_high).
    metric : which metric to draw.
    """
    from loo_sim.analysis.variants import metric_label

    require(table, ("row", "metric", "value", "ci_low", "ci_high"), "variants")
    rows = table[table.metric == metric]
    if rows.empty:
        raise LooError(f"variants table has no metric {metric!r}")
    y = np.arange(len(rows))[::-1]
    values = rows.value.to_numpy(dtype=float)
    err = np.vstack([values - rows.ci_low.to_numpy(dtype=float), rows.ci_high.to_numpy(dtype=float) - values])
    ax.barh(y, values, xerr=np.nan_to_num(np.clip(err, 0, None)), color="tab:blue", alpha=0.8, capsize=3)
    ax.set_yticks(y, rows.row.astype(str).tolist())
    ax.set_xlabel(f"{metric_label(metric)}, 95% CI")
    ax.set_title(title if title is not None else f"{metric_label(metric)} by rule variant")
    ax.grid(axis="x", alpha=0.3)
    return ax


def variant_differences(
    ax: Axes, table: pd.DataFrame, baseline: str, metric: str = "loo_rate", title: str | None = None
) -> Axes:
    """Each rule variant's paired difference from ``baseline`` in ``metric`` (a point with its
    95% interval, written beside it), in the rows' order from the top like
    :func:`variant_bars`; a difference that is exactly 0 with SE 0 (no deal differs) is a
    hollow marker marked "0 on every deal", the baseline's own row is marked "baseline".

    Parameters
    ----------
    ax : the Axes to draw on.
    table : long-form variants table (columns row, metric, diff_vs_baseline, diff_se,
        diff_ci_low, diff_ci_high).
    baseline : the baseline row's name.
    metric : which metric to draw.

    Returns
    -------
    ``ax``; its ``lines`` hold one marker per row that is not the baseline.
    """

    cols = ("row", "metric", "diff_vs_baseline", "diff_se", "diff_ci_low", "diff_ci_high")
    require(table, cols, "variants")
    rows = table[table.metric == metric]
    if rows.empty:
        raise LooError(f"variants table has no metric {metric!r}")
    y = np.arange(len(rows))[::-1]
    names = rows.row.astype(str).tolist()
    d = rows.diff_vs_baseline.to_numpy(dtype=float)
    se = rows.diff_se.to_numpy(dtype=float)
    lo, hi = rows.diff_ci_low.to_numpy(dtype=float), rows.diff_ci_high.to_numpy(dtype=float)
    ax.axvline(0.0, color="black", linewidth=0.8)
    span = float(np.nanmax(np.append(np.abs(np.concatenate([lo, hi])), 0.0))) or 1.0
    for name, yi, di, si, a, b in zip(names, y, d, se, lo, hi):
        if name == baseline or not np.isfinite(di):
            ax.text(0.0, yi, "  baseline" if name == baseline else "  n/a", va="center", ha="left", fontsize=9,
                    color="0.4")  # fmt: skip
            continue
        if di == 0.0 and si == 0.0:
            ax.plot([0.0], [yi], marker="D", markerfacecolor="white", color="0.3", linestyle="none")
            ax.text(0.0, yi + 0.22, "0 on every deal", va="bottom", ha="center", fontsize=8, color="0.3")
            continue
        significant = a > 0 or b < 0
        colour = "tab:blue" if significant else "0.5"
        err = [[max(di - a, 0.0)], [max(b - di, 0.0)]]
        ax.errorbar([di], [yi], xerr=err, marker="o", color=colour, capsize=3, linestyle="none")
        ax.text(di, yi + 0.22, f"{di:+.3g} [{a:+.3g}, {b:+.3g}]", va="bottom", ha="center", fontsize=8,
                color=colour)  # fmt: skip
    ax.set_xlim(-1.35 * span, 1.35 * span)
    ax.set_yticks(y, names)
    ax.set_xlabel(f"paired difference from {baseline} on the same deals, 95% CI")
    ax.set_title(title if title is not None else f"against {baseline} on the same deals")
    ax.grid(axis="x", alpha=0.3)
    return ax
