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
lead; pimc's deals/s in a five-card ladder, before and after; ``--solver`` runs only it), and the
``rule:`` family (scripts/bench_rule.py: simulate with the rule form of basic over basic,
the parse time of a rule, the first compile of a run with a rule; ``--rule`` runs only it).
The start-up of the command line without the kernel (``--help``, ``rules``, usage errors:
CPU seconds and ``-X importtime``, ``bench_startup.py``) comes first; ``--startup`` runs
only it. Last, ``loo-sim advise``'s time to answer a question (bench_advise.py; ``--advise``
runs only it). Run:
bash scripts/dev.sh bench [--quick] [--solve] [--solver] [--rule] [--startup] [--advise]
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
from bench_solver import pimc_ladder_report, pimc_report, solver_report  # scripts/bench_solver.py, beside this file

CONFIGS = [("three-card", "basic"), ("five-card", "basic")]
# issue #28 item 5, on any processor: the kernel at or past the yardstick (three-card, 5 and 8
# players, one thread) and 2 threads at 1.9x one or better; printed beside the ratios, never asserted
YARDSTICK_TARGET = 1.0
THREADS_TARGET = 1.9


def cpu_model() -> str:
    """The processor's model name (lscpu's "Model name"): the ratios depend on it."""
    try:
        with open("/proc/cpuinfo") as f:
            return next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        import platform

        return platform.processor() or platform.machine()


def target_note(ratio: float, target: float) -> str:
    return f"target >= {target:.2f}: {'met' if ratio >= target else 'NOT met'}"


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
PEAK_MB = "int(next(l for l in open('/proc/self/status') if l.startswith('VmHWM')).split()[1]) / 1024"


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


def yardstick_ratios(deals: int = 4_000_000) -> dict[str, float] | None:
    """The kernel (simulate, basic, one thread) over the yardstick of ../shared/bench
    (a small tuned kernel for a simplified three-card game) at 5 and 8 players, timed
    interleaved in this process; None where that folder is not beside the checkout."""
    from pathlib import Path

    here = Path(__file__).resolve().parents[2] / "shared" / "bench"
    if not (here / "yardstick_kernel.py").exists():
        return None
    sys.path.insert(0, str(here))
    import yardstick_kernel as yk  # noqa: PLC0415 (the shared folder is optional)
    from numba import set_num_threads

    set_num_threads(1)
    out = {}
    for players in (5, 8):
        yk.full_hand_fast(1000, players, 1)
        yard, ours = 0.0, 0.0
        for _ in range(3):  # interleaved, the best of each
            start = time.perf_counter()
            yk.full_hand_fast(deals, players, 3)
            yard = max(yard, deals / (time.perf_counter() - start))
            ours = max(ours, kernel_rate("three-card", "basic", deals, 1, players))
        out[f"kernel_over_yardstick_{players}p"] = ours / yard
        out[f"yardstick_{players}p_deals_per_s"] = yard
        out[f"kernel_{players}p_deals_per_s"] = ours
    return out


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
    ratios = yardstick_ratios(deals)
    if ratios:
        report["yardstick"] = ratios
        for p in (5, 8):
            ratio = ratios[f"kernel_over_yardstick_{p}p"]
            print(f"kernel / yardstick, three-card {p} players, one thread: {ratio:.2f} "
                  f"({ratios[f'kernel_{p}p_deals_per_s'] / 1e6:.2f} / "
                  f"{ratios[f'yardstick_{p}p_deals_per_s'] / 1e6:.2f} M deals/s; "
                  f"{target_note(ratio, YARDSTICK_TARGET)})")  # fmt: skip
    for preset in ("three-card", "five-card"):
        rate, per_deal = decision_rate(preset)
        sim = kernel_rate(preset, "basic", deals, 1)
        pots = pots_rate(preset)
        report[preset + "_decisions_per_s"] = rate
        report[preset + "_pots_over_simulate"] = pots / sim
        print(f"{preset}: decision chart {rate / 1e6:.2f} M decisions replayed/s ({per_deal:.1f} per deal); "
              f"sessions {pots / 1e6:.2f} M deals/s = {pots / sim:.2f}x simulate's {sim / 1e6:.2f}")  # fmt: skip
    return report


