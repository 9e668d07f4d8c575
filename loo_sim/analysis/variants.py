"""The rule-variation table: headline metrics of several rule sets (rows), each with its
interval, and the change against a baseline row."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from loo_sim.analysis.stats import Z95, mean_se, wilson
from loo_sim.kernel import abi as L
from loo_sim.run.simulate import SimResult

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
]


def _net_variance(totals: np.ndarray, players: int) -> float:
    """Variance of a seat's net chips per deal, pooled over positions."""
    deals = totals[L.A_DEALS]
    pos = [totals[L.A_POS + p * L.POS_LEN : L.A_POS + (p + 1) * L.POS_LEN] for p in range(1, players + 1)]
    n = deals * players
    s1 = sum(x[L.POS_NET] for x in pos)
    s2 = sum(x[L.POS_NET_SQ] for x in pos)
    return (s2 - s1 * s1 / n) / (n - 1) if n > 1 else math.nan


def metrics(res: SimResult) -> list[dict]:
    """Headline metrics of one run, each with its SE or interval."""
    t = res.totals
    n = res.rules.players
    deals = t[L.A_DEALS]
    rows = []

    def add(metric, value, se=math.nan, lo=math.nan, hi=math.nan, method="mean"):
        if lo != lo and se == se:
            lo, hi = value - Z95 * se, value + Z95 * se
        rows.append(dict(metric=metric, value=value, se=se, ci_low=lo, ci_high=hi, n=deals, method=method))

    hist = t[L.A_LOOED_HIST : L.A_LOOED_HIST + L.MAX_PLAYERS + 1]
    k = np.arange(len(hist))
    m, se = mean_se(float(hist @ k), float(hist @ (k * k)), deals)
    add("loo_rate", m / n, se / n, method="looed seats per deal / players")
    for p in range(1, n + 1):
        x = t[L.A_POS + p * L.POS_LEN : L.A_POS + (p + 1) * L.POS_LEN]
        m, se = mean_se(x[L.POS_NET], x[L.POS_NET_SQ], deals)
        add(f"net_position_{p}", m, se, method="mean net chips per deal at this position (1 = dealer's left)")
    var = _net_variance(t, n)
    batches = res.extra.get("batches")
    se = math.nan
    if batches is not None and len(batches) > 1:
        per_batch = np.array([_net_variance(b, n) for b in batches])
        se = float(per_batch.std(ddof=1) / math.sqrt(len(per_batch)))
    add("net_variance", var, se, method="variance of a seat's net per deal; SE from 20 batch means")
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


def variant_rows(results: Sequence[tuple[str, SimResult]], baseline: str) -> pd.DataFrame:
    """Long form: per row and metric, the value with its interval and the (unpaired,
    conservative: the rows are separate runs) difference against the baseline row."""
    by_row = {name: metrics(res) for name, res in results}
    base = {r["metric"]: r for r in by_row[baseline]}
    rows = []
    for name, items in by_row.items():
        for r in items:
            b = base.get(r["metric"])
            d = dse = math.nan
            if b is not None:
                d = r["value"] - b["value"]
                dse = 0.0 if name == baseline else math.sqrt(r["se"] ** 2 + b["se"] ** 2)
            rows.append(
                dict(
                    row=name,
                    **r,
                    diff_vs_baseline=d,
                    diff_se=dse,
                    diff_ci_low=d - Z95 * dse,
                    diff_ci_high=d + Z95 * dse,
                )
            )
    return pd.DataFrame(rows, columns=COLUMNS)


def variants_summary(table: pd.DataFrame, baseline: str, deals: int, seed: int, carried: float) -> str:
    """summary.md of a variants study (each row ``deals`` deals from ``seed`` with ``carried``
    chips carried in); every number from ``table``."""
    lines = [
        f"# Rule variants against {baseline}",
        "",
        f"Each row plays {deals:,} independent deals (seed {seed}, {carried:g} chips "
        "carried in, policies as configured). Differences against the baseline are unpaired (separate runs), "
        "so their intervals are conservative.",
        "",
    ]
    for metric, title in (
        ("loo_rate", "loo rate"),
        ("contested_share", "share of contested deals"),
        ("pot_growth", "pot growth per deal (chips)"),
        ("net_variance", "variance of net chips"),
    ):
        lines.append(f"## {title}")
        lines.append("")
        for r in table[table.metric == metric].itertuples(index=False):
            change = (
                ""
                if r.row == baseline
                else (f"; against {baseline} {r.diff_vs_baseline:+.4g} [{r.diff_ci_low:+.4g}, {r.diff_ci_high:+.4g}]")
            )
            lines.append(f"- {r.row}: {r.value:.4g} (95% CI [{r.ci_low:.4g}, {r.ci_high:.4g}]){change}")
        lines.append("")
    return "\n".join(lines)
