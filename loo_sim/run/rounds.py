"""The one round loop of every kernel run (simulate, decision charts, heuristics, pots).

Work is cut into rounds of whole kernel blocks; each round is one chunk task on the
backend (``backend.map_chunks``), and its rows come back, and are reduced, in block
order, so the sums do not depend on threads, rounds or workers (docs/design.md property 4).
After each round: the progress callback, then the stopping rule, which therefore sees
only whole rounds and stops at the same point on every backend. Ctrl-C keeps what the
finished rounds added up and marks the run partial; Ctrl-C before the first round
finished leaves nothing to keep, and the KeyboardInterrupt goes on up (no result of
zero deals whose tables are empty cells).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from loo_sim.run.backend import LocalBackend, chunk_ranges

ProgressFn = Callable[[int, int], None]  # (items done, items asked for)
ReduceFn = Callable[[int, int, Any], None]  # (first block, blocks in the round, the round's rows)


class Rounds(NamedTuple):
    done: int  # items (deals or sessions) covered by the rounds reduced
    partial: bool  # stopped by Ctrl-C


def run_rounds(
    task: Callable,
    static: tuple,
    total: int,
    block: int,
    per_round: int,
    reduce: ReduceFn,
    *,
    progress: ProgressFn | None = None,
    stop: Callable[[int], bool] | None = None,
    backend=None,
) -> Rounds:
    """Run ``task(*static, first, count)`` over the ``ceil(total / block)`` blocks of a run,
    ``per_round`` blocks a round, on ``backend`` (this process by default). Each round's
    rows go to ``reduce(first, count, rows)`` in block order; then ``progress(done,
    total)``; then ``stop(done)``, which ends the run when true."""
    backend = backend or LocalBackend()
    chunks = chunk_ranges((total + block - 1) // block, per_round)
    results = backend.map_chunks(task, static, chunks)
    done = 0
    try:
        for (first, count), rows in zip(chunks, results):
            reduce(first, count, rows)
            done = min((first + count) * block, total)
            if progress is not None:
                progress(done, total)
            if stop is not None and stop(done):
                break
    except KeyboardInterrupt:
        if done == 0:
            raise
        return Rounds(done, True)
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # a generator's cleanup now: a Dask backend cancels the rounds still in flight
    return Rounds(done, False)
