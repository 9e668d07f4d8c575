"""The lock of a report's output folder: one report at a time in OUT.

The lock is an advisory ``flock`` on ``OUT/.loo-sim-report.lock``, which names its holder
(pid, host, start time) for the reports it turns away. The kernel drops a dead process's
flock, so a report killed with -9 leaves nothing to take over. The holder removes the file
while it still holds it; a report that then locks the removed file (it opened it just
before) sees that the path no longer leads to it and tries again with the new one. So of
any number of reports started on one folder at once, exactly one runs and every other is
refused in one line, whatever the timing. (Where ``fcntl`` does not exist, Windows, the
folder is not locked.)"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

from loo_sim.base.errors import LooError

LOCK_NAME = ".loo-sim-report.lock"
ATTEMPTS = 20  # a lock file removed by its finishing holder, then made anew: tries before giving up
HOLDER_WAIT = 2.0  # seconds a refused report waits for the holder to write who it is


def _holder(path: Path) -> str:
    """Who holds the lock, as its file says (the holder writes it right after locking)."""
    deadline = time.monotonic() + HOLDER_WAIT
    while True:
        try:
            data = json.loads(path.read_text())
            return f"pid {int(data['pid'])} on {data['host']}, started {data.get('started', '?')}"
        except (OSError, ValueError, KeyError, TypeError):
            if time.monotonic() > deadline:
                return f"its lock file {path} does not say which"
            time.sleep(0.05)


def _acquire(path: Path, fcntl) -> int:
    """An open descriptor of the lock file at ``path``, flocked by this process."""
    for _ in range(ATTEMPTS):
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise LooError(f"{path.parent} is in use by another loo-sim report ({_holder(path)}); wait for it to "
                           "finish, or use another --out") from None  # fmt: skip
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)  # its holder removed it as it finished: lock the file at the path now
    raise LooError(f"{path.parent}: its lock file kept changing hands; use another --out")


@contextlib.contextmanager
def report_lock(out: Path) -> Iterator[None]:
    """Hold OUT for one report (see the module's docstring); a second report on OUT while
    this one runs is refused with who holds it."""
    try:
        import fcntl
    except ImportError:  # no flock on this platform: the folder is not locked
        yield
        return
    path = Path(out) / LOCK_NAME
    fd = _acquire(path, fcntl)
    try:
        me = {"pid": os.getpid(), "host": socket.gethostname(), "started": time.strftime("%Y-%m-%d %H:%M:%S %z")}
        os.ftruncate(fd, 0)
        os.write(fd, json.dumps(me).encode())
        yield
    finally:
        with contextlib.suppress(OSError):
            path.unlink()  # still ours: removed before the flock is let go
        os.close(fd)
