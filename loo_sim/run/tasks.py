"""Chunk tasks: one call of a kernel over blocks first..first+count-1, returning the
aggregate rows of each block (the caller adds them in block order). Plain top-level
functions of arrays and numbers, so a Dask worker can run them (backend.py).

Where the kernel has a serial one-block driver (``chunks.run_block``,
``sessions.session_block``, ``variants.variant_block`` and ``variant_session_block``, ``calibrate.calibrate_block``,
``chunks.play_rows``, ``counterfactual.decision_block`` and ``heuristic_block``,
compiled with ``nogil``), :func:`each_block` runs the blocks on threads of this process. A
numba ``prange`` driver around the same call does the same work but costs 1.5-3.5 s more
at its first compile (numba's parallel lowering links and optimizes the whole deal kernel
into each of four libraries; a serial driver is one), and is no faster once compiled.
"""

from __future__ import annotations

import gc
import queue
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from loo_sim.base.config import BLOCK
from loo_sim.base.rng import (
    HEURISTIC_CARRIED_SESSION,
    HEURISTIC_SESSION,
    MASK64,
    MISS_CARRIED_SESSION,
    MISS_SESSION,
    NO_SESSION,
)
from loo_sim.game import abi as L

_gc_lock = threading.Lock()
_gc_users = 0  # callers inside first_call: the first one raises the threshold, the last one restores it
_gc_saved = (0, 0, 0)
GC_THRESHOLD = 100_000  # objects allocated between young collections while numba compiles (Python's: 700)


@contextmanager
def first_call(kernel: Any) -> Iterator[None]:
    """Around the first call of a kernel function in this process (``kernel.signatures``
    empty: numba compiles it, or loads it from its cache), the cyclic GC's young
    collections run 1/140 as often: numba's compiler makes millions of objects, and the
    collections passing over them took 1.2 s of a 9 s cold compile (for 14 MB more peak
    memory). Any other call: nothing changes."""
    global _gc_users, _gc_saved
    if kernel.signatures:
        yield
        return
    with _gc_lock:
        if _gc_users == 0:
            _gc_saved = gc.get_threshold()
            gc.set_threshold(max(_gc_saved[0], GC_THRESHOLD), *_gc_saved[1:])
        _gc_users += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_users -= 1
            if _gc_users == 0:
                gc.set_threshold(*_gc_saved)


class _Job:
    """One each_block call: its blocks are taken one at a time by whichever thread is free."""

    def __init__(self, work: Callable[[int], None], start: int, count: int, helpers: int) -> None:
        self.work, self.next, self.count = work, start, count
        self.lock = threading.Lock()
        self.finished = threading.Condition(self.lock)
        self.helpers = helpers  # helper threads still on this job
        self.stop = False
        self.error: BaseException | None = None

    def take(self) -> int:
        with self.lock:
            if self.stop or self.next >= self.count:
                return -1
            self.next += 1
            return self.next - 1

    def run(self) -> None:
        try:
            while (b := self.take()) >= 0:
                self.work(b)
        except BaseException as error:  # noqa: BLE001 (raised again by each_block, in its caller's thread)
            with self.lock:
                self.stop = True
                self.error = self.error or error


def _helper(jobs: queue.SimpleQueue) -> None:
    while True:
        job = jobs.get()
        job.run()
        with job.lock:
            job.helpers -= 1
            job.finished.notify_all()


_helpers: list[queue.SimpleQueue] = []  # one job queue per helper thread, started once per process
_helpers_lock = threading.Lock()


def _helper_queues(count: int) -> list[queue.SimpleQueue]:
    """The job queues of ``count`` helper threads: daemon threads started at first need and
    kept (starting threads for every round cost a tenth of a round's time), so they never
    hold the process open at its exit."""
    with _helpers_lock:
        while len(_helpers) < count:
            jobs: queue.SimpleQueue = queue.SimpleQueue()
            name = f"loo-block-{len(_helpers) + 1}"
            threading.Thread(target=_helper, args=(jobs,), name=name, daemon=True).start()
            _helpers.append(jobs)
        return _helpers[:count]


