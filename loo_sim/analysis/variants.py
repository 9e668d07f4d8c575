"""The rule-variation table: headline metrics of several rule sets (rows), each with its
interval, and the paired change against a baseline row (``analysis.variants_text`` puts it in
words).

Every row plays the same deals (``run.variants``), so a difference is the mean of the
deal-by-deal differences on the same decks, with its SE from their spread; the variance of
net chips, not a mean of deals, takes its SE from batch means of the same deals, differenced
batch by batch. A difference that no deal shows is exactly 0 with SE 0. ``unpaired_se``
is what separate runs would give, for comparison."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from loo_sim.analysis.pots import bin_edges
from loo_sim.base.stats import estimate, mean_se, normal_ci, wilson
from loo_sim.game import abi as L
from loo_sim.run.simulate import SimResult
from loo_sim.run.variants import VariantsResult

COLUMNS = [
    "row",
    "metric",
    "value",
    "se",
    "ci_low",
    "ci_high",
    "n",
    "method",
    "diff_vs_baseline",
    "diff_se",
    "diff_ci_low",
    "diff_ci_high",
    "diff_method",
    "unpaired_se",
]


METRIC_LABELS = {
    "loo_rate": "loo rate (share of seats looed per deal)",
    "contested_share": "share of deals with two or more seats in",
    "pot_growth": "pot growth per deal (chips)",
    "net_variance": "variance of a seat's net chips per deal",
}


def metric_label(metric: str) -> str:
    """How a metric of the table reads in a plot or a summary."""
    if metric.startswith("net_position_"):
        p = metric.rsplit("_", 1)[1]
        return f"net chips per deal at position {p} (1 = the dealer's left)"
    return METRIC_LABELS.get(metric) or SESSION_LABELS.get(metric) or metric.replace("_", " ")


def _net_variance(totals: np.ndarray, players: int) -> float:
    """Variance of a seat's net chips per deal, pooled over positions."""
    deals = totals[L.A_DEALS]
    pos = [totals[L.A_POS + p * L.POS_LEN : L.A_POS + (p + 1) * L.POS_LEN] for p in range(1, players + 1)]
    n = deals * players
    s1 = sum(x[L.POS_NET] for x in pos)
    s2 = sum(x[L.POS_NET_SQ] for x in pos)
    return (s2 - s1 * s1 / n) / (n - 1) if n > 1 else math.nan


def _filled(res: SimResult) -> np.ndarray:
    """The batch totals that hold deals (a short run leaves some batches empty)."""
    if res.batches is None:
        return np.zeros((0, L.A_LEN))
    return res.batches[res.batches[:, L.A_DEALS] > 0]


def metrics(res: SimResult) -> list[dict]:
    """Headline metrics of one run, each with its SE or interval."""
    t = res.totals
    n = res.rules.players
    deals = t[L.A_DEALS]
    rows = []

    def add(metric, value, se=math.nan, lo=math.nan, hi=math.nan, method="mean"):
        rows.append(dict(metric=metric, **estimate(value, se, lo, hi, deals, method)))

    hist = t[L.A_LOOED_HIST : L.A_LOOED_HIST + L.MAX_PLAYERS + 1]
    k = np.arange(len(hist))
    m, se = mean_se(float(hist @ k), float(hist @ (k * k)), deals)
    add("loo_rate", m / n, se / n, method="looed seats per deal / players")
    for p in range(1, n + 1):
        x = t[L.A_POS + p * L.POS_LEN : L.A_POS + (p + 1) * L.POS_LEN]
        m, se = mean_se(x[L.POS_NET], x[L.POS_NET_SQ], deals)
        add(f"net_position_{p}", m, se, method="mean net chips per deal at this position (1 = dealer's left)")
    var = _net_variance(t, n)
    batches = _filled(res)
    n_batches = len(batches)
    se = math.nan
    if n_batches > 1:
        per_batch = np.array([_net_variance(b, n) for b in batches])
        se = float(per_batch.std(ddof=1) / math.sqrt(n_batches))
    add("net_variance", var, se, method=f"variance of a seat's net per deal; SE from {n_batches} batch means")
    m, se = mean_se(t[L.A_POT_NEXT], t[L.A_POT_NEXT_SQ], deals)
    add("pot_growth", m - res.carried, se, method="mean pot_next - carried per deal")
    contested = t[L.A_OUTCOME + L.OUT_PLAY] + t[L.A_OUTCOME + L.OUT_FLUSH]
    lo, hi = wilson(contested, deals)
    add(
        "contested_share",
        contested / deals,
        math.sqrt(max(contested / deals * (1 - contested / deals), 0) / deals),
        lo,
        hi,
        method="wilson: deals with two or more seats in",
    )
    return rows


