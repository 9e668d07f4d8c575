"""The ``rule:`` family's benchmark (docs/policies.md P3b, docs/design.md), as ratios measured in
one run: ``simulate`` with the rule form of ``basic`` against ``--policy basic`` (the same deals,
deal for deal; one thread, interleaved, the best of each), the same for ``cautious``; how long
parsing a rule and building its kernel table take; the first compile of a run with a rule in
a fresh process with an empty numba cache, beside one with ``basic``; and a rule never seen
before in a warm process (no compile: a rule is data). Run alone or from scripts/bench.py::

    .venv/bin/python scripts/bench_rule.py [--deals N] [--json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

BASIC = "rule:play if trumps >= 1 or aces >= 1; defend; miss; pass; play"
CAUTIOUS = "rule:play if trumps >= 2 or highest_trump >= Q or (not trumps_known and aces >= 1); defend; pass; play"


def simulate_rates(preset: str, policies: list[str], deals: int, rounds: int = 5) -> dict[str, float]:
    """Deals/s of ``simulate`` on one thread for each policy, interleaved, the best of ``rounds``
    (CPU time of the process: the machine is shared)."""
    from loo_sim import Rules
    from loo_sim.run.simulate import simulate

    rules = Rules.preset(preset)
    for policy in policies:
        simulate(rules, policy, 4096, seed=99, threads=1)  # compile / warm up
    best = dict.fromkeys(policies, 0.0)
    for _ in range(rounds):
        for policy in policies:
            start = time.process_time()
            res = simulate(rules, policy, deals, seed=1, threads=1)
            best[policy] = max(best[policy], res.deals_done / (time.process_time() - start))
    return best


def parse_seconds(text: str = CAUTIOUS[len("rule:") :], repeat: int = 2000) -> tuple[float, float]:
    """(seconds to parse a rule, seconds to build its kernel table), each the mean of ``repeat``."""
    from loo_sim.game.rule import parse_rule
    from loo_sim.game.rule_code import rule_program

    start = time.perf_counter()
    for _ in range(repeat):
        rule = parse_rule(text)
    parsed = (time.perf_counter() - start) / repeat
    start = time.perf_counter()
    for _ in range(repeat):
        rule_program(rule)
    return parsed, (time.perf_counter() - start) / repeat


def first_deal_seconds(policy: str, cache: str | None) -> float:
    """Seconds from a fresh process's start to its first simulated deal with ``policy``
    (three-card, 5 players); ``cache``: an XDG cache folder (None: a new empty one)."""
    import os
    import tempfile

    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "LOO_SIM_CACHE")}
    with tempfile.TemporaryDirectory(prefix="loo-rule-") as fresh:
        code = ("import time\nfrom loo_sim import Rules\nfrom loo_sim.run.simulate import simulate\n"
                f"simulate(Rules.preset('three-card'), {policy!r}, 1, seed=1)\n"
                "print(time.perf_counter())\n")  # fmt: skip
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={**env, "XDG_CACHE_HOME": cache or fresh}).stdout  # fmt: skip
        return float(out.split()[-1]) - start


def compile_seconds() -> dict[str, float]:
    """The first compile with a rule and with basic, each in an empty cache; then, on the
    cache the rule's run filled, a process with a rule it has never seen."""
    import tempfile

    out = {"cold_basic_s": first_deal_seconds("basic", None)}
    with tempfile.TemporaryDirectory(prefix="loo-rule-cache-") as cache:
        out["cold_rule_s"] = first_deal_seconds(BASIC, cache)
        out["warm_new_rule_s"] = first_deal_seconds("rule:miss if pot_ratio >= 2 and faces == 0; pass; play", cache)
        out["warm_basic_s"] = first_deal_seconds("basic", cache)
    return out


def rule_report(deals: int = 2_000_000) -> dict:
    """Every figure of the module docstring, printed and returned."""
    report: dict = {}
    for preset in ("three-card", "five-card"):
        rates = simulate_rates(preset, ["basic", BASIC, "cautious", CAUTIOUS], deals)
        report[preset] = {"basic_deals_per_s": rates["basic"], "basic_rule_deals_per_s": rates[BASIC],
                          "basic_rule_over_basic": rates[BASIC] / rates["basic"],
                          "cautious_rule_over_cautious": rates[CAUTIOUS] / rates["cautious"]}  # fmt: skip
        r = report[preset]
        print(f"{preset} / 5 players, simulate, one thread: basic {rates['basic'] / 1e6:.2f} M deals/s, its rule "
              f"form {rates[BASIC] / 1e6:.2f} ({r['basic_rule_over_basic']:.2f}x); cautious's rule form "
              f"{r['cautious_rule_over_cautious']:.2f}x cautious")  # fmt: skip
    parsed, table = parse_seconds()
    report["parse_s"], report["table_s"] = parsed, table
    print(f"a rule (cautious's form): parsed in {parsed * 1e6:.0f} us, its kernel table built in {table * 1e6:.0f} us")
    report["compile"] = c = compile_seconds()
    print(f"first deal of a fresh process, empty numba cache: basic {c['cold_basic_s']:.1f} s, a rule "
          f"{c['cold_rule_s']:.1f} s; on that cache, a rule never seen {c['warm_new_rule_s']:.2f} s, basic "
          f"{c['warm_basic_s']:.2f} s (no compile per rule)")  # fmt: skip
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=2_000_000, help="deals per timing run")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    report = rule_report(args.deals)
    if args.json:
        print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
