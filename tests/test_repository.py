"""A clean repository (issue #29): no downloads, wheels or caches committed. Every tracked
file outside ``reports/`` (the committed studies) and ``loo_sim/data/`` (package data) is
under 2 MB, and wheels and build output are ignored, so ``git add -A`` cannot pick them up."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 2_000_000
ALLOWED = ("reports/", "loo_sim/data/")

pytestmark = pytest.mark.skipif(
    shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs a git checkout"
)


def tracked() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [p for p in out.decode().split("\0") if p]


def oversized(paths: list[str], root: Path, limit: int = LIMIT) -> list[str]:
    """The tracked files over ``limit`` bytes outside the folders allowed to hold big files."""
    big = []
    for path in paths:
        file = root / path
        if path.startswith(ALLOWED) or not file.is_file():
            continue
        if file.stat().st_size > limit:
            big.append(f"{path} ({file.stat().st_size:,} bytes)")
    return big


def test_no_tracked_file_over_the_limit_outside_reports_and_data():
    assert oversized(tracked(), ROOT) == []


def test_the_size_check_catches_a_big_file(tmp_path):
    (tmp_path / "reports").mkdir()
    (tmp_path / "big.whl").write_bytes(b"\0" * (LIMIT + 1))
    (tmp_path / "reports" / "big.csv").write_bytes(b"\0" * (LIMIT + 1))
    (tmp_path / "small.txt").write_bytes(b"x")
    assert oversized(["big.whl", "reports/big.csv", "small.txt"], tmp_path) == [f"big.whl ({LIMIT + 1:,} bytes)"]


@pytest.mark.parametrize("name", ["x.whl", "dist/x.tar.gz", "build/lib/x.py", ".venv/bin/python", "site/index.html",
                                  "out/sim/summary.md", ".numba_cache/x.nbi", "loo_sim.egg-info/PKG-INFO"])
def test_build_artefacts_and_downloads_are_ignored(name):
    result = subprocess.run(["git", "check-ignore", "-q", "--no-index", name], cwd=ROOT)
    assert result.returncode == 0, f"{name} is not ignored by .gitignore"
