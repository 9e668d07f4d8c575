"""The rule-variation table: headline metrics of several rule sets (rows), each with its
interval, and the paired change against a baseline row (``analysis.summaries`` puts it in
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

from loo_sim.kernel import abi as L
from loo_sim.run.simulate import SimResult
from loo_sim.run.variants import VariantsResult
from loo_sim.stats import estimate, mean_se, normal_ci, wilson

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
    return METRIC_LABELS.get(metric, metric.replace("_", " "))


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
