"""Chunk tasks: one call of a kernel over blocks first..first+count-1, returning the
aggregate rows of each block (the caller adds them in block order). Plain top-level
functions of arrays and numbers, so a Dask worker can run them (backend.py).

Where the kernel has a serial one-block driver (``chunks.run_block``,
``sessions.session_block``, ``variants.variant_block``, ``calibrate.calibrate_block``,
``chunks.play_rows``, compiled with ``nogil``), :func:`each_block` runs the blocks on
threads of this process. A numba ``prange`` driver around the same call does the same
work but costs 1.5-3.5 s more at its first compile (numba's parallel lowering links and
optimizes the whole deal kernel into each of four libraries; a serial driver is one), and
is no faster once compiled. The miss study's drivers (``counterfactual``) still are
``prange`` ones.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from loo_sim.config import BLOCK
from loo_sim.kernel import abi as L
from loo_sim.rng import HEURISTIC_SESSION, MASK64, MISS_SESSION, NO_SESSION


def each_block(work: Callable[[int], None], count: int) -> None:
    """``work(b)`` for b = 0..count-1, on ``numba.get_num_threads()`` threads (the run's
    ``threads``). Each call is one nogil kernel block writing only its own rows, so the
    rows do not depend on the threads; an error in a block is raised here."""
    from numba import get_num_threads

    threads = min(get_num_threads(), count)
    if threads <= 1:
        for b in range(count):
            work(b)
        return
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(threads, thread_name_prefix="loo-block")
    try:
        for future in [pool.submit(work, b) for b in range(count)]:
            future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # Ctrl-C: the blocks running finish, the rest are dropped


def simulate_task(ri, rf, pol, polf, strength, chart, seed, total, dealer, rotate, carried, by_class, first, count):
    from loo_sim.kernel.chunks import run_block

    rows = np.zeros((count, L.A_LEN), dtype=np.float64)
    seed, session = np.uint64(seed), np.uint64(NO_SESSION & MASK64)

    def block(b: int) -> None:
        start = (first + b) * BLOCK
        deals = min(BLOCK, total - start)
        if deals > 0:
            run_block(ri, rf, pol, polf, strength, chart, seed, session, start, deals, dealer, rotate, carried,
                      rows[b], by_class)  # fmt: skip

    each_block(block, count)
    return rows


def decision_shape(players: int) -> tuple[int, ...]:
    """The sums of one block of decisions: [class, position 0..players, miss on offer,
    earlier seats in, CF_*] (``kernel.abi.CHART_SHAPE`` cut to the positions a table has)."""
    n_classes, _, offers, earlier = L.CHART_SHAPE
    return n_classes, players + 1, offers, earlier, L.CF_LEN


def decision_task(ri, rf, pol, polf, strength, chart, seed, total, carried, focal_seats, first, count):
    from loo_sim.kernel.counterfactual import decision_blocks

    rows = np.zeros((count, *decision_shape(int(ri[L.R_PLAYERS]))), dtype=np.float64)
    decision_blocks(ri, rf, pol, polf, strength, chart, np.uint64(seed), np.uint64(MISS_SESSION), first, count,
                    total, carried, focal_seats, rows)  # fmt: skip
    return rows


def heuristic_task(ri, rf, pol, polf, strength, chart, seed, total, carried, focal, variants, variants_f,
                   first, count):  # fmt: skip
    from loo_sim.kernel.counterfactual import heuristic_blocks

    rows = np.zeros((count, variants.shape[0], L.H_LEN), dtype=np.float64)
    heuristic_blocks(ri, rf, pol, polf, strength, chart, np.uint64(seed), np.uint64(HEURISTIC_SESSION), first, count,
                     total, carried, focal, variants, variants_f, rows)  # fmt: skip
    return rows


def pots_shapes(arms: int, deals: int) -> dict[str, tuple[int, ...]]:
    """The rows of one block of sessions (``kernel.sessions.session_block``): aggregates
    (scal, deal_stats, pair) and each session's pots, largest pot and final balances
    (NaN where none), which the caller counts into its histograms."""
    n, k = L.MAX_PLAYERS, L.SESSION_BLOCK
    return {
        "scal": (arms, L.S_LEN),
        "deal_stats": (arms, deals, L.DS_LEN),
        "pots": (arms, k, deals),
        "largest": (arms, k),
        "finals": (arms, k, n),
        "pair": (arms, arms, L.PR_LEN),
    }


def pots_task(ri, rf, pol, polf, strength, chart, bankroll, share, seed, total, deals, first, count):
    from loo_sim.kernel.sessions import session_block

    rows = {k: np.zeros((count, *shape), dtype=np.float64) for k, shape in pots_shapes(ri.shape[0], deals).items()}
    seed = np.uint64(seed)

    def block(b: int) -> None:
        session_block(ri, rf, pol, polf, strength, chart, bankroll, share, seed, first + b, total, deals,
                      *(r[b] for r in rows.values()))  # fmt: skip

    each_block(block, count)
    return rows


def variants_task(ri, rf, pol, polf, strength, chart, base, seed, total, carried, first, count):
    from loo_sim.kernel.variants import variant_block

    rows = ri.shape[0]
    agg = np.zeros((count, rows, L.A_LEN), dtype=np.float64)
    pair = np.zeros((count, rows, L.V_LEN), dtype=np.float64)
    seed, session = np.uint64(seed), np.uint64(NO_SESSION & MASK64)

    def block(b: int) -> None:
        start = (first + b) * BLOCK
        deals = min(BLOCK, total - start)
        if deals > 0:
            variant_block(ri, rf, pol, polf, strength, chart, base, seed, session, start, deals, carried, agg[b],
                          pair[b])  # fmt: skip

    each_block(block, count)
    return agg, pair
