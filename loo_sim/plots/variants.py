"""The rule-variants study's plot: a table of the headline metrics that differ between the rule
sets, one row per rule set and one column per metric, each cell the row's value and its paired
difference from the baseline, coloured by how far it is from the baseline's. Object API only
(no ``pyplot``); see :mod:`loo_sim.plots._common`."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.colors import Normalize

from loo_sim.base.errors import LooError
from loo_sim.plots._common import number_text, require

HEADLINE_METRICS: tuple[str, ...] = (
    "loo_rate",
    "contested_share",
    "single_share",
    "double_share",
    "pot_growth",
    "mean_pot",
    "net_variance",
    "session_variance",
    "inexact_sessions",
)
"""The metrics a variants figure may show, in this order: those of the clean-pot table
(``analysis.variants.METRIC_LABELS``) and of sessions; the net chips at each position stay in
the CSV and the summary."""
GID_VARIANT_CELLS = "variant-cells"
_COLUMNS = ("row", "metric", "value", "diff_vs_baseline", "diff_se", "diff_ci_low", "diff_ci_high")
_DEEP = 0.55  # a cell coloured deeper than this gets white text


def differing_metrics(table: pd.DataFrame, candidates: Sequence[str] = HEADLINE_METRICS) -> list[str]:
    """The metrics of ``candidates`` present in ``table`` whose value is not the same in
    every row, in the order of ``candidates``."""
    out = []
    for metric in candidates:
        values = pd.to_numeric(table.loc[table["metric"] == metric, "value"], errors="coerce").dropna()
        if len(values) and values.max() > values.min():
            out.append(metric)
    return out


def relative_difference(value: np.ndarray, base: np.ndarray) -> np.ndarray:
    """(value - base) / (|value| + |base|): 0 where they are equal (both 0 included), +-1/3 at
    twice or half, toward +-1 as the ratio grows, and defined whatever their signs."""
    total = np.abs(value) + np.abs(base)
    return np.divide(value - base, total, out=np.zeros_like(total, dtype=float), where=total > 0)


def variant_table(ax: Axes, table: pd.DataFrame, baseline: str, metrics: Sequence[str] | None = None, *,
                  label: Callable[[str], str] | None = None, unit: str = "deal") -> Axes:  # fmt: skip
    """The rule sets against the baseline, one column per metric that differs between them.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Axes to draw on.
    table : pandas.DataFrame
        The long-form variants table: columns ``row``, ``metric``, ``value``,
        ``diff_vs_baseline``, ``diff_se``, ``diff_ci_low`` and ``diff_ci_high``.
    baseline : str
        The baseline row's name.
    metrics : sequence of str, optional
        The columns, in order; default :func:`differing_metrics` (the headline metrics
        whose value is not the same in every row; the loo rate alone when none differs).
    label : callable, optional
        A metric's name in the column heading; default ``analysis.variants.metric_label``.
    unit : str, default "deal"
        What the paired differences pair ("deal", "session"), in the cells and the key.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``: one row per rule set in table order (the y tick labels; the baseline's
        says so), one column per metric (the x tick labels, on top, are the metrics'
        labels). Each cell is coloured by :func:`relative_difference` of its value from
        the baseline's (an image, gid ``"variant-cells"``: blue lower, red higher, white
        the same) and holds two lines: the value, and its paired difference from the
        baseline ("+0.118", with "?" where the 95% interval includes 0), "same in every
        deal" where the difference is 0 with standard error 0, or "baseline".

    Raises
    ------
    LooError
        If a column is missing, the table is empty, a metric is not in it, or the baseline
        is not one of its rows.
    """
    require(table, _COLUMNS, "variants")
    if label is None:
        from loo_sim.analysis.variants import metric_label as label
    metrics = list(metrics) if metrics is not None else differing_metrics(table) or ["loo_rate"]
    rows = list(dict.fromkeys(table["row"].astype(str)))
    if baseline not in rows:
        raise LooError(f"variants table has no row {baseline!r} (the baseline); rows: {', '.join(rows)}")
    cells = {m: _metric_cells(table, m, rows) for m in metrics}
    values = np.column_stack([cells[m]["value"].to_numpy(dtype=float) for m in metrics])
    colour = relative_difference(values, values[rows.index(baseline)])
    ax.imshow(colour, cmap=colormaps["RdBu_r"], norm=Normalize(-1.0, 1.0), aspect="auto", interpolation="nearest",
              gid=GID_VARIANT_CELLS)  # fmt: skip
    for j, m in enumerate(metrics):
        for i, cell in enumerate(cells[m].itertuples()):
            text = f"{number_text(cell.value, 4)}\n{_difference_text(cell, rows[i] == baseline, unit)}"
            ax.text(j, i, text, ha="center", va="center", fontsize="small",
                    color="white" if abs(colour[i, j]) > _DEEP else "black")  # fmt: skip
    _grid(ax, rows, metrics, baseline, label)
    return ax


def _metric_cells(table: pd.DataFrame, metric: str, rows: list[str]) -> pd.DataFrame:
    """One metric's rows, in the order of ``rows``."""
    mine = table[table["metric"] == metric].assign(row=lambda t: t["row"].astype(str))
    if mine.empty:
        raise LooError(f"variants table has no metric {metric!r}")
    return mine.drop_duplicates("row").set_index("row").reindex(rows)


def _difference_text(cell, is_baseline: bool, unit: str) -> str:
    """ "+0.118" (with "?" where its interval includes 0), "same on every deal" or "baseline"."""
    d, se, lo, hi = (float(getattr(cell, c)) for c in ("diff_vs_baseline", "diff_se", "diff_ci_low", "diff_ci_high"))
    if is_baseline:
        return "baseline"
    if not np.isfinite(d):
        return "n/a"
    if d == 0.0 and se == 0.0:
        return f"same in every {unit}"
    return number_text(d, sign=True) + ("?" if lo <= 0.0 <= hi else "")


def _grid(ax: Axes, rows: list[str], metrics: list[str], baseline: str, label: Callable[[str], str]) -> None:
    """Rule sets down the side, metric labels along the top, white lines between the cells."""
    ax.set_yticks(range(len(rows)), labels=[f"{r}\n(baseline)" if r == baseline else r for r in rows])
    ax.set_xticks(range(len(metrics)), labels=["\n".join(textwrap.wrap(label(m), 22)) for m in metrics])
    ax.xaxis.tick_top()
    ax.tick_params(axis="x", labelsize="small")
    ax.tick_params(which="both", length=0)
    ax.set_xticks(np.arange(-0.5, len(metrics)), minor=True)
    ax.set_yticks(np.arange(-0.5, len(rows)), minor=True)
    ax.grid(which="minor", color="white", linewidth=2.0)
    ax.grid(which="major", visible=False)
    ax.set_xlim(-0.5, len(metrics) - 0.5)
    ax.set_ylim(len(rows) - 0.5, -0.5)


def variant_table_key(baseline: str, unit: str = "deal") -> str:
    """The caption of :func:`variant_table`: what the colours and the two lines of a cell say."""
    return (f"Each cell: the rule set's value, and below it its paired difference from {baseline} on the same "
            f"{unit}s ('?': its 95% interval includes 0; 'same in every {unit}': the two never differ). Colour: "
            f"the value against {baseline}'s, blue lower, red higher, white the same, deeper the larger the ratio "
            "(2x or 1/2: a third of full colour). Values with intervals are in the CSV.")  # fmt: skip