def each_block(work: Callable[[int], None], count: int, kernel: Any = None) -> None:
    """``work(b)`` for b = 0..count-1, on ``numba.get_num_threads()`` threads (the run's
    ``threads``: this one and helper threads). Each call is one nogil kernel block writing
    only its own rows, so the rows do not depend on the threads; an error in a block is
    raised here, and so is Ctrl-C, once the blocks already running have finished (no new
    block starts). When ``kernel`` (the numba function ``work`` calls) is not compiled in
    this process yet, block 0 runs first, alone, under :func:`first_call`."""
    from numba import get_num_threads

    start = 0
    if kernel is not None and count > 0 and not kernel.signatures:
        with first_call(kernel):
            work(0)
        start = 1
    threads = min(get_num_threads(), count - start)
    if threads <= 1:
        for b in range(start, count):
            work(b)
        return
    helpers = _helper_queues(threads - 1)
    job = _Job(work, start, count, len(helpers))
    for jobs in helpers:
        jobs.put(job)
    try:
        job.run()
    finally:
        with job.lock:
            job.stop = True  # Ctrl-C here: the helpers finish their block and take no other
            while job.helpers:
                job.finished.wait()
    if job.error is not None:
        raise job.error


def simulate_task(
    ri, rf, pol, polf, strength, tables, solver, seed, total, dealer, rotate, carried, by_class, first, count
):
    from loo_sim.kernel.chunks import run_block

    rows = np.zeros((count, L.A_LEN), dtype=np.float64)
    seed, session = np.uint64(seed), np.uint64(NO_SESSION & MASK64)

    def block(b: int) -> None:
        start = (first + b) * BLOCK
        deals = min(BLOCK, total - start)
        if deals > 0:
            run_block(ri, rf, pol, polf, strength, tables, solver, seed, session, start, deals, dealer, rotate, carried,
                      rows[b], by_class)  # fmt: skip

    each_block(block, count, run_block)
    return rows


def decision_shape(players: int) -> tuple[int, ...]:
    """The sums of one block of decisions: [class, position 0..players, miss on offer,
    earlier seats in, CF_*] (``game.abi.CHART_SHAPE`` cut to the positions a table has)."""
    n_classes, _, offers, earlier = L.CHART_SHAPE
    return n_classes, players + 1, offers, earlier, L.CF_LEN


def decision_task(ri, rf, pol, polf, strength, tables, solver, seed, total, carried, pot_values, pot_cum, buckets,
                  focal_seats, first, count):  # fmt: skip
    """Rows [block, pot bucket (``buckets`` of them: 1 for a fixed pot), *decision_shape]."""
    from loo_sim.kernel.counterfactual import decision_block, decision_scratch

    rows = np.zeros((count, buckets, *decision_shape(int(ri[L.R_PLAYERS]))), dtype=np.float64)
    seed, session, draw = np.uint64(seed), np.uint64(MISS_SESSION), np.uint64(MISS_CARRIED_SESSION)

    def block(b: int) -> None:
        if (first + b) * BLOCK < total:
            scratch = decision_scratch(solver)  # allocated here: decision_block allocates nothing
            decision_block(ri, rf, pol, polf, strength, tables, seed, session, first + b, total, carried, pot_values,
                           pot_cum, draw, focal_seats, rows[b], scratch)  # fmt: skip

    each_block(block, count, decision_block)
    return rows


def heuristic_task(ri, rf, pol, polf, strength, tables, solver, seed, total, carried, pot_values, pot_cum, focal,
                   variants, variants_f, first, count):  # fmt: skip
    from loo_sim.kernel.counterfactual import decision_scratch, heuristic_block

    rows = np.zeros((count, variants.shape[0], L.H_LEN), dtype=np.float64)
    seed, session, draw = np.uint64(seed), np.uint64(HEURISTIC_SESSION), np.uint64(HEURISTIC_CARRIED_SESSION)

    def block(b: int) -> None:
        if (first + b) * BLOCK < total:
            # allocated here, heuristic_block allocates nothing; the deal's arrays are the chart's
            scratch = (pol.copy(), polf.copy(), *decision_scratch(solver)[:6])
            heuristic_block(ri, rf, pol, strength, tables, seed, session, first + b, total, carried, pot_values,
                            pot_cum, draw, focal, variants, variants_f, rows[b], scratch)  # fmt: skip

    each_block(block, count, heuristic_block)
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


def pots_task(ri, rf, pol, polf, strength, tables, solver, bankroll, share, seed, total, deals, first, count):
    from loo_sim.kernel.sessions import session_block, session_scratch

    rows = {k: np.zeros((count, *shape), dtype=np.float64) for k, shape in pots_shapes(ri.shape[0], deals).items()}
    for name in ("pots", "largest", "finals"):  # NaN where a session has no such value
        rows[name].fill(np.nan)
    seed = np.uint64(seed)

    def block(b: int) -> None:
        scratch = session_scratch(solver, ri.shape[0], deals)  # allocated here: session_block allocates nothing
        session_block(ri, rf, pol, polf, strength, tables, bankroll, share, seed, first + b, total, deals,
                      *(r[b] for r in rows.values()), scratch)  # fmt: skip

    each_block(block, count, session_block)
    return rows


