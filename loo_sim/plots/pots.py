"""The pots study's plots: the pot at the start of each deal (a fan chart per arm) and the
largest pot of a session (how far each arm's pot reaches). Object API only (no ``pyplot``); see
:mod:`loo_sim.plots._common`."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure, SubFigure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from loo_sim.base.errors import LooError
from loo_sim.plots._common import arm_colours, arm_order, arm_table, chips_text, figure_legend

GID_POT_MEDIAN = "pot-median"
GID_POT_BAND_50 = "pot-band-50"
GID_POT_BAND_90 = "pot-band-90"
GID_SESSIONS_RUNNING = "sessions-running"
GID_FAN_CUT = "fan-cut"

_QUANTILE_COLUMNS = ("q05", "q25", "q50", "q75", "q95")
_POT_COLUMNS = ("arm", "deal", "sessions", *_QUANTILE_COLUMNS)
_CCDF_COLUMNS = ("arm", "pot", "share_at_least")
_POT_YLABEL = "pot at the start of the deal, chips"
_RUNNING_LINE = {"color": "0.35", "linewidth": 0.9, "linestyle": "--"}


def fan_grid(n: int) -> tuple[int, int]:
    """(rows, columns) of the fan chart's panels for n arms: one row up to three, else the squarest
    grid that holds them (``report/kinds/pots.py`` sizes the figure by it)."""
    if n <= 3:
        return 1, max(n, 1)
    cols = int(np.ceil(np.sqrt(n)))
    return int(np.ceil(n / cols)), cols


MIN_RUNNING = 0.02
"""The fan stops where fewer than this share of an arm's sessions still run: quantiles of a
handful of survivors zig-zag and say little."""


def pot_fan_chart(fig: Figure | SubFigure, pot_by_deal: pd.DataFrame, title: str | None = None,
                  min_running: float = MIN_RUNNING) -> list[Axes]:  # fmt: skip
    """Small multiples: median and 50% / 90% bands of the pot at the start of each deal, per arm.

    Parameters
    ----------
    fig : matplotlib.figure.Figure or SubFigure
        Figure to add the panels to (it should be empty): one panel per arm, in one row
        for up to three arms, else in a grid (unused grid cells are removed).
    pot_by_deal : pandas.DataFrame
        Columns ``arm`` (text), ``deal`` (0-based deal index), ``sessions`` (sessions
        still running at that deal) and ``q05``, ``q25``, ``q50``, ``q75``, ``q95``
        (quantiles over those sessions of the pot at the start of the deal, chips).
    title : str, optional
        Figure title; default ``"Pot at the start of each deal"``.
    min_running : float, optional
        The bands and the median are drawn only at deals where at least this share of
        the arm's sessions (of those at its first deal) still run; default 2%.

    Returns
    -------
    list of matplotlib.axes.Axes
        The panels, one per arm in order of first appearance, titled with the arm name.
        Each holds the median as a step line (gid ``"pot-median"``, y data = ``q50`` in
        deal order; each deal's value centred on it) and two filled step bands, q25..q75
        (gid ``"pot-band-50"``) and the lighter q05..q95 (gid ``"pot-band-90"``), over
        the deals where at least ``min_running`` of the sessions still run. Every panel
        has the same y axis (shared, tick labels on the first column), so heights compare
        across arms: logarithmic when every quantile drawn in any panel is positive and
        ``q95.max() / q05.min() > 100`` over them all, else linear; the label on the first
        column says which (``"... (chips, log scale, the same in every panel)"``). The x
        axes run over the same deals. When ``sessions`` falls below its value at the panel's first deal
        (sessions stopped by ruin or overflow), a twin y axis on the right (in
        ``fig.axes`` but not in the returned list) shows the share of sessions still
        running as a thin dashed line (gid ``"sessions-running"``, over every deal of
        the table), and where the fan stops a dotted vertical line marks its last deal
        (gid ``"fan-cut"``). The figure has a single legend; when a fan stops early,
        the legend's title is a caption that says so.

    Raises
    ------
    LooError
        If a required column is missing or not numeric, the table is empty, or an
        (arm, deal) pair appears twice.
    """
    data = arm_table(pot_by_deal, _POT_COLUMNS, "pot-by-deal", key="deal")
    arms = arm_order(data["arm"])
    colours = arm_colours(arms)
    n_rows, n_cols = fan_grid(len(arms))
    axes = _panels(fig, n_rows, n_cols, len(arms))
    shown, any_stopped, cut = [], False, False
    for ax, arm in zip(axes, arms):
        drawn, stopped, stops = _arm_fan(ax, data[data["arm"] == arm], colours[arm], min_running)
        shown.append(drawn)
        any_stopped, cut = any_stopped or stopped, cut or stops
    _one_scale(axes, pd.concat(shown), data["deal"].to_numpy(), n_cols)

    fig.suptitle(title if title is not None else "Pot at the start of each deal")
    caption = (f"The bands and the median stop (dotted line) where fewer than {min_running:.0%} of an arm's "
               "sessions still run; the dashed line goes on to the last deal." if cut else None)  # fmt: skip
    legend = figure_legend(
        fig,
        _fan_handles(any_stopped, cut),
        title=caption,
        bottom=0.22 if n_rows == 1 else 0.12,
        top=0.85 if n_rows == 1 else 0.9,
        hspace=0.5,
        wspace=0.55 if any_stopped else 0.3,
    )
    legend.get_title().set_fontsize("small")
    return axes


def _panels(fig: Figure | SubFigure, n_rows: int, n_cols: int, n: int) -> list[Axes]:
    """The first ``n`` cells of an ``n_rows`` x ``n_cols`` grid of panels sharing the y axis;
    the rest are removed."""
    grid = fig.subplots(n_rows, n_cols, squeeze=False, sharey=True)
    cells = [ax for row in grid for ax in row]
    for spare in cells[n:]:
        spare.remove()
    return cells[:n]


def _arm_fan(ax: Axes, panel: pd.DataFrame, colour: str, min_running: float) -> tuple[pd.DataFrame, bool, bool]:
    """One arm's panel: its fan over the deals where at least ``min_running`` of its sessions
    run, the share still running and the line where the fan stops; returns the rows drawn,
    whether sessions stopped and whether the fan stops before the last deal."""
    panel = panel.sort_values("deal", kind="stable")
    sessions = panel["sessions"].to_numpy()
    shown = panel[sessions >= min_running * sessions[0]] if np.isfinite(sessions[0]) else panel
    shown = shown if len(shown) else panel.iloc[:1]
    _fan(ax, shown, colour)
    ax.set_title(str(panel["arm"].iloc[0]))
    stopped = _sessions_running(ax, panel)
    cut = len(shown) < len(panel)
    if cut:
        ax.axvline(float(shown["deal"].iloc[-1]), color="0.35", linewidth=0.9, linestyle=":", gid=GID_FAN_CUT)
    return shown, stopped, cut


def _fan(ax: Axes, panel: pd.DataFrame, colour: str) -> None:
    """One arm's 90% and 50% bands and median line, in deal order."""
    x = panel["deal"].to_numpy()
    q = {c: panel[c].to_numpy() for c in _QUANTILE_COLUMNS}
    step = {"step": "mid"} if len(x) > 1 else {}  # one value per deal: drawn as steps
    ax.fill_between(x, q["q05"], q["q95"], color=colour, alpha=0.18, linewidth=0, gid=GID_POT_BAND_90, **step)
    ax.fill_between(x, q["q25"], q["q75"], color=colour, alpha=0.4, linewidth=0, gid=GID_POT_BAND_50, **step)
    ax.plot(x, q["q50"], color=colour, linewidth=1.8, marker="o" if len(x) == 1 else None, gid=GID_POT_MEDIAN,
            drawstyle="steps-mid")  # fmt: skip
    ax.grid(alpha=0.3)


def _one_scale(axes: list[Axes], shown: pd.DataFrame, deals: np.ndarray, n_cols: int) -> None:
    """One y scale for every panel (log when every quantile drawn is positive and they span
    more than a factor 100), said on the first column; the same deals along every x axis."""
    values = shown[list(_QUANTILE_COLUMNS)].to_numpy(dtype=float)
    values = values[np.isfinite(values)]
    low, high = np.nanmin(shown["q05"], initial=np.inf), np.nanmax(shown["q95"], initial=-np.inf)
    log = bool(values.size and (values > 0).all() and 0 < low < np.inf and high / low > 100)
    first, last = float(np.nanmin(deals)), float(np.nanmax(deals))
    for i, ax in enumerate(axes):
        ax.set_yscale("log" if log else "linear")
        if log and high / low < 1e6:  # a few decades: ticks at 1, 2, 5 x 10^k, written as plain chips
            _plain_log_ticks(ax.yaxis)
        if last > first:
            ax.set_xlim(first, last)
        ax.set_xlabel("deal of the session (0 = the first)")
        if i % n_cols == 0:
            ax.set_ylabel(f"{_POT_YLABEL}\n({'log' if log else 'linear'} scale, the same in every panel)")


def _sessions_running(ax: Axes, panel: pd.DataFrame) -> bool:
    """Whether sessions stopped before the last deal; if so, the share still running as a
    dashed line on a twin y axis on the right."""
    sessions = panel["sessions"].to_numpy()
    first = sessions[0]
    if not (np.isfinite(first) and first > 0 and np.nanmin(sessions) < first):
        return False
    twin = ax.twinx()
    twin.plot(panel["deal"].to_numpy(), sessions / first, **_RUNNING_LINE, gid=GID_SESSIONS_RUNNING)
    twin.set_ylim(0.0, 1.05)
    twin.set_ylabel("share of sessions still running", fontsize="small", color="0.35")
    twin.tick_params(axis="y", labelsize="small", colors="0.35")
    return True


def _fan_handles(any_stopped: bool, cut: bool = False) -> list:
    handles = [
        Line2D([], [], color="0.2", linewidth=1.8, label="median"),
        Rectangle((0, 0), 1, 1, color="0.2", alpha=0.4, linewidth=0, label="middle 50% of sessions"),
        Rectangle((0, 0), 1, 1, color="0.2", alpha=0.18, linewidth=0, label="middle 90% of sessions"),
    ]
    if any_stopped:
        handles.append(Line2D([], [], **_RUNNING_LINE, label="share still running"))
    if cut:
        handles.append(Line2D([], [], color="0.35", linewidth=0.9, linestyle=":", label="fan stops"))
    return handles


REACH_LEVELS: tuple[float, ...] = (1.0, 0.5, 0.1, 0.01)
"""The shares of an arm's sessions (or deals) whose reach is marked: the pot that every one, half,
one in ten and one in a hundred of them reach; 0 stands for the largest pot seen."""
_REACH_WORDS = {1.0: "all", 0.5: "half", 0.1: "1 in 10", 0.01: "1 in 100"}
_REACH_MARKERS = {1.0: ("o", False), 0.5: ("o", True), 0.1: ("^", True), 0.01: ("D", True), 0.0: ("X", True)}
GID_REACH_LINE = "reach-line"
GID_REACH_MARK = "reach-mark"
_TINY = 1e-9  # a share read back from a CSV may miss 1 or 0.5 in the last digit


def pot_reach(ccdf: pd.DataFrame) -> pd.DataFrame:
    """The pot each share of :data:`REACH_LEVELS` of an arm's sessions reach, and the largest.

    Parameters
    ----------
    ccdf : pandas.DataFrame
        Columns ``arm``, ``pot`` and ``share_at_least`` (the share of the arm's sessions
        whose value was at least ``pot``), as ``analysis.pots.max_pot_ccdf`` makes it.

    Returns
    -------
    pandas.DataFrame
        Columns ``arm``, ``level`` and ``pot``: for each arm in order of first appearance and
        each level p of :data:`REACH_LEVELS`, the largest pot whose share is at least p; then
        level 0, the largest pot. A level finer than the table resolves (below its smallest
        share over all arms, about 1 / sessions) is left out.
    """
    finest = float(ccdf["share_at_least"].min())
    rows = []
    for arm in arm_order(ccdf["arm"]):
        mine = ccdf[ccdf["arm"] == arm]
        pot, share = mine["pot"].to_numpy(dtype=float), mine["share_at_least"].to_numpy(dtype=float)
        for level in (lv for lv in REACH_LEVELS if lv >= finest - _TINY):
            reached = pot[share >= level - _TINY]
            rows.append(dict(arm=arm, level=level, pot=float(reached.max()) if reached.size else float("nan")))
        rows.append(dict(arm=arm, level=0.0, pot=float(pot.max())))
    return pd.DataFrame(rows, columns=["arm", "level", "pot"])


def largest_pot_chart(ax: Axes, ccdf: pd.DataFrame, title: str | None = None, *, counted: str = "sessions",
                      quantity: str = "largest pot of a session") -> Axes:  # fmt: skip
    """One row per arm: how far its pot reaches, marked at the pot that all, half, one in ten
    and one in a hundred of its sessions reach, and at the largest seen, with the numbers
    written under the row.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Axes to draw on.
    ccdf : pandas.DataFrame
        Columns ``arm``, ``pot`` (chips, > 0) and ``share_at_least`` (share of the arm's
        sessions whose largest pot was at least ``pot``, in (0, 1]). Rows whose pot or
        share is not positive are left out.
    title : str, optional
        Axes title; default ``"Largest pot of a session"``.
    counted : str, default "sessions"
        What the shares count, in the legend ("half the sessions").
    quantity : str, default "largest pot of a session"
        What the pot is, in the x label.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``: the arms as rows in order of first appearance (the y tick labels), each a
        line (gid ``"reach-line"``) from the pot all its sessions reach to the largest,
        a marker per level of :func:`pot_reach` (gid ``"reach-mark"``, x = the pot, label
        the level) and a text under the row ("all ≥ 24 · half ≥ 27 · ... · largest 27").
        One x axis for every arm: log when the pots span more than a factor 30 (written as
        plain chips up to a million times), else linear. The legend of the markers is the
        figure's, below the axes (:func:`~loo_sim.plots._common.figure_legend`).

    Raises
    ------
    LooError
        If a required column is missing or not numeric, the table is empty, or no row
        has a positive pot and share.
    """
    data = arm_table(ccdf, _CCDF_COLUMNS, "largest-pot ccdf")
    pot, share = data["pot"].to_numpy(), data["share_at_least"].to_numpy()
    data = data[np.isfinite(pot) & np.isfinite(share) & (pot > 0) & (share > 0)]
    if data.empty:
        raise LooError("largest-pot ccdf table has no row with a positive pot and share; nothing to plot")
    reach = pot_reach(data)
    arms = arm_order(data["arm"])
    colours = arm_colours(arms)
    for i, arm in enumerate(arms):
        _reach_row(ax, i, reach[reach["arm"] == arm], colours[arm])
    ax.set_yticks(range(len(arms)), labels=arms)
    ax.set_ylim(len(arms) - 0.3, -0.6)
    _reach_x_axis(ax, float(data["pot"].min()), float(data["pot"].max()))
    ax.set_xlabel(f"{quantity} (chips)")
    ax.set_title(title if title is not None else "Largest pot of a session")
    ax.grid(axis="x", which="major", alpha=0.3)
    handles = [Line2D([], [], linestyle="none", markersize=7, label=_reach_label(lv, counted),
                      **_marker_style(lv, "0.3")) for lv in sorted(set(reach["level"]), reverse=True)]  # fmt: skip
    legend = figure_legend(ax.figure, handles, title="the pot reached by", bottom=0.25)
    legend.get_title().set_fontsize("small")
    return ax


def _reach_row(ax: Axes, y: int, rows: pd.DataFrame, colour: str) -> None:
    """One arm's line, markers and the numbers under them."""
    pots = dict(zip(rows["level"], rows["pot"]))
    ax.plot([pots.get(1.0, pots[0.0]), pots[0.0]], [y, y], color=colour, linewidth=2.5, alpha=0.45,
            solid_capstyle="butt", gid=GID_REACH_LINE)  # fmt: skip
    for level, pot in pots.items():
        ax.plot([pot], [y], linestyle="none", markersize=7, label=_REACH_WORDS.get(level, "largest"),
                gid=GID_REACH_MARK, **_marker_style(level, colour))  # fmt: skip
    words = [f"{_REACH_WORDS[lv]} \u2265 {chips_text(p)}" for lv, p in pots.items() if lv in _REACH_WORDS]
    text = "  \u00b7  ".join([*words, f"largest {chips_text(pots[0.0])}"])
    ax.annotate(text, xy=(0.0, y), xycoords=("axes fraction", "data"), xytext=(4, -8), textcoords="offset points",
                ha="left", va="top", fontsize="small", color="0.2")  # fmt: skip


def _marker_style(level: float, colour: str) -> dict:
    marker, filled = _REACH_MARKERS[level]
    return dict(marker=marker, color=colour, markerfacecolor=colour if filled else "white", markeredgewidth=1.3)


def _reach_label(level: float, counted: str) -> str:
    if level == 0.0:
        return "the largest seen"
    return {1.0: f"all the {counted}", 0.5: f"half the {counted}"}.get(level, f"{_REACH_WORDS[level]} {counted}")


def _reach_x_axis(ax: Axes, low: float, high: float) -> None:
    """Log when the pots span more than a factor 30, else linear; a margin either side."""
    if high / low > 30:
        span = np.log10(high / low)
        ax.set_xscale("log")
        ax.set_xlim(low / 10 ** (0.05 * span), high * 10 ** (0.05 * span))
        if high / low < 1e6:
            _plain_log_ticks(ax.xaxis)
    else:
        margin = max(0.05 * (high - low), 0.05 * high, 1.0)
        ax.set_xlim(max(low - margin, 0.0), high + margin)


def _plain_log_ticks(axis) -> None:
    """Ticks of a log axis at 1, 2 and 5 x 10^k, written as plain numbers (20, 1,000)."""
    axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}" if v >= 1 else f"{v:g}"))
    axis.set_minor_formatter(NullFormatter())
