"""Solves per second of the perfect-information solver (engine/solver.py, P7) from the
first lead, all five seats in the deal: ``python scripts/bench_solver.py [deals]``."""

from __future__ import annotations

import random
import sys
import time

from loo_sim.engine.deal import reference_positions
from loo_sim.engine.solver import solve
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules


def first_leads(preset: str, count: int, seed: int = 1) -> list:
    rng, rules, out = random.Random(seed), Rules.preset(preset), []
    policies = [Policy.parse("always")] * rules.players  # every seat in the deal
    while len(out) < count:
        deck = list(range(52))
        rng.shuffle(deck)
        positions, _ = reference_positions(rules, deck, len(out) % rules.players, 0.0, policies)
        if positions and len(positions[0].seats) == rules.players:
            out.append(positions[0])
    return out


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    for preset, n in (("three-card", count * 20), ("five-card", count)):
        positions = first_leads(preset, n)
        t0 = time.perf_counter()
        for pos in positions:
            solve(pos)
        dt = time.perf_counter() - t0
        print(f"{preset} 5 players from the first lead: {n / dt:.1f} solves/s ({n} positions, {dt:.2f} s)")


if __name__ == "__main__":
    main()
