"""Today's solver against the solver as it was when issue #28 was filed, for scripts/bench.py
(``--solver``): the package at commit ``BEFORE`` (the parent of #28's first change to the
search, 388be07), taken from the repository's history and imported beside today's under a
name of its own (``loo_sim_before``: every ``loo_sim`` in its sources renamed), so both run in
one process, in turns, on the same positions and deals, with the same answers required.

Why not only the ``OLD_SEARCH`` switch (scripts/bench_solver.py): it turns the newer shortcuts
off in today's code, whose frames and steps still carry the new search's bookkeeping. On a
Zen 5 it ran 1.2-1.56x slower than the code at ``BEFORE`` with the same nodes (two runs of
this bench at b1b86a6: five-card first leads 1.38-1.45x, three-card 1.20-1.24x, the
``pimc:32`` ladder 1.50-1.56x), so ratios against the switch overstate what the change
gained. The figures against ``BEFORE`` are the issue's "before the change".

The package is extracted once into ``out/bench_before/<SHORT>/`` (``out/`` is ignored by
git); without the repository's history (no ``git``, a shallow clone) the comparison is
skipped with a message.
"""

from __future__ import annotations

import importlib
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# the solver when #28 was filed: the parent of 388be07, its first change to the search
BEFORE = "31519140eb7a8326539ecd0c3e7926f19674a23e"
SHORT = BEFORE[:7]
NAME = "loo_sim_before"
ROOT = Path(__file__).resolve().parent.parent


def before_package() -> str | None:
    """``NAME`` importable (its folder on ``sys.path``), extracted from ``git archive BEFORE``
    the first time; None, with a message, when the history is not there."""
    home = ROOT / "out" / "bench_before" / SHORT
    if not (home / NAME / "__init__.py").exists():
        try:
            archive = subprocess.run(["git", "archive", BEFORE, "loo_sim"], cwd=ROOT, capture_output=True, check=True)
        except (OSError, subprocess.CalledProcessError):
            print(f"  (the solver at {SHORT}, when #28 was filed, is not timed: it needs the repository's history)")
            return None
        home.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=home) as tmp:
            subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
            for path in Path(tmp, "loo_sim").rglob("*.py"):
                path.write_text(re.sub(r"\bloo_sim\b", NAME, path.read_text()))
            shutil.rmtree(home / NAME, ignore_errors=True)
            Path(tmp, "loo_sim").rename(home / NAME)  # whole, or not at all
    if str(home) not in sys.path:
        sys.path.append(str(home))
    return NAME


def _first_leads(pkg: str, preset: str, count: int, seed: int = 1):
    """The bench's first-lead positions (bench_solver.solver_first_leads), dealt and encoded by
    package ``pkg``'s own code: (ri, pis, pfs)."""
    import numpy as np

    rules = importlib.import_module(f"{pkg}.game.rules").Rules.preset(preset)
    reference_positions = importlib.import_module(f"{pkg}.engine.deal").reference_positions
    policies = [importlib.import_module(f"{pkg}.game.policy").Policy.parse("always")] * rules.players
    encode = importlib.import_module(f"{pkg}.run.solver").encode_position
    rng, encoded = random.Random(seed), []
    while len(encoded) < count:
        deck = list(range(52))
        rng.shuffle(deck)
        positions, _ = reference_positions(rules, deck, len(encoded) % rules.players, 0.0, policies)
        if positions and len(positions[0].seats) == rules.players:
            encoded.append(encode(positions[0]))
    ri, _ = importlib.import_module(f"{pkg}.run.args").rules_arrays(rules)
    return ri, np.array([e[0] for e in encoded]), np.array([e[1] for e in encoded])


