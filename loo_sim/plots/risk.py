"""A risk run's plots: ruin over bankroll, deals until ruin, and the lead against its spread."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from loo_sim.plots._common import require


def risk_curve_plot(ax: Axes, curve: pd.DataFrame, title: str | None = None) -> Axes:
    """Risk of ruin within a session over bankroll (log scale), one line per arm, 95% bands."""
    require(curve, ("arm", "bankroll", "risk", "ci_low", "ci_high"), "risk curve")
    for arm, colour in zip(dict.fromkeys(curve["arm"]), ("tab:blue", "tab:gray")):
        rows = curve[curve["arm"] == arm]
        ax.fill_between(rows["bankroll"], rows["ci_low"], rows["ci_high"], color=colour, alpha=0.2, linewidth=0)
        ax.plot(rows["bankroll"], rows["risk"], color=colour, label=arm)
    for r in (0.01, 0.05):
        ax.axhline(r, color="tab:red", linestyle=":", linewidth=1)
    ax.set_xscale("log")
    ax.set_xlabel("bankroll, chips (log scale)")
    ax.set_ylabel("risk of ruin within the session")
    ax.set_title(title or "Risk of ruin")
    ax.legend()
    ax.grid(alpha=0.3, which="both")
    return ax


def ruin_deals_plot(ax: Axes, deals: pd.DataFrame, title: str | None = None) -> Axes:
    """Share of sessions ruined after each deal, one line per bankroll."""
    require(deals, ("bankroll", "risk", "deal", "share"), "deals until ruin")
    for level, rows in deals.groupby("bankroll"):
        ax.plot(rows["deal"], rows["share"], marker="o", markersize=2,
                label=f"bankroll {level:,.0f} (risk {rows['risk'].iloc[0]:.0%})")  # fmt: skip
    ax.set_xlabel("deal of the session at which the balance fell below -bankroll")
    ax.set_ylabel("share of sessions")
    ax.set_title(title or "Deals until ruin")
    ax.legend()
    ax.grid(alpha=0.3)
    return ax


def n0_plot(ax: Axes, n0: pd.DataFrame, max_deals: int, title: str | None = None) -> Axes:
    """The expected lead (n mu) against one standard deviation of it (sqrt(n) sigma) over n
    deals; they cross at N0."""
    require(n0, ("lead_per_deal", "sd_per_deal", "n0"), "N0")
    row = n0.iloc[0]
    n = np.linspace(1, max(max_deals, 2 * row["n0"] if np.isfinite(row["n0"]) else max_deals), 400)
    ax.plot(n, n * row["lead_per_deal"], label="expected lead, n x mu")
    ax.plot(n, np.sqrt(n) * row["sd_per_deal"], label="one standard deviation, sqrt(n) x sigma")
    if np.isfinite(row["n0"]):
        ax.axvline(row["n0"], color="tab:red", linestyle="--", label=f"N0 = {row['n0']:,.0f} deals")
    ax.set_xlabel("deals played")
    ax.set_ylabel("chips")
    ax.set_title(title or "When the lead exceeds its noise (N0)")
    ax.legend()
    ax.grid(alpha=0.3)
    return ax
