"""Tables of the pots study (docs/rules.md R10): the streamed session aggregates of
``run.sessions`` turned into pot quantiles by deal, the largest pot's tail, final
balances, per-arm rates and the paired differences, each with its uncertainty.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from loo_sim.errors import LooError
from loo_sim.game.rules import split_option
from loo_sim.kernel import abi as L
from loo_sim.run.sessions import PotsResult
from loo_sim.stats import estimate, mean_se, normal_ci, wilson


def parse_compare(items: Sequence[str] | None) -> list[tuple[str, list[str]]]:
    """``KEY=V1,V2`` items: a rule option or ``policy`` (the whole table's); errors name ``compare[i]``."""
    out = []
    for i, item in enumerate(items or ()):
        key, values = split_option(item, f"compare[{i}]", "KEY=V1,V2", "penalty=limited,unlimited", ("policy",))
        parts: list[str] = []
        for piece in values.split(","):
            piece = piece.strip()
            if key == "policy" and parts and piece.split("=")[0] in ("play", "miss"):
                parts[-1] += "," + piece  # threshold:play=P,miss=M keeps its comma
            elif piece:
                parts.append(piece)
        if not parts:
            raise LooError(f"{item!r}: expected KEY=V1,V2, e.g. penalty=limited,unlimited", key=f"compare[{i}]")
        out.append((key, parts))
    return out


# ---- bins -> values ---------------------------------------------------------------------------
def bin_edges() -> np.ndarray:
    """Lower edge of every pot bin (and the upper edge of the last): see kernel.sessions.pot_bin."""
    edges = np.zeros(L.NB_POT + 1)
    for b in range(1, L.NB_POT + 1):
        edges[b] = 10 ** ((b - 1) / 16) if b <= 257 else 10.0 ** (b - 257 + 16)
    return edges


def hist_quantile(counts: np.ndarray, sums: np.ndarray, q: float) -> float:
    """Quantile of a binned distribution: the mean of the values in the bin where the
    cumulative share reaches q (exact for a point mass; within one bin otherwise)."""
    total = counts.sum()
    if total == 0:
        return math.nan
    b = int(np.searchsorted(np.cumsum(counts), q * total, side="left"))
    b = min(b, len(counts) - 1)
    while counts[b] == 0 and b > 0:
        b -= 1
    return float(sums[b] / counts[b])


# ---- tables -------------------------------------------------------------------------------------
def pot_by_deal(res: PotsResult) -> pd.DataFrame:
    """Per arm and deal index: sessions still running, quantiles of the pot at the start of
    the deal (5, 25, 50, 75, 95%; to within one log-spaced bin, 16 per decade), and the
    flag column ``inexact_sessions``: sessions whose amounts have passed 2**53 by then (R3)."""
    rows = []
    for a, arm in enumerate(res.arms):
        inexact = np.cumsum(res.deal_stats[a, :, L.DS_INEXACT_FIRST])
        for j in range(res.deals):
            counts, sums = res.pot_hist[a, j], res.pot_sum[a, j]
            running = int(res.deal_stats[a, j, L.DS_RUNNING])
            if running == 0:
                continue
            qs = {f"q{int(q * 100):02d}": hist_quantile(counts, sums, q) for q in (0.05, 0.25, 0.5, 0.75, 0.95)}
            rows.append(dict(arm=arm.name, deal=j, sessions=running, **qs, inexact_sessions=int(inexact[j])))
    columns = ["arm", "deal", "sessions", "q05", "q25", "q50", "q75", "q95", "inexact_sessions"]
    return pd.DataFrame(rows, columns=columns)


def max_pot_ccdf(res: PotsResult) -> pd.DataFrame:
    """Per arm: share of sessions whose largest pot reached at least each bin's lower edge."""
    edges = bin_edges()
    rows = []
    for a, arm in enumerate(res.arms):
        counts = res.max_hist[a]
        total = counts.sum()
        tail = total - np.concatenate([[0.0], np.cumsum(counts)[:-1]])
        for b in range(1, L.NB_POT):
            if counts[b:].sum() == 0:
                break
            if counts[b - 1 :].sum() > 0:
                rows.append(dict(arm=arm.name, pot=edges[b], share_at_least=tail[b] / total))
    return pd.DataFrame(rows, columns=["arm", "pot", "share_at_least"])


def balances(res: PotsResult) -> pd.DataFrame:
    """Per arm and seat: final net balance, mean with 95% interval, SD, and quantiles."""
    rows = []
    k = res.sessions
    for a, arm in enumerate(res.arms):
        for s in range(arm.rules.players):
            m, se = mean_se(res.scal[a, L.S_BAL + s], res.scal[a, L.S_BAL_SQ + s], k)
            hist, sums = res.bal_hist[a, s], res.bal_sum[a, s]
            lo, hi = normal_ci(m, se)
            rows.append(dict(arm=arm.name, seat=s, sessions=k, mean=m, se=se, ci_low=lo, ci_high=hi,
                             sd=se * math.sqrt(k),
                             **{f"q{int(q * 100):02d}": hist_quantile(hist, sums, q)
                                for q in (0.05, 0.25, 0.5, 0.75, 0.95)}))  # fmt: skip
    return pd.DataFrame(rows)


def balance_histogram(res: PotsResult) -> pd.DataFrame:
    """Per arm and seat, the sessions by final balance in signed log bins (long form)."""
    edges = bin_edges()
    rows = []
    for a, arm in enumerate(res.arms):
        for s in range(arm.rules.players):
            hist = res.bal_hist[a, s]
            for b in np.nonzero(hist)[0]:
                if b < L.NB_POT:
                    k = L.NB_POT - 1 - b
                    lo, hi = -edges[k + 1], -edges[k]
                else:
                    k = b - L.NB_POT
                    lo, hi = edges[k], edges[k + 1]
                rows.append(dict(arm=arm.name, seat=s, low=lo, high=hi, sessions=int(hist[b])))
    return pd.DataFrame(rows, columns=["arm", "seat", "low", "high", "sessions"])


def _stat(arm: str, metric: str, value: float, se: float = math.nan, lo: float = math.nan, hi: float = math.nan,
          n: float = math.nan, method: str = "mean") -> dict:  # fmt: skip
    return dict(arm=arm, metric=metric, **estimate(value, se, lo, hi, n, method))


def arm_stats(res: PotsResult) -> pd.DataFrame:
    """Per arm: looed players per deal, single and double pots, uncontested deals, pot
    growth and its accounting, ruin, overflow and exactness, each with its uncertainty."""
    rows = []
    k = res.sessions
    for a, arm in enumerate(res.arms):
        ds = res.deal_stats[a]
        sc = res.scal[a]
        deals = ds[:, L.DS_RUNNING].sum()
        name = arm.name
        m, se = mean_se(ds[:, L.DS_LOOED].sum(), ds[:, L.DS_LOOED_SQ].sum(), deals)
        rows.append(_stat(name, "looed_per_deal", m, se, n=deals))
        for metric, col in (("single_pot", L.DS_SINGLE), ("nobody_contests", L.DS_NOBODY),
                            ("lone_player", L.DS_LONE), ("flush", L.DS_FLUSH)):  # fmt: skip
            x = ds[:, col].sum()
            lo, hi = wilson(x, deals)
            rows.append(_stat(name, f"{metric}_share", x / deals, lo=lo, hi=hi, n=deals, method="wilson"))
        rows.append(_stat(name, "double_pot_share", 1 - ds[:, L.DS_SINGLE].sum() / deals, n=deals,
                          method="1 - single_pot_share"))  # fmt: skip
        for metric, col in (("antes_per_deal", L.DS_ANTES), ("penalties_per_deal", L.DS_PENALTIES),
                            ("shares_paid_per_deal", L.DS_SHARES), ("pot_growth_per_deal", L.DS_GROWTH)):  # fmt: skip
            rows.append(_stat(name, metric, ds[:, col].sum() / deals, n=deals,
                              method="mean (no SE: the deals of a session are not independent)"))  # fmt: skip
        for metric, col in (("ruin", L.S_RUINED), ("overflow_stop", L.S_OVERFLOW), ("inexact_past_2_53", L.S_INEXACT)):
            lo, hi = wilson(sc[col], k)
            rows.append(_stat(name, f"{metric}_probability", sc[col] / k, lo=lo, hi=hi, n=k, method="wilson"))
        m, se = mean_se(sc[L.S_MAXLOG], sc[L.S_MAXLOG_SQ], k)
        rows.append(_stat(name, "log10_largest_pot", m, se, n=k))
        rows.append(_stat(name, "deals_per_session", sc[L.S_DEALS] / k, n=k))
        rows.append(_stat(name, "pot_left_at_end", sc[L.S_FINAL_POT] / k, n=k))
    return pd.DataFrame(rows, columns=["arm", "metric", "value", "se", "ci_low", "ci_high", "n", "method"])


def paired(res: PotsResult) -> pd.DataFrame:
    """Arm a against arm 0, session by session on the same decks: differences of each
    seat's final balance, of log10 of the largest pot, of ruin, of looed per deal."""
    rows = []
    k = res.sessions
    base = res.arms[0]
    for a, arm in enumerate(res.arms[1:], start=1):
        sc = res.scal[a]
        metrics = [(f"final_balance_seat_{s}", L.P_BAL + s, L.P_BAL_SQ + s)
                   for s in range(min(arm.rules.players, base.rules.players))]  # fmt: skip
        metrics += [("log10_largest_pot", L.P_MAXLOG, L.P_MAXLOG_SQ), ("ruin", L.P_RUIN, L.P_RUIN_SQ),
                    ("looed_per_deal", L.P_LOOED, L.P_LOOED_SQ)]  # fmt: skip
        for name, col, col_sq in metrics:
            m, se = mean_se(sc[col], sc[col_sq], k)
            lo, hi = normal_ci(m, se)
            rows.append(dict(arm=arm.name, baseline=base.name, metric=name, diff=m, se=se, ci_low=lo, ci_high=hi,
                             sessions=k))  # fmt: skip
    return pd.DataFrame(rows, columns=["arm", "baseline", "metric", "diff", "se", "ci_low", "ci_high", "sessions"])
