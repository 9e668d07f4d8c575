"""The solve study's other plots: the convergence of fictitious play (NashConv by iteration)
and the exploitability of fixed profiles (bars). Object API only (no ``pyplot``); see
:mod:`loo_sim.plots._common`."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from loo_sim.analysis._tables import numeric
from loo_sim.base.errors import LooError
from loo_sim.plots._common import require

_CONVERGENCE_COLUMNS = ("iteration", "deals", "nashconv", "nashconv_lo", "nashconv_hi")
_EXPLOIT_COLUMNS = ("profile", "seat", "nashconv", "lo", "hi", "share_of_ante_pool")


# ---- convergence -------------------------------------------------------------------------------
def convergence_plot(
    ax: Axes,
    convergence: pd.DataFrame,
    target: float | None = None,
    *,
    x: str = "iteration",
    title: str | None = None,
) -> Axes:
    """NashConv of fictitious play's average profile by iteration, with its 95% band.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Axes to draw on.
    convergence : pandas.DataFrame
        One row per iteration: ``iteration``, ``deals`` (cumulative deals played),
        ``nashconv``, ``nashconv_lo``, ``nashconv_hi`` (chips per deal, 95% interval) and,
        optionally, ``ante_pool`` (chips) to put the target in proportion.
    target : float, optional
        A horizontal line at this many chips per deal, labelled with its share of the
        ante pool where the table has one ("target 0.12 chips per deal = 1% of the ante
        pool").
    x : {"iteration", "deals"}, default "iteration"
        What the x axis counts.
    title : str, optional
        Axes title; default ``"Convergence of fictitious play"``.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``: the NashConv line (``ax.lines[0]``), its band (a collection) and the target
        line. The y axis is logarithmic where every value drawn is above 0, else
        symmetric-logarithmic (linear within a tenth of the target of 0), which its label says.

    Raises
    ------
    LooError
        If a column is missing or not numeric, the table is empty, or ``x`` is neither
        ``"iteration"`` nor ``"deals"``.
    """
    require(convergence, _CONVERGENCE_COLUMNS, "convergence")
    if x not in ("iteration", "deals"):
        raise LooError(f"convergence plot: x must be 'iteration' or 'deals', not {x!r}")
    order = np.argsort(numeric(convergence, x, "convergence"), kind="stable")
    xs = numeric(convergence, x, "convergence")[order]
    nc, lo, hi = (numeric(convergence, c, "convergence")[order] for c in _CONVERGENCE_COLUMNS[2:])
    last = f"last {nc[-1]:.3g} [{lo[-1]:.3g}, {hi[-1]:.3g}]"
    ax.fill_between(xs, lo, hi, color="tab:blue", alpha=0.25, linewidth=0, label="95% interval")
    ax.plot(xs, nc, color="tab:blue", marker="o" if len(xs) <= 30 else None, markersize=3,
            label=f"NashConv ({last})")  # fmt: skip
    drawn = np.concatenate([nc, lo, hi] + ([np.array([float(target)])] if target is not None else []))
    log = bool((drawn > 0).all())
    if target is not None:
        ax.axhline(target, color="tab:red", linestyle="--", linewidth=1.2, label=_target_label(convergence, target))
    if log:
        ax.set_yscale("log")
        ax.set_ylim(drawn.min() / 1.6, drawn.max() * 1.6)  # the target line clear of the frame
        scale = "log scale"
    else:  # an estimate near 0 may fall below it: a log scale away from 0, linear near it
        positive = np.abs(drawn[drawn != 0])
        near = float(target) / 10 if target is not None and target > 0 else float(positive.min(initial=1e-3))
        ax.set_yscale("symlog", linthresh=near)
        ax.set_ylim(min(drawn.min() * 1.6, -near), drawn.max() * 1.6)
        scale = f"symlog: linear within ±{near:.2g}"
    ax.set_ylabel(f"NashConv, chips per deal ({scale})")
    ax.set_xlabel("iteration" if x == "iteration" else "deals played (cumulative)")
    ax.set_title(title if title is not None else "Convergence of fictitious play")
    ax.legend(loc="best", fontsize="small")
    ax.grid(alpha=0.3, which="both" if log else "major")
    return ax


def _target_label(convergence: pd.DataFrame, target: float) -> str:
    text = f"target {target:.3g} chips per deal"
    if "ante_pool" not in convergence.columns:
        return text
    pool = pd.to_numeric(convergence["ante_pool"], errors="coerce").dropna()
    if pool.empty or float(pool.iloc[0]) <= 0:
        return text
    return f"{text} = {_share_text(target / float(pool.iloc[0]))} of the ante pool"


def _share_text(share: float) -> str:
    """A share as a percentage with enough digits to be nonzero: 1%, 0.5%, 0.03%."""
    if share == 0 or not np.isfinite(share):
        return f"{share:.0%}"
    digits = max(0, min(4, -math.floor(math.log10(abs(share) * 100))))
    return f"{share * 100:.{digits}f}%"


# ---- exploitability ---------------------------------------------------------------------------
def exploitability_bars(ax: Axes, exploitability: pd.DataFrame, title: str | None = None) -> Axes:
    """Horizontal bars of each profile's NashConv over all seats, with its 95% interval.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Axes to draw on.
    exploitability : pandas.DataFrame
        Columns ``profile``, ``seat`` ("0" … or "all"; only the "all" rows are drawn),
        ``nashconv``, ``lo``, ``hi`` (chips per deal, 95% interval) and
        ``share_of_ante_pool``.
    title : str, optional
        Axes title; default ``"Exploitability of each profile"``.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``, whose ``patches`` are the bars, least exploitable at the top; each is
        labelled with its NashConv and, as a second label, its share of the ante pool.
        The profile named ``"equilibrium"`` is drawn in blue, others grey.

    Raises
    ------
    LooError
        If a column is missing, the table is empty or has no ``seat == "all"`` rows.
    """
    require(exploitability, _EXPLOIT_COLUMNS, "exploitability")
    rows = exploitability[exploitability["seat"].astype(str).str.strip() == "all"]
    if rows.empty:
        have = ", ".join(dict.fromkeys(exploitability["seat"].astype(str)))
        raise LooError(f"exploitability table has no rows with seat 'all'; seats present: {have}")
    nc = numeric(rows, "nashconv", "exploitability")
    order = np.argsort(nc, kind="stable")
    names = [str(p) for p in rows["profile"].to_numpy()[order]]
    nc = nc[order]
    lo = numeric(rows, "lo", "exploitability")[order]
    hi = numeric(rows, "hi", "exploitability")[order]
    share = pd.to_numeric(rows["share_of_ante_pool"], errors="coerce").to_numpy(dtype=float)[order]
    y = np.arange(len(names))
    xerr = np.vstack([np.clip(nc - lo, 0, None), np.clip(hi - nc, 0, None)])
    colours = ["tab:blue" if n == "equilibrium" else "0.55" for n in names]
    ax.barh(y, nc, xerr=xerr, color=colours, height=0.6, error_kw={"ecolor": "black", "capsize": 3, "lw": 1})
    ax.set_yticks(y, labels=names)
    ax.set_ylim(len(names) - 0.5, -0.5)
    right = float(np.max(np.maximum(hi, nc)))
    left = float(min(0.0, np.min(np.minimum(lo, nc))))
    span = right - left if right > left else 1.0
    ax.set_xlim(left - 0.02 * span, right + 0.55 * span)
    for yi, v, b, s in zip(y, nc, np.maximum(hi, nc), share):
        pool = f"{_share_text(s)} of the ante pool" if np.isfinite(s) else "share n/a"
        ax.annotate(f"{v:.3g}  ({pool})", xy=(b, yi), xytext=(4, 0), textcoords="offset points", ha="left",
                    va="center", fontsize="small")  # fmt: skip
    ax.axvline(0.0, color="black", linewidth=0.8)
    ax.set_xlabel("NashConv, chips per deal (all seats, 95% CI)")
    ax.set_title(title if title is not None else "Exploitability of each profile")
    ax.grid(axis="x", alpha=0.3)
    return ax
