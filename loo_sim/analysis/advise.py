"""``loo-sim advise``'s answer as a table and in words: each action's expected net chips
with its 95% interval, its paired difference from the best action (P4: the same sampled
deals for every action), and the verdict, with how much it matters."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from loo_sim.base.stats import Z95
from loo_sim.run.advice import Advice, best_index

COLUMNS = ("action", "ev", "se", "ci_low", "ci_high", "diff_vs_best", "diff_se", "diff_low", "diff_high", "best")


def advice_frame(advice: Advice) -> pd.DataFrame:
    """One row per action: ``ev`` (mean net chips for the deal) with ``se`` and its 95%
    interval, ``diff_vs_best`` (paired, this action minus the best) with ``diff_se`` and
    its interval, and ``best``. Sorted from the best action down."""
    pay = advice.pay
    n = pay.shape[0]
    if n == 0:
        raise ValueError("no accepted samples")
    best = best_index(pay)
    rows = []
    for a, name in enumerate(advice.actions):
        ev = float(pay[:, a].mean())
        se = float(pay[:, a].std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
        d = pay[:, a] - pay[:, best]
        dm = float(d.mean())
        dse = float(d.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
        rows.append(dict(action=name, ev=ev, se=se, ci_low=ev - Z95 * se, ci_high=ev + Z95 * se, diff_vs_best=dm,
                         diff_se=dse, diff_low=dm - Z95 * dse, diff_high=dm + Z95 * dse, best=a == best))  # fmt: skip
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    return frame.sort_values("ev", ascending=False, kind="stable").reset_index(drop=True)


def _signed(x: float) -> str:
    return f"{x:+.2f}"


def verdict(frame: pd.DataFrame) -> str:
    """The verdict in one sentence: the best action, the runner-up, the margin with its
    interval, and whether the interval excludes 0."""
    best = frame.iloc[0]
    if len(frame) == 1:
        return f"Only {best.action} is on offer."
    runner = frame.iloc[1]
    margin, lo, hi = -runner.diff_vs_best, -runner.diff_high, -runner.diff_low
    interval = f"95% CI [{_signed(lo)}, {_signed(hi)}]"
    if lo > 0:
        worst = frame.iloc[-1]
        more = "" if len(frame) == 2 else f", and by {-worst.diff_vs_best:.2f} over {worst.action}"
        return (f"{best.action[:1].upper()}{best.action[1:]}: it beats {runner.action} by {margin:.2f} chips a deal "
                f"({interval}){more}.")  # fmt: skip
    return (f"Too close to call between {best.action} and {runner.action} at this precision: {best.action} leads "
            f"by {margin:.2f} chips a deal, {interval}, which includes 0; either costs little.")  # fmt: skip


def table_text(frame: pd.DataFrame, unit: str = "action") -> str:
    """The frame as aligned columns for a terminal."""
    head = f"{unit:<8} {'net chips':>10}  {'95% CI':<18} {'vs best':>8}  {'95% CI':<18}"
    lines = [head]
    for r in frame.itertuples():
        ci = f"[{r.ci_low:+.2f}, {r.ci_high:+.2f}]"
        if r.best:
            diff, dci = "best", ""
        else:
            diff, dci = f"{r.diff_vs_best:+.2f}", f"[{r.diff_low:+.2f}, {r.diff_high:+.2f}]"
        lines.append(f"{r.action:<8} {r.ev:>+10.2f}  {ci:<18} {diff:>8}  {dci:<18}")
    return "\n".join(lines)


def stopping_text(advice: Advice) -> str:
    """How far the run went: samples, precision reached or not, time."""
    hw = _worst_half_width(advice.pay)
    kept = f"{advice.accepted:,} deal{'s' * (advice.accepted != 1)}"
    if advice.stopped == "precision":
        how = f"every paired half-width below {advice.precision:g} chips"
    elif advice.stopped == "interrupted":
        how = f"stopped by Ctrl-C before the precision asked for ({advice.precision:g}); widest half-width {hw:.3f}"
    else:
        how = (f"the --deals cap came first: widest paired half-width {hw:.3f} chips, not below "
               f"{advice.precision:g}")  # fmt: skip
    return f"{kept}; {how}; {advice.seconds:.1f} s."


def _worst_half_width(pay: np.ndarray) -> float:
    from loo_sim.run.advice import half_widths

    if pay.shape[1] < 2:
        return 0.0
    return float(np.max(half_widths(pay)))
