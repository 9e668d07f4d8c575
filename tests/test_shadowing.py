"""A ``loo_sim.py`` (or a folder ``loo_sim``) beside a user's script shadows ``import
loo_sim``; ``loo-sim`` names it with a warning when it sits in the working folder, and
``shadowing`` agrees with what a Python process started there really imports."""

import subprocess
import sys
from pathlib import Path

import pytest

import loo_sim
from loo_sim.cli import main, shadowing

WHAT_LOADS = "import importlib.util; print(importlib.util.find_spec('loo_sim').origin)"


def loaded_in(folder: Path) -> str:
    """The origin of ``loo_sim`` in a Python process started in ``folder`` (its folder first on sys.path)."""
    out = subprocess.run([sys.executable, "-c", WHAT_LOADS], cwd=folder, capture_output=True, text=True, check=True)
    return out.stdout.strip()


@pytest.mark.parametrize("kind", ["module", "package", "folder", "nothing"])
def test_shadowing_is_what_a_script_there_would_import(tmp_path, kind):
    if kind == "module":
        (tmp_path / "loo_sim.py").write_text("print('my analysis')\n")
    elif kind == "package":
        (tmp_path / "loo_sim").mkdir()
        (tmp_path / "loo_sim" / "__init__.py").write_text("")
    elif kind == "folder":  # a clone named loo_sim, seen from its parent
        (tmp_path / "loo_sim").mkdir()
    real = str(Path(loo_sim.__file__).resolve())
    shadow = shadowing(tmp_path)
    assert (shadow is None) == (loaded_in(tmp_path) == real)
    if kind in ("module", "package"):
        assert shadow is not None and shadow.name.startswith("loo_sim")
    if kind == "nothing":
        assert shadow is None


def test_loo_sim_warns_about_a_shadow_in_the_working_folder(tmp_path, monkeypatch, capsys):
    (tmp_path / "loo_sim.py").write_text("")
    monkeypatch.chdir(tmp_path)
    assert main(["rules"]) == 0
    err = capsys.readouterr().err
    assert f"warning: {tmp_path / 'loo_sim.py'} shadows the installed loo_sim" in err and "Troubleshooting" in err


def test_no_warning_in_the_checkout_itself(monkeypatch, capsys):
    monkeypatch.chdir(Path(loo_sim.__file__).resolve().parents[1])
    assert main(["rules"]) == 0 and capsys.readouterr().err == ""
