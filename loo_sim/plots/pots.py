"""The pots study's plots: the pot at the start of each deal (a fan chart per arm) and the
largest pot of a session (a complementary CDF). Object API only (no ``pyplot``); see
:mod:`loo_sim.plots._common`."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure, SubFigure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from loo_sim.errors import LooError
from loo_sim.plots._common import arm_colours, arm_order, arm_table, figure_legend

GID_POT_MEDIAN = "pot-median"
GID_POT_BAND_50 = "pot-band-50"
GID_POT_BAND_90 = "pot-band-90"
GID_SESSIONS_RUNNING = "sessions-running"
GID_FAN_CUT = "fan-cut"

_QUANTILE_COLUMNS = ("q05", "q25", "q50", "q75", "q95")
_POT_COLUMNS = ("arm", "deal", "sessions", *_QUANTILE_COLUMNS)
_CCDF_COLUMNS = ("arm", "pot", "share_at_least")
_POT_YLABEL = "pot at the start of the deal (chips)"
_RUNNING_LINE = {"color": "0.35", "linewidth": 0.9, "linestyle": "--"}


def fan_grid(n: int) -> tuple[int, int]:
    """(rows, columns) of the fan chart's panels for n arms: one row up to three, else the squarest
    grid that holds them (``report.figures`` sizes the figure by it)."""
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
        the deals where at least ``min_running`` of the sessions still run. The y axis
        is logarithmic when every quantile drawn is positive and ``q95.max() /
        q05.min() > 100``, else linear, and its label says which (``"... (chips, log
        scale)"``). When ``sessions`` falls below its value at the panel's first deal
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
    any_stopped = cut = False
    for ax, arm in zip(axes, arms):
        panel = data[data["arm"] == arm].sort_values("deal", kind="stable")
        sessions = panel["sessions"].to_numpy()
        shown = panel[sessions >= min_running * sessions[0]] if np.isfinite(sessions[0]) else panel
        _fan(ax, shown if len(shown) else panel.iloc[:1], colours[arm])
        ax.set_title(arm)
        any_stopped |= _sessions_running(ax, panel)
        if 0 < len(shown) < len(panel):
            cut = True
            ax.axvline(float(shown["deal"].iloc[-1]), color="0.35", linewidth=0.9, linestyle=":", gid=GID_FAN_CUT)
            ax.set_xlim(float(panel["deal"].iloc[0]), float(panel["deal"].iloc[-1]))

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
    """The first ``n`` cells of an ``n_rows`` x ``n_cols`` grid of panels; the rest are removed."""
    grid = fig.subplots(n_rows, n_cols, squeeze=False)
    cells = [ax for row in grid for ax in row]
    for spare in cells[n:]:
        spare.remove()
    return cells[:n]


def _fan(ax: Axes, panel: pd.DataFrame, colour: str) -> None:
    """One arm's 90% and 50% bands and median line, in deal order; the y axis is log when
    every quantile is positive and they span more than a factor 100, and its label says which."""
    x = panel["deal"].to_numpy()
    q = {c: panel[c].to_numpy() for c in _QUANTILE_COLUMNS}
    step = {"step": "mid"} if len(x) > 1 else {}  # one value per deal: drawn as steps
    ax.fill_between(x, q["q05"], q["q95"], color=colour, alpha=0.18, linewidth=0, gid=GID_POT_BAND_90, **step)
    ax.fill_between(x, q["q25"], q["q75"], color=colour, alpha=0.4, linewidth=0, gid=GID_POT_BAND_50, **step)
    ax.plot(x, q["q50"], color=colour, linewidth=1.8, marker="o" if len(x) == 1 else None, gid=GID_POT_MEDIAN,
            drawstyle="steps-mid")  # fmt: skip

    values = np.concatenate(list(q.values()))
    values = values[np.isfinite(values)]
    low, high = np.nanmin(q["q05"], initial=np.inf), np.nanmax(q["q95"], initial=-np.inf)
    log = bool(values.size and (values > 0).all() and 0 < low < np.inf and high / low > 100)
    if log:
        ax.set_yscale("log")
    ax.set_xlabel("deal (0-based index)")
    ax.set_ylabel(f"{_POT_YLABEL[:-1]}, {'log' if log else 'linear'} scale)")
    ax.grid(alpha=0.3)
    if len(x) > 1:
        ax.set_xlim(float(x[0]), float(x[-1]))


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


_ARM_STYLES = ("-", "--", "-.", ":")
"""Line styles of the arms (in turn with the colours), so arms whose lines coincide stay visible."""
_FEW_POINTS = 30
"""An arm with at most this many largest pots (a discrete, narrow distribution) gets markers too."""


def max_pot_ccdf(ax: Axes, ccdf: pd.DataFrame, title: str | None = None) -> Axes:
    """Log-log step lines: share of sessions whose largest pot reached at least x, per arm.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Axes to draw on.
    ccdf : pandas.DataFrame
        Columns ``arm``, ``pot`` (chips, > 0) and ``share_at_least`` (share of the arm's
        sessions whose largest pot was at least ``pot``, in (0, 1]). Rows whose pot or
        share is not positive cannot be shown on log axes and are left out.
    title : str, optional
        Axes title; default ``"Largest pot of a session"``.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``, with one line per arm in order of first appearance (labelled with the arm
        name, points in increasing pot; the share at a pot holds from the previous pot up
        to it, ``steps-pre``, as P(largest >= x) does), a colour and a line style each
        (lines that coincide stay visible), markers on an arm of at most 30 points (a
        narrow discrete distribution), log scales on both axes, the x axis from just
        below the smallest pot to just above the largest, and a legend outside the data,
        below the axes.

    Raises
    ------
    LooError
        If a required column is missing or not numeric, the table is empty, or no row
        has a positive pot and share.
    """
    data = arm_table(ccdf, _CCDF_COLUMNS, "largest-pot ccdf")
    pot = data["pot"].to_numpy()
    share = data["share_at_least"].to_numpy()
    data = data[np.isfinite(pot) & np.isfinite(share) & (pot > 0) & (share > 0)]
    if data.empty:
        raise LooError("largest-pot ccdf table has no row with a positive pot and share; nothing to plot on log axes")
    arms = arm_order(data["arm"])
    colours = arm_colours(arms)
    for i, arm in enumerate(arms):
        line = data[data["arm"] == arm].sort_values("pot", kind="stable")
        ax.plot(
            line["pot"].to_numpy(),
            line["share_at_least"].to_numpy(),
            drawstyle="steps-pre",
            color=colours[arm],
            linestyle=_ARM_STYLES[i % len(_ARM_STYLES)],
            linewidth=1.6,
            marker="o" if len(line) <= _FEW_POINTS else None,
            markersize=4,
            label=arm,
        )
    ax.set_xscale("log")
    ax.set_yscale("log")
    lowest = float(data["share_at_least"].min())
    ax.set_ylim(min(lowest, 1.0) / 1.5, max(float(data["share_at_least"].max()), 1.0) * 1.15)
    low, high = float(data["pot"].min()), float(data["pot"].max())
    span = max(np.log10(high / low), 1.0)  # at least a decade in view
    ax.set_xlim(low / 10 ** (0.05 * span), high * 10 ** (0.05 * span))
    if high / low < 1000:  # a narrow range: ticks at 1, 2, 5 x 10^k, written as plain numbers
        ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}" if v >= 1 else f"{v:g}"))
        ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("largest pot of a session (chips, log scale)")
    ax.set_ylabel("share of sessions with a largest pot \u2265 x (log scale)")
    ax.set_title(title if title is not None else "Largest pot of a session")
    ax.grid(which="major", alpha=0.3)
    ax.legend(title="arm", fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.16),
              ncol=min(len(arms), 2), frameon=False)  # fmt: skip
    return ax
