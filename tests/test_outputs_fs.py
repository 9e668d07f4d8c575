"""What the output files leave on disk (issue #12, groups 7 and 8, and the atomic writer's
guard): a full disk ends in one line with exit 1 and leaves no partial experiment, file
modes honour the umask, and a writer killed mid-write never leaves a half file."""

import errno
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import loo_sim.base.atomic as atomic
from loo_sim.base.atomic import atomic_write_bytes, replace_folder, write_files
from loo_sim.cli import main
from loo_sim.report.running import StudyOutput, write_study

SMALL = 64 * 1024
POTS = ["pots", "--preset", "three-card", "--policy", "always", "--compare", "penalty=limited,unlimited",
        "--sessions", "100", "--session-deals", "40", "--seed", "2"]  # fmt: skip
REPORT = """
title = "Full disk"
[defaults]
preset = "three-card"
deals = 2000
seed = 5
policy = "basic"

[[experiments]]
name = "sim"
kind = "simulate"

[[experiments]]
name = "pots"
kind = "pots"
compare = ["penalty=limited,unlimited"]
sessions = 100
session_deals = 40
"""


def _visible(folder: Path) -> list[str]:
    names = (p.relative_to(folder) for p in folder.rglob("*"))
    return sorted(str(p) for p in names if not any(part.startswith(".") for part in p.parts))


def _all(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.fixture
def small_disk(tmp_path, monkeypatch):
    """A folder on a 64 KiB filesystem: a real tmpfs where this runs as root and may mount,
    else a folder whose writes through ``loo_sim.base.atomic`` fail with ENOSPC once 64 KiB are
    written (so the test always runs, one way or the other)."""
    where = tmp_path / "small"
    where.mkdir()
    mounted = False
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("mount"):
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={SMALL // 1024}k", "tmpfs", str(where)],
                              capture_output=True)  # fmt: skip
        mounted = done.returncode == 0
    if not mounted:
        used = [0]
        real = atomic._write_fd

        def write_fd(fd: int, data: bytes) -> None:
            used[0] += len(data)
            if used[0] > SMALL:
                os.close(fd)
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            real(fd, data)

        monkeypatch.setattr(atomic, "_write_fd", write_fd)
    try:
        yield where
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(where)], capture_output=True)