def _paired_slot(metric: str) -> int | None:
    """The V_* slot of a metric that is a mean over deals (None: not one)."""
    if metric == "loo_rate":
        return L.V_LOO
    if metric == "contested_share":
        return L.V_CONTESTED
    if metric == "pot_growth":
        return L.V_GROWTH
    if metric.startswith("net_position_"):
        return L.V_NET_POS + int(metric.rsplit("_", 1)[1])
    return None


def _paired_variance(res: SimResult, base: SimResult) -> tuple[float, str]:
    """SE of the difference in net variance from the batch means, differenced batch by batch
    (both rows' batch b holds the same deals); 0 when no batch differs."""
    n, nb = res.rules.players, base.rules.players
    x, y = _filled(res), _filled(base)
    diffs = np.array([_net_variance(a, n) - _net_variance(b, nb) for a, b in zip(x, y)])
    how = f"paired: difference of the two rows' variances in each of {len(diffs)} batches of the same deals"
    if len(diffs) and not diffs.any():
        return 0.0, how
    if len(diffs) < 2:
        return math.nan, how
    return float(diffs.std(ddof=1) / math.sqrt(len(diffs))), how


def variant_rows(result: VariantsResult) -> pd.DataFrame:
    """Long form: per row and metric, the value with its interval, and the paired
    difference against the baseline row on the same deals, with its SE and interval
    (``unpaired_se``: the SE two separate runs would have)."""
    base_res = result.row(result.baseline)
    base = {r["metric"]: r for r in metrics(base_res)}
    rows = []
    for r_index, (name, res) in enumerate(zip(result.names, result.results)):
        deals = res.totals[L.A_DEALS]
        pair = result.pair[r_index]
        for r in metrics(res):
            b = base.get(r["metric"])
            d = dse = unpaired = math.nan
            how = "no such metric in the baseline row"
            slot = _paired_slot(r["metric"])
            if b is not None:
                unpaired = 0.0 if name == result.baseline else math.sqrt(r["se"] ** 2 + b["se"] ** 2)
            if b is not None and slot is not None:
                d, dse = mean_se(pair[L.V_DIFF + slot], pair[L.V_DIFF_SQ + slot], deals)
                how = "paired: mean of the deal-by-deal differences on the same decks"
            elif b is not None and r["metric"] == "net_variance":
                d = r["value"] - b["value"]
                dse, how = _paired_variance(res, base_res)
            if name == result.baseline:
                d, dse, how = 0.0, 0.0, "the baseline row itself"
            lo, hi = normal_ci(d, dse)
            rows.append(dict(row=name, **r, diff_vs_baseline=d, diff_se=dse, diff_ci_low=lo, diff_ci_high=hi,
                             diff_method=how, unpaired_se=unpaired))  # fmt: skip
    return pd.DataFrame(rows, columns=COLUMNS)


