"""Ctrl-C and shared output folders (issue #12, groups 1 and 2): SIGINT sent to real
`loo-sim` processes stops the whole command, stamps what finished PARTIAL and exits 130;
a report locks its folder, verifies its files on --resume, cleans stale temp files and
refuses a manifest that is not one."""

import dataclasses
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import loo_sim.report.batch as batch
from loo_sim.cli import main
from loo_sim.report.lock import LOCK_NAME

REPO = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(REPO))

TINY = """
title = "Ctrl-C"

[defaults]
preset = "three-card"
seed = 3
policy = "basic"

[[experiments]]
name = "first"
kind = "simulate"
deals = 2000

[[experiments]]
name = "{middle}"
kind = "simulate"
deals = {deals}

[[experiments]]
name = "after"
kind = "simulate"
deals = 2000
"""


def _config(tmp_path: Path, deals: int = 2000, middle: str = "second") -> Path:
    path = tmp_path / "cfg.toml"
    path.write_text(TINY.format(deals=deals, middle=middle))
    return path


def _popen(*args: str, env: dict | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "loo_sim", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env or ENV)  # fmt: skip


def _interrupt(proc: subprocess.Popen, ready: Callable[[], bool], settle: float,
               meanwhile: Callable[[], None] | None = None) -> tuple[str, str, float]:  # fmt: skip
    """Wait until ``ready()``, then ``settle`` seconds, then SIGINT; (stdout, stderr, seconds
    from the signal to the exit)."""
    deadline = time.time() + 180
    while not ready():
        assert proc.poll() is None, proc.communicate()
        assert time.time() < deadline, "the run never got going"
        time.sleep(0.05)
    time.sleep(settle)
    if meanwhile is not None:
        meanwhile()
    assert proc.poll() is None, "the run ended before the signal"
    proc.send_signal(signal.SIGINT)
    start = time.time()
    out, err = proc.communicate(timeout=60)
    return out, err, time.time() - start


def _warm(tmp_path: Path, *argv: str) -> None:
    """Compile (or load) the kernel once in this process, so the subprocesses load it from
    numba's cache and reach their rounds in a few seconds."""
    assert main([*argv, "--out", str(tmp_path / "warm")]) == 0


def _manifest_has(path: Path, name: str) -> Callable[[], bool]:
    def ready() -> bool:
        try:
            return name in json.loads(path.read_text())["experiments"]
        except (OSError, ValueError, KeyError):
            return False

    return ready


def test_ctrl_c_in_a_report_stops_it_stamps_the_running_experiment_and_resume_redoes_the_rest(
    tmp_path, capsys, monkeypatch
):
    """SIGINT while the second experiment runs: exit 130 within seconds, one line, the second
    experiment written and stamped PARTIAL (summary.md, run.json, manifest), the third not
    run; meanwhile a second report on the same --out is refused with who holds it; then
    --resume redoes exactly the second and the third."""
    _warm(tmp_path, "simulate", "--deals", "2000")
    config = _config(tmp_path, deals=2_000_000_000)
    out = tmp_path / "out"
    proc = _popen("report", str(config), "--out", str(out))
    refused = {}

    def second_report() -> None:  # the lock: a concurrent report on the same folder
        args = [sys.executable, "-m", "loo_sim", "report", str(config), "--out", str(out)]
        try:
            second = subprocess.run(args, capture_output=True, text=True, env=ENV, timeout=60)
        except subprocess.TimeoutExpired:
            refused.update(code=None, err="the second report ran on the same --out")
            return
        refused.update(code=second.returncode, err=second.stderr)

    stdout, stderr, seconds = _interrupt(proc, _manifest_has(out / "manifest.json", "first"), 1.0, second_report)
    assert refused["code"] == 2, refused
    assert re.fullmatch(rf"error: {re.escape(str(out))} is in use by another loo-sim report \(pid {proc.pid} on "
                        rf"{re.escape(socket.gethostname())}, started .+\); wait for it to finish, or use another "
                        r"--out\n", refused["err"]), refused["err"]  # fmt: skip
    assert proc.returncode == 130, stderr
    assert seconds < 5
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    assert re.fullmatch(rf"interrupted: [\d,]+ of 2,000,000,000 deals done; partial results in "
                        rf"{re.escape(str(out / 'second'))}", lines[0]), lines[0]  # fmt: skip
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["partial"] is True and "after" not in manifest["experiments"]
    entry = manifest["experiments"]["second"]
    assert entry["status"] == "partial" and entry["partial"] is True
    assert (out / "second" / "summary.md").read_text().startswith("**PARTIAL**: interrupted after ")
    run = json.loads((out / "second" / "run.json").read_text())
    assert run["partial"] is True and 0 < run["deals_done"] < 2_000_000_000
    assert not (out / LOCK_NAME).exists(), "the lock is released on the way out"
    # --resume redoes exactly the unfinished experiments (the big one on fewer deals here)
    calls = []
    real = batch.run_study

    def counting(study, *args, **kwargs):
        calls.append(study.deals)
        if study.deals > 2000:
            study = dataclasses.replace(study, deals=4000)
        return real(study, *args, **kwargs)

    monkeypatch.setattr(batch, "run_study", counting)
    capsys.readouterr()
    assert main(["report", str(config), "--out", str(out), "--resume"]) == 0
    assert "first: unchanged since the last run, skipped" in capsys.readouterr().out
    assert calls == [2_000_000_000, 2000]
    manifest = json.loads((out / "manifest.json").read_text())
    assert {k: e["status"] for k, e in manifest["experiments"].items()} == dict.fromkeys(
        ["first", "second", "after"], "done"
    )
    assert manifest["partial"] is False


