"""Strength tables (POLICIES.md P3): P(k tricks | hand class, seats in the deal) for one
rule set, estimated by simulation. ``threshold`` and ``ev`` decide from them.

Where a table comes from, in order: the tables shipped with the package
(``loo_sim/data/strength.npz``: the presets at 3-8 players), the user cache
(``$LOO_SIM_CACHE`` or ``~/.cache/loo_sim/strength``, keyed by a hash of the rules), or
a calibration run now (saved to the cache). ``loo-sim calibrate --force`` recomputes.

Calibration: every seat plays ``basic``; each hand played in a deal with tricks adds
one count to (its class at its declaration, seats in the deal, tricks won); whoever
plays the miss adds to the row ``MISS_ROW``. A (class, seats) cell with fewer than
``MIN_OBS`` hands borrows the class's distribution over all seat counts (then that of
all classes at that seat count). Pots are clean, except with ``single_pot`` (a clean pot
there is a single pot, where nobody decides anything): then one ante is carried in.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import layout as L
from .classes import N_CLASSES
from .rules import Rules

SCHEME = 1  # bump when the grid or the calibration method changes: old tables stop matching
DEFAULT_DEALS = 2_000_000
DEFAULT_SEED = 20260101
MIN_OBS = 50
SHAPE = (N_CLASSES + 1, L.MAX_PLAYERS + 1, L.MAX_TRICKS + 1)
SHIPPED = Path(__file__).resolve().parent / "data" / "strength.npz"
SESSION_OPTIONS = ("bankroll", "final_pot")  # not part of a deal: they do not change a table


@dataclass(frozen=True)
class StrengthTable:
    probs: np.ndarray  # SHAPE: P(k tricks | class, seats in the deal); row MISS_ROW: the miss
    counts: np.ndarray  # SHAPE: the hands counted
    p_in: float  # share of seats that enter a deal (how many later seats to expect)
    key: str
    deals: int
    seed: int

    def p_loo(self, cls: int, seats: int) -> float:
        return float(self.probs[cls, seats, 0])


def rules_key(rules: Rules) -> str:
    """A hash of the options that change how deals are played (and the scheme)."""
    options = {k: v for k, v in rules.to_dict().items() if k not in SESSION_OPTIONS}
    text = json.dumps({"scheme": SCHEME, "rules": options}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cache_dir() -> Path:
    base = os.environ.get("LOO_SIM_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "loo_sim"
    )
    return Path(base) / "strength"


def finalize(counts: np.ndarray, hand_size: int) -> np.ndarray:
    """Probabilities from counts, with the fallbacks for thin cells."""
    probs = np.zeros(SHAPE, dtype=np.float64)
    by_seats = counts.sum(axis=0)  # all classes, per seat count
    overall = by_seats.sum(axis=0)
    for cls in range(SHAPE[0]):
        pooled = counts[cls].sum(axis=0)
        for m in range(2, L.MAX_PLAYERS + 1):
            for source in (counts[cls, m], pooled, by_seats[m], overall):
                if source.sum() >= MIN_OBS:
                    probs[cls, m] = source / source.sum()
                    break
            else:
                probs[cls, m, 0] = 1.0  # nothing observed at all: assume the worst
    probs[:, :, hand_size + 1 :] = 0.0
    return probs


def calibration_carried(rules: Rules) -> float:
    return float(max(rules.ante, 1.0)) if rules.single_pot else 0.0


def calibrate(
    rules: Rules, deals: int = DEFAULT_DEALS, seed: int = DEFAULT_SEED, threads: int | None = None
) -> StrengthTable:
    """Estimate the strength table of ``rules`` from ``deals`` deals of ``basic`` play."""
    from numba import set_num_threads

    from .boundary import kernel_args
    from .kernel.calibrate import calibrate_blocks
    from .kernel.chunks import BLOCK
    from .policies import parse_table
    from .simulate import check_threads

    set_num_threads(check_threads(threads))
    args = kernel_args(rules, parse_table("basic", rules.players), strength=False)
    n_blocks = (deals + BLOCK - 1) // BLOCK
    counts = np.zeros((n_blocks, *SHAPE), dtype=np.int64)
    entries = np.zeros((n_blocks, 2), dtype=np.int64)
    calibrate_blocks(*args, np.uint64(seed), np.uint64(L.CALIBRATION_SESSION), n_blocks, deals,
                     calibration_carried(rules), counts, entries)  # fmt: skip
    total = counts.sum(axis=0)
    seats_in, seats = entries.sum(axis=0)
    p_in = float(seats_in / seats)
    return StrengthTable(finalize(total, rules.hand_size), total, p_in, rules_key(rules), deals, seed)


def save(table: StrengthTable, path: Path) -> None:
    import io

    from .outputs import atomic_write_bytes

    buf = io.BytesIO()
    np.savez_compressed(buf, counts=table.counts, p_in=table.p_in, deals=table.deals, seed=table.seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, buf.getvalue())


def _from_counts(key: str, counts: np.ndarray, p_in: float, deals: int, seed: int, hand_size: int) -> StrengthTable:
    return StrengthTable(finalize(counts, hand_size), counts, float(p_in), key, int(deals), int(seed))


def load(rules: Rules) -> StrengthTable | None:
    """The shipped or cached table of ``rules``, or None."""
    key = rules_key(rules)
    if SHIPPED.exists():
        with np.load(SHIPPED) as shipped:
            if f"{key}_counts" in shipped:
                return _from_counts(key, shipped[f"{key}_counts"], shipped[f"{key}_p_in"],
                                    shipped[f"{key}_deals"], shipped[f"{key}_seed"], rules.hand_size)  # fmt: skip
    path = cache_dir() / f"{key}.npz"
    if path.exists():
        try:
            with np.load(path) as cached:
                return _from_counts(key, cached["counts"], cached["p_in"], cached["deals"], cached["seed"],
                                    rules.hand_size)  # fmt: skip
        except (OSError, KeyError, ValueError):
            return None  # a damaged cache file is recomputed
    return None


def strength_for(rules: Rules, force: bool = False, deals: int = DEFAULT_DEALS, seed: int = DEFAULT_SEED,
                 verbose: bool = False) -> StrengthTable:  # fmt: skip
    """The strength table of ``rules``: shipped, cached, or calibrated now and cached."""
    if not force:
        table = load(rules)
        if table is not None:
            return table
    if verbose:
        print(f"calibrating strength tables for these rules ({deals:,} deals) ...", flush=True)
    start = time.perf_counter()
    table = calibrate(rules, deals, seed)
    try:
        save(table, cache_dir() / f"{table.key}.npz")
    except OSError as e:
        if verbose:
            print(f"note: could not cache the table ({e}); it will be recomputed next time")
    if verbose:
        print(f"calibrated in {time.perf_counter() - start:.1f} s")
    return table
