"""Plots of the decision tables (decision chart, heuristics, best-action sweep) and of the
rule-variants table (docs/design.md property 7: functions take an Axes and return it; no file I/O).

Every function draws onto an Axes or Figure the caller made and returns what it drew on;
none of them creates a figure window or writes a file. Only the object API of matplotlib
is used, so importing this module never needs a display (``pyplot`` is not imported).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.colors import Normalize
from matplotlib.figure import Figure, SubFigure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

from loo_sim.errors import LooError
from loo_sim.plots._common import decl_colours, decl_order, figure_legend, require

GID_BEST_SIGNIFICANT = "best-significant"
GID_BEST_UNCERTAIN = "best-uncertain"

_CHART_COLUMNS = ("hand_class", "label", "position", "action", "mean", "best", "significant")
_HEURISTIC_COLUMNS = ("heuristic", "diff_vs_baseline", "diff_ci_low", "diff_ci_high", "miss_rate")
_SWEEP_COLUMNS = ("players", "carried", "action", "share")
_CHART_KEY = (
    "best: from paired differences on the decisions where both actions were on offer\n"
    "solid box: best, its paired 95% interval against every other action excludes 0\n"
    "dashed box + ?: best, but not significantly better\n"
    "grey: action not on offer"
)
# marker, marker size, filled, line style, line width: where two lines coincide (the miss and
# defend both at 0, say) the wide dashed line and large hollow marker still show round the other
_SWEEP_STYLES = {
    "pass": ("s", 5.0, True, "-", 1.5),
    "play": ("o", 5.0, True, "-", 1.5),
    "miss": ("^", 10.0, False, "--", 3.0),
    "defend": ("x", 6.0, True, ":", 1.5),
}
_OTHER_STYLE = ("D", 5.0, True, "-.", 1.5)
SWEEP_LEGEND = "best action (lines that coincide overlap: the miss is the wide dashed line with hollow triangles)"


def _as_bool(values: pd.Series) -> np.ndarray:
    """Booleans that may have come back from a CSV as text ("True"/"False") or 0/1."""
    if values.dtype == bool:
        return values.to_numpy()
    text = values.astype(str).str.strip().str.lower()
    return text.isin(("true", "1", "1.0", "yes")).to_numpy()


def decision_chart_size(n_rows: int, n_cols: int = 4) -> tuple[float, float]:
    """Figure size (inches) that fits a decision chart of ``n_rows`` hand classes.

    Parameters
    ----------
    n_rows : int
        Number of hand-class rows in the chart.
    n_cols : int, default 4
        Number of action columns.

    Returns
    -------
    tuple of float
        ``(width, height)`` for ``Figure(figsize=...)``; the height grows with the rows.
    """
    return 4.5 + 1.1 * max(n_cols, 1), 1.6 + 0.3 * max(n_rows, 1)


def decision_chart(
    ax: Axes,
    chart: pd.DataFrame,
    position: str | int = "all",
    title: str | None = None,
    *,
    miss_on_offer: bool | None = None,
    earlier_in: str | int = "all",
    vlim: float | None = None,
    colorbar: bool = True,
    key: bool = True,
    pot_bucket: str = "all",
) -> Axes:
    """Heatmap of mean payoff by hand class and declaration, with the best action marked.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Axes to draw on; a colorbar is added next to it on the same figure. Size the
        figure with :func:`decision_chart_size` so the rows stay readable.
    chart : pandas.DataFrame
        Decision-chart table with at least the columns ``hand_class``, ``label``,
        ``position``, ``action``, ``mean``, ``best`` and ``significant`` (one row per hand
        class, cell and action on offer); where it has the columns ``miss_on_offer`` and
        ``earlier_in`` (``analysis.miss.chart_table``), one slice of them is drawn.
    position : str or int, default "all"
        Which position's rows to draw: ``"all"`` or a seat number 1..8. Compared as
        text, so positions read back from a CSV as strings match.
    title : str, optional
        Axes title; default ``"Best declaration by hand class ({slice})"``.
    miss_on_offer : bool, optional
        The cells where the miss was on offer (True) or not (False); default True where
        the table has such rows at this position, else False.
    earlier_in : str or int, default "all"
        Earlier seats in: ``"all"`` (pooled) or ``0``, ``1``, ``2``, ``"3+"`` (compared as text).
    vlim : float, optional
        The colour scale runs from -vlim to +vlim (share one over several charts with
        :func:`decision_chart_limit`); default the largest absolute mean drawn.
    colorbar : bool, default True
        Whether to add the colorbar.
    key : bool, default True
        Whether to write the key of the marks below the chart.
    pot_bucket : str, default "all"
        Where the table has the column ``pot_bucket`` (a chart of carried pots drawn from
        sessions): the pot against the penalty, ``"all"`` (every deal) or ``"<=1"``,
        ``"1-2"``, ``"2-4"``, ``"4-8"``, ``">8"``.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``. The best cell of each row is a :class:`~matplotlib.patches.Rectangle` in
        ``ax.patches`` with gid ``"best-significant"`` (solid) or ``"best-uncertain"``
        (dashed, with a "?": no significant winner over the runner-up). Cells of actions
        not on offer are masked and drawn grey.

    Raises
    ------
    LooError
        If a column is missing, no row has that slice, or a (class, action) pair
        appears twice in the slice.
    """
    require(chart, _CHART_COLUMNS, "decision chart")
    actions = decl_order(chart["action"])
    rows, where = _chart_rows(chart, position, miss_on_offer, earlier_in, pot_bucket)
    labels, values, cell_of = _chart_grid(rows, actions)
    lim = _heatmap(ax, values, actions, labels, vlim, colorbar)
    _cell_values(ax, values, lim)
    _best_marks(ax, rows, cell_of)
    ax.set_title(title if title is not None else f"Best declaration by hand class ({where})")
    if key:
        ax.annotate(
            _CHART_KEY,
            xy=(0.0, 0.0),
            xycoords="axes fraction",
            xytext=(0, -6),
            textcoords="offset points",
            ha="left",
            va="top",
            fontsize="x-small",
        )
    return ax


def decision_chart_limit(
    chart: pd.DataFrame,
    position: str | int = "all",
    *,
    miss_on_offer: bool | None = None,
    earlier_in: str | int = "all",
    pot_bucket: str = "all",
) -> float:
    """The colour limit :func:`decision_chart` would use for this slice (the largest
    absolute mean in it): take the largest over several charts and pass it to each as
    ``vlim`` so that their colours compare."""
    rows, _ = _chart_rows(chart, position, miss_on_offer, earlier_in, pot_bucket)
    finite = np.abs(rows["mean"].to_numpy(dtype=float))
    finite = finite[np.isfinite(finite)]
    return float(finite.max()) if finite.size and finite.max() > 0 else 1.0


def _chart_rows(
    chart: pd.DataFrame,
    position: str | int,
    miss_on_offer: bool | None,
    earlier_in: str | int,
    pot_bucket: str = "all",
) -> tuple[pd.DataFrame, str]:
    """The rows of one slice, with text actions and boolean ``_best`` / ``_sig`` columns (at
    most one row per (hand class, action)), and the slice in words."""
    pos_text = chart["position"].astype(str).str.strip()
    rows = chart[pos_text == str(position).strip()]
    if rows.empty:
        have = ", ".join(dict.fromkeys(pos_text))
        raise LooError(f"decision chart has no rows for position {position!r}; positions present: {have}")
    where = [f"position {position}"]
    if "miss_on_offer" in rows.columns:
        offer = _as_bool(rows["miss_on_offer"])
        want = bool(offer.any()) if miss_on_offer is None else bool(miss_on_offer)
        rows = rows[offer == want]
        where.append("miss on offer" if want else "miss not on offer")
    if "earlier_in" in rows.columns:
        rows = rows[rows["earlier_in"].astype(str).str.strip() == str(earlier_in).strip()]
        where.append("earlier seats in: any" if str(earlier_in) == "all" else f"{earlier_in} earlier seats in")
    if "pot_bucket" in rows.columns:
        rows = rows[rows["pot_bucket"].astype(str).str.strip() == str(pot_bucket).strip()]
        where.append("any pot" if str(pot_bucket) == "all" else f"pot {pot_bucket} penalties")
    text = ", ".join(where)
    if rows.empty:
        raise LooError(f"decision chart has no rows for {text}")
    rows = rows.assign(
        action=rows["action"].astype(str),
        _best=_as_bool(rows["best"]),
        _sig=_as_bool(rows["significant"]),
    )
    dupes = rows.duplicated(["hand_class", "action"])
    if dupes.any():
        first = rows[dupes].iloc[0]
        raise LooError(
            f"decision chart has more than one row for hand class {first['hand_class']}, "
            f"action {first['action']!r} at {text}"
        )
    return rows, text


def _chart_grid(rows: pd.DataFrame, actions: list[str]) -> tuple[list[str], np.ndarray, dict]:
    """Row labels (hand classes in increasing order), the mean of each (class, action) cell
    (NaN where the action is not on offer), and the (row, column) of each (class, action)."""
    classes = rows.drop_duplicates("hand_class").sort_values("hand_class", kind="stable")
    row_of = {hc: i for i, hc in enumerate(classes["hand_class"])}
    col_of = {a: j for j, a in enumerate(actions)}
    values = np.full((len(row_of), len(actions)), np.nan)
    cell_of = {}
    for hc, act, mean in zip(rows["hand_class"], rows["action"], rows["mean"]):
        cell_of[hc, act] = row_of[hc], col_of[act]
        values[cell_of[hc, act]] = float(mean)
    return [str(lb) for lb in classes["label"]], values, cell_of


def _heatmap(
    ax: Axes, values: np.ndarray, actions: list[str], labels: list[str], vlim: float | None, colorbar: bool
) -> float:
    """The cells on a diverging colormap centred at 0 (missing cells grey), with a colorbar,
    actions along the top and white lines between cells; the colour limit ``lim``."""
    if vlim is None:
        finite = values[np.isfinite(values)]
        vlim = float(np.max(np.abs(finite))) if finite.size else 1.0
    lim = float(vlim) if vlim > 0 else 1.0
    norm = Normalize(vmin=-lim, vmax=lim)  # symmetric limits: 0 sits at the centre of the colormap
    cmap = colormaps["RdBu"].with_extremes(bad="0.85")
    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, norm=norm, aspect="auto", interpolation="nearest")
    if colorbar:
        cbar = ax.figure.colorbar(image, ax=ax, fraction=0.08, pad=0.03)
        cbar.set_label("mean net chips per deal")

    n_rows, n_cols = values.shape
    ax.set_xticks(range(n_cols), labels=actions)
    ax.set_yticks(range(n_rows), labels=labels)
    ax.xaxis.tick_top()
    ax.tick_params(axis="both", length=0)
    ax.tick_params(axis="y", labelsize="small")
    ax.set_xticks(np.arange(-0.5, n_cols), minor=True)
    ax.set_yticks(np.arange(-0.5, n_rows), minor=True)
    ax.grid(which="minor", color="white", linewidth=1.0)
    ax.tick_params(which="minor", length=0)
    ax.set_xlim(-0.5, n_cols - 0.5)
    ax.set_ylim(n_rows - 0.5, -0.5)
    return lim


def _cell_values(ax: Axes, values: np.ndarray, lim: float) -> None:
    """Each cell with data labelled with its mean to one decimal (white on dark cells)."""
    for (i, j), v in np.ndenumerate(values):
        if np.isfinite(v):
            colour = "white" if abs(v) > 0.6 * lim else "black"
            text = f"{v:.1f}" if round(v, 1) != 0 else "0.0"
            ax.text(j, i, text, ha="center", va="center", fontsize="x-small", color=colour)


def _best_marks(ax: Axes, rows: pd.DataFrame, cell_of: dict) -> None:
    """A box round each row's best cell: solid if significantly better than the runner-up,
    else dashed with a "?"."""
    best = rows[rows["_best"]]
    for hc, act, sig in zip(best["hand_class"], best["action"], best["_sig"]):
        i, j = cell_of[hc, act]
        ax.add_patch(
            Rectangle(
                (j - 0.5, i - 0.5),
                1.0,
                1.0,
                fill=False,
                edgecolor="black",
                linewidth=2.5 if sig else 1.6,
                linestyle="-" if sig else "--",
                gid=GID_BEST_SIGNIFICANT if sig else GID_BEST_UNCERTAIN,
                zorder=3,
            )
        )
        if not sig:
            ax.text(j + 0.42, i - 0.38, "?", ha="right", va="top", fontsize="small", fontweight="bold", zorder=4)


def heuristic_bars(
    ax: Axes,
    heuristics: pd.DataFrame,
    baseline: str = "basic",
    title: str | None = None,
) -> Axes:
    """Horizontal bars of each heuristic's paired difference in net chips vs a baseline.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Axes to draw on.
    heuristics : pandas.DataFrame
        One row per heuristic with at least ``heuristic``, ``diff_vs_baseline``,
        ``diff_ci_low``, ``diff_ci_high`` (paired 95% interval) and ``miss_rate``.
        The baseline's own row (difference 0) is drawn like the others.
    baseline : str, default "basic"
        Name of the baseline heuristic, used in the axis label and to grey its bar.
    title : str, optional
        Axes title; default ``"Heuristics vs {baseline}"``.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``, whose ``patches`` are the bars, one per heuristic in table order (first
        at the top); each bar's width is its ``diff_vs_baseline``.

    Raises
    ------
    LooError
        If a required column is missing or the table is empty.
    """
    require(heuristics, _HEURISTIC_COLUMNS, "heuristics")
    names = [str(h) for h in heuristics["heuristic"]]
    diff = heuristics["diff_vs_baseline"].to_numpy(dtype=float)
    lo = heuristics["diff_ci_low"].to_numpy(dtype=float)
    hi = heuristics["diff_ci_high"].to_numpy(dtype=float)
    miss = heuristics["miss_rate"].to_numpy(dtype=float)
    xerr = np.vstack([np.nan_to_num(np.clip(diff - lo, 0, None)), np.nan_to_num(np.clip(hi - diff, 0, None))])
    colours = ["0.6" if n == baseline else ("tab:green" if d >= 0 else "tab:red") for n, d in zip(names, diff)]

    y = np.arange(len(names))
    ax.barh(y, diff, xerr=xerr, color=colours, height=0.6, error_kw={"ecolor": "black", "capsize": 3, "lw": 1})
    ax.axvline(0.0, color="black", linewidth=0.8)
    ax.set_yticks(y, labels=names)
    ax.set_ylim(len(names) - 0.5, -0.5)  # first heuristic on top
    ax.set_xlabel(f"net chips per deal vs {baseline} (paired, 95% CI)")
    ax.set_title(title if title is not None else f"Heuristics vs {baseline}")

    ends_lo = np.where(np.isfinite(lo), np.minimum(lo, diff), diff)
    ends_hi = np.where(np.isfinite(hi), np.maximum(hi, diff), diff)
    left = float(np.nanmin(np.append(ends_lo, 0.0)))
    right = float(np.nanmax(np.append(ends_hi, 0.0)))
    span = right - left if right > left else 1.0
    ax.set_xlim(left - (0.45 * span if left < 0 else 0.05 * span), right + (0.45 * span if right > 0 else 0.3 * span))

    for name, yi, d, a, b, m in zip(names, y, diff, ends_lo, ends_hi, miss):
        miss_text = f"miss {m:.0%}" if np.isfinite(m) else "miss n/a"
        value_text = "baseline" if name == baseline else f"{d:+.2f}"
        outward = d >= 0
        ax.annotate(
            f"{value_text}  ({miss_text})",
            xy=(b if outward else a, yi),
            xytext=(4 if outward else -4, 0),
            textcoords="offset points",
            ha="left" if outward else "right",
            va="center",
            fontsize="small",
        )
    ax.grid(axis="x", alpha=0.3)
    return ax


def best_action_sweep(fig: Figure | SubFigure, sweep: pd.DataFrame, title: str | None = None) -> list[Axes]:
    """Small multiples: share of decisions whose best action is each action, vs chips carried.

    Parameters
    ----------
    fig : matplotlib.figure.Figure or SubFigure
        Figure to add the panels to (it should be empty); one panel per number of
        players, in one row, sharing the y axis.
    sweep : pandas.DataFrame
        Columns ``players`` (int), ``carried`` (chips carried into the deal), ``action``
        and ``share`` (0..1, of the decisions where the action was on offer); ``n``
        (those decisions) may be present and is not drawn.
    title : str, optional
        Figure title; default ``"Best action vs chips carried into the deal"``.

    Returns
    -------
    list of matplotlib.axes.Axes
        The panels, in increasing number of players. Each has one line (with markers)
        per action present in it; colours, markers and line styles are the same in every
        panel (each action its own, so that coinciding lines stay visible), and the
        figure has a single legend.

    Raises
    ------
    LooError
        If a required column is missing or the table is empty.
    """
    require(sweep, _SWEEP_COLUMNS, "sweep")
    data = sweep.assign(action=sweep["action"].astype(str))
    actions = decl_order(data["action"])
    colours = decl_colours(actions)
    players = sorted(pd.unique(data["players"]))

    axes = list(fig.subplots(1, len(players), sharey=True, squeeze=False)[0])
    for ax, p in zip(axes, players):
        panel = data[data["players"] == p]
        for act in actions:
            line = panel[panel["action"] == act].sort_values("carried", kind="stable")
            if line.empty:
                continue
            ax.plot(
                line["carried"].to_numpy(dtype=float),
                line["share"].to_numpy(dtype=float),
                label=act,
                **_sweep_style(act, colours[act]),
            )
        ax.set_title(f"{p} players")
        ax.set_xlabel("chips carried into the deal")
        ax.grid(alpha=0.3)
    axes[0].set_ylim(-0.04, 1.04)
    axes[0].set_ylabel("share where best, of the\ndecisions where on offer")

    handles = [Line2D([], [], label=a, **_sweep_style(a, colours[a])) for a in actions]
    fig.suptitle(title if title is not None else "Best action vs chips carried into the deal")
    figure_legend(fig, handles, title=SWEEP_LEGEND, bottom=0.3, top=0.82)
    return axes


def _sweep_style(action: str, colour: str) -> dict:
    marker, size, filled, style, width = _SWEEP_STYLES.get(action, _OTHER_STYLE)
    return dict(color=colour, marker=marker, markersize=size, markerfacecolor=colour if filled else "none",
                markeredgewidth=1.5, linestyle=style, linewidth=width, zorder=2 if filled else 1.5)  # fmt: skip


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
