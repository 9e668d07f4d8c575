"""kernel/compile_fixes.py: numba's compile time cut without changing what it compiles.

Each check runs in fresh processes with an empty numba cache, since the fixes act while
numba compiles, and a cached kernel is not compiled again."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

# play_tricks has the trick steps inlined into it (play_trick, play_trick_basic, judge_trick, pick_card)
COMPILE_PLAY_TRICKS = """
import sys
from numba import types as T
from loo_sim.kernel import tricks
i1, i2, u1 = T.int64[::1], T.int64[:, ::1], T.uint64[::1]
sig = (i1, i2, u1, T.boolean, T.int64, T.int64, T.int64, T.int64, i1, i1, T.float64, T.float64, T.none)
tricks.play_tricks.compile(sig)
sys.stdout.write(tricks.play_tricks.inspect_llvm(sig))
"""

SIMULATE_AND_LIST_SIGNATURES = """
import importlib, pkgutil
from numba.core.registry import CPUDispatcher
import loo_sim.kernel as K
from loo_sim import Rules
from loo_sim.kernel import compile_fixes
from loo_sim.run.simulate import simulate
simulate(Rules.preset("three-card"), "basic", 1, seed=1)
print(compile_fixes.APPLIED)
for m in pkgutil.iter_modules(K.__path__):
    mod = importlib.import_module("loo_sim.kernel." + m.name)
    for name, f in vars(mod).items():
        if isinstance(f, CPUDispatcher) and f.__module__ == mod.__name__:
            for sig in f.overloads:
                print(m.name, name, [str(a) for a in sig])
