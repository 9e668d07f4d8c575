"""Benchmarks of loo_sim, reported as ratios measured in one run (never asserted in tests).

First, one thread: the cost of one deal split into its steps (``profile``: shuffle, deal
into masks, declarations, tricks with the exchange and flushes, scoring, aggregation),
the kernel beside the yardstick of ../shared/bench (three-card, 5 and 8 players, where
that folder is there; each ratio beside its target, YARDSTICK_TARGET and, for 2 threads over
one, THREADS_TARGET, and the processor's model first: the ratios depend on it), the
decision chart's replays per second (``loo-sim miss``) and the
deals per second inside sessions (``loo-sim pots``) against ``simulate``'s. Then the
start-up of fresh processes (``start_times``: seconds to the first deal of simulate, miss
and pots, with an empty and a filled numba cache). Then, for three-card / 5 players /
basic and five-card / 5 players / basic it prints:
kernel deals/s on 1 and 2 threads (and the 2/1 ratio, beside the load average and the
CPU per deal at each: equal CPU per deal and a ratio short of 2 mean a busy machine), a Dask LocalCluster of two worker
processes beside them (and how long its first task takes), the reference engine's rate and
the kernel/reference ratio, the bare-deal rate (shuffle and deal only) and the
full/bare ratio, and the peak memory of a whole `simulate` process at 10^6 and 10^8
deals (10^7 with --quick). Last, the solve benchmark (``solve_report``: time and deals
until the three-card 5-player solve's NashConv is at 1% of the ante pool, and its peak
memory at two deal counts; ``--solve`` runs only it), and the perfect-information solver
(scripts/bench_solver.py, P7: solves/s on one core of kernel/solver.py beside engine/solver.py
and beside its search before the newer shortcuts, three-card and five-card, from the first
lead; pimc's deals/s in a five-card ladder, before and after; the same against the solver when
issue #28 was filed, scripts/bench_before.py; ``--solver`` runs only it), and the
``rule:`` family (scripts/bench_rule.py: simulate with the rule form of basic over basic,
the parse time of a rule, the first compile of a run with a rule; ``--rule`` runs only it).
The start-up of the command line without the kernel (``--help``, ``rules``, usage errors:
CPU seconds and ``-X importtime``, ``bench_startup.py``) comes first; ``--startup`` runs
only it. Last, ``loo-sim advise``'s time to answer a question (bench_advise.py; ``--advise``
runs only it). Run:
bash scripts/dev.sh bench [--quick] [--solve] [--solver] [--rule] [--startup] [--advise] [--yardstick]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

from bench_advise import advise_report  # scripts/bench_advise.py, beside this file
from bench_rule import rule_report  # scripts/bench_rule.py, beside this file
from bench_solve import PEAK_MB, solve_pimc_report, solve_report, start_times  # scripts/bench_solve.py
from bench_solver import (  # scripts/bench_solver.py, beside this file
    pimc_ladder_report,
    pimc_report,
    pimc_solves_by_trick,
    solver_report,
    warm_in_child,
)
from bench_steps import decision_rate, pots_rate, profile  # scripts/bench_steps.py
from bench_yardstick import paired_ratios, target_note, yardstick_report  # scripts/bench_yardstick.py

CONFIGS = [("three-card", "basic"), ("five-card", "basic")]
# issue #28 item 5, on any processor: the kernel at or past the yardstick (three-card, 5 and 8
# players, one thread) and 2 threads at 1.9x one or better; printed beside the ratios, never asserted
YARDSTICK_TARGET = 1.0
THREADS_TARGET = 1.9


def cpu_model() -> str:
    """The processor's model name (lscpu's "Model name") with its family and model numbers,
    which tell one generation from another where the name does not ("AMD EPYC" under KVM
    is family 25 for Zen 3 and 4, 26 for Zen 5): the ratios depend on it."""
    try:
        with open("/proc/cpuinfo") as f:
            fields = dict(line.split(":", 1) for line in f.read().split("\n\n")[0].splitlines() if ":" in line)
        fields = {k.strip(): v.strip() for k, v in fields.items()}
        return f"{fields['model name']} (family {fields['cpu family']}, model {fields['model']})"
    except (OSError, KeyError, ValueError):
        import platform

        return platform.processor() or platform.machine()


def kernel_rate(preset: str, policy: str, deals: int, threads: int, players: int = 5) -> float:
    return kernel_rate_cpu(preset, policy, deals, threads, players)[0]


def kernel_rate_cpu(preset: str, policy: str, deals: int, threads: int, players: int = 5) -> tuple[float, float]:
    """(simulate's deals/s, this process's CPU nanoseconds per deal). The threads of a run
    share no data, so the CPU per deal at 2 threads should be that at 1: where 2 threads /
    1 falls short with equal CPU per deal, the threads waited for a core (a loaded machine),
    not for each other."""
    import resource

    from loo_sim import Rules
    from loo_sim.run.simulate import simulate

    def cpu_s() -> float:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime

    rules = Rules.preset(preset, players=players)
    simulate(rules, policy, 4096, seed=99, threads=threads)  # compile / warm up
    start = cpu_s()
    res = simulate(rules, policy, deals, seed=1, threads=threads)
    return res.deals_done / res.elapsed_s, (cpu_s() - start) / res.deals_done * 1e9


def bare_rate(preset: str, deals: int, threads: int = 1) -> float:
    """Deals/s of the bare deal (shuffle and deal only, the same streams and dealers as
    simulate's): the floor under a full deal's cost."""
    import numpy as np
    from numba import set_num_threads

    from loo_sim import Rules
    from loo_sim.base.rng import MASK64, NO_SESSION
    from loo_sim.kernel.bench import bare_blocks
    from loo_sim.kernel.scratch import BLOCK
    from loo_sim.run.args import rules_arrays

    ri, _ = rules_arrays(Rules.preset(preset))
    set_num_threads(threads)
    session = np.uint64(NO_SESSION & MASK64)

    def run(seed: int, total: int) -> None:
        n_blocks = (total + BLOCK - 1) // BLOCK
        bare_blocks(ri, np.uint64(seed), session, n_blocks, total, np.zeros((n_blocks, 2), dtype=np.float64))

    run(99, 4096)  # compile / warm up
    start = time.perf_counter()
    run(1, deals)
    return deals / (time.perf_counter() - start)


def dask_rate(preset: str, policy: str, deals: int, workers: int = 2) -> tuple[float, float]:
    """(deals/s of a warm LocalCluster of ``workers`` processes, seconds its first task took)."""
    from loo_sim import Rules
    from loo_sim.cli.backend import open_backend  # the LocalCluster the CLI's --backend dask builds
    from loo_sim.run.simulate import simulate

    rules = Rules.preset(preset)
    with open_backend("dask", workers=workers) as backend:
        first = simulate(rules, policy, 4096, seed=99, backend=backend, blocks_per_call=1)  # workers load the kernel
        res = simulate(rules, policy, deals, seed=1, backend=backend)
        return res.deals_done / res.elapsed_s, first.elapsed_s


def reference_rate(preset: str, policy: str, seconds: float = 3.0) -> float:
    from loo_sim import Rules
    from loo_sim.base.rng import shuffled_deck
    from loo_sim.engine.deal import play_deal_reference
    from loo_sim.game.policy import parse_table

    rules = Rules.preset(preset)
    table = parse_table(policy, rules.players)
    decks = [shuffled_deck(1, k) for k in range(20000)]
    start = time.perf_counter()
    k = 0
    while time.perf_counter() - start < seconds:
        play_deal_reference(rules, decks[k % len(decks)], k % rules.players, 0.0, table)
        k += 1
    return k / (time.perf_counter() - start)


def play_deals_rate(preset: str, policy: str, deals: int = 100_000, threads: int = 1) -> tuple[float, float]:
    """(deals/s of one ``play_deals`` batch of ``deals`` decks from ``shuffled_decks``,
    the same with ``as_frame=True``) on ``threads`` numba threads; best of three, decks made
    beforehand (what an analyst's batch costs beyond the shuffle)."""
    import numpy as np
    from numba import set_num_threads

    from loo_sim import Rules, play_deals, shuffled_decks

    rules = Rules.preset(preset)
    decks = shuffled_decks(1, deals)
    dealers = np.arange(deals) % rules.players
    set_num_threads(threads)
    play_deals(rules, decks[:4096], dealers[:4096], policy=policy, as_frame=True)  # compile / warm up

    def best(**kw) -> float:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            play_deals(rules, decks, dealers, policy=policy, **kw)
            times.append(time.perf_counter() - start)
        return deals / min(times)

    return best(), best(as_frame=True)


# A child's own peak RSS: VmHWM of /proc/self/status (its address space's high-water mark).
# Not getrusage's ru_maxrss: Linux carries the parent's peak across fork and exec into it, so
# a child of this (large) bench process read the bench's own size there.


def peak_memory_mb(preset: str, deals: int) -> tuple[float, float]:
    """Peak RSS (MB) and wall time of a separate `simulate` process for ``deals`` deals."""
    code = (
        "import time\n"
        "from loo_sim import Rules\n"
        "from loo_sim.run.simulate import simulate\n"
        f"t = time.perf_counter(); simulate(Rules.preset({preset!r}), 'basic', {deals}, seed=1)\n"
        f"print({PEAK_MB}, time.perf_counter() - t)\n"
    )
    warm = code.replace(str(deals), "1000")  # first a small run, so that the measured one compiles nothing
    subprocess.run([sys.executable, "-c", warm], capture_output=True, text=True, check=True)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), float(out[1])


def one_thread_report(deals: int) -> dict:
    """The single-thread figures: the profile, the yardstick, decisions and sessions."""
    report: dict = {"cpu": cpu_model()}
    print(f"processor: {report['cpu']}")
    for preset, players in (("three-card", 5), ("three-card", 8), ("five-card", 5)):
        steps = profile(preset, players)
        total = sum(steps.values())
        report[f"profile_{preset}_{players}p_ns"] = steps
        print(f"one deal of {preset} / {players} players / basic, one thread: {total:.0f} ns "
              f"({1e3 / total:.2f} M deals/s)")  # fmt: skip
        for name, ns in steps.items():
            print(f"  {name:17s} {ns:6.1f} ns  {100 * ns / total:4.0f}%")
    for p in (5, 8):  # paired rounds in CPU time (scripts/bench_yardstick.py; --yardstick for the rest)
        r = paired_ratios(p)
        if r is None:
            break
        report[f"kernel_over_yardstick_{p}p"] = r
        print(f"kernel / yardstick, three-card {p} players, one thread: median {r['median']:.2f} of 15 paired "
              f"rounds (quartiles {r['q1']:.2f}-{r['q3']:.2f}; {r['kernel_ns']:.0f} / {r['yardstick_ns']:.0f} ns "
              f"a deal at best; {target_note(r['median'], YARDSTICK_TARGET)})")  # fmt: skip
    for preset in ("three-card", "five-card"):
        rate, per_deal = decision_rate(preset)
        sim = kernel_rate(preset, "basic", deals, 1)
        pots = pots_rate(preset)
        report[preset + "_decisions_per_s"] = rate
        report[preset + "_pots_over_simulate"] = pots / sim
        print(f"{preset}: decision chart {rate / 1e6:.2f} M decisions replayed/s ({per_deal:.1f} per deal); "
              f"sessions {pots / 1e6:.2f} M deals/s = {pots / sim:.2f}x simulate's {sim / 1e6:.2f}")  # fmt: skip
    return report


def preset_report(preset: str, policy: str, deals: int, big: int) -> dict:
    """The kernel at 1 and 2 threads, Dask, the reference engine, play_deals, the bare deal and
    peak memory for one preset (the module's docstring), printed and returned."""
    load = os.getloadavg()[0]
    one, cpu_one = kernel_rate_cpu(preset, policy, deals, 1)
    two, cpu_two = kernel_rate_cpu(preset, policy, deals, 2)
    bare = bare_rate(preset, deals * 4)
    ref = reference_rate(preset, policy)
    batch, batch_frame = play_deals_rate(preset, policy)
    dask, dask_first = dask_rate(preset, policy, deals)
    mem_small, _ = peak_memory_mb(preset, 10**6)
    mem_big, big_s = peak_memory_mb(preset, big)
    r = {
        "kernel_1_thread_deals_per_s": one,
        "kernel_2_threads_deals_per_s": two,
        "threads_2_over_1": two / one,
        "cpu_ns_per_deal_1_thread": cpu_one,
        "cpu_ns_per_deal_2_threads": cpu_two,
        "load_average_1min": load,
        "reference_deals_per_s": ref,
        "dask_local_cluster_2_workers_deals_per_s": dask,
        "dask_first_task_s": dask_first,
        "kernel_over_reference": one / ref,
        "play_deals_1e5_deals_per_s": batch,
        "play_deals_1e5_over_simulate": batch / one,
        "play_deals_1e5_as_frame_deals_per_s": batch_frame,
        "play_deals_1e5_as_frame_over_simulate": batch_frame / one,
        "bare_deal_per_s": bare,
        "full_over_bare_cost": bare / one,
        "peak_mb_1e6": mem_small,
        f"peak_mb_{big:.0e}": mem_big,
        "peak_ratio_big_over_1e6": mem_big / mem_small,
        f"seconds_{big:.0e}": big_s,
    }
    print(f"{preset} / 5 players / {policy}")
    print(f"  kernel, 1 thread     {one / 1e6:8.2f} M deals/s")
    print(f"  kernel, 2 threads    {two / 1e6:8.2f} M deals/s   (2 threads / 1 = {two / one:.2f}x; "
          f"{target_note(two / one, THREADS_TARGET)}; {cpu_model()}; load average {load:.1f} on "
          f"{os.cpu_count()} cores; CPU per deal {cpu_one:.0f} ns at 1 thread, {cpu_two:.0f} ns at 2)")  # fmt: skip
    print(f"  reference engine     {ref / 1e3:8.2f} k deals/s   (kernel / reference = {one / ref:,.0f}x)")
    print(f"  play_deals batch of 1e5 / simulate rate (1 thread): {batch / one:.2f} ({batch / 1e6:.2f} M deals/s); "
          f"as_frame=True {batch_frame / one:.2f} ({batch_frame / 1e6:.2f} M deals/s)")  # fmt: skip
    print(f"  Dask LocalCluster, 2 worker processes {dask / 1e6:6.2f} M deals/s   ({dask / two:.2f}x local "
          f"2 threads; its first task took {dask_first:.1f} s)")  # fmt: skip
    print(f"  bare deal (shuffle+deal) {bare / 1e6:6.2f} M deals/s   (full deal costs {bare / one:.2f}x a bare one)")
    print(f"  peak memory: {mem_small:.0f} MB at 1e6 deals, {mem_big:.0f} MB at {big:.0e} "
          f"({r['peak_ratio_big_over_1e6']:.3f}x; {big_s:.0f} s)")  # fmt: skip
    return r


def full_report(args: argparse.Namespace) -> dict:
    """Every benchmark but the pimc solve (``--solve-pimc``, 30-60 minutes), in the module's order."""
    from bench_startup import startup_report

    big = 10**7 if args.quick else 10**8
    startup = startup_report()
    report = one_thread_report(args.deals)
    report["startup"] = startup
    starts = start_times()
    report["start_times"] = starts
    print("start-up, process start to first deal played (numba cache empty / filled):")
    for kind, t in starts.items():
        print(f"  {kind:9s} cold {t['cold_s']:5.1f} s   warm {t['warm_s']:5.2f} s   "
              f"(cold with numba as it is {t['cold_numba_as_is_s']:5.1f} s)")  # fmt: skip
    for preset, policy in CONFIGS:
        report[preset] = preset_report(preset, policy, args.deals, big)
    report["solve"] = solve_report()
    report.update(solver_reports(args.quick))
    report["rule"] = rule_report(args.deals // 2)
    report["advise"] = advise_report()
    return report


def solver_reports(quick: bool) -> dict:
    """The solver's and pimc's benchmarks (scripts/bench_solver.py, bench_infer.py; ``--solver``),
    their kernels compiled in a child process first, so that this one loads them from the
    cache as a user's run does (``bench_solver.warm_in_child``)."""
    from bench_before import before_report  # scripts/ is this script's folder, first on sys.path
    from bench_infer import infer_report

    scale = 0.25 if quick else 1.0
    warm_in_child()
    return {"solver": solver_report(scale), "pimc": pimc_report(),
            "pimc_ladder": pimc_ladder_report(50 if quick else 200),
            "pimc_by_trick": pimc_solves_by_trick(deals=100 if quick else 400),
            "before_28": before_report(scale, 50 if quick else 200),
            "infer": infer_report(scale=scale)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller runs (10^7 instead of 10^8 for memory)")
    parser.add_argument("--deals", type=int, default=4_000_000, help="deals per timing run")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--solve", action="store_true", help="only the solve benchmark (three-card, 5 players)")
    parser.add_argument("--solve-pimc", action="store_true",
                        help="only the solve with pimc:8 card play at every seat (three-card, 5 players; 30-60 "
                             "minutes on 2 cores)")  # fmt: skip
    parser.add_argument("--solver", action="store_true",
                        help="only the perfect-information solver (P7) and pimc (P8, with and without "
                             "infer) benchmarks")  # fmt: skip
    parser.add_argument("--rule", action="store_true", help="only the rule: family's benchmark (bench_rule.py)")
    parser.add_argument("--startup", action="store_true", help="only the command line's start-up without the kernel")
    parser.add_argument("--advise", action="store_true", help="only loo-sim advise's time to answer (bench_advise.py)")
    parser.add_argument("--yardstick", action="store_true",
                        help="only the kernel beside ../shared/bench's yardstick: paired rounds, the cost a deal and "
                             "a seat, 2 threads / 1 (bench_yardstick.py)")  # fmt: skip
    args = parser.parse_args()
    from bench_startup import startup_report

    only = {
        "startup": lambda: {"startup": startup_report()},
        "advise": lambda: {"advise": advise_report()},
        "rule": lambda: {"rule": rule_report(args.deals // 2)},
        "solver": lambda: solver_reports(args.quick),
        "solve": lambda: {"solve": solve_report()},
        "solve_pimc": lambda: {"solve_pimc": solve_pimc_report()},
        "yardstick": lambda: {"yardstick": yardstick_report(cpu_model(), (YARDSTICK_TARGET, THREADS_TARGET),
                                                            args.quick)},  # fmt: skip
    }
    chosen = next((name for name in only if getattr(args, name)), None)
    report = only[chosen]() if chosen else full_report(args)
    if args.json:
        print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
