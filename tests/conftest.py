"""Shared fixtures, and the caches the suite uses.

The suite never writes into the user's cache folders (``~/.cache/loo_sim`` on Linux):
before anything imports loo_sim, ``$LOO_SIM_CACHE`` (calibrated strength tables) is set
to a temporary folder made for this session and removed after it, and numba's compiled
kernels go to the checkout's ``.numba_cache/`` (ignored by git), unless
``$NUMBA_CACHE_DIR`` already names a folder outside the user's cache. The numba cache is
kept between runs on purpose: a cold process compiles the kernel for 7-18 s, the
suite's subprocesses (CLI runs, Dask workers, a killed report) inherit the variable and
reuse what the first compile wrote, and a later run of the suite starts warm; on a
fresh clone (CI) the folder starts empty, so each kernel compiles once in each of the
suite's worker processes (``dev.sh test`` runs pytest-xdist's ``-n 2``) that needs it
before the other has written it. ``NUMBA_CACHE_DIR=$(mktemp -d) bash scripts/dev.sh test``
runs it cold. Each worker imports this file: each has its own ``$LOO_SIM_CACHE``.
"""

import os
import shutil
import signal
import tempfile
from pathlib import Path

import platformdirs
import pytest

# Started in the background without job control (`cmd &` in a script), the suite inherits
# SIGINT ignored, and so would every command it starts: the Ctrl-C tests' children would
# never stop. A handler (unlike "ignore") is reset when a child starts, so they get Python's.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

REPO = Path(__file__).resolve().parents[1]
USER_CACHE = platformdirs.user_cache_path("loo_sim", appauthor=False).resolve()
TEST_CACHE = Path(tempfile.mkdtemp(prefix="loo_sim-tests-")).resolve()


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


os.environ["LOO_SIM_CACHE"] = str(TEST_CACHE)
_numba = os.environ.get("NUMBA_CACHE_DIR")
if not _numba or _inside(Path(_numba).expanduser().resolve(), USER_CACHE):
    os.environ["NUMBA_CACHE_DIR"] = str(REPO / ".numba_cache")

from tests.data import load_conformance  # noqa: E402


def pytest_sessionfinish(session, exitstatus):
    shutil.rmtree(TEST_CACHE, ignore_errors=True)


@pytest.fixture(scope="session")
def conformance_deals() -> list[dict]:
    return load_conformance()


def kill_new_loo_sim_children(before: set[int]) -> list[int]:
    """Kill this process's children that run loo_sim (``loo_sim`` among their arguments)
    and whose pid is not in ``before``; returns their pids. (psutil comes with dask's
    distributed, a test dependency.)"""
    import psutil

    killed = []
    for child in psutil.Process().children():
        try:
            if child.pid not in before and "loo_sim" in child.cmdline() and child.status() != psutil.STATUS_ZOMBIE:
                child.kill()
                killed.append(child.pid)
        except psutil.Error:  # it ended meanwhile
            continue
    return killed


@pytest.fixture(autouse=True)
def _no_loo_sim_child_outlives_its_test():
    """A test that fails while a ``python -m loo_sim`` it started still runs (a Ctrl-C test
    whose run never saw the signal: ``--deals 1e9``) would leave it competing for the cores
    with the rest of the suite; it is killed when the test ends. Children started before
    the test (a module's Dask cluster, the app's server) are left alone."""
    import psutil

    before = {child.pid for child in psutil.Process().children()}
    yield
    kill_new_loo_sim_children(before)