def tournament_task(ri, rf, pol, polf, strength, tables, solver, bankroll, share, seed, total, deals, first, count):
    from loo_sim.kernel.tournament import tournament_block

    arms, n, k = ri.shape[0], L.MAX_PLAYERS, L.SESSION_BLOCK
    finals = np.zeros((count, arms, k, n + 2), dtype=np.float64)
    by_position = np.zeros((count, arms, k, n, n + 1, 2), dtype=np.float64)
    seed = np.uint64(seed)

    def block(b: int) -> None:
        tournament_block(ri, rf, pol, polf, strength, tables, solver, bankroll, share, seed, first + b, total, deals,
                         finals[b], by_position[b])  # fmt: skip

    each_block(block, count, tournament_block)
    return finals, by_position


def risk_task(ri, rf, pol, polf, strength, tables, solver, share, seed, total, deals, focal, levels, first, count):
    from loo_sim.kernel.risk import risk_block

    out = np.zeros((count, ri.shape[0], L.SESSION_BLOCK, 3 + levels.shape[0]), dtype=np.float64)
    seed = np.uint64(seed)

    def block(b: int) -> None:
        risk_block(
            ri, rf, pol, polf, strength, tables, solver, share, seed, first + b, total, deals, focal, levels, out[b]
        )

    each_block(block, count, risk_block)
    return out


def variants_task(ri, rf, pol, polf, strength, tables, solver, base, seed, total, carried, first, count):
    from loo_sim.kernel.variants import variant_block

    rows = ri.shape[0]
    agg = np.zeros((count, rows, L.A_LEN), dtype=np.float64)
    pair = np.zeros((count, rows, L.V_LEN), dtype=np.float64)
    seed, session = np.uint64(seed), np.uint64(NO_SESSION & MASK64)

    def block(b: int) -> None:
        start = (first + b) * BLOCK
        deals = min(BLOCK, total - start)
        if deals > 0:
            variant_block(ri, rf, pol, polf, strength, tables, solver, base, seed, session, start, deals, carried,
                          agg[b], pair[b])  # fmt: skip

    each_block(block, count, variant_block)
    return agg, pair


def variant_sessions_shapes(rows: int) -> dict[str, tuple[int, ...]]:
    """The rows of one block of the variants in sessions (``kernel.variants.variant_session_block``):
    the moments over sessions of all rows' session sums, and the pot counts by ``pot_index``."""
    width, pots = rows * L.VS_LEN, L.EXACT_CHIPS + L.NB_POT
    return {"s1": (width,), "s2": (width, width), "pot_n": (rows, pots), "pot_sq": (rows, pots),
            "pot_nm": (rows, pots), "pot_sum": (rows, pots)}  # fmt: skip


def variant_sessions_task(ri, rf, pol, polf, strength, tables, solver, seed, total, deals, burn, window, first, count):
    from loo_sim.kernel.variants import variant_session_block

    shapes = variant_sessions_shapes(ri.shape[0])
    rows = {k: np.zeros((count, *shape), dtype=np.float64) for k, shape in shapes.items()}
    seed = np.uint64(seed)

    def block(b: int) -> None:
        variant_session_block(ri, rf, pol, polf, strength, tables, solver, seed, first + b, total, deals, burn, window,
                              *(r[b] for r in rows.values()))  # fmt: skip

    each_block(block, count, variant_session_block)
    return rows


def ladder_task(ri, rf, pol, polf, strength, tables, solver, entrants, seed, total, carried, first, count):
    from loo_sim.kernel.ladder import ladder_block

    acc = np.zeros((count, entrants, int(ri[0, L.R_PLAYERS]) + 1, L.LD_LEN), dtype=np.float64)
    seed, session = np.uint64(seed), np.uint64(NO_SESSION & MASK64)

    def block(b: int) -> None:
        start = (first + b) * BLOCK
        deals = min(BLOCK, total - start)
        if deals > 0:
            ladder_block(ri, rf, pol, polf, strength, tables, solver, entrants, seed, session, start, deals, carried,
                         acc[b])  # fmt: skip

    each_block(block, count, ladder_block)
    return acc