def test_ctrl_c_in_miss_cuts_the_chart_and_runs_no_later_stage(tmp_path):
    _warm(tmp_path, "miss", "--deals", "2000", "--players", "4")
    out = tmp_path / "miss"
    proc = _popen("miss", "--deals", "1e9", "--players", "4", "--out", str(out))
    stdout, stderr, seconds = _interrupt(proc, out.exists, 4.0)
    assert proc.returncode == 130, stderr
    assert seconds < 5
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and re.fullmatch(
        rf"interrupted: [\d,]+ of 1,000,000,000 chart deals done; partial results in {re.escape(str(out))}", lines[0]
    ), stderr
    assert sorted(p.name for p in out.iterdir()) == ["chart.csv", "run.json", "summary.md"]
    assert (out / "summary.md").read_text().startswith("**PARTIAL**")
    run = json.loads((out / "run.json").read_text())
    assert run["partial"] is True and run["stage_interrupted"] == "chart deals"


def test_ctrl_c_before_the_first_round_writes_nothing(tmp_path):
    """SIGINT while the kernel compiles (a cold numba cache): no table of empty cells."""
    out = tmp_path / "sim"
    env = dict(ENV, NUMBA_CACHE_DIR=str(tmp_path / "cold-cache"))
    proc = _popen("simulate", "--deals", "1e9", "--out", str(out), env=env)
    stdout, stderr, seconds = _interrupt(proc, out.exists, 1.5)
    assert proc.returncode == 130, stderr
    assert stderr.strip().splitlines() == ["interrupted: nothing written"], stderr
    assert list(out.iterdir()) == []


def test_ctrl_c_during_a_compile_takes_effect_when_the_compile_ends():
    """cli/ctrl_c.py: a KeyboardInterrupt raised inside numba's compile can land in one of
    llvmlite's ctypes callbacks, which swallows it and leaves a half-compiled function. A
    compile's events stand in for numba compiling here."""
    from numba.core import event

    from loo_sim.cli.ctrl_c import ctrl_c_after_compiling

    def compile_with_ctrl_c(presses, steps):
        with event.trigger_event("numba:compile", data={}):
            with event.trigger_event("numba:compile", data={}):  # a callee compiled within
                for _ in range(presses):
                    os.kill(os.getpid(), signal.SIGINT)
                    time.sleep(0.05)  # the handler runs between bytecodes of the main thread
                    steps.append("pressed")
            steps.append("callee compiled")
        steps.append("compiled")

    with ctrl_c_after_compiling():
        steps = []
        with pytest.raises(KeyboardInterrupt):
            compile_with_ctrl_c(1, steps)
        assert steps == ["pressed", "callee compiled"]  # held to the end of the outer compile
        steps = []
        compile_with_ctrl_c(0, steps)
        assert steps == ["callee compiled", "compiled"]  # nothing left pending
        steps = []
        with pytest.raises(KeyboardInterrupt):
            compile_with_ctrl_c(2, steps)
        assert steps == ["pressed"]  # the second press acts at once
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    steps = []
    with pytest.raises(KeyboardInterrupt):
        compile_with_ctrl_c(1, steps)
    assert steps == []  # outside the block: Python's default, at once


