"""Where the kernel runs: this process (``local``, the default) or a Dask cluster
(``dask``). Work goes out as chunk tasks keyed by (seed, first block, block count); each
returns the aggregate rows of its blocks, never raw deals, and the caller reduces them
in block order — so both backends give the same numbers to the last bit, whatever the
number of workers, and a chunk lost with a worker is simply recomputed by Dask.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from loo_sim.base.errors import LooError

BACKENDS = ("local", "dask")
SHIP_ONCE_BYTES = 1 << 18  # a chunk task's arguments larger than this go to a Dask cluster once per run


class LocalBackend:
    """Chunks run one after another in this process (each one parallel over blocks)."""

    name = "local"
    chunk_scale = 1  # chunks as the caller sizes them

    def describe(self, threads: int) -> str:
        """Where the work ran, for a header line: ``2 thread(s)``."""
        return f"{threads} thread(s)"

    def map_chunks(self, task: Callable, static: tuple, chunks: Sequence[tuple[int, int]]) -> Iterator[Any]:
        for first, count in chunks:
            yield task(*static, first, count)

    def close(self) -> None:
        pass


class DaskBackend:
    """Chunks run as Dask tasks on the caller's ``dask.distributed.Client``; results come
    back, and are reduced, in chunk order. Setting up (and closing) the cluster and the
    client is the caller's business, as in stumpy's ``stumped(client, ...)``: the CLI
    builds a ``LocalCluster`` or connects to ``--scheduler`` (``loo_sim.cli.backend``)."""

    name = "dask"
    chunk_scale = 4  # larger chunks: a task should run long against its scheduling cost

    def __init__(self, client: Any, window: int = 64) -> None:
        self.client = client
        self.window = window  # chunks in flight at once (bounded memory on the client)

    def describe(self, threads: int) -> str:
        """Where the work ran, for a header line: the cluster's workers (each a process,
        in a ``LocalCluster``) and their threads; this process's ``threads`` play no part."""
        try:
            workers = self.client.scheduler_info()["workers"].values()
        except Exception:  # the scheduler is gone: say what we know
            return "a Dask cluster"
        counts = [int(w.get("nthreads", 1)) for w in workers]
        if counts and len(set(counts)) == 1:
            return f"{len(counts)} Dask worker(s), {counts[0]} thread(s) each"
        return f"{len(counts)} Dask worker(s), {sum(counts)} thread(s) in all"

    def map_chunks(self, task: Callable, static: tuple, chunks: Sequence[tuple[int, int]]) -> Iterator[Any]:
        token = hashlib.sha256(repr([task.__name__, *[_fingerprint(x) for x in static]]).encode()).hexdigest()[:12]
        # a large array (a strategy table: 2.2 MB) goes to the cluster once, as a task of its own
        # the chunks depend on, not once in every chunk's arguments; lost with a worker, it is
        # computed again from the scheduler's copy, as a chunk is
        static = tuple(self.client.submit(_same, x, key=f"loo-static-{token}-{i}", pure=False)
                       if getattr(x, "nbytes", 0) > SHIP_ONCE_BYTES else x for i, x in enumerate(static))  # fmt: skip
        pending = []
        next_chunk = 0
        try:
            while next_chunk < len(chunks) or pending:
                while next_chunk < len(chunks) and len(pending) < self.window:
                    first, count = chunks[next_chunk]
                    key = f"loo-{task.__name__}-{token}-{first}-{count}"  # (run, chunk range)
                    pending.append(self.client.submit(task, *static, first, count, key=key, retries=3, pure=False))
                    next_chunk += 1
                future = pending.pop(0)
                yield future.result()
        finally:
            for future in pending:  # stopped early (precision reached, Ctrl-C): drop the rest
                future.cancel()

    def close(self) -> None:
        pass  # the client is the caller's


def _same(value: Any) -> Any:
    return value


def _fingerprint(value: Any) -> str:
    tobytes = getattr(value, "tobytes", None)
    if tobytes is not None:
        return hashlib.sha256(tobytes()).hexdigest()[:12]
    return repr(value)


def make_backend(name: str = "local", client: Any = None):
    """``local``, or ``dask`` on ``client`` (a ``dask.distributed.Client``)."""
    if name not in BACKENDS:
        raise LooError(f"{name!r} is not one of {', '.join(BACKENDS)}", key="backend")
    if name == "local":
        return LocalBackend()
    if client is None:
        raise LooError("dask needs a dask.distributed Client (client=...)", key="backend")
    return DaskBackend(client)


class ChunkRanges(Sequence):
    """The (first block, block count) chunks of ``n_blocks`` blocks, ``per_chunk`` at a time,
    computed on demand: memory does not grow with the number of blocks (a plain list of
    10**12 deals' chunks took 1.76 GB before any work)."""

    def __init__(self, n_blocks: int, per_chunk: int) -> None:
        if per_chunk < 1:
            raise ValueError("per_chunk must be >= 1")
        self.n_blocks, self.per_chunk = max(int(n_blocks), 0), int(per_chunk)
        self._range = range(0, self.n_blocks, self.per_chunk)

    def __len__(self) -> int:
        return len(self._range)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        first = self._range[index]
        return first, min(self.per_chunk, self.n_blocks - first)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        for first in self._range:
            yield first, min(self.per_chunk, self.n_blocks - first)


def chunk_ranges(n_blocks: int, per_chunk: int) -> ChunkRanges:
    return ChunkRanges(n_blocks, per_chunk)
