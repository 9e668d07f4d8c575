"""``simulate``: validate, build the kernel's arrays, run the deals block by block, and
stream the aggregates (docs/design.md properties 2-5).

Memory stays flat: each round of blocks (one kernel call, ``run.rounds``) returns one
aggregate row per block, added in block order into one running total.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from loo_sim.base import checks
from loo_sim.base.config import BLOCK
from loo_sim.game import abi as L
from loo_sim.game.policy import Policy, parse_table
from loo_sim.game.rules import Rules
from loo_sim.run.args import kernel_args
from loo_sim.run.rounds import ProgressFn, run_rounds
from loo_sim.run.strength import resolve_strength


@dataclass
class SimResult:
    """Aggregates of a run (``game.abi`` A_* slots) and what produced them."""

    rules: Rules
    policies: list[Policy]
    seed: int
    deals_requested: int
    carried: float
    dealer: int | None  # None: the dealer rotates (deal k dealt by seat k mod players)
    totals: np.ndarray
    elapsed_s: float = 0.0
    partial: bool = False  # stopped early (Ctrl-C): totals cover deals_done deals
    threads: int = 1
    by_class: bool = False  # totals also hold the A_CLASS counts (hands and loos by hand class)
    batches: np.ndarray | None = None  # [batch, A_*]: block b added into batch b mod batches (batch means)

    @property
    def deals_done(self) -> int:
        return int(self.totals[L.A_DEALS])

    def seat(self, s: int, slot: int, width: int = 1) -> np.ndarray:
        base = L.A_SEAT + s * L.SEAT_LEN + slot
        return self.totals[base : base + width]


def simulate(
    rules: Rules,
    policy: str | Policy | Sequence[str | Policy] = "basic",
    deals: int = 100_000,
    seed: int = 0,
    carried: float = 0.0,
    dealer: int | None = None,
    threads: int | None = None,
    blocks_per_call: int | None = None,
    progress: ProgressFn | None = None,
    strength=None,
    chart: np.ndarray | None = None,
    by_class: bool = False,
    batches: int = 0,
    backend=None,
) -> SimResult:
    """Play ``deals`` independent deals and return their aggregates.

    Deal ``k`` is shuffled from the stream (seed, k) and dealt by seat ``k mod
    players`` (or by ``dealer`` when given), with ``carried`` chips in the pot. The
    result does not depend on ``threads`` or ``blocks_per_call``. Ctrl-C stops after
    the current round and returns what finished, marked ``partial``. With ``batches`` = B,
    ``batches`` on the result also holds B interleaved partial totals (batch means).
    """
    from numba import set_num_threads

    from loo_sim.run.backend import LocalBackend
    from loo_sim.run.tasks import simulate_task

    deals = checks.deals(deals)
    seed = checks.seed(seed)
    threads = checks.threads(threads)
    dealer = None if dealer is None else checks.seat("dealer", dealer, rules.players)
    carried = checks.chips("carried", carried)
    table = parse_table(policy, rules.players)
    args = kernel_args(rules, table, resolve_strength(rules, table, strength), chart)
    set_num_threads(threads)
    backend = backend or LocalBackend()
    per_call = blocks_per_call or max(4 * threads, 16) * backend.chunk_scale
    totals = np.zeros(L.A_LEN, dtype=np.float64)
    result = SimResult(rules, table, seed, deals, carried, dealer, totals, threads=threads, by_class=by_class)
    if batches:  # batch means: block b also adds into batch b mod batches (SEs of nonlinear metrics)
        result.batches = np.zeros((batches, L.A_LEN), dtype=np.float64)

    def reduce(first: int, count: int, rows: np.ndarray) -> None:
        for b in range(count):  # block order: the sum does not depend on the grouping or the backend
            totals[...] += rows[b]
            if result.batches is not None:
                result.batches[(first + b) % batches] += rows[b]

    start = time.perf_counter()
    static = (*args, seed, deals, 0 if dealer is None else dealer, dealer is None, carried, by_class)
    rounds = run_rounds(simulate_task, static, deals, BLOCK, per_call, reduce, progress=progress, backend=backend)
    result.partial = rounds.partial
    result.elapsed_s = time.perf_counter() - start
    return result
