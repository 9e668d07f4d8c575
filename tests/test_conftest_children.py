"""tests/conftest.py: a loo_sim child a test left running is killed when the test ends."""

import subprocess
import sys
import time

import psutil

from tests.conftest import kill_new_loo_sim_children


def test_a_loo_sim_child_started_since_is_killed_and_others_are_left_alone():
    sleep = "import time; time.sleep(120)"
    # (children this worker started before, e.g. a module's Dask cluster, are left alone too)
    running = {child.pid for child in psutil.Process().children()}
    earlier = subprocess.Popen([sys.executable, "-c", sleep, "loo_sim"])
    other = subprocess.Popen([sys.executable, "-c", sleep, "something-else"])
    try:
        later = subprocess.Popen([sys.executable, "-c", sleep, "loo_sim"])
        killed, deadline = [], time.monotonic() + 10
        while not killed and time.monotonic() < deadline:  # a loaded machine may show the child a moment late
            killed = kill_new_loo_sim_children(running | {earlier.pid, other.pid})
            time.sleep(0 if killed else 0.05)
        assert killed == [later.pid]
        later.wait(timeout=10)  # killed: it ends at once instead of in two minutes
        time.sleep(0.2)
        assert earlier.poll() is None and other.poll() is None
    finally:
        for proc in (earlier, other):
            proc.kill()
            proc.wait()