def start_times(kinds: tuple[str, ...] = ("simulate", "miss", "pots")) -> dict[str, dict[str, float]]:
    """Start-up of a fresh process: seconds from its start to its first deal played
    (three-card, 5 players, basic), ``cold`` with an empty numba cache (a new temporary
    ``XDG_CACHE_HOME`` for each kind, so no kind reuses another's compiled code), then
    ``warm``, a second process on the cache the first one filled; and
    ``cold_numba_as_is``, cold with numba and LLVM as they are (``$LOO_SIM_NUMBA_AS_IS``:
    without kernel/compile_fixes.py and kernel/codegen.py), in a cache of its own. The child imports
    loo_sim, plays one deal with each kernel driver its command uses (miss: the chart's
    and the heuristics') and prints ``time.perf_counter()``: the system-wide monotonic
    clock, which the parent read just before starting it."""
    import tempfile

    runs = {  # the tiny run of each kind
        "simulate": "from loo_sim.run.simulate import simulate\nsimulate(rules, 'basic', 1, seed=1)\n",
        "miss": (
            "from loo_sim.game.policy import Policy\n"
            "from loo_sim.run.decisions import decisions, heuristics\n"
            "decisions(rules, table, 1, 1)\n"
            "heuristics(rules, table, 0, [Policy.parse('basic'), Policy.parse('cautious')], ['b', 'c'], 1, 1)\n"
        ),
        "pots": (
            "from loo_sim.run.sessions import make_arms, run_pots\n"
            "run_pots(make_arms(rules, lambda n: parse_table('basic', n), []), 1, 1, 1)\n"
        ),
    }
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "LOO_SIM_CACHE")}
    times: dict[str, dict[str, float]] = {}
    for kind in kinds:
        code = (
            "import time\n"
            "from loo_sim import Rules\n"
            "from loo_sim.game.policy import parse_table\n"
            "rules = Rules.preset('three-card')\n"
            "table = parse_table('basic', rules.players)\n"
            f"{runs[kind]}"
            "print(time.perf_counter())\n"
        )
        times[kind] = {}
        # cold_numba_as_is_s: the same cold start without compile_fixes.py's two fixes and codegen.py's option
        for state, as_is in (("cold_numba_as_is", "inline,literals,cmov"), ("cold", ""), ("warm", "")):
            if state != "warm":
                cache = tempfile.TemporaryDirectory(prefix="loo-start-")
            child_env = {**env, "XDG_CACHE_HOME": cache.name, "LOO_SIM_NUMBA_AS_IS": as_is}
            start = time.perf_counter()
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                 env=child_env).stdout  # fmt: skip
            times[kind][f"{state}_s"] = float(out.split()[-1]) - start
            if state == "warm":
                cache.cleanup()
    return times


def solve_benchmark(deals: int = 200_000, max_iterations: int = 300, eval_deals: int = 1_000_000) -> dict:
    """``loo-sim solve``'s target: three-card, 5 players, basic card play; fictitious play until
    an iteration's own NashConv estimate has its 95% upper bound at 1% of the ante pool
    (0.15 chips per deal) or below, then the final table's NashConv on fresh deals. Time
    and deals to get there (the kernel compiled first, by a small solve)."""
    from loo_sim import Rules
    from loo_sim.game.policy import Policy
    from loo_sim.solve.declarations import nash_conv, solve

    rules, play = Rules.preset("three-card"), Policy.parse("basic")
    target = 0.01 * rules.ante * rules.players
    solve(rules, play, 1, 8192, 2)  # compile
    start = time.perf_counter()
    res = solve(rules, play, max_iterations, deals, 1, stop=lambda row: row["nashconv_hi"] <= target)
    solve_s = time.perf_counter() - start
    e = nash_conv(rules, [res.table_policy()] * rules.players, eval_deals, 1, "equilibrium", tables=res.tables)
    row = res.convergence[-1]
    return {"target_chips_per_deal": target, "iterations": row["iteration"], "deals_played": row["deals"],
            "solve_s": solve_s, "iteration_estimate": row["nashconv"], "iteration_hi": row["nashconv_hi"],
            "fresh_nashconv": e.total, "fresh_nashconv_half_95": 1.96 * e.total_se,
            "fresh_deals": 2 * eval_deals, "total_s": time.perf_counter() - start}  # fmt: skip


def solve_peak_memory_mb(deals: int, iterations: int = 2) -> float:
    """Peak RSS (MB) of a separate process solving three-card at ``deals`` deals an iteration."""
    code = (
        "from loo_sim import Rules\n"
        "from loo_sim.game.policy import Policy\n"
        "from loo_sim.solve.declarations import solve\n"
        f"solve(Rules.preset('three-card'), Policy.parse('basic'), {iterations}, {deals}, 1)\n"
        f"print({PEAK_MB})\n"
    )
    warm = code.replace(str(deals), "8192")  # compile first, so that the measured run compiles nothing
    subprocess.run([sys.executable, "-c", warm], capture_output=True, text=True, check=True)
    return float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)


