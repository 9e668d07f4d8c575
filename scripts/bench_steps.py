"""One-thread benchmarks of a deal's steps and of the kernels beside simulate, for
scripts/bench.py: ``profile`` (nanoseconds of each step of a deal, kernel/bench.py's staged
deal), ``decision_rate`` (the decision chart of ``loo-sim miss``) and ``pots_rate`` (deals
inside sessions, ``loo-sim pots``)."""

from __future__ import annotations

import time


def profile(preset: str, players: int = 5, deals: int = 2_000_000) -> dict[str, float]:
    """Nanoseconds per deal of each step (one thread, basic): the staged deal of
    kernel/bench.py run up to each step in turn, the differences between stages. Its last
    stage is a whole deal of simulate, compiled as simulate's is."""
    import numpy as np
    from numba import set_num_threads

    from loo_sim import Rules
    from loo_sim.base.rng import MASK64, NO_SESSION
    from loo_sim.game.policy import parse_table
    from loo_sim.kernel.bench import STAGES, staged_block
    from loo_sim.run.args import kernel_args

    set_num_threads(1)
    rules = Rules.preset(preset, players=players)
    a = kernel_args(rules, parse_table("basic", players))
    args = (a.ri, a.rf, a.pol, a.polf, a.strength, a.tables, a.solver, np.uint64(1), np.uint64(NO_SESSION & MASK64))
    cumulative = []
    for stage in range(len(STAGES)):
        staged_block(*args, 4096, stage)  # compile / warm up
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            staged_block(*args, deals, stage)
            best = min(best, time.perf_counter() - start)
        cumulative.append(best / deals * 1e9)
    return {name: t - (cumulative[i - 1] if i else 0.0) for i, (name, t) in enumerate(zip(STAGES, cumulative))}


def decision_rate(preset: str, deals: int = 200_000) -> tuple[float, float]:
    """(decisions replayed per second by the decision chart of ``loo-sim miss``, one thread:
    every (deal, seat, declaration on offer) evaluated, basic table, clean pot; how many
    such decisions a deal has on average)."""
    from numba import set_num_threads

    from loo_sim import Rules
    from loo_sim.game import abi as L
    from loo_sim.game.policy import parse_table
    from loo_sim.run.decisions import decisions

    set_num_threads(1)
    rules = Rules.preset(preset)
    table = parse_table("basic", rules.players)
    decisions(rules, table, 4096, 9)  # compile / warm up
    best = 0.0
    for _ in range(2):
        start = time.perf_counter()
        res = decisions(rules, table, deals, 1)
        count = res.totals[..., L.CF_N : L.CF_N + L.ACTIONS].sum()
        best = max(best, count / (time.perf_counter() - start))
    return best, count / deals


def pots_rate(preset: str, sessions: int = 40_000, deals: int = 50) -> float:
    """Deals per second inside ``run_pots`` (one arm, basic, sessions of ``deals`` deals,
    one thread)."""
    from numba import set_num_threads

    from loo_sim import Rules
    from loo_sim.game import abi as L
    from loo_sim.game.policy import parse_table
    from loo_sim.run.sessions import make_arms, run_pots

    set_num_threads(1)
    arms = make_arms(Rules.preset(preset), lambda n: parse_table("basic", n), [])
    run_pots(arms, 64, deals, 9)  # compile / warm up
    best = 0.0
    for _ in range(2):
        start = time.perf_counter()
        res = run_pots(arms, sessions, deals, 1)
        best = max(best, res.scal[0, L.S_DEALS] / (time.perf_counter() - start))
    return best
