"""The kernel beside the yardstick of ../shared/bench (issue #28 item 5), measured so that a
busy or drifting machine moves both sides alike: for scripts/bench.py (``--yardstick``).

- ``paired_ratios``: rounds of the yardstick then ``simulate`` (three-card, ``basic``, one
  thread), each timed in this process's CPU time; the ratio of each round's two rates,
  so a change of clock speed between rounds cancels. Reports the median and quartiles of
  the rounds' ratios and the best rate of each side over the best of the other.
- ``cost_lines``: nanoseconds a deal of each, 3 to 8 players (the best round of each), and
  a straight line through them: a fixed cost a deal and a cost a seat. A kernel that
  loses at 5 players and not at 8 pays more a deal and less a seat than the yardstick.
- ``stage_lines``: the kernel's deal split into its steps the same way, each step's
  cost a deal and a seat: which steps make the fixed cost.
- ``thread_ratios``: rounds of ``simulate`` on 1 then 2 threads (wall clock: what two
  threads are for), the median and quartiles of 2 threads / 1.

``../shared/bench/ratio.py`` is the team's own measure (best wall-clock rates of a few
runs); this one is for reading a small difference on a noisy machine.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared" / "bench"


def _yardstick():
    """The yardstick module, or None where ../shared/bench is not beside the checkout."""
    if not (SHARED / "yardstick_kernel.py").exists():
        return None
    sys.path.insert(0, str(SHARED))
    import yardstick_kernel  # noqa: PLC0415 (the shared folder is optional)

    return yardstick_kernel


def _runners(players: int, threads: int = 1):
    """(yardstick(deals, seed), kernel(deals, seed)): each plays ``deals`` deals, compiled and warmed."""
    from numba import set_num_threads

    from loo_sim import Rules
    from loo_sim.run.simulate import simulate

    yk = _yardstick()
    rules = Rules.preset("three-card", players=players)
    set_num_threads(threads)

    def kernel(deals: int, seed: int) -> None:
        simulate(rules, "basic", deals, seed=seed, threads=threads)

    def yard(deals: int, seed: int) -> None:
        yk.full_hand_fast(deals, players, seed)

    kernel(8192, 99)
    if yk is not None:
        yard(1000, 99)
    return (yard if yk is not None else None), kernel


def _cpu_ns(run, deals: int, seed: int) -> float:
    start = time.process_time()
    run(deals, seed)
    return (time.process_time() - start) / deals * 1e9


def _spread(values: list[float]) -> dict:
    q1, _, q3 = statistics.quantiles(values, n=4)
    return {"median": statistics.median(values), "q1": q1, "q3": q3}


def _paired_ns(players: int, deals: int, rounds: int) -> tuple[list[float], list[float]] | None:
    """CPU ns a deal of the yardstick and of the kernel in each of ``rounds`` rounds, the
    yardstick first in each; None without the yardstick."""
    yard, kernel = _runners(players)
    if yard is None:
        return None
    ys, ks = [], []
    for r in range(rounds):
        ys.append(_cpu_ns(yard, deals, 3 + r))
        ks.append(_cpu_ns(kernel, deals, 1 + r))
    return ys, ks


def paired_ratios(players: int, deals: int = 1_000_000, rounds: int = 15) -> dict | None:
    """Kernel over yardstick, deals per CPU second, ``rounds`` paired rounds (module docstring)."""
    paired = _paired_ns(players, deals, rounds)
    if paired is None:
        return None
    ys, ks = paired
    ratios = [y / k for y, k in zip(ys, ks, strict=True)]
    return {**_spread(ratios), "best_over_best": min(ys) / min(ks), "yardstick_ns": min(ys), "kernel_ns": min(ks)}


def cost_lines(deals: int = 600_000, rounds: int = 7, seats=range(3, 9)) -> dict | None:
    """ns a deal of each at 3..8 players and the least-squares line (fixed + per seat) of each."""
    import numpy as np

    rows = {}
    for players in seats:
        paired = _paired_ns(players, deals, rounds)
        if paired is None:
            return None
        rows[players] = (min(paired[0]), min(paired[1]))
    p = np.array(list(rows), dtype=float)
    out: dict = {"ns": rows}
    for i, name in enumerate(("yardstick", "kernel")):
        per_seat, fixed = np.polyfit(p, [v[i] for v in rows.values()], 1)
        out[name] = {"fixed_ns": float(fixed), "per_seat_ns": float(per_seat)}
    return out


def stage_lines(deals: int = 400_000, rounds: int = 7, seats=range(3, 9)) -> dict:
    """The kernel's deal split into its steps (kernel/bench.py's staged deal, as
    bench_steps.profile, but in CPU time, the best of ``rounds`` taken in turns) at 3..8
    players, and each step's cost as a line: ns a deal + ns a seat."""
    import numpy as np
    from numba import set_num_threads

    from loo_sim import Rules
    from loo_sim.base.rng import MASK64, NO_SESSION
    from loo_sim.game.policy import parse_table
    from loo_sim.kernel.bench import STAGES, staged_block
    from loo_sim.run.args import kernel_args

    set_num_threads(1)
    cumulative = {}
    for players in seats:
        a = kernel_args(Rules.preset("three-card", players=players), parse_table("basic", players))
        args = (a.ri, a.rf, a.pol, a.polf, a.strength, a.tables, a.solver, np.uint64(1), np.uint64(NO_SESSION & MASK64))
        best = [float("inf")] * len(STAGES)
        for stage in range(len(STAGES)):
            staged_block(*args, 4096, stage)  # compile / warm up
        for _ in range(rounds):
            for stage in range(len(STAGES)):
                start = time.process_time()
                staged_block(*args, deals, stage)
                best[stage] = min(best[stage], (time.process_time() - start) / deals * 1e9)
        cumulative[players] = best
    p = np.array(list(cumulative), dtype=float)
    lines, before = {}, np.zeros(2)
    for i, name in enumerate(STAGES):
        fit = np.polyfit(p, [c[i] for c in cumulative.values()], 1)  # (per seat, fixed), up to this step
        lines[name] = {"fixed_ns": float(fit[1] - before[1]), "per_seat_ns": float(fit[0] - before[0])}
        before = fit
    return lines


