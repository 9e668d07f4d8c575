"""The miss study's other plots: the heuristics' paired differences from a baseline (bars)
and how often each declaration is best as the pot carried in grows (the sweep). Object API
only (no ``pyplot``); see :mod:`loo_sim.plots._common`."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure, SubFigure
from matplotlib.lines import Line2D

from loo_sim.plots._common import decl_colours, decl_order, figure_legend, require

_HEURISTIC_COLUMNS = ("heuristic", "diff_vs_baseline", "diff_ci_low", "diff_ci_high", "miss_rate")
_SWEEP_COLUMNS = ("players", "carried", "action", "share")
GID_SWEEP_BAR = "sweep-bar"
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
        figure has a single legend. A table of one pot value has no sweep to draw: each
        panel is then a bar per action (gid ``"sweep-bar"``) labelled with its share (and,
        where the table has ``n``, the decisions it is of), the actions named on the x axis
        and the pot in its label; no legend.

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
    fig.suptitle(title if title is not None else "Best action vs chips carried into the deal")
    axes = list(fig.subplots(1, len(players), sharey=True, squeeze=False)[0])
    if data["carried"].nunique() == 1:
        for ax, p in zip(axes, players):
            _share_bars(ax, data[data["players"] == p], actions, colours)
        axes[0].set_ylabel("share where best, of the\ndecisions where on offer")
        return axes
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
        pots = np.unique(panel["carried"].to_numpy(dtype=float))
        if len(pots) <= 8:  # ticks at the pots measured, not between them
            ax.set_xticks(pots, labels=[f"{v:g}" for v in pots])
        ax.grid(alpha=0.3)
    axes[0].set_ylim(-0.04, 1.04)
    axes[0].set_yticks(np.linspace(0, 1, 6), labels=[f"{t:.0%}" for t in np.linspace(0, 1, 6)])
    axes[0].set_ylabel("share where best, of the\ndecisions where on offer")

    handles = [Line2D([], [], label=a, **_sweep_style(a, colours[a])) for a in actions]
    figure_legend(fig, handles, title=SWEEP_LEGEND, bottom=0.3, top=0.82)
    return axes


def _sweep_style(action: str, colour: str) -> dict:
    marker, size, filled, style, width = _SWEEP_STYLES.get(action, _OTHER_STYLE)
    return dict(color=colour, marker=marker, markersize=size, markerfacecolor=colour if filled else "none",
                markeredgewidth=1.5, linestyle=style, linewidth=width, zorder=2 if filled else 1.5)  # fmt: skip


def _share_bars(ax: Axes, panel: pd.DataFrame, actions: list[str], colours: dict[str, str]) -> None:
    """One pot value: a bar per action of how often it is best, its share written on it."""
    rows = panel.set_index("action").reindex([a for a in actions if a in set(panel["action"])])
    x = np.arange(len(rows))
    share = rows["share"].to_numpy(dtype=float)
    ax.bar(x, share, color=[colours[a] for a in rows.index], width=0.6, gid=GID_SWEEP_BAR)
    for xi, v, n in zip(x, share, rows["n"] if "n" in rows.columns else [None] * len(rows)):
        of = f"\nof {int(n):,}" if n is not None and np.isfinite(n) else ""
        ax.annotate(f"{v:.0%}{of}", xy=(xi, v), xytext=(0, 3), textcoords="offset points", ha="center", va="bottom",
                    fontsize="small")  # fmt: skip
    ax.set_xticks(x, labels=list(rows.index))
    ax.set_ylim(0.0, 1.2)  # room for the labels above a bar of 100%
    ax.set_yticks(np.linspace(0, 1, 6), labels=[f"{t:.0%}" for t in np.linspace(0, 1, 6)])
    ax.set_title(f"{panel['players'].iloc[0]} players")
    ax.set_xlabel(f"best action, {panel['carried'].iloc[0]:g} chips carried into the deal")
    ax.grid(axis="y", alpha=0.3)
