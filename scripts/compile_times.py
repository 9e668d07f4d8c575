"""How long numba takes to compile the kernel from a cold cache, function by function.

    .venv/bin/python scripts/compile_times.py solve      # the search: solve_many of five-card first leads
    .venv/bin/python scripts/compile_times.py ladder     # a pimc:4 card-play ladder, five-card, 4 seats
    .venv/bin/python scripts/compile_times.py solve --as-is ssa,live,flags   # without those fixes

Each run is a child process with an empty numba cache (a temporary folder) and one numba
thread; ``--as-is`` is passed on as ``$LOO_SIM_NUMBA_AS_IS`` (kernel/compile_fixes.py: the
fixes to leave out). It prints the child's wall and CPU seconds, then numba's compiles (its
``numba:compile`` events) by inclusive seconds, nested as they ran: a function's figure holds
the compiles of the functions it called that were not compiled yet."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = ("solve", "ladder")


def _run_target(target: str) -> None:
    import numpy as np

    from loo_sim import Rules
    from loo_sim.game.policy import Policy

    if target == "solve":
        sys.path.insert(0, str(ROOT / "scripts"))
        from bench_solver import solver_first_leads

        from loo_sim.kernel import solver as K
        from loo_sim.run.args import rules_arrays
        from loo_sim.run.solver import encode_position

        encoded = [encode_position(p) for p in solver_first_leads("five-card", 3)]
        pis, pfs = np.array([e[0] for e in encoded]), np.array([e[1] for e in encoded])
        ri, _ = rules_arrays(Rules.preset("five-card"))
        K.solve_many(pis, pfs, ri, *K.workspace(), np.zeros((len(pis), 3), dtype=np.int64))
    else:
        from loo_sim.run.ladder import run_ladder, with_play

        table = [Policy.parse("basic")] * 4
        run_ladder(Rules.preset("five-card", players=4), table, [with_play(table[0], "pimc:4")], deals=1, seed=5)


def child(target: str) -> None:
    """Compile ``target`` and print {wall, cpu, rows: [depth, function, seconds]} as JSON."""
    from numba.core import event

    class Compiles(event.Listener):
        def __init__(self) -> None:
            self.open: list = []
            self.rows: list = []

        def on_start(self, ev) -> None:
            self.open.append((ev.data["dispatcher"].py_func.__qualname__, time.perf_counter()))

        def on_end(self, ev) -> None:
            name, start = self.open.pop()
            self.rows.append((len(self.open), name, time.perf_counter() - start))

    compiles = Compiles()
    event.register("numba:compile", compiles)
    start = time.perf_counter()
    _run_target(target)
    print(json.dumps({"wall": time.perf_counter() - start, "cpu": time.process_time(), "rows": compiles.rows}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", choices=TARGETS)
    parser.add_argument("--as-is", default="", help="the compile fixes to leave out, e.g. ssa,live,flags")
    parser.add_argument("--top", type=int, default=12, help="how many compiles to list")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.target)
        return
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, NUMBA_NUM_THREADS="1", LOO_SIM_NUMBA_AS_IS=args.as_is,
                   PYTHONPATH=str(ROOT))  # fmt: skip
        done = subprocess.run([sys.executable, __file__, args.target, "--child"], env=env, capture_output=True,
                              text=True, check=False)  # fmt: skip
    if done.returncode != 0:
        sys.exit(f"compile_times: the child failed:\n{done.stderr[-2000:]}")
    got = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"{args.target}, a cold cache, fixes left out: {args.as_is or 'none'}: "
          f"{got['wall']:.1f} s wall, {got['cpu']:.1f} s CPU (the child process)")  # fmt: skip
    for depth, name, seconds in sorted(got["rows"], key=lambda r: -r[2])[: args.top]:
        print(f"{seconds:7.1f} s  {'  ' * depth}{name}")


if __name__ == "__main__":
    main()
