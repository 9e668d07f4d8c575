"""Tables of the take-the-miss study (docs/policies.md P4, P5): the decision chart with each
cell's best action and its paired verdict, the chart as a policy, the heuristic
comparison, and the sweep over players and pots. The runs are ``run.decisions``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from loo_sim.config import MIN_HANDS
from loo_sim.game.classes import N_CLASSES, class_label
from loo_sim.kernel import abi as L
from loo_sim.run.decisions import DecisionResult, HeuristicResult
from loo_sim.stats import mean_se, normal_ci, wilson

ACTION_NAMES = L.DECL_NAMES  # pass, play, miss, defend


def _pair(a: int, b: int) -> tuple[int, float]:
    """Index of the pair (a, b) in ``kernel.abi.PAIRS`` and the sign of a - b in it."""
    if (a, b) in L.PAIRS:
        return L.PAIRS.index((a, b)), 1.0
    return L.PAIRS.index((b, a)), -1.0


def paired_difference(cell: np.ndarray, a: int, b: int) -> tuple[float, float]:
    """Mean and SE of the payoff of action a minus that of action b, on the deals of one
    chart cell (or pooled cells) where both were replayed."""
    p, sign = _pair(a, b)
    return mean_se(sign * cell[L.CF_PAIR_SUM + p], cell[L.CF_PAIR_SQ + p], cell[L.CF_PAIR_N + p])


def _cell_rows(cell: np.ndarray, cls: int, position: object) -> list[dict]:
    rows = []
    means = {}
    decided = max(cell[L.CF_CHOSEN : L.CF_CHOSEN + L.ACTIONS].sum(), 1.0)
    for a in range(L.ACTIONS):
        n = cell[L.CF_N + a]
        if n == 0:
            continue
        m, se = mean_se(cell[L.CF_SUM + a], cell[L.CF_SQ + a], n)
        means[a] = (m, n)
        lo, hi = normal_ci(m, se)
        rows.append(dict(hand_class=cls, label=class_label(cls), position=position, action=ACTION_NAMES[a],
                         n=int(n), mean=m, se=se, ci_low=lo, ci_high=hi,
                         chosen_share=cell[L.CF_CHOSEN + a] / decided))  # fmt: skip
    if not rows:
        return rows
    ranked = sorted(means, key=lambda a: -means[a][0])
    best = ranked[0]
    verdict = dict(best=False, significant=False, runner_up="", diff=math.nan, diff_se=math.nan)
    if means[best][1] >= MIN_HANDS:
        verdict["best"] = True
        if len(ranked) > 1:
            runner = ranked[1]
            d, dse = paired_difference(cell, best, runner)
            verdict.update(runner_up=ACTION_NAMES[runner], diff=d, diff_se=dse,
                           significant=bool(normal_ci(d, dse)[0] > 0))  # fmt: skip
    for r in rows:
        is_best = r["action"] == ACTION_NAMES[best] and verdict["best"]
        r.update(best=is_best, significant=is_best and verdict["significant"],
                 runner_up=verdict["runner_up"] if is_best else "",
                 diff_vs_runner_up=verdict["diff"] if is_best else math.nan,
                 diff_se=verdict["diff_se"] if is_best else math.nan)  # fmt: skip
    return rows


CHART_COLUMNS = ["hand_class", "label", "position", "action", "n", "mean", "se", "ci_low", "ci_high",
                 "chosen_share", "best", "significant", "runner_up", "diff_vs_runner_up", "diff_se"]  # fmt: skip


def chart_table(res: DecisionResult) -> pd.DataFrame:
    """Long form: per hand class, position ('all' pools them; 1 = dealer's left) and
    action, the focal payoff's mean with its 95% interval; the best action per cell and
    whether it beats the runner-up significantly (paired difference on the same deals)."""
    rows: list[dict] = []
    for cls in range(N_CLASSES):
        pooled = res.totals[cls].sum(axis=0)
        rows += _cell_rows(pooled, cls, "all")
        for position in range(1, res.rules.players + 1):
            rows += _cell_rows(res.totals[cls, position], cls, position)
    return pd.DataFrame(rows, columns=CHART_COLUMNS)


def best_actions(res: DecisionResult) -> np.ndarray:
    """The chart as a policy: best declaration per [class, position] (DECL_* code), taken
    from the cell itself when it has MIN_HANDS hands, else from the class pooled over
    positions, else -1 (the chart policy then decides as ``basic``)."""
    chart = np.full((N_CLASSES, L.MAX_PLAYERS + 1), -1, dtype=np.int64)
    for cls in range(N_CLASSES):
        pooled = res.totals[cls].sum(axis=0)
        fallback = _best(pooled)
        for position in range(1, res.rules.players + 1):
            best = _best(res.totals[cls, position])
            chart[cls, position] = best if best >= 0 else fallback
    return chart


def _best(cell: np.ndarray) -> int:
    best, value = -1, -math.inf
    for a in range(L.ACTIONS):
        n = cell[L.CF_N + a]
        if n >= MIN_HANDS and cell[L.CF_SUM + a] / n > value:
            best, value = a, cell[L.CF_SUM + a] / n
    return best


HEURISTIC_COLUMNS = ["heuristic", "n", "net_mean", "net_se", "net_ci_low", "net_ci_high", "loo_rate",
                     "loo_ci_low", "loo_ci_high", "miss_rate", "diff_vs_baseline", "diff_se_paired",
                     "diff_ci_low", "diff_ci_high", "diff_se_unpaired"]  # fmt: skip


def heuristic_table(res: HeuristicResult) -> pd.DataFrame:
    """Per heuristic: mean net chips per deal of the focal seat, loo rate, miss-taking
    rate, and the paired difference against the baseline with the unpaired SE beside it."""
    n = res.deals
    t = res.totals
    base_mean, base_se = mean_se(t[0, L.H_SUM], t[0, L.H_SQ], n)
    rows = []
    for h, name in enumerate(res.names):
        m, se = mean_se(t[h, L.H_SUM], t[h, L.H_SQ], n)
        d, dse = mean_se(t[h, L.H_DIFF], t[h, L.H_DIFF_SQ], n)
        lo, hi = wilson(t[h, L.H_LOOED], n)
        (net_lo, net_hi), (d_lo, d_hi) = normal_ci(m, se), normal_ci(d, dse)
        rows.append(dict(heuristic=name, n=n, net_mean=m, net_se=se, net_ci_low=net_lo, net_ci_high=net_hi,
                         loo_rate=t[h, L.H_LOOED] / n, loo_ci_low=lo, loo_ci_high=hi, miss_rate=t[h, L.H_MISS] / n,
                         diff_vs_baseline=d, diff_se_paired=dse, diff_ci_low=d_lo, diff_ci_high=d_hi,
                         diff_se_unpaired=math.sqrt(se * se + base_se * base_se) if h else 0.0))  # fmt: skip
    return pd.DataFrame(rows, columns=HEURISTIC_COLUMNS)


def decision_shares(res: DecisionResult) -> dict[str, float]:
    """Share of decisions (hands with a real choice) whose best action is each action,
    judging each class/position cell by its own best action."""
    counts = dict.fromkeys(ACTION_NAMES, 0.0)
    total = 0.0
    for cls in range(N_CLASSES):
        for position in range(1, res.rules.players + 1):
            cell = res.totals[cls, position]
            hands = cell[L.CF_CHOSEN : L.CF_CHOSEN + L.ACTIONS].sum()
            best = _best(cell)
            if hands and best >= 0:
                counts[ACTION_NAMES[best]] += hands
                total += hands
    return {a: (c / total if total else math.nan) for a, c in counts.items()}


def sweep_frames(results: Sequence[DecisionResult]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(shares, classes): for each run of a players x carried grid, the share of
    decisions whose best action is each action, and each class's best action."""
    shares, classes = [], []
    for res in results:
        decided = sum(res.totals[c, :, L.CF_CHOSEN : L.CF_CHOSEN + L.ACTIONS].sum() for c in range(N_CLASSES))
        for action, share in decision_shares(res).items():
            shares.append(dict(players=res.rules.players, carried=res.carried, action=action, share=share,
                               n=int(decided)))  # fmt: skip
        table = chart_table(res)
        best = table[(table.position == "all") & table.best]
        for r in best.itertuples(index=False):
            classes.append(dict(players=res.rules.players, carried=res.carried, hand_class=r.hand_class,
                                label=r.label, best=r.action, mean=r.mean, significant=r.significant,
                                runner_up=r.runner_up, diff_vs_runner_up=r.diff_vs_runner_up, diff_se=r.diff_se,
                                n=r.n))  # fmt: skip
    return pd.DataFrame(shares), pd.DataFrame(classes)
