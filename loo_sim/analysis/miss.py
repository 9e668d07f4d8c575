"""Take-the-miss analysis (POLICIES.md P4, P5): counterfactual decision charts and the
paired comparison of declaration heuristics, with a precision stopping rule.

Library functions return arrays and DataFrames; the CLI writes the files.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from loo_sim.analysis.stats import Z95, mean_se
from loo_sim.config import MIN_HANDS, ROUND_BLOCKS
from loo_sim.errors import LooError
from loo_sim.game.classes import N_CLASSES, class_label
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules
from loo_sim.kernel import abi as L
from loo_sim.rng import HEURISTIC_SESSION, MISS_SESSION  # noqa: F401 (the streams of these runs)
from loo_sim.run.args import kernel_args
from loo_sim.run.strength import resolve_strength

ACTION_NAMES = L.DECL_NAMES  # pass, play, miss, defend


@dataclass
class DecisionResult:
    rules: Rules
    policies: list[Policy]
    focal: list[int]
    carried: float
    seed: int
    deals: int  # deals played
    totals: np.ndarray  # [class, position, CF_*]
    partial: bool = False


@dataclass
class HeuristicResult:
    rules: Rules
    policies: list[Policy]
    focal: int
    names: list[str]
    carried: float
    seed: int
    deals: int
    totals: np.ndarray  # [heuristic, H_*]
    partial: bool = False
    extra: dict = field(default_factory=dict)


def _rounds(deals: int, task: Callable, static: tuple, reduce: Callable[[int, int, np.ndarray], None],
            done: Callable[[], bool] | None, progress: Callable[[int, int], None] | None,
            backend=None) -> tuple[int, bool]:  # fmt: skip
    """Run ``task`` over whole rounds of ROUND_BLOCKS blocks (on ``backend``), reducing each
    round's rows in order, until ``deals`` or ``done()``; returns the deals played and
    whether Ctrl-C stopped it. The stopping point depends only on the rounds' results."""
    from loo_sim.kernel.chunks import BLOCK
    from loo_sim.run.backend import LocalBackend, chunk_ranges

    backend = backend or LocalBackend()
    chunks = chunk_ranges((deals + BLOCK - 1) // BLOCK, ROUND_BLOCKS)
    block = 0
    try:
        for (first, count), rows in zip(chunks, backend.map_chunks(task, static, chunks)):
            reduce(first, count, rows)
            block = first + count
            if progress is not None:
                progress(min(block * BLOCK, deals), deals)
            if done is not None and done():
                break
    except KeyboardInterrupt:
        return min(block * BLOCK, deals), True
    return min(block * BLOCK, deals), False


def decisions(
    rules: Rules,
    table: Sequence[Policy],
    deals: int,
    seed: int,
    carried: float = 0.0,
    focal: Sequence[int] | None = None,
    strength=None,
    progress: Callable[[int, int], None] | None = None,
    backend=None,
) -> DecisionResult:
    """For each deal (dealer rotating) and each focal seat with a real choice, the focal
    payoff of every declaration on offer, the rest of the deal replayed as it falls."""
    from loo_sim.run.tasks import decision_task

    focal_seats = np.array(list(range(rules.players)) if focal is None else list(focal), dtype=np.int64)
    args = kernel_args(rules, table, resolve_strength(rules, table, strength))
    totals = np.zeros((N_CLASSES, L.MAX_PLAYERS + 1, L.CF_LEN), dtype=np.float64)

    def reduce(first: int, count: int, rows: np.ndarray) -> None:
        for b in range(count):
            totals[...] += rows[b]

    static = (*args, seed, deals, float(carried), focal_seats)
    played, partial = _rounds(deals, decision_task, static, reduce, None, progress, backend)
    return DecisionResult(rules, list(table), list(focal_seats), float(carried), seed, played, totals, partial)


def _pair(a: int, b: int) -> tuple[int, float]:
    """Index of the pair (a, b) in layout.PAIRS and the sign of a - b in it."""
    if (a, b) in L.PAIRS:
        return L.PAIRS.index((a, b)), 1.0
    return L.PAIRS.index((b, a)), -1.0


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
        rows.append(dict(hand_class=cls, label=class_label(cls), position=position, action=ACTION_NAMES[a],
                         n=int(n), mean=m, se=se, ci_low=m - Z95 * se, ci_high=m + Z95 * se,
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
            p, sign = _pair(best, runner)
            n = cell[L.CF_PAIR_N + p]
            d, dse = mean_se(sign * cell[L.CF_PAIR_SUM + p], cell[L.CF_PAIR_SQ + p], n)
            verdict.update(runner_up=ACTION_NAMES[runner], diff=d, diff_se=dse,
                           significant=bool(d - Z95 * dse > 0))  # fmt: skip
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


def heuristics(
    rules: Rules,
    table: Sequence[Policy],
    focal: int,
    candidates: Sequence[Policy],
    names: Sequence[str],
    deals: int,
    seed: int,
    carried: float = 0.0,
    strength=None,
    chart: np.ndarray | None = None,
    precision: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    backend=None,
) -> HeuristicResult:
    """Each candidate declaration policy played by the focal seat on the same deals
    (candidate 0 is the baseline of the paired differences). With ``precision``, stop
    after the first whole round where every difference's 95% half-width is below it."""
    from loo_sim.run.tasks import heuristic_task

    if not 0 <= focal < rules.players:
        raise LooError(f"focal seat {focal} does not exist; allowed 0..{rules.players - 1}")
    strength = resolve_strength(rules, [*table, *candidates], strength)
    args = kernel_args(rules, list(table), strength, chart)
    cand = kernel_args(rules, list(candidates), strength, chart)
    totals = np.zeros((len(candidates), L.H_LEN), dtype=np.float64)
    played = [0]

    def reduce(first: int, count: int, rows: np.ndarray) -> None:
        from loo_sim.kernel.chunks import BLOCK

        for b in range(count):
            totals[...] += rows[b]
        played[0] = min((first + count) * BLOCK, deals)

    def done() -> bool:
        if precision is None:
            return False
        n = played[0]
        halves = [Z95 * mean_se(totals[h, L.H_DIFF], totals[h, L.H_DIFF_SQ], n)[1] for h in range(1, len(candidates))]
        return all(x < precision for x in halves)

    static = (*args, seed, deals, float(carried), focal, cand.pol, cand.polf)
    n, partial = _rounds(deals, heuristic_task, static, reduce, done, progress, backend)
    res = HeuristicResult(rules, list(table), focal, list(names), float(carried), seed, n, totals, partial)
    res.extra["precision"] = precision
    return res


HEURISTIC_COLUMNS = ["heuristic", "n", "net_mean", "net_se", "net_ci_low", "net_ci_high", "loo_rate",
                     "loo_ci_low", "loo_ci_high", "miss_rate", "diff_vs_baseline", "diff_se_paired",
                     "diff_ci_low", "diff_ci_high", "diff_se_unpaired"]  # fmt: skip


def heuristic_table(res: HeuristicResult) -> pd.DataFrame:
    """Per heuristic: mean net chips per deal of the focal seat, loo rate, miss-taking
    rate, and the paired difference against the baseline with the unpaired SE beside it."""
    from loo_sim.analysis.stats import wilson

    n = res.deals
    t = res.totals
    base_mean, base_se = mean_se(t[0, L.H_SUM], t[0, L.H_SQ], n)
    rows = []
    for h, name in enumerate(res.names):
        m, se = mean_se(t[h, L.H_SUM], t[h, L.H_SQ], n)
        d, dse = mean_se(t[h, L.H_DIFF], t[h, L.H_DIFF_SQ], n)
        lo, hi = wilson(t[h, L.H_LOOED], n)
        rows.append(dict(heuristic=name, n=n, net_mean=m, net_se=se, net_ci_low=m - Z95 * se,
                         net_ci_high=m + Z95 * se, loo_rate=t[h, L.H_LOOED] / n, loo_ci_low=lo, loo_ci_high=hi,
                         miss_rate=t[h, L.H_MISS] / n, diff_vs_baseline=d, diff_se_paired=dse,
                         diff_ci_low=d - Z95 * dse, diff_ci_high=d + Z95 * dse,
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


def _ci(mean: float, se: float) -> str:
    return f"{mean:+.2f} chips per deal, 95% CI [{mean - Z95 * se:+.2f}, {mean + Z95 * se:+.2f}]"


def summary_markdown(preset: str, chart: DecisionResult, chart_df: pd.DataFrame, heur: HeuristicResult,
                     heur_df: pd.DataFrame, shares: pd.DataFrame, command: str) -> str:  # fmt: skip
    """summary.md: plain sentences, every number taken from the run's tables."""
    from loo_sim.game.classes import grid_text

    rules = chart.rules
    pot = "a clean pot" if chart.carried == 0 else f"{chart.carried:g} chips carried in"
    others = ", ".join(sorted({str(p) for p in chart.policies}))
    deciding = "every seat in turn" if len(chart.focal) == rules.players else f"seat {chart.focal[0]}"
    lines = [f"# When to take the miss: {preset}, {rules.players} players", "",
             f"Produced by `{command}`.", "",
             f"Each deal is replayed once per declaration on offer to the seat deciding ({deciding}), "
             f"the other seats playing {others}; payoffs are the deciding seat's net chips for the deal "
             f"(shares - antes - penalties), here with {pot}, over {chart.deals:,} deals.", ""]  # fmt: skip
    pooled = chart_df[(chart_df.position == "all")]
    best = pooled[pooled.best].copy()
    best["hands"] = best["n"]
    lines.append("## What the chart says")
    lines.append("")
    for r in best.sort_values("hands", ascending=False).head(8).itertuples(index=False):
        if r.runner_up:
            verdict = "significantly" if r.significant else "but not significantly (paired)"
            lines.append(f"- For hands '{r.label}' ({r.n:,} decisions), **{r.action}** is best, beating "
                         f"{r.runner_up} {verdict}: {_ci(r.diff_vs_runner_up, r.diff_se)}.")  # fmt: skip
    miss_rows = pooled[(pooled.action == "miss")]
    pass_rows = pooled[(pooled.action == "pass")].set_index("hand_class")
    wins = []
    for r in miss_rows.itertuples(index=False):
        if r.hand_class in pass_rows.index and r.best:
            wins.append(r)
    if wins:
        top = max(wins, key=lambda r: r.n)
        p, sign = _pair(L.DECL_MISS, L.DECL_PASS)
        cell = chart.totals[top.hand_class].sum(axis=0)
        d, dse = mean_se(sign * cell[L.CF_PAIR_SUM + p], cell[L.CF_PAIR_SQ + p], cell[L.CF_PAIR_N + p])
        lines.append(f"- With {rules.players} players and {pot}, taking the miss beats passing for hands "
                     f"'{top.label}': {_ci(d, dse)}.")  # fmt: skip
    else:
        lines.append(f"- With {rules.players} players and {pot}, taking the miss is not the best declaration "
                     "for any hand class with enough hands.")  # fmt: skip
    share = decision_shares(chart)
    lines.append("- Judged cell by cell (class and position), the best declaration is "
                 + ", ".join(f"{a} for {share[a]:.1%}" for a in ACTION_NAMES if share[a] == share[a] and share[a] > 0)
                 + " of the decisions.")  # fmt: skip
    lines += ["", "## Heuristics compared at the same table", ""]
    base = heur.names[0]
    lines.append(
        f"Seat {heur.focal} plays each heuristic in turn on the same {heur.deals:,} deals (other deals than the "
        f"chart's); the other seats keep their policies. Paired differences against {base}."
    )
    lines.append("")
    ratio = []
    for r in heur_df.itertuples(index=False):
        if r.heuristic == base:
            lines.append(f"- {base}: {r.net_mean:+.3f} ± {r.net_se:.3f} chips per deal, loo rate {r.loo_rate:.3f}, "
                         f"takes the miss in {r.miss_rate:.1%} of deals.")  # fmt: skip
            continue
        ratio.append(r.diff_se_paired / r.diff_se_unpaired if r.diff_se_unpaired else math.nan)
        lines.append(f"- {r.heuristic}: {_ci(r.diff_vs_baseline, r.diff_se_paired)} against {base} "
                     f"(loo rate {r.loo_rate:.3f}, miss taken in {r.miss_rate:.1%} of deals).")  # fmt: skip
    best_h = heur_df.loc[heur_df.net_mean.idxmax()]
    lines.append(f"- The best of them here is {best_h.heuristic} ({best_h.net_mean:+.3f} chips per deal).")
    if ratio:
        lines.append(f"- Pairing pays: the paired standard errors are {np.nanmean(ratio):.2f} times the unpaired "
                     "ones on average.")  # fmt: skip
    if len(shares):
        lines += ["", "## As the pot and the table change", ""]
        for (players, action), group in shares.groupby(["players", "action"]):
            group = group.sort_values("carried")
            if action in ("miss", "play") and len(group) > 1:
                a, b = group.iloc[0], group.iloc[-1]
                lines.append(f"- {players} players: the share of decisions where {action} is best goes from "
                             f"{a.share:.1%} with {a.carried:g} chips carried in to {b.share:.1%} with "
                             f"{b.carried:g}.")  # fmt: skip
    lines += ["", "## The hand-class grid", "", "```", grid_text(), "```", ""]
    return "\n".join(lines)
