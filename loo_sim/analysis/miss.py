"""Tables of the take-the-miss study (docs/policies.md P4, P5): the decision chart with each
cell's best action and its paired verdict, the chart as a policy, the heuristic
comparison, and the sweep over players and pots. The runs are ``run.decisions``.

A cell is what the deciding seat sees: its hand class, its position, whether the miss
is on offer to it and how many earlier seats are in. Its best action is chosen only
from paired differences on the same decisions (:func:`verdict`), never from means
taken over different sets of deals.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd

from loo_sim.base.config import MIN_HANDS
from loo_sim.base.stats import mean_se, normal_ci, wilson
from loo_sim.game import abi as L
from loo_sim.game.classes import EARLIER_IN_BINS, N_CLASSES, class_label, earlier_in_label
from loo_sim.run.decisions import DecisionResult, HeuristicResult
from loo_sim.run.session_pots import POT_BUCKET_NAMES

ACTION_NAMES = L.DECL_NAMES  # pass, play, miss, defend


def _pair(a: int, b: int) -> tuple[int, float]:
    """Index of the pair (a, b) in ``game.abi.PAIRS`` and the sign of a - b in it."""
    if (a, b) in L.PAIRS:
        return L.PAIRS.index((a, b)), 1.0
    return L.PAIRS.index((b, a)), -1.0


def paired_difference(cell: np.ndarray, a: int, b: int) -> tuple[float, float]:
    """Mean and SE of the payoff of action a minus that of action b, on the deals of one
    chart cell (or pooled cells) where both were replayed."""
    p, sign = _pair(a, b)
    return mean_se(sign * cell[L.CF_PAIR_SUM + p], cell[L.CF_PAIR_SQ + p], cell[L.CF_PAIR_N + p])


def _paired_n(cell: np.ndarray, a: int, b: int) -> float:
    return cell[L.CF_PAIR_N + _pair(a, b)[0]]


@dataclass(frozen=True)
class Verdict:
    """The best action of a cell, chosen from paired differences only (docs/policies.md P4)."""

    best: int  # DECL_* code
    runner_up: int  # the action it beats by the least (paired), -1 if none
    diff: float  # paired mean of best - runner_up, on the decisions where both were on offer
    diff_se: float
    significant: bool  # every paired 95% interval of best - other excludes 0


def verdict(cell: np.ndarray) -> Verdict | None:
    """The best action of one cell (or pooled cells), or None without enough decisions.

    Two actions are compared only on the decisions where both were on offer (the paired
    sums ``CF_PAIR_*``), and only where there are at least MIN_HANDS such decisions. The
    best action is the one whose smallest paired margin over the others is largest (with
    one set of decisions for all, simply the highest mean); its runner-up is the action
    it beats by the least; it is significant only when every paired interval excludes 0.
    """
    margins: dict[int, list[tuple[float, float, int]]] = {}
    for a in range(L.ACTIONS):
        for b in range(L.ACTIONS):
            if a != b and _paired_n(cell, a, b) >= MIN_HANDS:
                d, se = paired_difference(cell, a, b)
                margins.setdefault(a, []).append((d, se, b))
    if not margins:
        return None
    best = max(margins, key=lambda a: min(m[0] for m in margins[a]))  # ties: the first in DECL order
    d, se, runner = min(margins[best])
    significant = all(normal_ci(m, e)[0] > 0 for m, e, _ in margins[best])
    return Verdict(best, runner, d, se, significant)


def _cell_rows(cell: np.ndarray, key: dict) -> list[dict]:
    """The rows of one cell (``key``: hand_class, label, position, miss_on_offer,
    earlier_in): one per action on offer, with the paired verdict on the best one."""
    decisions = cell[L.CF_CHOSEN : L.CF_CHOSEN + L.ACTIONS].sum()
    if decisions == 0:
        return []
    v = verdict(cell)
    rows = []
    for a in range(L.ACTIONS):
        n = cell[L.CF_N + a]
        if n == 0:
            continue
        m, se = mean_se(cell[L.CF_SUM + a], cell[L.CF_SQ + a], n)
        lo, hi = normal_ci(m, se)
        if v is None:
            d_best, d_best_se = math.nan, math.nan
        elif a == v.best:
            d_best, d_best_se = 0.0, 0.0
        elif _paired_n(cell, a, v.best) > 0:
            d_best, d_best_se = paired_difference(cell, a, v.best)
        else:
            d_best, d_best_se = math.nan, math.nan
        is_best = v is not None and a == v.best
        rows.append(dict(key, action=ACTION_NAMES[a], n=int(n), mean=m, se=se, ci_low=lo, ci_high=hi,
                         decisions=int(decisions), chosen_share=cell[L.CF_CHOSEN + a] / decisions,
                         diff_vs_best=d_best, diff_vs_best_se=d_best_se, best=is_best,
                         significant=is_best and v.significant,
                         runner_up=ACTION_NAMES[v.runner_up] if is_best and v.runner_up >= 0 else "",
                         diff_vs_runner_up=v.diff if is_best else math.nan,
                         diff_se=v.diff_se if is_best else math.nan))  # fmt: skip
    return rows


CHART_COLUMNS = ["hand_class", "label", "position", "miss_on_offer", "earlier_in", "action", "n", "mean", "se",
                 "ci_low", "ci_high", "decisions", "chosen_share", "diff_vs_best", "diff_vs_best_se", "best",
                 "significant", "runner_up", "diff_vs_runner_up", "diff_se"]  # fmt: skip
ALL = "all"  # a pooled position or earlier_in (or pot bucket)
CHART_POT_COLUMNS = [*CHART_COLUMNS[:5], "pot_bucket", *CHART_COLUMNS[5:]]  # a chart of session pots


def _cells(totals: np.ndarray, n: int, cls: int):
    """(position, miss_on_offer, earlier_in, cell) of one class of ``totals`` [class,
    position, ...]: each position 1..n and pooled ("all"), each offer, each earlier-in bin
    and pooled ("all")."""
    t = totals[cls]
    for position in [ALL, *range(1, n + 1)]:
        by_pos = t[1 : n + 1].sum(axis=0) if position == ALL else t[position]
        for offer in range(L.OFFER_BINS):
            yield position, bool(offer), ALL, by_pos[offer].sum(axis=0)
            for e in range(EARLIER_IN_BINS):
                yield position, bool(offer), earlier_in_label(e, n), by_pos[offer, e]


def chart_table(res: DecisionResult) -> pd.DataFrame:
    """Long form, one row per cell and action on offer: a cell is a hand class, a position
    (1 = dealer's left; "all" pools them), whether the miss was on offer to the seat
    (``miss_on_offer``) and how many earlier seats were in (``earlier_in``: 0, 1, 2, 3+;
    "all" pools them). Per action: the deciding seat's mean payoff on the decisions where
    it was on offer, with its 95% interval, and its paired difference against the cell's
    best action; the best action by the paired rule of :func:`verdict`, its runner-up and
    whether it beats every other action significantly.

    A chart whose carried pots were drawn from sessions (``res.by_pot``) has the column
    ``pot_bucket`` after ``earlier_in``: the deal's pot against the penalty a loo costs
    (pot_start / penalty: <=1, 1-2, 2-4, 4-8, >8, as game.infosets buckets it), "all"
    pooling them (those rows are the chart of every deal)."""
    n = res.rules.players
    parts = [(None, res.totals)]
    if res.by_pot is not None:
        parts = [(ALL, res.totals)] + [(POT_BUCKET_NAMES[b], res.by_pot[b]) for b in range(len(res.by_pot))]
    rows: list[dict] = []
    for bucket, totals in parts:
        for cls in range(N_CLASSES):
            label = class_label(cls)
            for position, offer, earlier, cell in _cells(totals, n, cls):
                key = dict(hand_class=cls, label=label, position=position, miss_on_offer=offer, earlier_in=earlier)
                if bucket is not None:
                    key["pot_bucket"] = bucket
                rows += _cell_rows(cell, key)
    return pd.DataFrame(rows, columns=CHART_COLUMNS if res.by_pot is None else CHART_POT_COLUMNS)


def pooled(chart: pd.DataFrame) -> pd.DataFrame:
    """The rows with every position and number of earlier seats in pooled (and, in a chart
    of session pots, every pot bucket)."""
    keep = (chart.position == ALL) & (chart.earlier_in == ALL)
    if "pot_bucket" in chart.columns:
        keep &= chart.pot_bucket == ALL
    return chart[keep]


def default_slice(chart: pd.DataFrame) -> dict:
    """The slice a chart shows by default: every position and every number of earlier
    seats in, pooled, where the miss is on offer (or, in a game without one, where it is
    not); the keys are those of ``plots.decisions.decision_chart``."""
    offers = set(_as_bools(chart["miss_on_offer"])) if len(chart) else set()
    view = dict(position=ALL, miss_on_offer=True in offers or not offers, earlier_in=ALL)
    return view | ({"pot_bucket": ALL} if "pot_bucket" in chart.columns else {})


def _as_bools(values: pd.Series) -> list[bool]:
    if values.dtype == bool:
        return [bool(v) for v in values]
    return [str(v).strip().lower() in ("true", "1", "1.0", "yes") for v in values]


def best_actions(res: DecisionResult) -> np.ndarray:
    """The chart as a policy, [class, position, miss on offer, earlier seats in] (DECL_*
    code; ``game.abi.CHART_SHAPE``): the paired verdict of the cell itself when it has
    enough decisions, else that of the position pooled over earlier seats in, else that
    of the positions pooled with the same earlier seats in, else of both pooled, else -1
    (the chart policy then decides as ``basic``)."""
    chart = np.full(L.CHART_SHAPE, -1, dtype=np.int64)
    n = res.rules.players
    t = res.totals
    for cls in range(N_CLASSES):
        by_earlier = t[cls, 1 : n + 1].sum(axis=0)  # [offer, earlier]
        for offer in range(L.OFFER_BINS):
            pooled = _code(verdict(by_earlier[offer].sum(axis=0)))
            per_earlier = [_code(verdict(by_earlier[offer, e])) for e in range(EARLIER_IN_BINS)]
            for position in range(1, n + 1):
                own = _code(verdict(t[cls, position, offer].sum(axis=0)))
                for e in range(EARLIER_IN_BINS):
                    for code in (_code(verdict(t[cls, position, offer, e])), own, per_earlier[e], pooled):
                        if code >= 0:
                            chart[cls, position, offer, e] = code
                            break
    return chart


def _code(v: Verdict | None) -> int:
    return -1 if v is None else v.best


class Share(NamedTuple):
    share: float  # of the decisions where the action was on offer, those whose cell's best it is
    on_offer: int  # decisions where the action was on offer


def decision_shares(res: DecisionResult, chart: np.ndarray | None = None) -> dict[str, Share]:
    """For each action, the share of the decisions where it was on offer whose best action
    (the chart policy's, ``best_actions``: cell by cell, with its fall-backs) it is. The
    shares are of different sets of decisions (the miss is on offer less often than
    playing), so they need not add up to 1."""
    chart = best_actions(res) if chart is None else chart
    n = res.rules.players
    cells = res.totals[:, 1 : n + 1]
    best = chart[:, 1 : n + 1]
    out = {}
    for a, name in enumerate(ACTION_NAMES):
        on_offer = cells[..., L.CF_N + a]
        judged = on_offer[best >= 0].sum()
        share = on_offer[best == a].sum() / judged if judged else math.nan
        out[name] = Share(float(share), int(judged))
    return out


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


def sweep_frames(results: Sequence[DecisionResult]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(shares, classes): for each run of a players x carried grid, the share of the
    decisions where each action was on offer whose best action it is (``n``: those
    decisions; an action never on offer has no row), and each class's best action with
    every position and number of earlier seats in pooled, where the miss was on offer and
    where it was not. A run whose carried pots were drawn from sessions has as its
    ``carried`` the mean of that distribution."""
    shares, classes = [], []
    for res in results:
        for action, s in decision_shares(res).items():
            if s.on_offer:
                shares.append(dict(players=res.rules.players, carried=res.carried, action=action, share=s.share,
                                   n=s.on_offer))  # fmt: skip
        table = chart_table(res)
        best = pooled(table)
        best = best[best.best]
        for r in best.itertuples(index=False):
            classes.append(dict(players=res.rules.players, carried=res.carried, hand_class=r.hand_class,
                                label=r.label, miss_on_offer=r.miss_on_offer, best=r.action, mean=r.mean,
                                significant=r.significant, runner_up=r.runner_up,
                                diff_vs_runner_up=r.diff_vs_runner_up, diff_se=r.diff_se,
                                decisions=r.decisions))  # fmt: skip
    return pd.DataFrame(shares, columns=SWEEP_COLUMNS), pd.DataFrame(classes, columns=SWEEP_CLASS_COLUMNS)


SWEEP_COLUMNS = ["players", "carried", "action", "share", "n"]
SWEEP_CLASS_COLUMNS = ["players", "carried", "hand_class", "label", "miss_on_offer", "best", "mean", "significant",
                       "runner_up", "diff_vs_runner_up", "diff_se", "decisions"]  # fmt: skip
