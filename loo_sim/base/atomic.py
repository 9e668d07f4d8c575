"""Atomic file writes (temp file in the same folder + rename): an interrupted run never
leaves a half-written file that looks whole (docs/design.md property 7).

- :func:`atomic_write_bytes` writes one file.
- :func:`write_files` writes a set of files into a folder: every file goes to a temp name
  first and all are renamed into place only once all are written, so a full disk or an
  error halfway leaves the folder as it was (``loo-sim simulate/miss/pots --out DIR``).
- :func:`replace_folder` writes a set of files as a whole folder: they go into a hidden
  staging folder ``PARENT/.NAME.partial-XXXX/`` that is renamed into place at the end (an
  older folder is renamed away first and removed after), so a report's experiment is
  either complete on disk or absent.

File modes honour the umask: temp files are created with ``os.open(..., 0o666)``, so the
kernel applies the process's umask exactly as for ``open(path, "w")`` (0644 under umask
022, 0600 under 077). ``tempfile.mkstemp`` would create them 0600 whatever the umask, and
that mode survives the rename. Creating with the right mode is preferred over reading the
umask and ``chmod``-ing afterwards: ``os.umask`` can only be read by setting it, which is
process-wide and racy with other threads creating files, and a cached value goes stale
when the umask changes. Staging folders are likewise made with ``os.mkdir(path, 0o777)``
(``tempfile.mkdtemp`` makes them 0700).

Ctrl-C: every write here runs with Ctrl-C held (:func:`ctrl_c_held`): the bytes are
rendered before, so writing them takes milliseconds, and a KeyboardInterrupt between two
renames (a folder with half the new files), or between creating a temp file and noting it
for cleanup (a temp file left behind), cannot happen. The interrupt comes when the files are
in place; :func:`written_folders` then tells the command line that the results were written.

Errors: an ``OSError`` raised while writing names the file it was writing (its final
path, never the temp name), so the CLI can say ``error: no space left writing DIR/FILE``
(:func:`describe_write_error`).
"""

from __future__ import annotations

import errno
import os
import secrets
import shutil
import signal
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

WRITE_ERRNOS = {
    errno.ENOSPC: "no space left writing",
    errno.EDQUOT: "disk quota exceeded writing",
    errno.EROFS: "read-only file system writing",
    errno.EACCES: "permission denied writing",
    errno.EPERM: "permission denied writing",
}


_written: list[Path] = []  # the folders write_files and replace_folder filled in this process


def written_folders() -> list[Path]:
    """The folders :func:`write_files` and :func:`replace_folder` have filled since the last
    :func:`forget_written` (the command line: since the command began)."""
    return list(_written)


def forget_written() -> None:
    _written.clear()


@contextmanager
def ctrl_c_held() -> Iterator[None]:
    """Within this block, Ctrl-C waits: the KeyboardInterrupt (the handler there was before)
    comes when the block ends, unless it ends with an error. A no-op outside the main thread
    and where SIGINT is ignored or not handled by Python."""
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or not callable(previous):
        yield
        return
    pressed: list[object] = []
    signal.signal(signal.SIGINT, lambda signum, frame: pressed.append(frame))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if pressed:
        previous(signal.SIGINT, pressed[0])


def describe_write_error(e: OSError) -> str | None:
    """One line for an OSError of a full disk or an unwritable place, or None for others:
    ``no space left writing out/pots/summary.csv``."""
    what = WRITE_ERRNOS.get(e.errno)  # type: ignore[arg-type]
    if what is None:
        return None
    return f"{what} {e.filename}" if e.filename else f"{what} ({e.strerror or e})"


def _naming(e: OSError, path: Path) -> OSError:
    """``e`` re-made to name ``path`` (same errno, so the same OSError subclass)."""
    return OSError(e.errno, e.strerror or str(e), str(path))


def _create_temp(folder: Path, name: str) -> tuple[int, Path]:
    """A new file ``folder/.name.XXXXXXXX.tmp`` opened for writing, mode 0o666 & ~umask."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp = folder / f".{name}.{secrets.token_hex(4)}.tmp"
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temp file name", str(folder / name))


def _write_fd(fd: int, data: bytes) -> None:
    with os.fdopen(fd, "wb") as f:
        f.write(data)


def _write_temp(path: Path, data: bytes) -> Path:
    """``data`` in a new temp file next to ``path``; its name. On an error nothing is left
    and the OSError names ``path``."""
    tmp = None
    try:
        fd, tmp = _create_temp(path.parent, path.name)
        _write_fd(fd, data)
        return tmp
    except BaseException as e:
        if tmp is not None:
            tmp.unlink(missing_ok=True)
        if isinstance(e, OSError):
            raise _naming(e, path) from e
        raise


def atomic_write_bytes(path: Path, data: bytes) -> None:
    path = Path(path)
    with ctrl_c_held():
        tmp = _write_temp(path, data)
        try:
            os.replace(tmp, path)
        except BaseException as e:
            tmp.unlink(missing_ok=True)
            if isinstance(e, OSError):
                raise _naming(e, path) from e
            raise


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def write_files(folder: Path, files: Iterable[tuple[str, bytes]]) -> None:
    """Write ``(name, data)`` files into ``folder``: all to temp names first, then each
    renamed into place. An error while writing removes the temp files and leaves the
    folder's files as they were."""
    folder = Path(folder)
    pending: list[tuple[Path, Path]] = []
    with ctrl_c_held():
        try:
            for name, data in files:
                pending.append((_write_temp(folder / name, data), folder / name))
            for tmp, path in pending:
                try:
                    os.replace(tmp, path)
                except OSError as e:
                    raise _naming(e, path) from e
        finally:  # after an error: the temp files not renamed (after success: none left)
            for tmp, _ in pending:
                tmp.unlink(missing_ok=True)
        _written.append(folder)


def replace_folder(target: Path, files: Iterable[tuple[str, bytes]]) -> None:
    """Make ``target`` a folder holding exactly ``(name, data)`` files: written into a
    hidden staging folder next to it, then renamed into place (an existing ``target`` is
    renamed away first and removed after). An error while writing removes the staging
    folder and leaves ``target`` as it was (or absent)."""
    target = Path(target)
    with ctrl_c_held():
        _swap_folder(target, files)
        _written.append(target)


def _swap_folder(target: Path, files: Iterable[tuple[str, bytes]]) -> None:
    parent = target.parent
    staging = parent / f".{target.name}.partial-{secrets.token_hex(4)}"
    try:
        parent.mkdir(parents=True, exist_ok=True)
        os.mkdir(staging, 0o777)
    except OSError as e:
        raise _naming(e, target) from e
    try:
        for name, data in files:
            try:
                fd = os.open(staging / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
                _write_fd(fd, data)
            except OSError as e:
                raise _naming(e, target / name) from e
        old = None
        try:
            if target.exists() or target.is_symlink():
                old = parent / f".{target.name}.old-{secrets.token_hex(4)}"
                os.rename(target, old)
            try:
                os.rename(staging, target)
            except BaseException:
                if old is not None:
                    os.rename(old, target)
                raise
        except OSError as e:
            raise _naming(e, target) from e
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if old is not None:
        if old.is_dir() and not old.is_symlink():
            shutil.rmtree(old, ignore_errors=True)
        else:
            old.unlink(missing_ok=True)
