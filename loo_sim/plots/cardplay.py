"""The card-play ladder's plot: each entrant's chips per deal with its 95% interval, at
every position and over all of them, and its paired difference from the first entrant.
Object API only."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from loo_sim.plots._common import ARM_COLOURS, require

ALL = "all"


def _positions(table: pd.DataFrame) -> list[str]:
    positions = [str(p) for p in dict.fromkeys(table.position.astype(str)) if str(p) != ALL]
    return [*positions, ALL]


def _points(ax: Axes, table: pd.DataFrame, value: str, low: str, high: str, skip_first: bool = False) -> None:
    positions = _positions(table)
    entrants = list(dict.fromkeys(table.entrant))
    shown = entrants[1:] if skip_first else entrants
    width = 0.8 / max(len(shown), 1)
    x = np.arange(len(positions))
    for i, name in enumerate(shown):
        rows = table[table.entrant == name].set_index(table[table.entrant == name].position.astype(str))
        rows = rows.loc[positions]
        err = np.vstack([rows[value] - rows[low], rows[high] - rows[value]])
        err = np.nan_to_num(err, nan=0.0)
        offset = (i - (len(shown) - 1) / 2) * width
        colour = ARM_COLOURS[(entrants.index(name)) % len(ARM_COLOURS)]
        ax.errorbar(x + offset, rows[value], yerr=err, fmt="o", capsize=3, color=colour, label=name, markersize=4)
    ax.set_xticks(x, [f"position {p}" if p != ALL else "all positions" for p in positions], fontsize="small")
    ax.axvline(len(positions) - 1.5, color="gray", linewidth=0.6, linestyle=":")
    ax.grid(axis="y", alpha=0.3)


def ladder_points(ax: Axes, table: pd.DataFrame, title: str | None = None) -> Axes:
    """Chips per deal of each entrant at each position (1 = the dealer's left) and over all
    of them, with 95% intervals (the deal the unit)."""
    require(table, ("entrant", "position", "chips_per_deal", "chips_ci_low", "chips_ci_high"), "ladder")
    _points(ax, table, "chips_per_deal", "chips_ci_low", "chips_ci_high")
    ax.set_ylabel("focal seat's net chips per deal")
    ax.legend(fontsize="small", ncols=min(len(set(table.entrant)), 4))
    ax.set_title(title or "Card-play ladder")
    return ax


def ladder_differences(ax: Axes, table: pd.DataFrame, title: str | None = None) -> Axes:
    """Each entrant's paired difference from the first entrant (chips per deal, same deals),
    with 95% intervals; the zero line is the first entrant."""
    require(table, ("entrant", "position", "diff_vs_baseline", "diff_ci_low", "diff_ci_high"), "ladder")
    entrants = list(dict.fromkeys(table.entrant))
    if len(entrants) > 1:
        _points(ax, table, "diff_vs_baseline", "diff_ci_low", "diff_ci_high", skip_first=True)
        ax.legend(fontsize="small", ncols=min(len(entrants) - 1, 4))
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylabel(f"minus {entrants[0]}, paired (chips per deal)")
    ax.set_title(title or f"Paired difference from {entrants[0]}")
    return ax
