"""A risk run's plots: ruin over bankroll, deals until ruin, and the lead against its spread."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from loo_sim.plots._common import require

FLAT_TOLERANCE = 0.001
"""A risk curve is flat from the bankroll where every arm's risk is within this of its value at
the grid's largest bankroll (risk falls with the bankroll, so it stays there)."""
FLAT_MARGIN = 1.5
"""The x axis ends this factor beyond the bankroll where the curve flattens."""
RISK_LINES = (0.01, 0.05)
GID_RISK_LINE = "risk-line"
GID_RISK_NEED = "risk-need"
_ARM_COLOURS = ("tab:blue", "tab:gray")


def flat_bankroll(curve: pd.DataFrame) -> float:
    """The smallest bankroll from which every arm's risk stays within :data:`FLAT_TOLERANCE`
    of its value at the largest bankroll of the grid (the largest bankroll if some arm is
    still falling there)."""
    flat = []
    for _, rows in curve.groupby("arm", sort=False):
        rows = rows.sort_values("bankroll")
        risk = rows["risk"].to_numpy(dtype=float)
        falling = np.flatnonzero(risk - risk[-1] > FLAT_TOLERANCE)
        flat.append(float(rows["bankroll"].iloc[falling[-1] + 1 if len(falling) else 0]))
    return max(flat)


def risk_curve_plot(ax: Axes, curve: pd.DataFrame, need: pd.DataFrame | None = None,
                    arm_labels: Mapping[str, str] | None = None, title: str | None = None) -> Axes:  # fmt: skip
    """Risk of ruin within a session over bankroll (log scale), one line per arm, 95% bands.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Axes to draw on.
    curve : pandas.DataFrame
        Columns ``arm``, ``bankroll`` (chips), ``risk`` (share of sessions ruined) and
        ``ci_low``, ``ci_high`` (its 95% interval).
    need : pandas.DataFrame, optional
        ``analysis.risk.bankroll_for_risk``: columns ``arm``, ``risk`` (the target) and
        ``bankroll`` (the smallest of the grid whose risk is at most the target). Each is
        marked on its curve and written in the legend.
    arm_labels : mapping, optional
        The legend's name of each arm (say ``{"policy": "ev at seat 0"}``); default the
        arm as in the table.
    title : str, optional
        Axes title; default ``"Risk of ruin"``.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``: a line and a band per arm; the 1% and 5% risks as dotted lines (gid
        ``"risk-line"``), each written on the plot ("1% risk", at the left; "5% risk", at the right);
        a dot (gid ``"risk-need"``) where each curve reaches each target of ``need``; the x axis from the
        smallest bankroll to :data:`FLAT_MARGIN` times :func:`flat_bankroll`, where every
        curve has flattened, with ticks in plain chips.
    """
    require(curve, ("arm", "bankroll", "risk", "ci_low", "ci_high"), "risk curve")
    labels = dict(arm_labels or {})
    for arm, colour in zip(dict.fromkeys(curve["arm"]), _ARM_COLOURS):
        rows = curve[curve["arm"] == arm]
        ax.fill_between(rows["bankroll"], rows["ci_low"], rows["ci_high"], color=colour, alpha=0.2, linewidth=0)
        ax.plot(rows["bankroll"], rows["risk"], color=colour, label=labels.get(arm, arm) + _need_text(need, arm))
        _mark_need(ax, need, arm, colour)
    for r in RISK_LINES:
        ax.axhline(r, color="tab:red", linestyle=":", linewidth=1, gid=GID_RISK_LINE)
        right = r == max(RISK_LINES)  # one label at each end, so that they never touch
        ax.annotate(f"{r:.0%} risk", xy=(1.0 if right else 0.0, r), xycoords=("axes fraction", "data"),
                    xytext=(-3 if right else 3, 1), textcoords="offset points", ha="right" if right else "left",
                    va="bottom", color="tab:red", fontsize="small")  # fmt: skip
    ax.set_xscale("log")
    ax.set_xlim(float(curve["bankroll"].min()), min(FLAT_MARGIN * flat_bankroll(curve), float(curve["bankroll"].max())))
    ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("bankroll, chips (log scale)")
    ax.set_ylabel("risk of ruin within the session")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title(title or "Risk of ruin")
    ax.legend(fontsize="small")
    ax.grid(alpha=0.3, which="both")
    return ax


def _need_text(need: pd.DataFrame | None, arm: str) -> str:
    """ ": 5% risk at 134 chips, 1% at 189" from the bankroll-for-risk table, if given."""
    if need is None:
        return ""
    rows = need[need["arm"] == arm].sort_values("risk", ascending=False)
    parts = [f"{r:.0%}{' risk' if i == 0 else ''} at {f'{b:,.0f}' if np.isfinite(b) else 'more than the grid'}"
             for i, (r, b) in enumerate(zip(rows["risk"], rows["bankroll"].astype(float)))]  # fmt: skip
    return f": {', '.join(parts)} chips" if parts else ""


def _mark_need(ax: Axes, need: pd.DataFrame | None, arm: str, colour: str) -> None:
    """A dot where the arm's curve reaches each target risk (the bankroll for it)."""
    if need is None:
        return
    rows = need[(need["arm"] == arm) & np.isfinite(need["bankroll"].to_numpy(dtype=float))]
    ax.plot(rows["bankroll"], rows["risk"], linestyle="none", marker="o", markersize=5, color=colour,
            markeredgecolor="black", zorder=3, gid=GID_RISK_NEED)  # fmt: skip


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
