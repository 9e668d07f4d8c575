"""Regenerate the strength tables shipped with loo_sim (loo_sim/data/strength.npz): every
distinct preset rule set at 3-8 players. Run: .venv/bin/python scripts/make_strength_tables.py
"""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path

import numpy as np

from loo_sim import Rules
from loo_sim.game.rules import PRESETS
from loo_sim.run.strength import DEFAULT_DEALS, DEFAULT_SEED, SHIPPED, calibrate, calibrate_counts, rules_key


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_DEALS
    arrays: dict[str, np.ndarray] = {}
    counts_by_rules: dict[str, np.ndarray] = {}
    start = time.perf_counter()
    for name in PRESETS:
        for players in range(3, 9):
            rules = Rules.preset(name, players=players)
            key = rules_key(rules)
            if f"{key}_counts" in arrays:
                continue  # a derived preset with the same rules
            base = rules_key(rules.replace(players=5))  # trick counts do not depend on players
            if base not in counts_by_rules:
                counts_by_rules[base] = calibrate_counts(rules, deals, DEFAULT_SEED)
            table = calibrate(rules, deals, DEFAULT_SEED, counts=counts_by_rules[base])
            arrays[f"{key}_counts"] = table.counts
            arrays[f"{key}_p_in"] = np.float64(table.p_in)
            arrays[f"{key}_deals"] = np.int64(deals)
            arrays[f"{key}_seed"] = np.int64(DEFAULT_SEED)
            print(f"{name:16s} players {players}: p_in {table.p_in:.3f}  ({time.perf_counter() - start:.0f} s)")
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    Path(SHIPPED).parent.mkdir(parents=True, exist_ok=True)
    Path(SHIPPED).write_bytes(buf.getvalue())
    print(f"wrote {SHIPPED} ({len(arrays) // 4} tables, {len(buf.getvalue()) / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