# ---- in sessions (R10): ratios of means over sessions, the session as the unit ---------------
SESSION_LABELS = {
    "loo_rate": "loo rate (share of seats looed per deal)",
    "single_share": "share of single pots (R8: a clean pot)",
    "double_share": "share of double pots",
    "contested_share": "share of deals with two or more seats in",
    "mean_pot": "pot at the start of a deal (chips, mean)",
    "net_variance": "variance of a seat's net chips per deal",
    "session_variance": "variance of a seat's net chips per session (measured deals)",
    "inexact_sessions": "share of sessions past 2**53 chips (R3: not exact)",
}
WINDOW_METRICS = ("loo_rate", "single_share", "contested_share", "mean_pot")
WINDOW_COLUMNS = ["row", "metric", "early", "late", "difference", "se", "ci_low", "ci_high", "z", "beyond_3_se",
                  "early_deals", "late_deals", "sessions"]  # fmt: skip
POT_COLUMNS = ["row", "pot", "pot_low", "pot_high", "exact", "count", "share", "se", "ci_low", "ci_high"]


def session_metric_label(metric: str) -> str:
    if metric.startswith("net_position_"):
        return metric_label(metric)
    return SESSION_LABELS.get(metric, metric.replace("_", " "))


def _session_metrics(players: int) -> dict[str, tuple[tuple[int, ...], object, str]]:
    """Each metric of a row in sessions: its VS_* slots and the function of their means over
    sessions that gives it (a rate per deal is a ratio of means: the delta method)."""
    n = players
    ratio = "ratio of means over sessions (delta method, the session as the unit)"

    def share(m):
        return m[0] / m[1]

    found = {
        "loo_rate": (
            (L.VS_LOOED, L.VS_DEALS),
            lambda m: m[0] / (n * m[1]),
            "looed seats / (players x deals); " + ratio,
        ),
        "single_share": ((L.VS_SINGLE, L.VS_DEALS), share, "single pots / deals; " + ratio),
        "double_share": ((L.VS_SINGLE, L.VS_DEALS), lambda m: 1.0 - m[0] / m[1], "1 - single pots / deals; " + ratio),
        "contested_share": ((L.VS_CONTESTED, L.VS_DEALS), share, "two or more seats in / deals; " + ratio),
        "mean_pot": ((L.VS_POT, L.VS_DEALS), share, "pot_start summed / deals; " + ratio),
    }
    for p in range(1, n + 1):
        found[f"net_position_{p}"] = (
            (L.VS_NET_POS + p, L.VS_DEALS),
            share,
            "net chips at the position / deals; " + ratio,
        )
    found["net_variance"] = (
        (L.VS_NET_SQ, L.VS_NET, L.VS_DEALS),
        lambda m: m[0] / (n * m[2]) - (m[1] / (n * m[2])) ** 2,
        "E[net^2] - E[net]^2 over seats and measured deals; " + ratio,
    )
    found["session_variance"] = (
        (L.VS_BAL_SQ, L.VS_NET, L.VS_ONE),
        lambda m: m[0] / (n * m[2]) - (m[1] / (n * m[2])) ** 2,
        "E[b^2] - E[b]^2 of a seat's net b over a session's measured deals (the pot left not shared); " + ratio,
    )
    found["inexact_sessions"] = ((L.VS_INEXACT, L.VS_ONE), share, "sessions with an amount past 2**53 / sessions")
    return found


def _window_metric(metric: str, players: int):
    """A window metric (late minus early window): slots and function, as _session_metrics."""
    slot = {"loo_rate": L.VW_LOOED, "single_share": L.VW_SINGLE, "contested_share": L.VW_CONTESTED,
            "mean_pot": L.VW_POT}[metric]  # fmt: skip
    scale = players if metric == "loo_rate" else 1
    slots = (L.VS_EARLY + slot, L.VS_EARLY + L.VW_DEALS, L.VS_LATE + slot, L.VS_LATE + L.VW_DEALS)
    return (
        slots,
        lambda m: (m[2] / m[3] - m[0] / m[1]) / scale,
        lambda m: (m[0] / (scale * m[1]), m[2] / (scale * m[3])),
    )


