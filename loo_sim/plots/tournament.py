"""A tournament's plots: the league (chips per deal with 95% intervals) and the
head-to-head matrix (a's chips per deal minus b's at the same tables). Object API only."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from loo_sim.plots._common import require


def league_bars(ax: Axes, league: pd.DataFrame, title: str | None = None, median: bool = False) -> Axes:
    """One bar per heuristic, best at the top, with its 95% interval: the mean over sessions,
    or with ``median`` the median session (order-statistic interval; the unlimited penalty)."""
    value, low, high = ("median", "median_ci_low", "median_ci_high") if median else ("chips_per_deal", "ci_low",
                                                                                      "ci_high")  # fmt: skip
    require(league, ("heuristic", value, low, high), "league")
    rows = league.iloc[::-1]
    y = np.arange(len(rows))
    err = np.vstack([rows[value] - rows[low], rows[high] - rows[value]])
    colours = ["tab:blue" if v >= 0 else "tab:red" for v in rows[value]]
    ax.barh(y, rows[value], xerr=err, color=colours, alpha=0.8, capsize=3)
    ax.set_yticks(y, rows["heuristic"])
    ax.axvline(0, color="black", linewidth=0.8)
    for yi, v, hi in zip(y, rows[value], rows[high]):
        text = f"{v:+,.0f}" if median and abs(v) >= 1000 else f"{v:+.3f}"
        ax.annotate(text, (max(hi, 0), yi), xytext=(4, 0), textcoords="offset points", va="center",
                    fontsize="small")  # fmt: skip
    ax.set_xlabel("median net chips per deal of a session (distribution-free 95% interval)" if median
                  else "net chips per deal (95% interval; sessions the unit)")  # fmt: skip
    ax.set_title(title or "League")
    ax.grid(axis="x", alpha=0.3)
    return ax


def head_to_head_matrix(ax: Axes, h2h: pd.DataFrame, order: list[str], title: str | None = None) -> Axes:
    """Cell (a, b): a's chips per deal minus b's at the tables seating both; a cell whose 95%
    interval includes 0 is marked with "?"."""
    require(h2h, ("a", "b", "difference", "ci_low", "ci_high"), "head-to-head")
    k = len(order)
    grid = np.full((k, k), np.nan)
    unclear = np.zeros((k, k), dtype=bool)
    for r in h2h.itertuples():
        i, j = order.index(r.a), order.index(r.b)
        grid[i, j] = r.difference
        unclear[i, j] = r.ci_low <= 0 <= r.ci_high
    lim = float(np.nanmax(np.abs(grid))) if np.isfinite(grid).any() else 1.0
    image = ax.imshow(grid, cmap="RdBu", vmin=-lim, vmax=lim)
    for i in range(k):
        for j in range(k):
            if np.isfinite(grid[i, j]):
                dark = abs(grid[i, j]) > 0.6 * lim  # white on the deep colours
                ax.text(j, i, f"{grid[i, j]:+.2f}{'?' if unclear[i, j] else ''}", ha="center", va="center",
                        fontsize="small", color="white" if dark else "black")  # fmt: skip
    ax.set_xticks(range(k), order, rotation=30, ha="right")
    ax.set_yticks(range(k), order)
    ax.set_xlabel("b")
    ax.set_ylabel("a")
    ax.set_title(title or "Head to head: a minus b, chips per deal (? = interval includes 0)")
    ax.figure.colorbar(image, ax=ax, shrink=0.8, label="chips per deal")
    return ax
