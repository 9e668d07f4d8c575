"""The report folder's lock (issue #31 item 9): reports started on one folder at once,
exactly one runs and every other is refused with the holder's pid; a finishing holder's
lock file is removed, and one left by a dead process does not stop the next report."""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import socket
from pathlib import Path

import pytest

from loo_sim.base.errors import LooError
from loo_sim.report.lock import LOCK_NAME, report_lock

pytestmark = pytest.mark.skipif(os.name != "posix", reason="flock")


def _contend(out: str, barrier, results, hold: float) -> None:
    barrier.wait()
    try:
        with report_lock(Path(out)):
            results.put(("ran", os.getpid()))
            import time

            time.sleep(hold)
    except LooError as e:
        results.put(("refused", str(e)))


def _race(out: Path, n: int, hold: float) -> list[tuple[str, str]]:
    ctx = mp.get_context("fork")
    barrier, results = ctx.Barrier(n), ctx.Queue()
    procs = [ctx.Process(target=_contend, args=(str(out), barrier, results, hold)) for _ in range(n)]
    for p in procs:
        p.start()
    got = [results.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    return got


def test_of_many_reports_started_at_once_exactly_one_runs(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    for _ in range(3):  # several rounds: the timing differs each time
        got = _race(out, 8, hold=1.5)
        ran = [who for what, who in got if what == "ran"]
        refused = [msg for what, msg in got if what == "refused"]
        assert len(ran) == 1 and len(refused) == 7, got
        for msg in refused:
            assert msg.startswith(f"{out} is in use by another loo-sim report (pid {ran[0]} on {socket.gethostname()}")
        assert not (out / LOCK_NAME).exists()  # the holder removed it on its way out


def test_a_lock_file_left_by_a_dead_process_does_not_stop_the_next_report(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / LOCK_NAME).write_text(json.dumps({"pid": 999999999, "host": socket.gethostname(), "started": "then"}))
    with report_lock(out):
        holder = json.loads((out / LOCK_NAME).read_text())
        assert holder["pid"] == os.getpid()
    assert not (out / LOCK_NAME).exists()


def test_a_report_that_locks_a_removed_lock_file_tries_the_new_one(tmp_path, monkeypatch):
    """The holder removes the file as it finishes; a report that opened the old file just
    before locks a file no longer at the path: it must not run beside the next holder."""
    out = tmp_path / "out"
    out.mkdir()
    path = out / LOCK_NAME
    real_open = os.open
    swapped = []

    def open_then_swap(p, flags, mode=0o777):
        fd = real_open(p, flags, mode)
        if not swapped and str(p) == str(path):  # the first open: the file is replaced under us
            swapped.append(1)
            os.unlink(path)
            path.write_text("{}")
        return fd

    monkeypatch.setattr(os, "open", open_then_swap)
    with report_lock(out):
        assert os.stat(path).st_ino  # the file at the path is the one held
        assert json.loads(path.read_text())["pid"] == os.getpid()
    assert swapped == [1]


def test_reports_started_on_one_folder_at_once_one_runs_the_others_are_refused(tmp_path):
    """End to end, as the issue saw it (the holder's start-up clean removed another report's
    lock temp file, which then died of FileNotFoundError, exit 1): five `loo-sim report`
    processes on one folder at once. Every one but the holder exits 2 with one line naming
    the holder's pid; the holder is then stopped with Ctrl-C."""
    import signal
    import subprocess
    import sys
    import time

    repo = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(repo))
    subprocess.run([sys.executable, "-m", "loo_sim", "simulate", "--deals", "2000"], env=env, check=True,
                   capture_output=True)  # a warm kernel: the holder is running deals while the others start
    config = tmp_path / "long.toml"
    config.write_text('[[experiments]]\nname = "long"\nkind = "simulate"\ndeals = 10000000000\n')
    out = tmp_path / "out"
    procs = [subprocess.Popen([sys.executable, "-m", "loo_sim", "report", str(config), "--out", str(out)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
             for _ in range(5)]  # fmt: skip
    refused, running = [], []
    deadline = time.monotonic() + 120
    while len(refused) < 4 and time.monotonic() < deadline:
        for p in procs:
            if p.poll() is not None and p not in refused:
                refused.append(p)
        time.sleep(0.1)
    running = [p for p in procs if p not in refused]
    for p in running:
        p.send_signal(signal.SIGINT)
    results = {p.pid: (p.wait(timeout=60), p.communicate()[1]) for p in procs}
    assert len(running) == 1, results
    holder = running[0].pid
    for p in refused:
        code, err = results[p.pid]
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1, (code, err)
        assert lines[0].startswith(f"error: {out} is in use by another loo-sim report (pid {holder} on "), err
    assert results[holder][0] == 130


def test_the_holders_start_up_clean_cannot_break_a_contenders_lock_attempt(tmp_path, monkeypatch):
    """The race of issue #31 item 9, made deterministic: while a second report is taking the
    lock, the holder's start-up clean (``clean_stale_temps``) runs. The old protocol linked a
    temp file into place, which the clean removed: FileNotFoundError, exit 1. The second
    report must be refused with the holder's pid."""
    import fcntl

    from loo_sim.report.batch import clean_stale_temps

    out = tmp_path / "out"
    out.mkdir()
    real_flock, real_link = fcntl.flock, os.link

    def clean_first(real):
        def call(*args):
            clean_stale_temps(out)  # the holder's clean, at the worst moment
            return real(*args)

        return call

    with report_lock(out):
        monkeypatch.setattr(fcntl, "flock", clean_first(real_flock))
        monkeypatch.setattr(os, "link", clean_first(real_link))
        with pytest.raises(LooError, match=rf"in use by another loo-sim report \(pid {os.getpid()} on "), \
                report_lock(out):
            pass
        monkeypatch.undo()
    assert not (out / LOCK_NAME).exists()
