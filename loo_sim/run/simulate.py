"""The boundary between the friendly layer and the kernel: validate, turn configs into
arrays, run the kernel block by block, and stream the aggregates (DESIGN.md 2-5).

Memory stays flat: each call of the kernel covers one round of blocks, whose
aggregate rows are added, in block order, into one running total.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from loo_sim import checks
from loo_sim.errors import LooError
from loo_sim.game.policy import Policy, parse_table
from loo_sim.game.rules import Rules
from loo_sim.kernel import abi as L
from loo_sim.run.args import kernel_args
from loo_sim.run.strength import resolve_strength

ProgressFn = Callable[[int, int], None]


@dataclass
class SimResult:
    """Aggregates of a run (``layout.A_*`` slots) and what produced them."""

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
    extra: dict[str, Any] = field(default_factory=dict)

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
    play: bool = True,
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
    ``extra["batches"]`` also holds B interleaved partial totals (batch means).
    """
    from numba import set_num_threads

    from loo_sim.kernel.chunks import BLOCK
    from loo_sim.run.backend import LocalBackend, chunk_ranges
    from loo_sim.run.tasks import simulate_task

    deals = checks.deals(deals)
    seed = checks.seed(seed)
    threads = checks.threads(threads)
    if dealer is not None and not 0 <= dealer < rules.players:
        raise LooError(f"dealer: seat {dealer} does not exist; allowed 0..{rules.players - 1}")
    if not np.isfinite(carried) or carried < 0:
        raise LooError(f"carried: {carried!r} is not allowed; allowed a finite number >= 0")
    table = parse_table(policy, rules.players)
    args = kernel_args(rules, table, resolve_strength(rules, table, strength), chart)
    set_num_threads(threads)
    backend = backend or LocalBackend()
    n_blocks = (deals + BLOCK - 1) // BLOCK
    per_call = blocks_per_call or max(4 * threads, 16) * backend.chunk_scale
    totals = np.zeros(L.A_LEN, dtype=np.float64)
    result = SimResult(rules, table, seed, deals, float(carried), dealer, totals, threads=threads)
    result.extra["by_class"] = by_class
    if batches:  # batch means: block b also adds into batch b mod batches (SEs of nonlinear metrics)
        result.extra["batches"] = np.zeros((batches, L.A_LEN), dtype=np.float64)
    start = time.perf_counter()
    chunks = chunk_ranges(n_blocks, per_call)
    static = (*args, seed, deals, 0 if dealer is None else dealer, dealer is None, float(carried), play, by_class)
    try:
        for (first, count), rows in zip(chunks, backend.map_chunks(simulate_task, static, chunks)):
            for b in range(count):  # block order: the sum does not depend on the grouping or the backend
                totals += rows[b]
                if batches:
                    result.extra["batches"][(first + b) % batches] += rows[b]
            if progress is not None:
                progress(int(totals[L.A_DEALS]), deals)
    except KeyboardInterrupt:
        result.partial = True
    result.elapsed_s = time.perf_counter() - start
    return result
