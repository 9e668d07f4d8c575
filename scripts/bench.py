"""Benchmarks of loo_sim, reported as ratios measured in one run (never asserted in tests).

For three-card / 5 players / basic and five-card / 5 players / basic it prints:
kernel deals/s on 1 and 2 threads (and the 2/1 ratio), a Dask LocalCluster of two worker
processes beside them (and how long its first task takes), the reference engine's rate and
the kernel/reference ratio, the bare-deal rate (shuffle and deal only) and the
full/bare ratio, and the peak memory of a whole `simulate` process at 10^6 and 10^8
deals (10^7 with --quick). First, the start-up of fresh processes (``start_times``:
seconds to the first deal of simulate, miss and pots, with an empty and a filled numba
cache). Run: bash scripts/dev.sh bench [--quick]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

CONFIGS = [("three-card", "basic"), ("five-card", "basic")]


def kernel_rate(preset: str, policy: str, deals: int, threads: int) -> float:
    from loo_sim import Rules
    from loo_sim.run.simulate import simulate

    rules = Rules.preset(preset)
    simulate(rules, policy, 4096, seed=99, threads=threads)  # compile / warm up
    res = simulate(rules, policy, deals, seed=1, threads=threads)
    return res.deals_done / res.elapsed_s


def bare_rate(preset: str, deals: int, threads: int = 1) -> float:
    """Deals/s of the bare deal (shuffle and deal only, the same streams and dealers as
    simulate's): the floor under a full deal's cost."""
    import numpy as np
    from numba import set_num_threads

    from loo_sim import Rules
    from loo_sim.kernel.bench import bare_blocks
    from loo_sim.kernel.scratch import BLOCK
    from loo_sim.rng import MASK64, NO_SESSION
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
    from loo_sim.engine.deal import play_deal_reference
    from loo_sim.game.policy import parse_table
    from loo_sim.rng import shuffled_deck

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


def peak_memory_mb(preset: str, deals: int) -> tuple[float, float]:
    """Peak RSS (MB) and wall time of a separate `simulate` process for ``deals`` deals."""
    code = (
        "import resource, time\n"
        "from loo_sim import Rules\n"
        "from loo_sim.run.simulate import simulate\n"
        f"t = time.perf_counter(); simulate(Rules.preset({preset!r}), 'basic', {deals}, seed=1)\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, time.perf_counter() - t)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), float(out[1])


def start_times(kinds: tuple[str, ...] = ("simulate", "miss", "pots")) -> dict[str, dict[str, float]]:
    """Start-up of a fresh process: seconds from its start to its first deal played
    (three-card, 5 players, basic), ``cold`` with an empty numba cache (a new temporary
    ``XDG_CACHE_HOME`` for each kind, so no kind reuses another's compiled code), then
    ``warm``, a second process on the cache the first one filled. The child imports
    loo_sim, plays one deal with each kernel driver its command uses (miss: the chart's
    and the heuristics') and prints ``time.perf_counter()``: the system-wide monotonic
    clock, which the parent read just before starting it."""
    import os
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
        with tempfile.TemporaryDirectory(prefix="loo-start-") as cache:
            for state in ("cold", "warm"):
                start = time.perf_counter()
                out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                     env={**env, "XDG_CACHE_HOME": cache}).stdout  # fmt: skip
                times[kind][f"{state}_s"] = float(out.split()[-1]) - start
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller runs (10^7 instead of 10^8 for memory)")
    parser.add_argument("--deals", type=int, default=4_000_000, help="deals per timing run")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    big = 10**7 if args.quick else 10**8
    report = {}
    starts = start_times()
    report["start_times"] = starts
    print("start-up, process start to first deal played (numba cache empty / filled):")
    for kind, t in starts.items():
        print(f"  {kind:9s} cold {t['cold_s']:5.1f} s   warm {t['warm_s']:5.2f} s")
    for preset, policy in CONFIGS:
        one = kernel_rate(preset, policy, args.deals, 1)
        two = kernel_rate(preset, policy, args.deals, 2)
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
        print(f"  kernel, 2 threads    {two / 1e6:8.2f} M deals/s   (2 threads / 1 = {two / one:.2f}x)")
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
    if args.json:
        print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
