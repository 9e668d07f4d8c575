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

from loo_sim.errors import LooError

BACKENDS = ("local", "dask")
DASK_MISSING = (
    "the dask backend needs the dask extra: pip install 'loo-sim[dask]' (from a checkout: pip install '.[dask]')"
)


class LocalBackend:
    """Chunks run one after another in this process (each one parallel over blocks)."""

    name = "local"
    chunk_scale = 1  # chunks as the caller sizes them

    def map_chunks(self, task: Callable, static: tuple, chunks: Sequence[tuple[int, int]]) -> Iterator[Any]:
        for first, count in chunks:
            yield task(*static, first, count)

    def close(self) -> None:
        pass


class DaskBackend:
    """Chunks run as Dask tasks; results come back, and are reduced, in chunk order."""

    name = "dask"
    chunk_scale = 4  # larger chunks: a task should run long against its scheduling cost

    def __init__(self, scheduler: str | None = None, workers: int | None = None, window: int = 64,
                 timeout: str = "20s") -> None:  # fmt: skip
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise LooError(DASK_MISSING) from None
        self.cluster = None
        if scheduler:
            try:
                self.client = Client(scheduler, timeout=timeout)
            except (OSError, TimeoutError) as e:
                raise LooError(f"--scheduler {scheduler!r}: cannot reach a Dask scheduler there ({e})") from None
        else:
            import os

            n = workers or os.cpu_count() or 1
            # one process a core, each kernel call on one numba thread: no oversubscription
            self.cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                                        env={"NUMBA_NUM_THREADS": "1"})  # fmt: skip
            self.client = Client(self.cluster)
        self.window = window  # chunks in flight at once (bounded memory on the client)

    def map_chunks(self, task: Callable, static: tuple, chunks: Sequence[tuple[int, int]]) -> Iterator[Any]:
        token = hashlib.sha256(repr([task.__name__, *[_fingerprint(x) for x in static]]).encode()).hexdigest()[:12]
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
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def _fingerprint(value: Any) -> str:
    tobytes = getattr(value, "tobytes", None)
    if tobytes is not None:
        return hashlib.sha256(tobytes()).hexdigest()[:12]
    return repr(value)


def make_backend(name: str = "local", scheduler: str | None = None, workers: int | None = None):
    """``local`` or ``dask`` (``scheduler`` = address of an existing cluster, else a LocalCluster)."""
    if name not in BACKENDS:
        raise LooError(f"--backend {name!r} is not one of {', '.join(BACKENDS)}")
    if name == "local":
        if scheduler:
            raise LooError("--scheduler goes with --backend dask")
        return LocalBackend()
    return DaskBackend(scheduler, workers)


def chunk_ranges(n_blocks: int, per_chunk: int) -> list[tuple[int, int]]:
    return [(first, min(per_chunk, n_blocks - first)) for first in range(0, n_blocks, per_chunk)]
