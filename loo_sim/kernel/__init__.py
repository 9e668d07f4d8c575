"""The numba kernel: arrays and ints only (docs/design.md properties 2-5).

- ``bits``: hands as 52-bit masks; trumps, Pam, heading and card power (R1, R7, P1)
- ``krng``: the counter-based generator of ``loo_sim.base.rng`` in numba
- ``deal``: one deal, one step function per step of ``engine/deal.py`` (deal, antes,
  declare, exchange, flush, tricks, score), written into a record vector (slots in ``game/abi.py``);
  ``begin_deal``/``finish_deal``/``rewind_deal`` split it at a declaration for the
  decision chart's replays; ``declare``, ``exchange`` and ``tricks`` hold the steps of the
  declarations, the exchange and flushes, and the trick play (as ``engine/`` splits them),
  ``policies`` and ``legality`` the policies' decisions and the legal cards, the twins of
  ``engine/policies.py`` and ``game/legality.py``
- ``nrt``: compiling the deal and the loops that inline it without reference counting
- ``compile_fixes``: two fixes to numba's compile time (the same results, compiled sooner)
- ``codegen``: an LLVM option for the machine code (selects kept as conditional moves)
- ``scratch``: what every block driver needs around a deal (working arrays, streams)
- ``aggregate``: one deal's record reduced into a block's aggregate row
- ``chunks``: a block of deals reduced to aggregates (simulate); and the batches of
  ``play_deals`` (every record row kept) and ``shuffled_decks``
- ``bins``: amounts (pots, balances) counted exactly or in log bins, as the sessions' aggregates count them
- ``classes``, ``counterfactual``, ``sessions``, ``variants``, ``calibrate``, ``tournament``,
  ``ladder``: hand classes and the block drivers of the studies
- ``solver``: the perfect-information card-play search (P7), ``cardplay`` the perfect and pimc
  families on it, ``infer`` pimc:N:infer's draw (the declarations read); ``solver_recursive``:
  its search as a recursion as it was before shallow pruning and the endgame (the same answers,
  fewer shortcuts), measured beside it by ``scripts/bench.py --solver``
- ``bench``: the bare deal and the staged deal of ``scripts/bench.py`` (nothing else uses them)

The kernel imports only the ``game`` layer and the foundations (for constants). numba's
on-disk cache checks only the source file of the function it compiled, not the files it
calls into or the constants it froze from other modules, so a change in ``deal.py``,
``game/classes.py`` or ``config.py`` would leave a stale binary. The cache therefore
lives in a directory named by a hash of every kernel and game source and of the
foundations they import (``cache_sources``): any change there starts a fresh cache.

A cold cache costs seconds of compiling in the first process of each kind of run whose
drivers are not cached yet (``COMPILE_SECONDS``: about 8.5 s for simulate,
9.5 s for pots and for miss to the first deal on a 2-core machine, with the fixes of ``compile_fixes`` to
numba's inliner and literal typing; a later kind reuses the deal kernel another one
cached); :func:`kernel_cache_is_warm` tells a caller beforehand, so the CLI
can say so on a terminal (the library prints nothing). The drivers are serial one-block
functions that ``run.tasks.each_block`` runs on threads: numba's parallel lowering
(``prange``) would compile the whole deal kernel into four more libraries.
"""

import hashlib
from importlib import import_module
from pathlib import Path

# the kernel functions each kind of run calls from Python (module, function): what it compiles
DRIVERS = {
    "simulate": [("chunks", "run_block")],
    "variants": [("variants", "variant_block")],
    "variant_sessions": [("variants", "variant_session_block")],
    "miss": [("counterfactual", name) for name in ("decision_scratch", "decision_block", "heuristic_block")],
    "pots": [("sessions", "session_scratch"), ("sessions", "session_block")]
    + [("bins", name) for name in ("count_pots", "count_largest", "count_balances", "fold_balances")],
    "calibrate": [("calibrate", "calibrate_block")],
    "play_deals": [("chunks", "play_rows")],
    "tournament": [("tournament", "tournament_block")],
    "risk": [("risk", "risk_block")],
    "cardplay": [("ladder", "ladder_block")],
    "solve": [
        ("equilibrium", "infoset_lane"),
        ("equilibrium", "exploit_lane"),
        ("counterfactual", "decision_scratch"),
        ("counterfactual", "decision_block"),
        ("counterfactual", "heuristic_block"),
    ],  # fmt: skip
    # the card-play solver (P7), which perfect and pimc seats compile into the driver of their run besides
    "search": [("solver_search", "_value")],
}
# the seconds a cold compile of each kind of run takes, rounded up from a cold process of each on a 2-core
# machine (docs/performance.md, with kernel/compile_fixes.py); a second cold kind in the same process reuses the
# deal kernel and costs about MORE_KIND_SECONDS more (the CLI's "compiling the kernel once" notice)
COMPILE_SECONDS = {
    "simulate": 9,
    "variants": 9,
    "variant_sessions": 13,
    "calibrate": 8,
    "play_deals": 8,
    "pots": 11,
    "miss": 12,
    "solve": 26,
    "tournament": 10,
    "risk": 10,
    "cardplay": 9,
    "search": 75,  # a cardplay run with pimc and perfect entrants: 59-65 s on a Zen 5, about 85 s on a Zen 3
}
MORE_KIND_SECONDS = 3


def cache_sources() -> list[Path]:
    """The source files the numba cache folder's name hashes: every kernel and game module,
    and the foundations they import (``config`` and ``rng``: BLOCK, SESSION_BLOCK, the
    stream keys; ``checks`` and ``errors``, which the game layer imports; ``hooks``): every module the
    kernel reaches (tests/test_config.py walks its imports)."""
    here = Path(__file__).resolve().parent
    package = here.parent
    sources = sorted(here.glob("*.py")) + sorted((package / "game").glob("*.py"))
    return sources + [package / "base" / name for name in ("config.py", "rng.py", "checks.py", "errors.py", "hooks.py")]


def _configure_cache() -> None:
    from numba.core import config

    from loo_sim.base.config import cache_dir
    from loo_sim.kernel.codegen import OPTIONS  # before anything compiles

    options = " ".join(OPTIONS).encode()  # machine code built with and without them is kept apart
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in cache_sources()) + options).hexdigest()[:16]
    config.CACHE_DIR = str(cache_dir("numba") / f"kernel-{digest}")


_configure_cache()

from loo_sim.kernel import compile_fixes  # noqa: E402, F401 (before anything compiles)


def kernel_cache_is_warm(*kinds: str) -> bool:
    """Whether numba's on-disk cache holds compiled code for the drivers of these kinds
    of run (``DRIVERS``: simulate, variants, miss, pots, calibrate, play_deals; all of
    them when none is named), valid for the current sources, so that running them
    compiles nothing. False means the first call compiles (for seconds:
    ``COMPILE_SECONDS``). It reads numba's index files as numba does when it
    loads them; when it cannot tell (numba's internals changed), it answers True."""
    for kind in kinds or tuple(DRIVERS):
        for module, name in DRIVERS[kind]:
            dispatcher = getattr(import_module(f"{__name__}.{module}"), name)
            try:
                overloads = dispatcher._cache._cache_file._load_index()  # {} when absent or stale
            except (AttributeError, TypeError):
                return True
            except Exception:  # an unreadable index: numba will recompile
                return False
            if not overloads:
                return False
    return True


KERNEL_READY = True  # numba is configured; what waits for it (the CLI's Ctrl-C guard) may start
from loo_sim.base.hooks import kernel_imported  # noqa: E402

kernel_imported()