class _Moments:
    """Means and covariances over sessions of the session sums of a VariantSessionsResult."""

    def __init__(self, res) -> None:
        self.res = res
        self.n = float(res.s1[L.VS_ONE]) if res.sessions else 0.0
        self.mu = res.s1 / self.n if self.n else np.full_like(res.s1, math.nan)

    def cov(self, idx: np.ndarray) -> np.ndarray:
        n = self.n
        if n < 2:
            return np.full((len(idx), len(idx)), math.nan)
        s2 = self.res.s2[np.ix_(idx, idx)]
        mu = self.mu[idx]
        return (s2 - n * np.outer(mu, mu)) / (n - 1)

    def same(self, a: np.ndarray, b: np.ndarray) -> bool:
        """Whether the slots a and b (index arrays) are equal in every session: the sums of
        squared differences are exactly 0 (the same products in the same order)."""
        s2 = self.res.s2
        return bool(all(s2[i, i] - 2 * s2[i, j] + s2[j, j] == 0 and self.res.s1[i] == self.res.s1[j]
                        for i, j in zip(a, b)))  # fmt: skip

    def delta(self, idx: np.ndarray, fn) -> tuple[float, float]:
        """fn(means of the slots idx) and its delta-method SE (central differences)."""
        m = self.mu[idx].astype(np.float64)
        with np.errstate(all="ignore"):
            value = float(fn(m))
            grad = np.zeros(len(m))
            for i in range(len(m)):
                h = 1e-6 * (abs(m[i]) if m[i] != 0 else 1.0)
                up, down = m.copy(), m.copy()
                up[i] += h
                down[i] -= h
                grad[i] = (fn(up) - fn(down)) / (2 * h)
            var = float(grad @ self.cov(idx) @ grad) / self.n if self.n >= 2 else math.nan
        return value, math.sqrt(max(var, 0.0)) if var == var else math.nan


def session_rows(res) -> pd.DataFrame:
    """Long form (the columns of :func:`variant_rows`): per row and metric of the measured
    deals of sessions, the value with its SE and interval, and the paired difference from the
    baseline row over the same sessions (the session as the unit: the difference of two
    ratios of means, linearized together, so its SE takes the pairing into account), with
    the SE separate runs would give (``unpaired_se``)."""
    mom = _Moments(res)
    base = res.names.index(res.baseline)
    base_n = res.rules[base].players
    base_metrics = _session_metrics(base_n)
    out = []
    for r, name in enumerate(res.names):
        found = _session_metrics(res.rules[r].players)
        for metric, (slots, fn, how) in found.items():
            idx = np.array([res.slot(r, x) for x in slots])
            value, se = mom.delta(idx, fn)
            lo, hi = normal_ci(value, se)
            d = dse = unpaired = math.nan
            diff_how = "no such metric in the baseline row"
            if metric in base_metrics:
                b_slots, b_fn, _ = base_metrics[metric]
                b_idx = np.array([res.slot(base, x) for x in b_slots])
                _, b_se = mom.delta(b_idx, b_fn)
                unpaired = math.sqrt(se**2 + b_se**2)
                k = len(idx)
                both = np.concatenate([idx, b_idx])
                d, dse = mom.delta(both, lambda m, fn=fn, b_fn=b_fn, k=k: fn(m[:k]) - b_fn(m[k:]))
                diff_how = "paired: the two rows' ratios over the same sessions, linearized together"
                if r == base:
                    d, dse, diff_how, unpaired = 0.0, 0.0, "the baseline row itself", 0.0
                elif slots == b_slots and mom.same(idx, b_idx) and res.rules[r].players == base_n:
                    d, dse = 0.0, 0.0
                    diff_how = "paired: exactly 0, the two rows' sums are equal in every session"
            dlo, dhi = normal_ci(d, dse)
            out.append(dict(row=name, metric=metric, value=value, se=se, ci_low=lo, ci_high=hi, n=mom.n, method=how,
                            diff_vs_baseline=d, diff_se=dse, diff_ci_low=dlo, diff_ci_high=dhi, diff_method=diff_how,
                            unpaired_se=unpaired))  # fmt: skip
    return pd.DataFrame(out, columns=COLUMNS)


