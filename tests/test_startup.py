"""Instant start (issue #29): the command line imports numba only when a kernel is about
to run. ``import loo_sim.cli``, ``--help`` of the app and of every command, ``rules`` and
usage errors leave numba (and pandas, matplotlib) unimported; ``loo-sim`` without a command
prints the usage and exits 2. The CPU time itself is measured, not asserted:
``scripts/bench_startup.py`` (``bash scripts/dev.sh bench --startup``)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("numba", "llvmlite", "pandas", "matplotlib")


def loaded_after(*argvs: list[str]) -> dict:
    """Run each argv through ``loo_sim.cli.main`` in one fresh process; the exit codes and
    which heavy packages were imported by the end."""
    code = f"""
import contextlib, io, json, sys
from loo_sim.cli import main
codes = []
for argv in {list(argvs)!r}:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            codes.append(main(argv))
        except SystemExit as e:
            codes.append(e.code)
print(json.dumps({{"codes": codes, "heavy": [m for m in {HEAVY!r} if m in sys.modules]}}))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_importing_the_cli_does_not_import_numba():
    code = f"import sys, loo_sim.cli; print([m for m in {HEAVY!r} if m in sys.modules])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_package_root_loads_its_api_on_first_use():
    code = ("import sys, loo_sim; before = 'numba' in sys.modules; rules = loo_sim.Rules.preset('three-card'); "
            "print(before, 'numba' in sys.modules, callable(loo_sim.play_deals), 'play_deals' in dir(loo_sim))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False", "True", "True"]


def test_help_of_every_command_and_rules_do_not_import_numba():
    from loo_sim.cli import app

    names = [c.name for c in app.registered_commands]
    assert len(names) >= 13
    result = loaded_after(["--help"], *[[name, "--help"] for name in names], ["rules"], ["rules", "five-card"])
    assert result == {"codes": [0] * (len(names) + 3), "heavy": []}


@pytest.mark.parametrize("argv", [
    ["simulate", "--deals", "x"],
    ["simulate", "--preset", "nope"],
    ["pots", "--sessions", "0"],
    ["replay", "--seed", "-1"],
    ["solve", "--deals", "10"],
    ["rules", "nope"],
    ["tournament", "--bogus"],
])  # fmt: skip
def test_usage_errors_do_not_import_numba(argv):
    assert loaded_after(argv) == {"codes": [2], "heavy": []}


def test_no_command_prints_the_usage_and_exits_2():
    done = subprocess.run([sys.executable, "-m", "loo_sim"], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.startswith("Usage: loo-sim") and "simulate" in done.stderr
    assert done.stdout == ""