"""


def _run(code: str, tmp_path: Path, as_is: str = "") -> str:
    cache = tmp_path / f"numba-{as_is or 'fixed'}"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), LOO_SIM_NUMBA_AS_IS=as_is, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout


def test_inlining_without_copies_compiles_the_same_code(tmp_path):
    fixed = _run(COMPILE_PLAY_TRICKS, tmp_path)
    as_is = _run(COMPILE_PLAY_TRICKS, tmp_path, as_is="inline")
    assert "play_trick" in fixed and len(fixed) > 10_000
    assert fixed == as_is  # the LLVM IR, text for text


def test_ssa_liveness_and_flag_fixes_compile_the_same_code(tmp_path):
    fixed = _run(COMPILE_PLAY_TRICKS, tmp_path)
    as_is = _run(COMPILE_PLAY_TRICKS, tmp_path, as_is="ssa,live,flags")
    assert "play_trick" in fixed and len(fixed) > 10_000
    assert fixed == as_is  # the LLVM IR, text for text


def _kernel_irs():
    """The untyped IR of kernel functions with loops and variables assigned many times, the
    search's among them, each built afresh (so one function's IR can be rewritten twice)."""
    from numba.core.compiler import run_frontend

    from loo_sim.kernel import cardplay, solver_endgame, solver_search, solver_three, tricks

    for f in (solver_search._value, solver_three.three_tricks, solver_endgame.two_tricks, tricks.play_tricks,
              cardplay.pimc):  # fmt: skip
        yield f.__name__, lambda f=f: run_frontend(f.py_func)


def _dump(func_ir) -> str:
    import io

    out = io.StringIO()
    func_ir.dump(out)
    return out.getvalue()


def test_ssa_by_the_blocks_naming_a_variable_rewrites_as_numba_does():
    from numba.core import ssa

    from loo_sim.kernel.compile_fixes import APPLIED, ORIGINALS

    assert APPLIED["ssa"]
    for name, fresh in _kernel_irs():
        ours, numbas = fresh(), fresh()
        violators = ssa._find_defs_violators(ours.blocks, ssa.compute_cfg_from_blocks(ours.blocks))
        assert violators, name  # variables assigned more than once: something to rewrite
        before = _dump(ours)
        ours.blocks = ssa._run_ssa(ours.blocks)
        numbas.blocks = ORIGINALS["ssa"](numbas.blocks)
        assert _dump(ours) == _dump(numbas) != before, name


def test_liveness_in_bits_gives_numbas_sets():
    from numba.core import analysis, ssa

    from loo_sim.kernel.compile_fixes import APPLIED, ORIGINALS

    assert APPLIED["live"]
    for name, fresh in _kernel_irs():
        func_ir = fresh()
        for blocks in (func_ir.blocks, ssa._run_ssa(func_ir.blocks)):
            cfg = analysis.compute_cfg_from_blocks(blocks)
            uses = analysis.compute_use_defs(blocks)
            ours = analysis.compute_live_map(cfg, blocks, uses.usemap, uses.defmap)
            numbas = ORIGINALS["live"](cfg, blocks, uses.usemap, uses.defmap)
            assert ours == numbas and any(ours.values()), name
            assert list(ours) == list(numbas)  # the blocks in the same order


def test_flag_values_are_numbas():
    from numba.core.compiler import Flags

    from loo_sim.kernel.compile_fixes import APPLIED, ORIGINALS

    assert APPLIED["flags"]
    flags = Flags()
    assert flags.values() == ORIGINALS["flags"](flags)
    flags.nrt = True
    flags.inline = "always"
    flags.no_cpython_wrapper = True
    assert flags.values() == ORIGINALS["flags"](flags) and flags.values()["nrt"] is True
    assert flags == Flags(flags) and hash(flags) == hash(Flags(flags))


def test_kernel_functions_are_compiled_for_plain_argument_types(tmp_path):
    lines = _run(SIMULATE_AND_LIST_SIGNATURES, tmp_path).splitlines()
    assert lines[0] == "{'inline': True, 'literals': True, 'ssa': True, 'live': True, 'flags': True}"
    rows = lines[1:]
    assert any(row.startswith("tricks play_tricks ") for row in rows)
    assert [row for row in rows if "Literal" in row] == []
    # without the fix, play_tricks was compiled a second time for a literal ``m`` of 0
    assert sum(row.startswith("tricks play_tricks ") for row in rows) == 1


# kernel/solver_recursive.py's search calls itself with constant arguments: with plain
# argument types for every call, the recursive call re-entered the compile under way
# ("compiler re-entrant to the same function signature"). The child compiles the recursive
# search alone (the iterative one, a minute more of cold compile, runs in the suite's process)
SOLVE_RECURSIVE = """
import numpy as np
from loo_sim.kernel import solver as K
from loo_sim.kernel.solver_recursive import solve_many_recursive
from tests.test_compile_fixes import three_card_positions
pis, pfs, ri = three_card_positions()
out = np.zeros((len(pis), 3), dtype=np.int64)
solve_many_recursive(pis, pfs, ri, *K.workspace(), out)
print(out[:, :2].tolist())
"""


def three_card_positions() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Three positions of three-card deals, encoded for the kernel's solver, and the rules' arrays."""
    import random

    from loo_sim import Rules
    from loo_sim.engine.deal import reference_positions
    from loo_sim.game.policy import Policy
    from loo_sim.run.args import rules_arrays
    from loo_sim.run.solver import encode_position

    rng, rules, positions = random.Random(3), Rules.preset("three-card"), []
    while len(positions) < 3:
        deck = list(range(52))
        rng.shuffle(deck)
        found, _ = reference_positions(rules, deck, 0, 0.0, [Policy.parse("always")] * rules.players)
        positions += found[:1]
    encoded = [encode_position(p) for p in positions]
    return np.array([e[0] for e in encoded]), np.array([e[1] for e in encoded]), rules_arrays(rules)[0]


def test_a_recursive_kernel_function_compiles_with_plain_argument_types(tmp_path):
    from loo_sim.kernel import solver as K

    recursive = _run(SOLVE_RECURSIVE, tmp_path).strip()
    pis, pfs, ri = three_card_positions()
    out = np.zeros((len(pis), 3), dtype=np.int64)
    K.solve_many(pis, pfs, ri, *K.workspace(), out)
    assert recursive == str(out[:, :2].tolist())  # the same tricks and best card from each position
