"""Benchmarks of start-up and of ``loo-sim solve`` for scripts/bench.py: ``start_times`` (a
fresh process to its first deal, numba cache empty and filled), ``solve_report`` (three-card,
5 players, basic card play: time and deals to 1% of the ante pool, and peak memory) and
``solve_pimc_report`` (the same game with pimc:8 card play at every seat, as the committed
``reports/solve/three-card-5-pimc8`` runs it: docs/commands/solve.md)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

PEAK_MB = "int(next(l for l in open('/proc/self/status') if l.startswith('VmHWM')).split()[1]) / 1024"


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


def solve_pimc_report(iterations: int = 40, deals: int = 100_000, eval_deals: int = 65_536) -> dict:
    """The equilibrium under strong card play (issue #27 item 3): three-card, 5 players, pimc:8
    at every seat, ``iterations`` of ``deals`` from ``basic`` and the table's NashConv on fresh
    deals; the wall time of each and the CPU time of the process (on 2 cores, CPU / 2 is what
    a quiet machine's wall time would be). The committed report's settings by default."""
    from loo_sim import Rules
    from loo_sim.game.policy import Policy
    from loo_sim.solve.declarations import nash_conv, solve

    rules, play = Rules.preset("three-card"), Policy.parse("basic/pimc:8")
    solve(rules, play, 1, 8192, 2)  # compile
    cpu, start = time.process_time(), time.perf_counter()
    res = solve(rules, play, iterations, deals, 1)
    solve_s = time.perf_counter() - start
    e = nash_conv(rules, [res.table_policy()] * rules.players, eval_deals, 1, "equilibrium", tables=res.tables)
    report = {"iterations": iterations, "deals_played": int(res.convergence[-1]["deals"]), "solve_s": solve_s,
              "total_s": time.perf_counter() - start, "cpu_s": time.process_time() - cpu,
              "fresh_nashconv": e.total, "fresh_nashconv_half_95": 1.96 * e.total_se,
              "share_of_ante_pool": e.share, "load_average_1min": os.getloadavg()[0]}  # fmt: skip
    print("solve, three-card / 5 players / pimc:8 card play at every seat (2 threads):")
    print(f"  {iterations} iterations, {report['deals_played']:,} deals in {solve_s / 60:.1f} min; with the "
          f"evaluation on 2 x {eval_deals:,} fresh deals {report['total_s'] / 60:.1f} min "
          f"(CPU {report['cpu_s'] / 60:.1f} min; load average {report['load_average_1min']:.1f})")  # fmt: skip
    print(f"  NashConv {e.total:.3f} ± {1.96 * e.total_se:.3f} chips per deal ({100 * e.share:.2f}% of the ante "
          "pool; the target is 1%)")  # fmt: skip
    return report
