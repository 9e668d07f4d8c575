"""Tables of the pots study (docs/rules.md R10): the streamed session aggregates of
``run.sessions`` turned into pot quantiles by deal, the largest pot's tail, final
balances, per-arm rates and the paired differences, each with its uncertainty.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pandas as pd

from loo_sim.base.stats import estimate, mean_se, normal_ci, ratio_se, wilson
from loo_sim.game import abi as L
from loo_sim.run.sessions import PotsResult


# ---- bins -> values ---------------------------------------------------------------------------
@functools.cache
def bin_edges() -> np.ndarray:
    """Lower edge of every pot bin (and the upper edge of the last, infinity), read-only: see
    kernel.bins.pot_bin. Bin b >= 1 holds [10**((b - 1) / 32), 10**(b / 32)) up to abi.POT_TOP."""
    edges = np.zeros(L.NB_POT + 1)
    edges[1 : L.NB_POT] = 10.0 ** (np.arange(L.NB_POT - 1) / L.POT_BINS_PER_DECADE)
    edges[L.NB_POT] = math.inf
    edges.flags.writeable = False
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


def _signed_edges() -> tuple[np.ndarray, np.ndarray]:
    """(low, high) of every signed balance bin (``kernel.bins.balance_bin``)."""
    edges = bin_edges()
    k = np.arange(L.NB_POT)
    low = np.concatenate([-edges[L.NB_POT - k], edges[:-1]])  # bin NB_POT - 1 - k holds -[edges[k], edges[k+1])
    high = np.concatenate([-edges[L.NB_POT - 1 - k], edges[1:]])
    return low, high


def atoms(exact: np.ndarray, hist: np.ndarray, sums: np.ndarray, offset: int = 0,
          grid: int = 1) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """A distribution counted in two parts as (values, counts) in increasing value: each
    exact count (index i holds the value (i - ``offset``) / ``grid`` chips) as its value,
    each log bin as the mean of the values it holds. Only values and bins with a count appear."""
    idx = np.flatnonzero(exact)
    b = np.flatnonzero(hist)
    values = np.concatenate([(idx - float(offset)) / grid, sums[b] / hist[b]])
    counts = np.concatenate([exact[idx], hist[b]])
    order = np.argsort(values, kind="stable")
    return values[order], counts[order]


def chip_quantile(exact: np.ndarray, hist: np.ndarray, sums: np.ndarray, q: float, offset: int = 0,
                  grid: int = 1) -> float:  # fmt: skip
    """The q-quantile of a distribution counted in two parts (``atoms``): the smallest value
    whose cumulative count reaches q of the total (numpy's ``inverted_cdf``). Where every
    value was counted exactly, it is a value that occurred; else it may be a bin's mean."""
    values, counts = atoms(exact, hist, sums, offset, grid)
    total = counts.sum()
    if total == 0:
        return math.nan
    # a hair below q * total, so q * total that is a whole count in exact arithmetic is not
    # missed by rounding (0.05 * 200 must find the 10th value, not the 11th)
    i = int(np.searchsorted(np.cumsum(counts), q * total * (1 - 1e-12), side="left"))
    return float(values[min(i, len(values) - 1)])


def share_at_least(exact: np.ndarray, hist: np.ndarray, sums: np.ndarray, x: float) -> float:
    """Share of a non-negative distribution counted in two parts that is >= x: exact where
    x is a bin edge or no fractional value lies in x's bin (a bin that holds x is counted
    as at least x when its mean is)."""
    total = exact.sum() + hist.sum()
    if total == 0:
        return math.nan
    v = np.arange(len(exact))
    edges = bin_edges()
    low, high = edges[:-1], edges[1:]
    above = (low >= x) | ((high > x) & (hist > 0) & (sums >= x * np.maximum(hist, 1)))
    return float((exact[v >= x].sum() + hist[above].sum()) / total)


# ---- tables -------------------------------------------------------------------------------------
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
LARGEST_POT_THRESHOLDS = (1e3, 1e6, 1e12)  # arm_stats: share of sessions whose largest pot reached each


def threshold_metric(x: float) -> str:
    """The arms-table metric of the share of sessions whose largest pot reached ``x`` (a power of 10)."""
    return f"largest_pot_at_least_1e{round(math.log10(x))}"


def _qcols(exact, hist, sums, offset: int = 0, grid: int = 1) -> dict[str, float]:
    return {f"q{int(q * 100):02d}": chip_quantile(exact, hist, sums, q, offset, grid) for q in QUANTILES}


def pot_by_deal(res: PotsResult) -> pd.DataFrame:
    """Per arm and deal index: sessions still running, quantiles of the pot at the start of
    the deal (5, 25, 50, 75, 95%), ``binned_sessions`` (sessions whose pot was not a whole
    number of chips below ``res.pot_bound``: only these are read from log bins, 32 per
    decade, as a bin's mean within 7.5%, so with 0 every quantile is a pot that occurred), and the flag
    column ``inexact_sessions``: sessions whose amounts have passed 2**53 by then (R3)."""
    rows = []
    for a, arm in enumerate(res.arms):
        inexact = np.cumsum(res.deal_stats[a, :, L.DS_INEXACT_FIRST])
        for j in range(res.deals):
            exact, counts, sums = res.pot_exact[a, j], res.pot_hist[a, j], res.pot_sum[a, j]
            running = int(res.deal_stats[a, j, L.DS_RUNNING])
            if running == 0:
                continue
            rows.append(dict(arm=arm.name, deal=j, sessions=running, **_qcols(exact, counts, sums),
                             binned_sessions=int(counts.sum()), inexact_sessions=int(inexact[j])))  # fmt: skip
    columns = ["arm", "deal", "sessions", "q05", "q25", "q50", "q75", "q95", "binned_sessions", "inexact_sessions"]
    return pd.DataFrame(rows, columns=columns)


def max_pot_ccdf(res: PotsResult) -> pd.DataFrame:
    """Per arm: share of sessions whose largest pot reached at least ``pot``, at every
    largest pot that occurred (whole chips below ``abi.EXACT_CHIPS``) and at the lower
    edge of every log bin that holds the others (exact at those edges)."""
    edges = bin_edges()
    rows = []
    for a, arm in enumerate(res.arms):
        exact, hist, sums = res.max_exact[a], res.max_hist[a], res.max_sum[a]
        points = np.concatenate([np.flatnonzero(exact).astype(float), edges[np.flatnonzero(hist)]])
        for x in np.unique(points):
            rows.append(dict(arm=arm.name, pot=float(x), share_at_least=share_at_least(exact, hist, sums, x)))
    return pd.DataFrame(rows, columns=["arm", "pot", "share_at_least"])


def balances(res: PotsResult) -> pd.DataFrame:
    """Per arm and seat: final net balance, mean with 95% interval, SD, quantiles (exact
    where every balance lies on the arm's grid of 1 / ``res.bal_grid`` chips within
    ``abi.EXACT_STEPS`` steps of 0; ``binned_sessions`` counts the others, read as their
    log bin's mean)."""
    rows = []
    k = res.sessions
    offset = L.EXACT_STEPS - 1
    for a, arm in enumerate(res.arms):
        grid = int(res.bal_grid[a])
        for s in range(arm.rules.players):
            m, se = mean_se(res.scal[a, L.S_BAL + s], res.scal[a, L.S_BAL_SQ + s], k)
            exact, hist, sums = res.bal_exact[a, s], res.bal_hist[a, s], res.bal_sum[a, s]
            lo, hi = normal_ci(m, se)
            rows.append(dict(arm=arm.name, seat=s, sessions=k, mean=m, se=se, ci_low=lo, ci_high=hi,
                             sd=se * math.sqrt(k), **_qcols(exact, hist, sums, offset, grid),
                             binned_sessions=int(hist.sum())))  # fmt: skip
    return pd.DataFrame(rows)


def balance_histogram(res: PotsResult) -> pd.DataFrame:
    """Per arm and seat, the sessions by final balance in signed log bins [low, high)
    (long form; the balances counted exactly are in their bins: ``PotsResult.bal_all_hist``)."""
    low, high = _signed_edges()
    rows = []
    for a, arm in enumerate(res.arms):
        hist = res.bal_all_hist[a]
        for s in range(arm.rules.players):
            for b in np.flatnonzero(hist[s]):
                rows.append(dict(arm=arm.name, seat=s, low=low[b], high=high[b], sessions=int(hist[s, b])))
    return pd.DataFrame(rows, columns=["arm", "seat", "low", "high", "sessions"])


def _stat(arm: str, metric: str, value: float, se: float = math.nan, lo: float = math.nan, hi: float = math.nan,
          n: float = math.nan, method: str = "mean") -> dict:  # fmt: skip
    return dict(arm=arm, metric=metric, **estimate(value, se, lo, hi, n, method))


PER_SESSION = "ratio over sessions (delta-method SE, the session as the unit)"


def arm_stats(res: PotsResult) -> pd.DataFrame:
    """Per arm: looed players per deal, single and double pots, uncontested deals, pot
    growth and its accounting, ruin, overflow and exactness, the largest pot, each with its
    uncertainty. Per-deal rates are ratios over sessions (the deals of one session are not
    independent), with the delta-method SE."""
    rows = []
    k = res.sessions
    for a, arm in enumerate(res.arms):
        ds = res.deal_stats[a]
        sc = res.scal[a]
        deals = ds[:, L.DS_RUNNING].sum()
        name = arm.name
        r, se = ratio_se(sc[L.S_LOOED], sc[L.S_DEALS], sc[L.S_LOOED_SQ], sc[L.S_LOOED_DEALS], sc[L.S_DEALS_SQ], k)
        rows.append(_stat(name, "looed_per_deal", r, se, n=deals, method=PER_SESSION))
        for metric, col in (("single_pot", L.DS_SINGLE), ("nobody_contests", L.DS_NOBODY),
                            ("lone_player", L.DS_LONE), ("flush", L.DS_FLUSH)):  # fmt: skip
            x = ds[:, col].sum()
            lo, hi = wilson(x, deals)
            rows.append(_stat(name, f"{metric}_share", x / deals, lo=lo, hi=hi, n=deals,
                              method="wilson (deals as independent)"))  # fmt: skip
        rows.append(_stat(name, "double_pot_share", 1 - ds[:, L.DS_SINGLE].sum() / deals, n=deals,
                          method="1 - single_pot_share"))  # fmt: skip
        for metric, col in (("antes_per_deal", L.DS_ANTES), ("penalties_per_deal", L.DS_PENALTIES),
                            ("shares_paid_per_deal", L.DS_SHARES)):  # fmt: skip
            rows.append(_stat(name, metric, ds[:, col].sum() / deals, n=deals,
                              method="mean (no SE: the deals of a session are not independent)"))  # fmt: skip
        # a session's growth adds up to the pot it leaves, so growth per deal = pot left / deals
        r, se = ratio_se(sc[L.S_FINAL_POT], sc[L.S_DEALS], sc[L.S_FINAL_POT_SQ], sc[L.S_FINAL_POT_DEALS],
                         sc[L.S_DEALS_SQ], k)  # fmt: skip
        rows.append(_stat(name, "pot_growth_per_deal", ds[:, L.DS_GROWTH].sum() / deals, se, n=deals,
                          method=PER_SESSION))  # fmt: skip
        for metric, col in (("ruin", L.S_RUINED), ("overflow_stop", L.S_OVERFLOW), ("inexact_past_2_53", L.S_INEXACT)):
            lo, hi = wilson(sc[col], k)
            rows.append(_stat(name, f"{metric}_probability", sc[col] / k, lo=lo, hi=hi, n=k, method="wilson"))
        m, se = mean_se(sc[L.S_MAXLOG], sc[L.S_MAXLOG_SQ], k)
        rows.append(_stat(name, "log10_largest_pot", m, se, n=k))
        for x in LARGEST_POT_THRESHOLDS:
            p = share_at_least(res.max_exact[a], res.max_hist[a], res.max_sum[a], x)
            lo, hi = wilson(p * k, k)
            rows.append(_stat(name, threshold_metric(x), p, lo=lo, hi=hi, n=k, method="wilson"))
        m, se = mean_se(sc[L.S_DEALS], sc[L.S_DEALS_SQ], k)
        rows.append(_stat(name, "deals_per_session", m, se, n=k))
        m, se = mean_se(sc[L.S_FINAL_POT], sc[L.S_FINAL_POT_SQ], k)
        rows.append(_stat(name, "pot_left_at_end", m, se, n=k))
    return pd.DataFrame(rows, columns=["arm", "metric", "value", "se", "ci_low", "ci_high", "n", "method"])


PAIRED_COLUMNS = ["arm", "baseline", "metric", "diff", "se", "ci_low", "ci_high", "sessions", "shared_deals",
                  "shared_deals_looed_differ", "arm_only_deals", "baseline_only_deals", "arm_only_looed_per_deal",
                  "baseline_only_looed_per_deal"]  # fmt: skip


def paired(res: PotsResult) -> pd.DataFrame:
    """Every arm against every earlier arm, session by session on the same decks:
    differences of each seat's final balance, of log10 of the largest pot, of ruin, of the
    deals a session lasts, and of looed players per deal over the deals both arms played
    (``looed_per_shared_deal``: the first min(deals of either) deals of each session, the
    same deals in both arms; a ratio over sessions with the delta-method SE). Each row also
    says how many deals both played (``shared_deals``), on how many of those the number of
    looed players differed (``shared_deals_looed_differ``), and how many deals only one arm
    played (the other's session had ended), with the looed players per deal on those."""
    rows = []
    k = res.sessions
    for x, arm in enumerate(res.arms):
        for y, base in enumerate(res.arms[:x]):
            pr = res.pair[x, y]
            counts = dict(shared_deals=int(pr[L.PR_SHARED]), shared_deals_looed_differ=int(pr[L.PR_LOOED_DIFFER]),
                          arm_only_deals=int(pr[L.PR_ONLY_X]),
                          baseline_only_deals=int(pr[L.PR_ONLY_Y]),
                          arm_only_looed_per_deal=_per(pr[L.PR_LOOED_ONLY_X], pr[L.PR_ONLY_X]),
                          baseline_only_looed_per_deal=_per(pr[L.PR_LOOED_ONLY_Y], pr[L.PR_ONLY_Y]))  # fmt: skip
            metrics = [(f"final_balance_seat_{s}", *mean_se(pr[L.PR_BAL + s], pr[L.PR_BAL_SQ + s], k))
                       for s in range(min(arm.rules.players, base.rules.players))]  # fmt: skip
            metrics += [("log10_largest_pot", *mean_se(pr[L.PR_MAXLOG], pr[L.PR_MAXLOG_SQ], k)),
                        ("ruin", *mean_se(pr[L.PR_RUIN], pr[L.PR_RUIN_SQ], k)),
                        ("deals_per_session", *mean_se(pr[L.PR_DEALS], pr[L.PR_DEALS_SQ], k)),
                        ("looed_per_shared_deal", *ratio_se(pr[L.PR_LOOED], pr[L.PR_SHARED], pr[L.PR_LOOED_SQ],
                                                            pr[L.PR_LOOED_SHARED], pr[L.PR_SHARED_SQ], k))]  # fmt: skip
            for name, m, se in metrics:
                lo, hi = normal_ci(m, se)
                rows.append(dict(arm=arm.name, baseline=base.name, metric=name, diff=m, se=se, ci_low=lo,
                                 ci_high=hi, sessions=k, **counts))  # fmt: skip
    return pd.DataFrame(rows, columns=PAIRED_COLUMNS)


def _per(total: float, n: float) -> float:
    return total / n if n > 0 else math.nan
