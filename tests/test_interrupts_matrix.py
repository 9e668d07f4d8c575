"""Ctrl-C at any moment (issue #31 item 4): every command x {start-up, mid-run, during
writing}. SIGINT goes to a real ``python -m loo_sim`` process; whatever the moment, the
process exits 130 (or 0, when it had finished) with one line on stderr and no traceback,
and its --out folder holds nothing, or a complete run (every file run.json lists, whole),
stamped PARTIAL when the line says so; never a truncated file, a temp file or a staging
folder. The writing phase is not made observable in the code: each command is signalled
at several delays around the end of a short run, and the invariant must hold at every one."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

from loo_sim.cli import main

REPO = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(REPO))
PNG_END = b"IEND\xaeB`\x82"
LEFTOVER = re.compile(r"^\.(.+\.[0-9a-f]{8}\.tmp|.+\.(partial|old)-[0-9a-f]{8}|probe-.*)$")  # base/atomic's names
LINE = re.compile(r"interrupted: (nothing written( for \S+; finished experiments are in (?P<report>\S+))?|"
                  r"[\d,]+ of [\d,]+ [a-z ]+ done; partial results in (?P<partial>\S+)|"
                  r"stopped after writing the results in (?P<written>\S+))")  # fmt: skip

REPORT = """
title = "Ctrl-C matrix"

[defaults]
preset = "three-card"
seed = 3

[[experiments]]
name = "first"
kind = "simulate"
deals = 2000

[[experiments]]
name = "second"
kind = "{kind}"
{size}
"""
# argv that run far longer than a test (Ctrl-C ends them) and short runs (Ctrl-C while they write)
LONG = {
    "simulate": ["simulate", "--deals", "1e12"],
    "miss": ["miss", "--deals", "1e9"],
    "pots": ["pots", "--sessions", "1e8", "--session-deals", "10"],
    "variants": ["variants", "--row", "limited", "--row", "unlimited", "--deals", "1e12"],
    "calibrate": ["calibrate", "--players", "5", "--set", "lead=classic", "--force", "--deals", "1e8"],
    "solve": ["solve", "--iterations", "100000", "--deals", "8192"],
    "tournament": ["tournament", "--sessions", "1e8", "--session-deals", "10"],
    "risk": ["risk", "--sessions", "1e8", "--session-deals", "10"],
    "cardplay": ["cardplay", "--deals", "1e12"],
    "report": ["report", "{config}"],
}
SHORT = {
    "simulate": ["simulate", "--deals", "2000"],
    "miss": ["miss", "--deals", "2000"],
    "pots": ["pots", "--sessions", "20", "--session-deals", "10"],
    "variants": ["variants", "--row", "limited", "--row", "unlimited", "--deals", "2000"],
    "calibrate": ["calibrate", "--players", "5", "--set", "lead=classic", "--force", "--deals", "2000"],
    "solve": ["solve", "--iterations", "1", "--deals", "8192", "--eval-deals", "8192"],
    "tournament": ["tournament", "--sessions", "20", "--session-deals", "10"],
    "risk": ["risk", "--sessions", "20", "--session-deals", "10"],
    "cardplay": ["cardplay", "--deals", "2000"],
    "report": ["report", "{config}"],
}
UNTIL_WORK = [2.0, 5.0, 12.0]  # seconds after --out appears; a later one only when the run had not started


def _argv(table: dict, command: str, tmp_path: Path, out: str = "out") -> list[str]:
    """The command's argv with a report config of its size and ``--out tmp_path/out``."""
    config = tmp_path / "cfg.toml"
    if command == "report":
        long = table is LONG
        kind, size = ("simulate", "deals = 2000000000000") if long else ("pots", "sessions = 20\nsession_deals = 10")
        config.write_text(REPORT.format(kind=kind, size=size))
    return [a.replace("{config}", str(config)) for a in table[command]] + ["--out", str(tmp_path / out)]


