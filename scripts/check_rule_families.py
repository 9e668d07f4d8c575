"""Issue #26's must-show at full size: the P3 families' rule forms (docs/policies.md P3b) give
the families' deal records on 10^5 deals of every preset, in the kernel and in the reference
engine. The test suite runs it on fewer reference deals (tests/test_rule_engines.py); this
runs the whole of it (the reference engine plays a few thousand deals a second: about half
an hour on one core). Each deal is compared field for field with the kernel's deal of the
family (which tests/test_differential.py holds equal to the reference engine's).

    .venv/bin/python scripts/check_rule_families.py --deals 100000 --engine reference
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from loo_sim import Rules, play_deals
from loo_sim.game.rules import PRESETS
from loo_sim.run.records import shuffled_decks

FAMILIES = {
    "basic": "rule:play if trumps >= 1 or aces >= 1; defend; miss; pass; play",
    "cautious": "rule:play if trumps >= 2 or highest_trump >= Q or (not trumps_known and aces >= 1); defend; pass; "
    "play",
    "nothing-takes-miss": "rule:miss if trumps == 0 and aces == 0 and faces == 0 and dealer_case != 2; play",
}
CARRIED = np.array([0.0, 0.0, 3.0, 6.0, 12.0, 30.0, 7.5])  # clean pots (and single pots) and carried ones


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=100_000, help="deals per preset")
    parser.add_argument("--engine", choices=("kernel", "reference"), default="reference", help="the rule seats' engine")
    parser.add_argument("--seed", type=int, default=26)
    args = parser.parse_args()
    start, failed = time.perf_counter(), 0
    for preset in PRESETS:
        rules = Rules.preset(preset)
        gen = np.random.default_rng(args.seed)
        dealers = gen.integers(0, rules.players, args.deals)
        carried = gen.choice(CARRIED, args.deals)
        decks = shuffled_decks(args.seed, args.deals)
        for family, rule in FAMILIES.items():
            expected = play_deals(rules, decks, dealers, carried, family)
            got = play_deals(rules, decks, dealers, carried, rule, engine=args.engine)
            bad = [i for i in range(args.deals) if expected[i] != got[i]]
            failed += len(bad)
            print(f"{preset:16s} {family:19s} {args.deals:,} deals: {len(bad)} differ {bad[:5]}  "
                  f"({time.perf_counter() - start:.0f} s)", flush=True)  # fmt: skip
    print(f"{'all the same' if failed == 0 else f'{failed} deals differ'}; {time.perf_counter() - start:.0f} s")
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
