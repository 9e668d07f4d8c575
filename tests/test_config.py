"""The tunables and the cache folders (loo_sim/config.py), the stream keys (rng.py), the
hand-class grid under ``python -OO``, and the one round loop (run/rounds.py)."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from loo_sim.base import config, rng
from loo_sim.run.backend import LocalBackend
from loo_sim.run.rounds import run_rounds


def test_the_kernel_and_the_runs_read_one_block_size():
    # the kernel imports BLOCK and SESSION_BLOCK from config; no module assigns its own
    import ast

    from loo_sim.game import abi

    package = Path(config.__file__).parent.parent  # loo_sim/ (config is in loo_sim/base/)
    for path in package.rglob("*.py"):
        if path.name == "config.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Assign):
                names = {t.id for t in node.targets if isinstance(t, ast.Name)}
                assert not names & {"BLOCK", "SESSION_BLOCK", "ROUND_BLOCKS", "MIN_HANDS", "MIN_OBS"}, path
    assert abi.SESSION_BLOCK == config.SESSION_BLOCK


def test_stream_keys_of_different_runs_never_meet():
    sessions = [
        rng.NO_SESSION,
        rng.MISS_SESSION,
        rng.HEURISTIC_SESSION,
        rng.MISS_CARRIED_SESSION,
        rng.HEURISTIC_CARRIED_SESSION,
    ]
    sessions += [rng.CALIBRATION_SESSION + m for m in range(2, 9)]
    assert len(set(sessions)) == len(sessions)
    assert max(sessions) <= rng.MASK64 and rng.CALIBRATION_SESSION + 8 < rng.NO_SESSION
    assert rng.NO_DEAL == (-1) & rng.MASK64  # the first dealer's deal part, as engine.session writes it


def test_cache_folders_follow_the_environment(monkeypatch, tmp_path):
    import platformdirs

    from loo_sim.run.strength import cache_dir

    monkeypatch.delenv("LOO_SIM_CACHE", raising=False)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    user = platformdirs.user_cache_path("loo_sim", appauthor=False)
    assert config.cache_dir("strength") == user / "strength" == cache_dir()
    assert config.cache_dir("numba") == user / "numba"
    monkeypatch.setenv("LOO_SIM_CACHE", str(tmp_path / "a"))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "b"))
    assert cache_dir() == tmp_path / "a" / "strength"
    assert config.cache_dir("numba") == tmp_path / "b"


def test_the_numba_cache_sits_in_a_folder_named_by_the_sources(monkeypatch, tmp_path):
    from numba.core import config as numba_config

    import loo_sim.kernel as kernel

    before = numba_config.CACHE_DIR
    try:
        monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
        kernel._configure_cache()
        folder = Path(numba_config.CACHE_DIR)
        assert folder.parent == tmp_path and folder.name.startswith("kernel-")
    finally:
        numba_config.CACHE_DIR = before


def test_the_cache_folder_hashes_every_module_the_kernel_imports():
    # numba checks only the compiled function's own file: a module the kernel reads
    # constants or functions from (game/abi.py, kernel/declare.py, ...) must be in the hash
    import ast

    from loo_sim.kernel import cache_sources

    package = Path(config.__file__).parent.parent  # loo_sim/ (config is in loo_sim/base/)
    hashed = {p.resolve() for p in cache_sources()}

    def file_of(module: str) -> Path | None:
        parts = module.split(".")[1:]
        for path in (package.joinpath(*parts).with_suffix(".py"), package.joinpath(*parts, "__init__.py")):
            if path.exists():
                return path.resolve()
        return None

    todo, seen = sorted((package / "kernel").glob("*.py")), set()
    while todo:
        path = todo.pop().resolve()
        if path in seen:
            continue
        seen.add(path)
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("loo_sim"):
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names if a.name.startswith("loo_sim")]
            todo += [f for f in map(file_of, names) if f is not None and f.name != "__init__.py"]
    assert {package / "game" / "abi.py", package / "kernel" / "declare.py"} <= seen  # the walk reaches them
    assert sorted(str(p.relative_to(package)) for p in seen - hashed) == []


def test_grid_text_survives_python_OO():
    code = "from loo_sim.game.classes import grid_text; print(grid_text())"
    out = subprocess.run([sys.executable, "-OO", "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.startswith("rows, trumps known") and "three+ trumps" in out


def _task(scale, first, count):
    return np.arange(first, first + count, dtype=np.float64) * scale


def test_run_rounds_reduces_in_block_order_and_stops_after_a_whole_round():
    seen, progress = [], []

    def reduce(first, count, rows):
        seen.extend(rows.tolist())

    done, partial = run_rounds(_task, (2.0,), 10 * 8 + 3, 10, 3, reduce, progress=lambda d, t: progress.append(d))
    assert not partial and done == 83 and seen == [2.0 * b for b in range(9)]
    assert progress == [30, 60, 83]
    seen.clear()
    done, partial = run_rounds(_task, (1.0,), 1000, 10, 4, reduce, stop=lambda d: d >= 75)
    assert (done, partial) == (80, False) and len(seen) == 8  # the round that crossed 75 is kept whole


def test_run_rounds_turns_ctrl_c_into_a_partial_result():
    class Interrupting(LocalBackend):
        def map_chunks(self, task, static, chunks):
            for i, (first, count) in enumerate(chunks):
                if i == 2:
                    raise KeyboardInterrupt
                yield task(*static, first, count)

    total = []
    done, partial = run_rounds(_task, (1.0,), 100, 10, 2, lambda f, c, rows: total.append(rows.sum()),
                               backend=Interrupting())  # fmt: skip
    assert partial and done == 40 and sum(total) == sum(range(4))


@pytest.mark.parametrize("name", ["BLOCK", "SESSION_BLOCK", "ROUND_BLOCKS", "MIN_HANDS", "MIN_OBS", "VARIANT_BATCHES"])
def test_tunables_are_positive_whole_numbers(name):
    value = getattr(config, name)
    assert isinstance(value, int) and value > 0


def test_the_suite_keeps_out_of_the_users_cache():
    # tests/conftest.py points both caches away from ~/.cache/loo_sim before loo_sim is imported
    import tempfile

    import platformdirs
    from numba.core import config as numba_config

    user = platformdirs.user_cache_path("loo_sim", appauthor=False).resolve()
    tables = config.cache_dir("strength").resolve()
    assert tables.is_relative_to(Path(tempfile.gettempdir()).resolve()) and not tables.is_relative_to(user)
    kernels = Path(numba_config.CACHE_DIR).resolve()  # where this process's kernel is compiled to
    assert kernels.is_relative_to(config.cache_dir("numba").resolve()) and not kernels.is_relative_to(user)


def test_dev_sh_and_a_plain_loo_sim_share_one_numba_cache():
    # dev.sh used to export NUMBA_CACHE_DIR=$PWD/.numba_cache, so `loo-sim` compiled again into the user cache
    script = (Path(__file__).resolve().parents[1] / "scripts" / "dev.sh").read_text()
    code = [line.split("#")[0] for line in script.splitlines()]
    assert not any("NUMBA_CACHE_DIR" in line for line in code)