# ---- shared output folders, resume -----------------------------------------------------------
def test_a_stale_lock_of_a_dead_process_is_taken_over(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (out / LOCK_NAME).write_text(json.dumps({"pid": dead.pid, "host": socket.gethostname(), "started": "then"}))
    assert main(["report", str(_config(tmp_path)), "--out", str(out), "--only", "first"]) == 0
    assert not (out / LOCK_NAME).exists()


def test_resume_redoes_an_experiment_whose_files_were_changed_or_deleted_and_cleans_stale_temps(tmp_path, capsys):
    config = _config(tmp_path)
    out = tmp_path / "out"
    assert main(["report", str(config), "--out", str(out)]) == 0
    before = {p: p.read_bytes() for p in sorted(out.glob("*/*.csv"))}
    summary = out / "first" / "summary.csv"
    summary.write_bytes(summary.read_bytes()[:40])  # truncated: unparsable
    (out / "second" / "positions.csv").unlink()  # deleted
    stale = [out / ".index.md.k2j3h4.tmp", out / "after" / ".summary.csv.a1b2c3.tmp"]
    for path in stale:
        path.write_text("half a file")
    staged = [out / ".first.partial-1a2b3c4d", out / ".second.old-5e6f7a8b"]  # a killed folder swap's leftovers
    for folder in staged:
        folder.mkdir()
        (folder / "summary.csv").write_text("half a folder")
    stale += staged
    keep = out / "after" / "notes.txt"
    keep.write_text("mine")
    capsys.readouterr()
    assert main(["report", str(config), "--out", str(out), "--resume"]) == 0
    text = capsys.readouterr().out
    assert "first (simulate) ..." in text and "second (simulate) ..." in text
    assert "after: unchanged since the last run, skipped" in text
    assert {p: p.read_bytes() for p in sorted(out.glob("*/*.csv"))} == before
    assert not any(p.exists() for p in stale) and keep.read_text() == "mine"
    entry = json.loads((out / "manifest.json").read_text())["experiments"]["first"]
    assert set(entry["sha256"]) == set(entry["files"]) and all(len(d) == 64 for d in entry["sha256"].values())


@pytest.mark.parametrize("text", ['{"experiments": {"first": {"sta', "[]", '{"experiments": 5}', ""])
def test_a_corrupt_manifest_is_refused_with_one_line(tmp_path, capsys, text):
    out = tmp_path / "out"
    out.mkdir()
    (out / "manifest.json").write_text(text)
    assert main(["report", str(_config(tmp_path)), "--out", str(out), "--resume"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"error: {out / 'manifest.json'} is not a loo-sim manifest (")
    assert err.endswith("); move it away or use a new --out\n")
    assert (out / "manifest.json").read_text() == text and not (out / "first").exists()


def test_ctrl_c_while_python_imports_the_command_line_is_one_line_exit_130():
    """Issue #31 item 4: SIGINT during start-up (while Python imports) printed a
    KeyboardInterrupt traceback. The import of typer is slowed down here so that the signal
    lands inside it, as it would on a slow disk."""
    code = ("import builtins, time\n"
            "real = builtins.__import__\n"
            "def slow(name, *args, **kwargs):\n"
            "    if name == 'typer':\n"
            "        print('importing', flush=True)\n"
            "        time.sleep(30)\n"
            "    return real(name, *args, **kwargs)\n"
            "builtins.__import__ = slow\n"
            "from loo_sim.__main__ import run\n"
            "run()\n")  # fmt: skip
    proc = subprocess.Popen([sys.executable, "-c", code, "--help"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=ENV)  # fmt: skip
    assert proc.stdout.readline().strip() == "importing"
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert stderr == "interrupted: nothing written\n"


@pytest.mark.parametrize("when", ["masked while drawing", "after writing"])
def test_a_report_stopped_by_ctrl_c_records_what_is_on_disk(tmp_path, monkeypatch, when):
    """A Ctrl-C that matplotlib turns into ``ValueError: Invalid bounding box`` while an
    experiment draws its figures stops the report (it is not a failed experiment that the
    report runs past); one that lands once the experiment's files are written says so, and
    the manifest records the experiment as done, with its files."""
    import loo_sim.report.batch as batch
    from loo_sim.base.errors import Interrupted
    from loo_sim.base.hooks import note_ctrl_c
    from loo_sim.report.config import load_config

    def write_study(target, output, folder):
        note_ctrl_c()  # what SIGINT's handler records as it raises
        raise ValueError("Invalid bounding box")

    real_digest, pressed = batch.file_digest, []

    def file_digest(path):  # the first step after the files are written
        if not pressed:
            pressed.append(path)
            raise KeyboardInterrupt
        return real_digest(path)

    if when == "masked while drawing":
        monkeypatch.setattr(batch, "write_study", write_study)
    else:
        monkeypatch.setattr(batch, "file_digest", file_digest)
    out = tmp_path / "out"
    out.mkdir()
    try:
        with pytest.raises(Interrupted) as stopped:
            batch.run_report(load_config(_config(tmp_path)), out, echo=lambda line: None)
    finally:
        note_ctrl_c(False)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["partial"] is True and list(manifest["experiments"]) == ["first"]  # the others never ran
    entry = manifest["experiments"]["first"]
    if when == "masked while drawing":
        assert entry["status"] == "interrupted" and not (out / "first").exists()
        assert str(stopped.value).startswith("interrupted: nothing written for first")
    else:
        assert entry["status"] == "done" and sorted(entry["files"]) == sorted(p.name for p in (out / "first").iterdir())
        assert str(stopped.value).startswith("interrupted: stopped after writing first")
