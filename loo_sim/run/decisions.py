"""The kernel runs of the take-the-miss study (docs/policies.md P4, P5): counterfactual
decision charts (every declaration on offer replayed on the same deal) and the paired
comparison of declaration heuristics, with a precision stopping rule.

These build the kernel's arrays and run it; ``analysis.miss`` turns the results into
tables, ``analysis.miss_text`` into prose.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from loo_sim.base.config import BLOCK, ROUND_BLOCKS
from loo_sim.base.errors import LooError
from loo_sim.base.stats import Z95, mean_se
from loo_sim.game import abi as L
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules
from loo_sim.run.args import kernel_args
from loo_sim.run.rounds import ProgressFn, run_rounds
from loo_sim.run.session_pots import N_BUCKETS, SessionPots
from loo_sim.run.strength import resolve_strength


@dataclass
class DecisionResult:
    rules: Rules
    policies: list[Policy]
    focal: list[int]
    carried: float
    seed: int
    deals: int  # deals played
    totals: np.ndarray  # [class, position 0..players, miss on offer, earlier seats in (0, 1, 2, 3+), CF_*]
    partial: bool = False
    pots: SessionPots | None = None  # where each deal's carried pot was drawn from (``carried``: its mean)
    by_pot: np.ndarray | None = None  # with ``pots``: totals by pot bucket [bucket, ...] (totals = their sum)


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
    precision: float | None = None  # the stopping rule's 95% half-width, None: ran to ``deals``
    pots: SessionPots | None = None  # where each deal's carried pot was drawn from (``carried``: its mean)


def pot_arrays(pots: SessionPots | None) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's (values, cumulative probabilities) of a carried-pot distribution; empty
    for a fixed pot."""
    if pots is None:
        return np.zeros(0), np.zeros(0)
    return np.ascontiguousarray(pots.values, dtype=np.float64), np.ascontiguousarray(pots.cum, dtype=np.float64)


def decisions(
    rules: Rules,
    table: Sequence[Policy],
    deals: int,
    seed: int,
    carried: float = 0.0,
    focal: Sequence[int] | None = None,
    strength=None,
    progress: ProgressFn | None = None,
    backend=None,
    chart: np.ndarray | None = None,
    pots: SessionPots | None = None,
) -> DecisionResult:
    """For each deal (dealer rotating) and each focal seat with a real choice, the focal
    payoff of every declaration on offer, the rest of the deal replayed as it falls; the
    sums are kept per cell of what the seat sees (``game.abi.CHART_SHAPE``: hand class,
    position, whether the miss is on offer, earlier seats in), with paired sums per pair
    of actions on the decisions where both were on offer. ``chart``: for seats of the
    table that play the ``chart`` family. ``pots``: each deal's carried pot is drawn from
    this distribution (``carried`` is ignored; the result's is the distribution's mean),
    and the sums are kept by pot bucket too (``by_pot``)."""
    from loo_sim.run.tasks import decision_shape, decision_task

    focal_seats = np.array(list(range(rules.players)) if focal is None else list(focal), dtype=np.int64)
    args = kernel_args(rules, table, resolve_strength(rules, table, strength), chart)
    buckets = 1 if pots is None else N_BUCKETS
    by_pot = np.zeros((buckets, *decision_shape(rules.players)), dtype=np.float64)

    def reduce(first: int, count: int, rows: np.ndarray) -> None:
        for b in range(count):
            by_pot[...] += rows[b]

    values, cum = pot_arrays(pots)
    static = (*args, seed, deals, float(carried), values, cum, buckets, focal_seats)
    played, partial = run_rounds(decision_task, static, deals, BLOCK, ROUND_BLOCKS, reduce, progress=progress,
                                 backend=backend)  # fmt: skip
    if pots is None:
        return DecisionResult(rules, list(table), list(focal_seats), float(carried), seed, played, by_pot[0], partial)
    return DecisionResult(rules, list(table), list(focal_seats), pots.mean, seed, played, by_pot.sum(axis=0), partial,
                          pots, by_pot)  # fmt: skip


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
    progress: ProgressFn | None = None,
    backend=None,
    tables=None,
    pots: SessionPots | None = None,
) -> HeuristicResult:
    """Each candidate declaration policy played by the focal seat on the same deals
    (candidate 0 is the baseline of the paired differences). With ``precision``, stop
    after the first whole round where every difference's 95% half-width is below it.
    ``tables``: the strategy tables of ``table:PATH`` seats (path -> probabilities).
    ``pots``: each deal's carried pot drawn from this distribution, as in :func:`decisions`."""
    from loo_sim.run.tasks import heuristic_task

    if not 0 <= focal < rules.players:
        raise LooError(f"focal seat {focal} does not exist; allowed 0..{rules.players - 1}")
    strength = resolve_strength(rules, [*table, *candidates], strength)
    # one call for the table and the candidates, so a candidate's declaration table
    # indexes the same stack as the table's seats
    joint = kernel_args(rules, [*table, *candidates], strength, chart, tables)
    n = len(table)
    args = joint._replace(pol=joint.pol[:n], polf=joint.polf[:n])
    cand = joint._replace(pol=joint.pol[n:], polf=joint.polf[n:])
    totals = np.zeros((len(candidates), L.H_LEN), dtype=np.float64)

    def reduce(first: int, count: int, rows: np.ndarray) -> None:
        for b in range(count):
            totals[...] += rows[b]

    def precise(played: int) -> bool:
        halves = [Z95 * mean_se(totals[h, L.H_DIFF], totals[h, L.H_DIFF_SQ], played)[1]
                  for h in range(1, len(candidates))]  # fmt: skip
        return all(x < precision for x in halves)

    values, cum = pot_arrays(pots)
    static = (*args, seed, deals, float(carried), values, cum, focal, cand.pol, cand.polf)
    n, partial = run_rounds(heuristic_task, static, deals, BLOCK, ROUND_BLOCKS, reduce, progress=progress,
                            stop=None if precision is None else precise, backend=backend)  # fmt: skip
    mean = float(carried) if pots is None else pots.mean
    return HeuristicResult(rules, list(table), focal, list(names), mean, seed, n, totals, partial, precision, pots)