def test_a_full_disk_in_pots_is_one_line_exit_1_and_writes_nothing(small_disk, capsys):
    out = small_disk / "pots"
    rc = main([*POTS, "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 1, err
    assert err.count("\n") == 1 and err.startswith(f"error: no space left writing {out}{os.sep}"), err
    assert _all(out) == []  # neither the CSVs nor a temp file: all or nothing


def test_a_full_disk_in_report_leaves_each_experiment_complete_or_absent(small_disk, tmp_path, capsys):
    config = tmp_path / "full.toml"
    config.write_text(REPORT)
    out = small_disk / "out"
    rc = main(["report", str(config), "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 1, err
    assert err.count("\n") == 1 and err.startswith(f"error: no space left writing {out}{os.sep}"), err
    assert not [p for p in out.iterdir() if p.name.startswith(".") and p.is_dir()]  # no staging folder left
    for folder in (p for p in out.iterdir() if p.is_dir()):
        names = set(os.listdir(folder))
        assert {"summary.md", "run.json"} <= names, names  # a folder there is a complete experiment
    assert not (out / "pots").exists()  # the pots PNGs do not fit in 64 KiB


class _Figure:
    def savefig(self, buf, **_):
        buf.write(b"\x89PNG fake")


def _output(tag: str) -> StudyOutput:
    tables = {"a": pd.DataFrame({"x": [1, 2]}), "b": pd.DataFrame({"y": [tag]})}
    return StudyOutput(None, tables, {"c": _Figure()}, f"# {tag}\n", {"tag": tag})  # type: ignore[arg-type]


def _fail_on_call(monkeypatch, n: int) -> None:
    """Writes through loo_sim.base.atomic raise ENOSPC from the n-th file on."""
    calls = [0]
    real = atomic._write_fd

    def write_fd(fd: int, data: bytes) -> None:
        calls[0] += 1
        if calls[0] >= n:
            os.write(fd, data[: len(data) // 2])  # half of it written, then the disk is full
            os.close(fd)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd, data)

    monkeypatch.setattr(atomic, "_write_fd", write_fd)


@pytest.mark.parametrize("folder", [False, True])
@pytest.mark.parametrize("older", [False, True])
def test_enospc_halfway_through_an_experiment_keeps_what_was_there(tmp_path, monkeypatch, folder, older):
    """write_study: a full disk at the third of five files leaves the older complete set (or
    nothing), names the file, and leaves no temp file or staging folder."""
    target = tmp_path / "exp"
    if older or not folder:  # without ``folder`` the folder is --out, made before the run
        target.mkdir()
    if older:
        write_study(target, _output("old"), folder=folder)
    before = {n: (target / n).read_bytes() for n in os.listdir(target)} if older else None
    _fail_on_call(monkeypatch, 3)
    with pytest.raises(OSError) as e:
        write_study(target, _output("new"), folder=folder)
    assert e.value.errno == errno.ENOSPC and e.value.filename == str(target / "c.png")
    if older:
        assert {n: (target / n).read_bytes() for n in os.listdir(target)} == before
    elif folder:
        assert not target.exists()
    else:
        assert os.listdir(target) == []
    assert [p.name for p in tmp_path.iterdir()] == ([] if folder and not older else ["exp"])


def test_replace_folder_replaces_an_older_folder_whole(tmp_path):
    target = tmp_path / "exp"
    replace_folder(target, [("a.csv", b"1"), ("extra.csv", b"2")])
    replace_folder(target, [("a.csv", b"3")])
    assert _all(tmp_path) == ["exp", "exp/a.csv"] and (target / "a.csv").read_bytes() == b"3"


def test_out_empty_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "r.toml"
    config.write_text(REPORT)
    for argv in ([*POTS, "--out", ""], ["report", str(config), "--out", ""]):
        rc = main(argv)
        err = capsys.readouterr().err
        assert rc == 2 and err == "error: --out '' is not a folder name\n", err
    assert os.listdir(tmp_path) == ["r.toml"]


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_files_and_folders_honour_the_umask(tmp_path, umask):
    old = os.umask(umask)
    try:
        atomic_write_bytes(tmp_path / "one.csv", b"1")
        write_files(tmp_path, [("two.csv", b"2")])
        replace_folder(tmp_path / "exp", [("three.csv", b"3")])
        write_study(tmp_path / "study", _output("x"), folder=True)
    finally:
        os.umask(old)
    for path in (tmp_path / "one.csv", tmp_path / "two.csv", tmp_path / "exp" / "three.csv",
                 tmp_path / "study" / "run.json", tmp_path / "study" / "c.png"):  # fmt: skip
        assert oct(path.stat().st_mode & 0o777) == oct(0o666 & ~umask), path
    for path in (tmp_path / "exp", tmp_path / "study"):
        assert oct(path.stat().st_mode & 0o777) == oct(0o777 & ~umask), path


def test_pots_cli_files_honour_the_umask(tmp_path, capsys):
    old = os.umask(0o022)
    try:
        assert main([*POTS, "--sessions", "20", "--out", str(tmp_path / "o")]) == 0
    finally:
        os.umask(old)
    modes = {p.name: p.stat().st_mode & 0o777 for p in (tmp_path / "o").iterdir()}
    assert modes and set(modes.values()) == {0o644}, modes


KILLED_WRITER = """
import resource, signal, sys
from pathlib import Path
from loo_sim.base.atomic import atomic_write_bytes, replace_folder
signal.signal(signal.SIGXFSZ, signal.SIG_DFL)  # Python ignores it; its default action kills the process
resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))  # SIGXFSZ kills this process at 1 MiB
data = b"n" * (4 << 20)
if sys.argv[2] == "file":
    atomic_write_bytes(Path(sys.argv[1]), data)
else:
    replace_folder(Path(sys.argv[1]), [("small.csv", b"new"), ("big.csv", data)])
"""


@pytest.mark.parametrize("kind", ["file", "folder"])
@pytest.mark.parametrize("older", [False, True])
def test_a_writer_killed_mid_write_never_leaves_a_half_file(tmp_path, kind, older):
    """A process killed by the kernel (SIGXFSZ) in the middle of writing a 4 MiB file: the
    target keeps its old content, or does not exist; never a truncated file. (A writer that
    wrote in place would leave the first 1 MiB under the target's name.)"""
    import signal

    target = tmp_path / ("big.csv" if kind == "file" else "exp")
    if older:
        if kind == "file":
            target.write_bytes(b"old")
        else:
            replace_folder(target, [("small.csv", b"old"), ("big.csv", b"old")])
    done = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(target), kind], capture_output=True)
    assert done.returncode == -signal.SIGXFSZ, done.stderr.decode()
    if kind == "file":
        assert target.read_bytes() == b"old" if older else not target.exists()
    else:
        assert _visible(tmp_path) == (["exp", "exp/big.csv", "exp/small.csv"] if older else [])
        if older:
            assert (target / "big.csv").read_bytes() == (target / "small.csv").read_bytes() == b"old"