def before_solver_rates(preset: str, count: int, rounds: int) -> dict:
    """First-lead solves/s (5 players) of today's kernel and of the kernel at ``BEFORE``, in
    turns, per CPU second, the best round of each; the counts and cards must be equal."""
    import numpy as np

    runs, outs = {}, {}
    for pkg in ("loo_sim", NAME):
        solver = importlib.import_module(f"{pkg}.kernel.solver")
        ri, pis, pfs = _first_leads(pkg, preset, count)
        space, out = solver.workspace(), np.zeros((count, 3), dtype=np.int64)
        runs[pkg] = lambda s=solver, a=(pis, pfs, ri), w=space, o=out: s.solve_many(*a, *w, o)
        runs[pkg]()  # compile / warm up
        outs[pkg] = out
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for pkg, run in runs.items():
            start = time.process_time()
            run()
            best[pkg] = min(best[pkg], time.process_time() - start)
    assert (outs["loo_sim"][:, :2] == outs[NAME][:, :2]).all(), f"the answers differ from {SHORT}'s"
    nodes = {pkg: float(out[:, 2].mean()) for pkg, out in outs.items()}
    return {"now_solves_per_s": count / best["loo_sim"], "before_solves_per_s": count / best[NAME],
            "now_nodes": nodes["loo_sim"], "before_nodes": nodes[NAME],
            "now_over_before": best[NAME] / best["loo_sim"]}  # fmt: skip


def before_ladder(deals: int, rounds: int = 2, samples: int = 32, players: int = 4) -> dict:
    """The bench's ``pimc:N`` ladder (bench_solver.pimc_ladder_report: five-card, one entrant
    in every position at a basic table) by today's code and by the code at ``BEFORE``, in
    turns, per CPU second; the ladder's sums must be equal."""
    runs, sums = {}, {}
    for pkg in ("loo_sim", NAME):
        rules = importlib.import_module(f"{pkg}.game.rules").Rules.preset("five-card", players=players)
        table = [importlib.import_module(f"{pkg}.game.policy").Policy.parse("basic")] * players
        ladder = importlib.import_module(f"{pkg}.run.ladder")
        entrant = ladder.with_play(table[0], f"pimc:{samples}")
        ladder.run_ladder(rules, table, [entrant], deals=1, seed=5)  # compile / warm up
        runs[pkg] = lambda m=ladder, r=rules, t=table, e=entrant: m.run_ladder(r, t, [e], deals=deals, seed=1)
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for pkg, run in runs.items():
            start = time.process_time()
            sums[pkg] = run().sums
            best[pkg] = min(best[pkg], time.process_time() - start)
    assert (sums["loo_sim"] == sums[NAME]).all(), f"the ladder's sums differ from {SHORT}'s: the decisions changed"
    return {"deals": deals, "now_deals_per_s": deals / best["loo_sim"], "before_deals_per_s": deals / best[NAME],
            "now_over_before": best[NAME] / best["loo_sim"]}  # fmt: skip


def before_report(scale: float = 1.0, ladder_deals: int = 200) -> dict | None:
    """Today's solver against the one at ``BEFORE`` (module docstring), one core; None when
    the history is not there."""
    from numba import set_num_threads

    if before_package() is None:
        return None
    set_num_threads(1)
    five = before_solver_rates("five-card", max(30, int(300 * scale)), 5)
    three = before_solver_rates("three-card", max(400, int(4000 * scale)), 10)
    ladder = before_ladder(ladder_deals)
    print(f"against the solver when #28 was filed (commit {SHORT}, imported beside today's, in turns), one core, "
          "per CPU second, the same answers:")  # fmt: skip
    for name, r in (("five-card", five), ("three-card", three)):
        print(f"  {name} first leads, 5 players: {r['now_solves_per_s']:,.0f} solves/s ({r['now_nodes']:,.0f} nodes) "
              f"against {r['before_solves_per_s']:,.0f} ({r['before_nodes']:,.0f}): {r['now_over_before']:.2f}x")
    print(f"  pimc:32 ladder, five-card / 4 players: {ladder['now_deals_per_s']:,.1f} deals/s against "
          f"{ladder['before_deals_per_s']:,.1f}: {ladder['now_over_before']:.2f}x ({ladder['deals']} deals, "
          "the same sums)")
    return {"commit": SHORT, "five_card": five, "three_card": three, "ladder": ladder}