def session_windows(res) -> pd.DataFrame:
    """The stationarity check: per row, each of ``WINDOW_METRICS`` over the early window
    (deals burn_in .. burn_in + window - 1 of every session) and the late one (the last
    ``window`` deals), their difference (late - early) with its SE (both windows of the same
    sessions, linearized together), z, and whether it is beyond 3 SE."""
    mom = _Moments(res)
    out = []
    for r, name in enumerate(res.names):
        n = res.rules[r].players
        for metric in WINDOW_METRICS:
            slots, fn, parts = _window_metric(metric, n)
            idx = np.array([res.slot(r, x) for x in slots])
            if res.window == 0:
                d = se = early = late = math.nan
            else:
                d, se = mom.delta(idx, fn)
                with np.errstate(all="ignore"):
                    early, late = parts(mom.mu[idx])
            lo, hi = normal_ci(d, se)
            z = d / se if se > 0 else (0.0 if d == 0 else (math.nan if d != d else math.inf))
            out.append(dict(row=name, metric=metric, early=early, late=late, difference=d, se=se, ci_low=lo,
                            ci_high=hi, z=z, beyond_3_se=bool(abs(z) > 3), early_deals=res.window,
                            late_deals=res.window, sessions=mom.n))  # fmt: skip
    return pd.DataFrame(out, columns=WINDOW_COLUMNS)


def session_pots(res) -> pd.DataFrame:
    """The pot at the start of the measured deals, per row: whole pots below ``EXACT_CHIPS``
    by exact value (``exact`` true, pot_low = pot_high = pot), the others by log bin
    (pot: the bin's mean, pot_low/pot_high its bounds), each with its share of the measured
    deals and an SE with the session as the unit (a ratio of sums over sessions)."""
    from loo_sim.base.stats import ratio_se

    n = float(res.s1[L.VS_ONE])
    out = []
    for r, name in enumerate(res.names):
        deals = res.s1[res.slot(r, L.VS_DEALS)]
        dd = res.s2[res.slot(r, L.VS_DEALS), res.slot(r, L.VS_DEALS)]
        for e in np.nonzero(res.pot_n[r])[0]:
            c = res.pot_n[r, e]
            share, se = ratio_se(c, deals, res.pot_sq[r, e], res.pot_nm[r, e], dd, n)
            if e < L.EXACT_CHIPS:
                pot, low, high, exact = float(e), float(e), float(e), True
            else:
                b = int(e - L.EXACT_CHIPS)
                low, high = _bin_bounds(b)
                pot, exact = res.pot_sum[r, e] / c, False
            lo, hi = normal_ci(share, se)
            out.append(dict(row=name, pot=pot, pot_low=low, pot_high=high, exact=exact, count=c, share=share, se=se,
                            ci_low=max(lo, 0.0), ci_high=min(hi, 1.0)))  # fmt: skip
    table = pd.DataFrame(out, columns=POT_COLUMNS)
    return table.sort_values(["row", "pot"], key=lambda s: s.map(res.names.index) if s.name == "row" else s,
                             kind="stable").reset_index(drop=True)  # fmt: skip


def _bin_bounds(b: int) -> tuple[float, float]:
    """The amounts kernel.bins.pot_bin puts in bin b."""
    edges = bin_edges()
    return 0.0 if b == 0 else float(edges[b]), float(edges[b + 1])


def pot_quantile(pots: pd.DataFrame, row: str, q: float) -> float:
    """The q quantile of a row's pot distribution (a pot that occurred where counted exactly; a bin's mean else)."""
    t = pots[pots.row == row]
    cum = t["share"].cumsum().to_numpy() / max(t["share"].sum(), 1e-300)
    i = int(np.searchsorted(cum, q - 1e-12))
    return float(t["pot"].iloc[min(i, len(t) - 1)])
