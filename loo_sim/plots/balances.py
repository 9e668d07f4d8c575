"""The final net balance of each seat over a session, arms side by side (box and whisker
from the table's quantiles, the mean with its interval) on a symlog axis whose ticks stay
readable over a hundred decades. Object API only (no ``pyplot``); see :mod:`loo_sim.plots._common`."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.ticker import Locator, NullLocator

from loo_sim.plots._common import arm_colours, arm_order, arm_table

BALANCE_LINTHRESH = 10.0
"""Half-width (chips) of the linear part of the symlog balance axis."""

GID_BALANCE_BOX = "balance-box"
GID_BALANCE_WHISKER = "balance-whisker"
GID_BALANCE_MEDIAN = "balance-median"
GID_BALANCE_MEAN = "balance-mean"
GID_ZERO_LINE = "zero-line"

_QUANTILE_COLUMNS = ("q05", "q25", "q50", "q75", "q95")
_BALANCE_COLUMNS = ("arm", "seat", "mean", "ci_low", "ci_high", *_QUANTILE_COLUMNS)
_MEAN_MARKER = {"markersize": 4, "color": "black", "markerfacecolor": "white"}  # marker "D"


class _SymlogDecadeLocator(Locator):
    """Major ticks of a symlog axis: 0 and +-10**e beyond the linear part, thinned to round
    steps of e (1, 2, 5, 10, 20, 50, ...) so an axis spanning a hundred decades keeps a
    handful of readable ticks and none crowd the linear part around 0. (matplotlib's
    ``SymmetricalLogLocator`` was tried: on such an axis it ticks +-10 next to 0, where the
    labels overlap, and uneven decades such as 1e39 and 1e77.)"""

    def __init__(self, linthresh: float, numticks: int = 6) -> None:
        self.linthresh = linthresh
        self.numticks = numticks

    def __call__(self) -> np.ndarray:
        vmin, vmax = self.axis.get_view_interval()
        return self.tick_values(vmin, vmax)

    def tick_values(self, vmin: float, vmax: float) -> np.ndarray:
        lo, hi = sorted((float(vmin), float(vmax)))
        first = int(np.ceil(np.log10(self.linthresh)))
        top = max(abs(lo), abs(hi))
        last = int(np.floor(np.log10(top))) if np.isfinite(top) and top >= 10.0**first else first - 1
        if last < first:  # only the linear part is in view
            return np.array(sorted({lo, 0.0, hi}))
        step = next(m * 10**k for k in range(4) for m in (1, 2, 5) if (last - first + 1) / (m * 10**k) <= self.numticks)
        exps = [e for e in range(first, last + 1) if step == 1 or e % step == 0]
        ticks = [0.0] + [10.0**e for e in exps] + [-(10.0**e) for e in exps]
        return np.array(sorted(t for t in ticks if lo <= t <= hi))


def balance_distribution(ax: Axes, balances: pd.DataFrame, title: str | None = None) -> Axes:
    """Box-and-whisker plot of each seat's final net balance over a session, arms side by side.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Axes to draw on.
    balances : pandas.DataFrame
        One row per arm and seat with at least ``arm``, ``seat`` (int), ``mean``,
        ``ci_low``, ``ci_high`` (95% interval of the mean) and the quantiles ``q05``,
        ``q25``, ``q50``, ``q75``, ``q95`` of the final net balance (chips); ``sessions``,
        ``se`` and ``sd`` may be present and are not drawn.
    title : str, optional
        Axes title; default ``"Final net balance by seat"``.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``. Seats run along x in increasing order (tick labels ``"seat 0"``, ...),
        with the arms side by side within a seat in order of first appearance, one
        colour per arm. Each (arm, seat) with finite quartiles is a box drawn by
        :meth:`~matplotlib.axes.Axes.bxp` from the table's quantiles: a
        :class:`~matplotlib.patches.PathPatch` in ``ax.patches`` (gid ``"balance-box"``)
        from q25 to q75, whiskers and caps to q05 and q95 (gid ``"balance-whisker"``) and
        a black median tick (gid ``"balance-median"``); the mean is a point with its 95%
        interval as an error bar (gid ``"balance-mean"``). Parts that are not finite are
        left out. The legend sits below the axes, outside the data.
        The y axis is ``symlog`` (linear within +-10 chips) with major ticks at 0 and at
        round steps of decades (at most about six a side, so a range of 1e100 chips stays
        readable) and no minor ticks; a horizontal line marks 0 (gid ``"zero-line"``).

    Raises
    ------
    LooError
        If a required column is missing or not numeric, the table is empty, or an
        (arm, seat) pair appears twice.
    """
    data = arm_table(balances, _BALANCE_COLUMNS, "balances", key="seat")
    arms = arm_order(data["arm"])
    colours = arm_colours(arms)
    seats = sorted(pd.unique(data["seat"]))
    seat_pos = {s: i for i, s in enumerate(seats)}
    slot = 0.8 / len(arms)
    width = 0.75 * slot
    for k, arm in enumerate(arms):
        rows = data[data["arm"] == arm]
        x = np.array([seat_pos[s] for s in rows["seat"]]) - 0.4 + (k + 0.5) * slot
        _boxes(ax, rows, x, width, colours[arm])
        _means(ax, rows, x)

    _balance_axes(ax, seats)
    ax.set_title(title if title is not None else "Final net balance by seat")
    handles = _balance_handles(arms, colours)
    ax.legend(handles=handles, fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.09),
              ncol=min(len(handles), 3), frameon=False)  # fmt: skip
    return ax


def _boxes(ax: Axes, rows: pd.DataFrame, x: np.ndarray, width: float, colour: str) -> None:
    """Where both quartiles are finite, a box from q25 to q75 with whiskers to q05 and q95
    and a black median tick (:meth:`Axes.bxp` from the quantiles of the table); where only
    the median is, the tick alone. A whisker or median that is not finite is left out."""
    q = {c: rows[c].to_numpy(dtype=float) for c in _QUANTILE_COLUMNS}
    boxed = np.isfinite(q["q25"]) & np.isfinite(q["q75"])
    box = {"facecolor": colour, "edgecolor": colour, "alpha": 0.45, "linewidth": 1.2, "gid": GID_BALANCE_BOX}
    line = {"color": colour, "linewidth": 1.0, "gid": GID_BALANCE_WHISKER}
    median = {"color": "black", "linewidth": 1.6, "gid": GID_BALANCE_MEDIAN, "zorder": 3}
    if boxed.any():
        stats = [
            {"med": q["q50"][i], "q1": q["q25"][i], "q3": q["q75"][i], "whislo": q["q05"][i], "whishi": q["q95"][i]}
            for i in np.flatnonzero(boxed)
        ]
        drawn = ax.bxp(
            stats,
            positions=x[boxed],
            widths=width,
            patch_artist=True,
            showfliers=False,
            manage_ticks=False,
            zorder=2,
            boxprops=box,
            whiskerprops=line,
            capprops=line,
            medianprops=median,
        )
        for patch in drawn["boxes"]:  # bxp adds the boxes without counting them in the data limits
            ax.update_datalim(patch.get_path().vertices)
        for artist in (*drawn["whiskers"], *drawn["caps"], *drawn["medians"]):
            if not np.isfinite(artist.get_ydata()).all():
                artist.remove()
    lone = ~boxed & np.isfinite(q["q50"])
    for xi, q50 in zip(x[lone], q["q50"][lone]):
        ax.plot([xi - width / 2, xi + width / 2], [q50, q50], **median)


def _means(ax: Axes, rows: pd.DataFrame, x: np.ndarray) -> None:
    """Each finite mean as a white diamond, with its 95% interval as an error bar where
    that is finite."""
    for xi, mean, lo, hi in zip(x, rows["mean"], rows["ci_low"], rows["ci_high"]):
        if not np.isfinite(mean):
            continue
        err = [[max(mean - lo, 0.0)], [max(hi - mean, 0.0)]] if np.isfinite(lo) and np.isfinite(hi) else None
        bars = ax.errorbar([xi], [mean], yerr=err, fmt="D", **_MEAN_MARKER, elinewidth=1.0, capsize=2, zorder=4)
        bars.lines[0].set_gid(GID_BALANCE_MEAN)


def _balance_axes(ax: Axes, seats: list) -> None:
    """Seats along x; a symlog y axis with decade ticks and a line at 0."""
    ax.axhline(0.0, color="black", linewidth=0.8, zorder=1, gid=GID_ZERO_LINE)
    ax.set_yscale("symlog", linthresh=BALANCE_LINTHRESH)
    ax.yaxis.set_major_locator(_SymlogDecadeLocator(BALANCE_LINTHRESH))
    ax.yaxis.set_minor_locator(NullLocator())
    ax.set_xticks(range(len(seats)), labels=[f"seat {int(s) if float(s).is_integer() else s}" for s in seats])
    ax.set_xlim(-0.5, len(seats) - 0.5)
    ax.set_ylabel(f"final net balance (chips; linear within \u00b1{BALANCE_LINTHRESH:g}, log beyond)")
    ax.grid(axis="y", alpha=0.3)


def _balance_handles(arms: list[str], colours: dict[str, str]) -> list:
    handles: list = [
        Rectangle((0, 0), 1, 1, facecolor=colours[a], alpha=0.45, edgecolor=colours[a], label=a) for a in arms
    ]
    handles += [
        Line2D([], [], color="black", linewidth=1.6, label="median (box: 25-75%, whiskers: 5-95%)"),
        Line2D([], [], linestyle="none", marker="D", **_MEAN_MARKER, label="mean, 95% CI"),
    ]
    return handles
