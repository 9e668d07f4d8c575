"""Where the kernel runs, as the options ask: this process, or a Dask cluster: an
existing scheduler (``--scheduler``) or a ``LocalCluster`` built here (``--workers``).
The library's ``DaskBackend`` takes the client; making and closing it is done here."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from loo_sim.base.errors import LooError
from loo_sim.run.backend import make_backend

# run in each LocalCluster worker as it starts (a Dask preload, as script text). A Ctrl-C in the
# terminal reaches the whole process group: a worker would die with a KeyboardInterrupt
# traceback on the command's stderr, while this process handles it (PARTIAL results) and
# closes the cluster. Closing it cancels the chunk task a worker is running, which the
# worker logs as a warning ("Async instruction ... ended with CancelledError"): expected here.
WORKER_SETUP = """
import logging
import signal


def dask_setup(worker):
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    logging.getLogger("distributed.worker.state_machine").setLevel(logging.ERROR)
"""
DASK_MISSING = (
    "the dask backend needs the dask extra: pip install 'loo-sim[dask]' (from a checkout: pip install '.[dask]')"
)


def check_scheduler(name: str, scheduler: str | None, scheduler_flag: str = "--scheduler") -> None:
    """A scheduler address goes with the dask backend only, and the dask backend needs its
    extra installed (both checked before --out is made)."""
    if name == "local" and scheduler:
        raise LooError(f"{scheduler_flag} goes with --backend dask")
    if name == "dask":
        try:  # imported here anyway, before any work
            import dask.distributed  # noqa: F401
        except ImportError:
            raise LooError(DASK_MISSING) from None


@contextmanager
def open_backend(name: str = "local", scheduler: str | None = None, workers: int | None = None,
                 timeout: str = "20s", scheduler_flag: str = "--scheduler") -> Iterator[object]:  # fmt: skip
    """The backend ``name`` (local or dask), closed (with its client and cluster) on exit.
    ``scheduler_flag`` names where the scheduler address came from, for the messages."""
    check_scheduler(name, scheduler, scheduler_flag)
    if name == "local":
        yield make_backend("local")
        return
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise LooError(DASK_MISSING) from None
    with ExitStack() as stack:
        if scheduler:
            try:
                client = Client(scheduler, timeout=timeout)
            except (OSError, TimeoutError) as e:
                raise LooError(f"{scheduler_flag} {scheduler!r}: cannot reach a Dask scheduler there ({e})") from None
        else:
            # one process a core, each kernel call on one numba thread: no oversubscription. The
            # scheduler serves HTTP even without a dashboard, on 8787 unless told otherwise: a free
            # port (":0"), so a second study beside the first does not warn "Port 8787 is already in use"
            cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                                   dashboard_address=":0", env={"NUMBA_NUM_THREADS": "1"},
                                   preload=[WORKER_SETUP])  # fmt: skip
            stack.callback(cluster.close)
            client = Client(cluster)
        stack.callback(client.close)
        yield make_backend("dask", client)