def thread_ratios(deals: int = 4_000_000, rounds: int = 7) -> dict:
    """2 threads over 1, simulate (three-card, 5 players), wall clock, paired rounds; and
    the CPU time a deal at 2 threads over that at 1: 1.0 when the threads keep out of each
    other's way, so a ratio short of 2 then means they waited for a core (a busy host)."""
    _, one = _runners(5, 1)
    _, two = _runners(5, 2)
    from numba import set_num_threads

    ratios, cpu = [], []
    for r in range(rounds):
        times = []
        for threads, run in ((1, one), (2, two)):
            set_num_threads(threads)
            wall, start = time.perf_counter(), time.process_time()
            run(deals, 1 + r)
            times.append((time.perf_counter() - wall, time.process_time() - start))
        ratios.append(times[0][0] / times[1][0])
        cpu.append(times[1][1] / times[0][1])
    set_num_threads(1)
    return {**_spread(ratios), "cpu_per_deal_2_over_1": statistics.median(cpu)}


def target_note(ratio: float, target: float) -> str:
    """A measured ratio beside its target (scripts/bench.py's targets)."""
    return f"target >= {target:.2f}: {'met' if ratio >= target else 'NOT met'}"


def yardstick_report(cpu: str, targets: tuple[float, float], quick: bool = False) -> dict:
    """Every figure of this module, printed beside the processor's model ``cpu`` and the
    targets (kernel / yardstick, 2 threads / 1: scripts/bench.py's)."""
    yardstick_target, threads_target = targets
    scale = 0.4 if quick else 1.0
    report: dict = {"cpu": cpu}
    print(f"processor: {report['cpu']}")
    for players in (5, 8):
        r = paired_ratios(players, int(1_000_000 * scale))
        if r is None:
            print("the yardstick (../shared/bench) is not beside this checkout")
            return report
        report[f"kernel_over_yardstick_{players}p"] = r
        print(f"kernel / yardstick, three-card {players} players, one thread, per CPU second, 15 paired rounds: "
              f"median {r['median']:.3f} (quartiles {r['q1']:.3f}-{r['q3']:.3f}; best / best "
              f"{r['best_over_best']:.3f}: {r['kernel_ns']:.0f} against {r['yardstick_ns']:.0f} ns a deal; "
              f"{target_note(r['median'], yardstick_target)})")  # fmt: skip
    lines = cost_lines(int(600_000 * scale))
    report["cost_lines"] = lines
    print("ns a deal, three-card, one thread, best of 7 (players: yardstick / kernel):")
    print("  " + ", ".join(f"{p}: {y:.0f} / {k:.0f}" for p, (y, k) in lines["ns"].items()))
    for name in ("yardstick", "kernel"):
        fit = lines[name]
        print(f"  {name:9s} about {fit['fixed_ns']:.0f} ns a deal + {fit['per_seat_ns']:.1f} ns a seat")
    stages = stage_lines(int(400_000 * scale))
    report["stage_lines"] = stages
    print("the kernel's steps, the same way (kernel/bench.py's staged deal): ns a deal + ns a seat")
    print("  " + ", ".join(f"{k} {v['fixed_ns']:.0f} + {v['per_seat_ns']:.1f}" for k, v in stages.items()))
    threads = thread_ratios(int(4_000_000 * scale))
    report["two_threads_over_one"] = threads
    note = target_note(threads["median"], threads_target)
    print(f"2 threads / 1, simulate three-card 5 players, wall clock, 7 paired rounds: median {threads['median']:.2f} "
          f"(quartiles {threads['q1']:.2f}-{threads['q3']:.2f}; {note}); CPU time a deal at 2 threads / at 1: "
          f"{threads['cpu_per_deal_2_over_1']:.2f}")  # fmt: skip
    return report