def _signalled(argv: list[str], when: Callable[[subprocess.Popen], None], *python: str) -> tuple[int, str, str, float]:
    """Run ``loo-sim argv`` (``python``: flags of the interpreter), call ``when(proc)`` (it
    waits), send SIGINT: (exit status, stdout, stderr, seconds from the signal to the exit)."""
    proc = subprocess.Popen([sys.executable, *python, "-m", "loo_sim", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=ENV)  # fmt: skip
    try:
        when(proc)
        proc.send_signal(signal.SIGINT)  # nothing, when it has ended
        sent = time.time()
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, out.decode(), err.decode(), time.time() - sent


def _after(seconds: float) -> Callable[[subprocess.Popen], None]:
    return lambda proc: time.sleep(seconds)


def _whole(path: Path) -> None:
    """``path`` is a whole file of its kind: a CSV pandas reads to its last line, a PNG
    up to its end chunk, JSON that parses."""
    data = path.read_bytes()
    if path.suffix == ".csv":
        assert data.endswith(b"\n"), path
        pd.read_csv(io.BytesIO(data))
    elif path.suffix == ".png":
        assert data.endswith(PNG_END), path
    elif path.suffix == ".json":
        json.loads(data)
    else:
        assert data.strip(), path


def _run_folder(folder: Path) -> bool:
    """A folder of one run: every file its run.json lists, whole, and no other; whether it
    is stamped PARTIAL (run.json and summary.md agree)."""
    info = json.loads((folder / "run.json").read_text())
    assert sorted(info["files"]) == sorted(p.name for p in folder.iterdir()), folder
    for name in info["files"]:
        _whole(folder / name)
    if "summary.md" in info["files"]:
        stamped = (folder / "summary.md").read_text().startswith("**PARTIAL**")
        assert stamped == bool(info.get("partial")), folder
    return bool(info.get("partial"))


def _check_outcome(code: int, stderr: str, out: Path) -> str:
    """The invariant after a signal at any moment; what was left: "nothing", "partial" or "complete"."""
    leftovers = [p for p in out.rglob("*") if LEFTOVER.match(p.name)] if out.exists() else []
    assert leftovers == [], leftovers
    files = sorted(out.iterdir()) if out.exists() else []
    if code == 0:  # it had finished
        assert "Traceback" not in stderr, stderr
    else:
        assert code == 130, stderr
        assert len(stderr.splitlines()) == 1 and LINE.fullmatch(stderr.strip()), stderr
    match = LINE.fullmatch(stderr.strip()) if code else None
    if (out / "manifest.json").exists():  # a report: each experiment folder is a whole run
        manifest = json.loads((out / "manifest.json").read_text())
        folders = [p for p in files if p.is_dir()]
        assert {p.name for p in folders} <= set(manifest["experiments"]), manifest
        partial = [_run_folder(p) for p in folders]
        if code == 0:
            assert manifest["partial"] is False and not any(partial)
            return "complete"
        return "partial" if manifest["partial"] else "nothing"
    if not files:
        assert code == 130 and stderr.startswith("interrupted: nothing written"), stderr
        return "nothing"
    partial = _run_folder(out)
    if code == 0 or match["written"]:  # finished, or Ctrl-C once its files were in place
        assert not partial and (code == 0 or match["written"] == str(out)), stderr
        return "complete"
    assert partial and match["partial"] == str(out), (stderr, files)  # never "nothing written" beside files
    return "partial"


@pytest.fixture(scope="module")
def warm(tmp_path_factory) -> None:
    """Every driver compiled (or loaded) once in numba's cache (tests/conftest.py), so that the
    subprocesses reach their rounds in about a second."""
    folder = tmp_path_factory.mktemp("warm")
    for command in SHORT:
        (folder / command).mkdir()
        assert main(_argv(SHORT, command, folder / command)) == 0, command


# start-up moments, told by `python -X importtime` (a line on stderr as each import ends), not
# by a delay: under load a fixed delay can land in the interpreter's own start-up, before any
# line of loo-sim runs, where Python's defaults hold (see test_ctrl_c_while_starting)
MOMENTS = {
    "importing the command line": lambda name, after_cli: name.startswith(("typer", "click")),
    "reading the options": lambda name, after_cli: after_cli,  # the first import after loo_sim.cli's
    "loading the kernel": lambda name, after_cli: name == "numba",
}


def _at(moment: str) -> Callable[[subprocess.Popen], None]:
    def wait(proc: subprocess.Popen) -> None:
        after_cli = False
        for line in proc.stderr:  # what is read ahead here was written before the signal
            text = line.decode()
            if text.startswith("import time:"):
                name = text.rsplit("|", 1)[-1].strip()
                if MOMENTS[moment](name, after_cli):
                    return
                after_cli = after_cli or name == "loo_sim.cli"

    return wait


def _no_files_argv(command: str, tmp_path: Path) -> list[str]:
    """check (of 20,000 deals), replay and rules: commands that write no files."""
    deals = tmp_path / "deals.toml"
    deals.write_text('preset = "three-card"\n' + "".join(
        f'[[deal]]\nseed = {k}\ndeal_index = {k}\ndealer = 0\ndeclare = "1=play,2=play,0=play"\n' for k in range(20000)
    ))  # fmt: skip
    return {"check": ["check", str(deals)], "replay": ["replay", "--seed", "1", "--why"], "rules": ["rules"]}[command]


@pytest.mark.parametrize(("command", "moment"), [(c, m) for c in [*LONG, "rules", "check", "replay"] for m in MOMENTS
                                                 if c in LONG or m != "loading the kernel"])  # fmt: skip
def test_ctrl_c_while_starting(tmp_path, command, moment):
    """While Python imports the command line, the command reads its options or the run loads
    numba: one line, exit 130, nothing in --out. (The first few tens of milliseconds, while
    the interpreter starts and imports the package before ``loo_sim.__main__`` runs, are
    Python's own: a Ctrl-C there ends the process by SIGINT.)"""
    argv = _argv(LONG, command, tmp_path) if command in LONG else _no_files_argv(command, tmp_path)
    code, _, stderr, seconds = _signalled(argv, _at(moment), "-X", "importtime")
    stderr = "".join(line for line in stderr.splitlines(keepends=True) if not line.startswith("import time:"))
    assert code == 130 and stderr == "interrupted: nothing written\n", stderr
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []
    assert seconds < 15


@pytest.mark.parametrize("command", list(LONG))
def test_ctrl_c_in_a_long_run_stops_it_within_seconds_and_stamps_what_finished(tmp_path, warm, command):
    """Once the work has started: exit 130 within seconds of the signal (a round or an
    iteration ends it, not the rest of the run), one line, what finished written whole and
    stamped PARTIAL (calibrate keeps nothing: a part of a strength table is not one)."""
    out = tmp_path / "out"
    for settle in UNTIL_WORK:

        def started(proc: subprocess.Popen, settle: float = settle) -> None:
            deadline = time.time() + 120
            while not out.exists():
                assert proc.poll() is None and time.time() < deadline, "the run never got going"
                time.sleep(0.05)
            time.sleep(settle)

        code, _, stderr, seconds = _signalled(_argv(LONG, command, tmp_path), started)
        print(f"\n{command}: Ctrl-C {settle} s after --out appeared: exit {code} {seconds:.2f} s later")
        assert code == 130, stderr
        assert seconds < 15, f"{seconds:.1f} s from Ctrl-C to the exit"
        left = _check_outcome(code, stderr, out)
        if left == "partial" or command == "calibrate":
            break
    assert left == ("nothing" if command == "calibrate" else "partial"), stderr


@pytest.mark.parametrize("command", list(SHORT))
def test_ctrl_c_while_a_run_writes_leaves_its_files_whole_or_none(tmp_path, warm, command):
    """A short run signalled at delays up to its whole length (the last ones land while it
    renders and writes its files): at every delay, nothing, a PARTIAL run or the complete
    run, whole; never a truncated file or a temp file."""
    start = time.time()
    code, _, stderr, _ = _signalled(_argv(SHORT, command, tmp_path), lambda proc: proc.wait(120))
    length = time.time() - start
    assert _check_outcome(code, stderr, tmp_path / "out") == "complete"
    seen = set()
    for fraction in (0.8, 0.9, 0.97):  # each into a new folder
        out = f"out-{fraction}"
        code, _, stderr, _ = _signalled(_argv(SHORT, command, tmp_path, out), _after(length * fraction))
        seen.add(f"{_check_outcome(code, stderr, tmp_path / out)} (exit {code})")
    print(f"\n{command}: a run of {length:.2f} s; outcomes {sorted(seen)}")


@pytest.mark.parametrize("command", ["check", "replay", "rules"])
def test_ctrl_c_in_a_short_command_once_it_prints(tmp_path, command):
    """check, replay and rules write no files: Ctrl-C once the first line is out ends them
    with one line and exit 130 (or they had finished: exit 0)."""
    argv = _no_files_argv(command, tmp_path)

    def printing(proc: subprocess.Popen) -> None:
        assert proc.stdout.readline()

    code, _, stderr, seconds = _signalled(argv, printing)
    print(f"\n{command}: exit {code} {seconds:.2f} s after Ctrl-C")
    if command == "check":
        assert code == 130, "20,000 deals are checked in more than the time to read a line"
    assert code in (0, 130) and seconds < 15
    if code == 130:
        assert stderr == "interrupted: nothing written\n", stderr
    else:
        assert "Traceback" not in stderr, stderr


# ---- the two ways the matrix found a Ctrl-C could be lost or leave a folder half-written ----
def test_ctrl_c_while_files_are_renamed_into_place_waits_until_all_are(tmp_path):
    """base/atomic.py: Ctrl-C between two files of a set waits for the set; the folder then
    holds all of them, no temp file, and the command line knows they were written."""
    from loo_sim.base.atomic import forget_written, write_files, written_folders
    from loo_sim.cli import interrupted_line

    def files():
        yield "a.csv", b"x\n1\n"
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # the handler runs between bytecodes of the main thread
        yield "b.csv", b"y\n2\n"

    forget_written()
    with pytest.raises(KeyboardInterrupt):
        write_files(tmp_path, files())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv", "b.csv"]
    assert written_folders() == [tmp_path]
    assert interrupted_line() == f"interrupted: stopped after writing the results in {tmp_path}"
    forget_written()
    assert interrupted_line() == "interrupted: nothing written"


def test_ctrl_c_that_a_weakref_callback_swallowed_is_raised_again(capsys):
    """cli/ctrl_c.py: a KeyboardInterrupt raised inside a weakref callback (numba's type
    disposal, run by the garbage collector) is not lost with an "Exception ignored" traceback."""
    import weakref

    from loo_sim.cli.ctrl_c import ctrl_c_after_compiling

    class Thing:
        pass

    def callback(ref):
        raise KeyboardInterrupt

    steps = []
    with ctrl_c_after_compiling():
        thing = Thing()
        ref = weakref.ref(thing, callback)
        with pytest.raises(KeyboardInterrupt):
            del thing
            steps.append("callback swallowed it")
            for _ in range(200):
                time.sleep(0.01)
            steps.append("never raised again")
    assert steps == ["callback swallowed it"] and ref() is None
    assert capsys.readouterr().err == ""


def test_a_ctrl_c_python_wraps_in_a_runtime_error_is_still_ctrl_c(capsys, monkeypatch):
    """A Ctrl-C inside a class body's ``__set_name__`` (numba's PyLower, while numba imports)
    reaches the command line as ``RuntimeError: Error calling __set_name__`` caused by the
    KeyboardInterrupt (a fresh-clone CI run hit it): one line, exit 130."""
    import loo_sim.cli as cli

    def command(*args, **kwargs):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as e:
            raise RuntimeError("Error calling __set_name__ on 'cached_property' instance") from e

    real = cli.typer.main.get_command

    class Wrapped:
        def __init__(self, inner):
            self.inner = inner

        def main(self, *args, **kwargs):
            command()

    monkeypatch.setattr(cli.typer.main, "get_command", lambda app: Wrapped(real(app)))
    assert cli.main(["rules"]) == 130
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("interrupted")
    assert not cli.caused_by_ctrl_c(RuntimeError("plain"))


def test_a_ctrl_c_c_code_turns_into_its_own_error_is_still_ctrl_c(capsys, monkeypatch):
    """matplotlib's renderer reports a Ctrl-C that lands while it converts a box as
    ``ValueError: Invalid bounding box``, with nothing left of the KeyboardInterrupt (a
    fresh-clone CI run hit it while a tournament drew its figures): after SIGINT's handler
    has raised, any error is the Ctrl-C's: one line, exit 130. Without a SIGINT the same
    error is not mistaken for one."""
    import signal

    import loo_sim.cli as cli

    def masked(signalled: bool) -> None:
        try:
            if signalled:
                signal.raise_signal(signal.SIGINT)
        except KeyboardInterrupt:
            pass
        raise ValueError("Invalid bounding box") from None

    real = cli.typer.main.get_command

    def wrapped(signalled):
        class Wrapped:
            def main(self, *args, **kwargs):
                masked(signalled)

        return lambda app: (real(app), Wrapped())[1]

    monkeypatch.setattr(cli.typer.main, "get_command", wrapped(True))
    assert cli.main(["rules"]) == 130
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("interrupted")
    monkeypatch.setattr(cli.typer.main, "get_command", wrapped(False))
    with pytest.raises(ValueError, match="Invalid bounding box"):
        cli.main(["rules"])


def test_a_finalizer_failing_after_a_ctrl_c_prints_nothing(capsys, monkeypatch):
    """After Ctrl-C an llvmlite object the KeyboardInterrupt closed halfway fails again when it
    is collected (``AttributeError: 'ValueRef' object has no attribute '_as_parameter_'``,
    printed as "Exception ignored in ..." under the one line: a fresh-clone CI run hit it).
    Such a failure, during the command or after it, is not reported; without a Ctrl-C it is."""
    import signal

    import loo_sim.cli as cli

    reported = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: reported.append(u.exc_type))

    class HalfClosed:
        def __del__(self):
            raise AttributeError("'ValueRef' object has no attribute '_as_parameter_'")

    def run(signalled: bool):
        class Command:
            def main(self, *args, **kwargs):
                if signalled:
                    try:
                        signal.raise_signal(signal.SIGINT)
                    except KeyboardInterrupt:
                        HalfClosed()  # collected at once: its failure goes to sys.unraisablehook
                        raise
                HalfClosed()
                return 0

        monkeypatch.setattr(cli.typer.main, "get_command", lambda app: Command())
        return cli.main(["rules"])

    assert run(True) == 130
    HalfClosed()  # after the command, while the process would end
    assert reported == []
    assert capsys.readouterr().err.strip() == "interrupted: nothing written"
    monkeypatch.setattr(sys, "unraisablehook", lambda u: reported.append(u.exc_type))
    assert run(False) == 0
    assert reported == [AttributeError]