def solve_report() -> dict:
    bench = solve_benchmark()
    small, big = solve_peak_memory_mb(100_000), solve_peak_memory_mb(2_000_000)
    bench |= {"peak_mb_1e5_deals_per_iteration": small, "peak_mb_2e6_deals_per_iteration": big,
              "peak_ratio": big / small}  # fmt: skip
    print("solve, three-card / 5 players / basic card play (2 threads):")
    print(
        f"  NashConv upper bound <= {bench['target_chips_per_deal']:.2f} chips/deal after {bench['iterations']} "
        f"iterations, {bench['deals_played']:,} deals, {bench['solve_s']:.0f} s"
    )
    print(
        f"  final table on {bench['fresh_deals']:,} fresh deals: NashConv {bench['fresh_nashconv']:.4f} "
        f"± {bench['fresh_nashconv_half_95']:.4f}; {bench['total_s']:.0f} s with the evaluation"
    )
    print(f"  peak memory {small:.0f} MB at 1e5 deals an iteration, {big:.0f} MB at 2e6 ({big / small:.3f}x)")
    return bench


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller runs (10^7 instead of 10^8 for memory)")
    parser.add_argument("--deals", type=int, default=4_000_000, help="deals per timing run")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--solve", action="store_true", help="only the solve benchmark (three-card, 5 players)")
    parser.add_argument("--solver", action="store_true",
                        help="only the perfect-information solver (P7) and pimc (P8, with and without "
                             "infer) benchmarks")  # fmt: skip
    parser.add_argument("--rule", action="store_true", help="only the rule: family's benchmark (bench_rule.py)")
    parser.add_argument("--startup", action="store_true", help="only the command line's start-up without the kernel")
    parser.add_argument("--advise", action="store_true", help="only loo-sim advise's time to answer (bench_advise.py)")
    args = parser.parse_args()
    from bench_infer import infer_report  # scripts/ is this script's folder, first on sys.path
    from bench_startup import startup_report

    if args.startup:
        report = {"startup": startup_report()}
        if args.json:
            print(json.dumps(report, indent=2))
        return
    if args.advise:
        report = {"advise": advise_report()}
        if args.json:
            print(json.dumps(report, indent=2))
        return
    if args.rule:
        report = {"rule": rule_report(args.deals // 2)}
        if args.json:
            print(json.dumps(report, indent=2))
        return
    if args.solver:
        report = {"solver": solver_report(0.25 if args.quick else 1.0), "pimc": pimc_report(),
                  "pimc_ladder": pimc_ladder_report(50 if args.quick else 200),
                  "infer": infer_report(scale=0.25 if args.quick else 1.0)}  # fmt: skip
        if args.json:
            print(json.dumps(report, indent=2))
        return
    if args.solve:
        report = {"solve": solve_report()}
        if args.json:
            print(json.dumps(report, indent=2))
        return
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
        load = os.getloadavg()[0]
        one, cpu_one = kernel_rate_cpu(preset, policy, args.deals, 1)
        two, cpu_two = kernel_rate_cpu(preset, policy, args.deals, 2)
        bare = bare_rate(preset, args.deals * 4)
        ref = reference_rate(preset, policy)
        batch, batch_frame = play_deals_rate(preset, policy)
        dask, dask_first = dask_rate(preset, policy, args.deals)
        mem_small, _ = peak_memory_mb(preset, 10**6)
        mem_big, big_s = peak_memory_mb(preset, big)
        report[preset] = {
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
        r = report[preset]
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
        print(
            f"  bare deal (shuffle+deal) {bare / 1e6:6.2f} M deals/s   (full deal costs {bare / one:.2f}x a bare one)"
        )
        print(f"  peak memory: {mem_small:.0f} MB at 1e6 deals, {mem_big:.0f} MB at {big:.0e} "
              f"({r['peak_ratio_big_over_1e6']:.3f}x; {big_s:.0f} s)")  # fmt: skip
    report["solve"] = solve_report()
    report["solver"] = solver_report(0.25 if args.quick else 1.0)
    report["pimc"] = pimc_report()
    report["pimc_ladder"] = pimc_ladder_report(50 if args.quick else 200)
    report["infer"] = infer_report()
    report["rule"] = rule_report(args.deals // 2)
    report["advise"] = advise_report()
    if args.json:
        print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
