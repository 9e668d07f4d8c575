"""The layers above ``run/`` format tables and draw figures without numba: importing any
module of ``game/``, ``analysis/`` or ``plots/`` (and the package root) must not import it
(review item 7: the ABI lives in ``game/abi.py``, the balance folding is done in
``run/sessions.py``). Checked in a fresh interpreter, one module at a time, so a failure
names the module that first brought numba in."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "loo_sim"

# imports each module in turn; prints the first that leaves numba in sys.modules, or "clean"
PROBE = """
import importlib, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
    if "numba" in sys.modules:
        print(name)
        break
else:
    print("clean")
"""


def modules_of(package: str) -> list[str]:
    return sorted(
        f"loo_sim.{package}" if p.stem == "__init__" else f"loo_sim.{package}.{p.stem}"
        for p in (PACKAGE / package).glob("*.py")
    )


def first_numba_import(names: list[str]) -> str:
    done = subprocess.run([sys.executable, "-c", PROBE, *names], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("package", ["game", "analysis", "plots"])
def test_the_layers_above_the_kernel_import_without_numba(package):
    names = modules_of(package)
    assert len(names) > 3  # the folder is there and holds modules
    assert first_numba_import(["loo_sim", *names]) == "clean"


def test_the_probe_sees_a_module_that_imports_numba():
    # the check must be able to fail: a kernel module imports numba
    assert first_numba_import(["loo_sim.game.rules", "loo_sim.kernel.bits"]) == "loo_sim.kernel.bits"
