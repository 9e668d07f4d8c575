"""Strength tables (docs/policies.md P3): P(k tricks | hand class, seats in the deal) for one
rule set, estimated by simulation. ``threshold`` and ``ev`` decide from them.

Where a table comes from, in order: the tables shipped with the package
(``loo_sim/data/strength.npz``: the presets at 3-8 players), the user cache
(``config.cache_dir("strength")``: ``$LOO_SIM_CACHE/strength``, else
``~/.cache/loo_sim/strength`` or the platform's equivalent), or a calibration run now
(saved to the cache). ``loo-sim calibrate --force`` recomputes. ``StrengthTable.source``
says which it was. A table is keyed by what made it (:func:`table_key`): the hash of the
rules and the scheme, the deals and the seed. A run resolves the key of the default deals
and seed (``config.DEFAULT_DEALS``, ``DEFAULT_SEED``: those of the shipped tables), so
``calibrate --deals X --seed Y`` writes a table of its own key and never changes the
numbers of a later run; ``run.json`` records the key, deals, seed and source of the
table a run used (:func:`table_info`).

Calibration. For each m = 2..8 seats in the deal, deals of the same rules at a table
of m seats where everyone plays (``always``): each hand adds one count to (its class
at the declaration, m, tricks won). The hands of players who pass are unseen cards, so a
deal with m seats in it deals like an m-seat table (only the stock is larger). A hand's
chance is thus that against m hands taken at random, without the selection of who
enters; with m = players it is exactly the loo rate of the class under ``always``. The
miss is a random unseen hand: its row pools all classes. The entry rate ``p_in`` (how
many later seats to expect) comes from a run of the real table with ``basic`` play.
A (class, m) cell with fewer than ``MIN_OBS`` hands borrows the class's distribution over
all m, else that of its row (same trump holding, any plain card) at m, then over all m.
Pots are clean, except with ``single_pot`` (a clean pot is then a single pot,
where nobody decides anything): one ante is carried in.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from loo_sim.base import config
from loo_sim.base.config import BLOCK, DEFAULT_DEALS, DEFAULT_SEED, MIN_OBS
from loo_sim.base.rng import CALIBRATION_SESSION
from loo_sim.game import abi as L
from loo_sim.game.classes import MISS_ROW, N_CLASSES, N_COLS
from loo_sim.game.rules import Rules
from loo_sim.run.args import kernel_args

SCHEME = 1  # bump when the grid or the calibration method changes: old tables stop matching
SHAPE = (N_CLASSES + 1, L.MAX_PLAYERS + 1, L.MAX_TRICKS + 1)
SHIPPED = Path(__file__).resolve().parent.parent / "data" / "strength.npz"
SOURCES = ("shipped", "cache", "calibrated")  # where a table came from (StrengthTable.source)


@dataclass(frozen=True)
class StrengthTable:
    probs: np.ndarray  # SHAPE: P(k tricks | class, seats in the deal); row MISS_ROW: the miss
    counts: np.ndarray  # SHAPE: the hands counted
    p_in: float  # share of seats that enter a deal (how many later seats to expect)
    key: str
    deals: int
    seed: int
    source: str = "calibrated"  # one of SOURCES


def rules_key(rules: Rules) -> str:
    """A hash of the options that change how deals are played (and the scheme)."""
    text = json.dumps({"scheme": SCHEME, "rules": rules.deal_options()}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def table_key(rules: Rules, deals: int = DEFAULT_DEALS, seed: int = DEFAULT_SEED) -> str:
    """The key of the table of ``rules`` calibrated from ``deals`` deals with ``seed``: the
    rules' hash (with the scheme), the deals and the seed (the name of its cache file)."""
    return f"{rules_key(rules)}-{int(deals)}-{int(seed)}"


def table_info(table: StrengthTable | None) -> dict | None:
    """What ``run.json`` records of the table a run used (None: no seat reads one)."""
    if table is None:
        return None
    return {"key": table.key, "deals": table.deals, "seed": table.seed, "source": table.source}


def cache_dir() -> Path:
    """The folder of cached tables (``config.cache_dir``)."""
    return config.cache_dir("strength")


def finalize(counts: np.ndarray, hand_size: int) -> np.ndarray:
    """Probabilities from counts, with the fallbacks for thin cells."""
    probs = np.zeros(SHAPE, dtype=np.float64)
    by_seats = counts[:MISS_ROW].sum(axis=0)  # all classes, per seat count
    overall = by_seats.sum(axis=0)
    for cls in range(SHAPE[0]):
        pooled = counts[cls].sum(axis=0)
        row = counts[cls - cls % N_COLS : cls - cls % N_COLS + N_COLS] if cls < MISS_ROW else counts[cls : cls + 1]
        for m in range(2, L.MAX_PLAYERS + 1):
            for source in (counts[cls, m], pooled, row[:, m].sum(axis=0), row.sum(axis=(0, 1)), by_seats[m], overall):
                if source.sum() >= MIN_OBS:
                    probs[cls, m] = source / source.sum()
                    break
            else:
                probs[cls, m, 0] = 1.0  # nothing observed at all: assume the worst
    probs[:, :, hand_size + 1 :] = 0.0
    return probs


def calibration_carried(rules: Rules) -> float:
    return float(max(rules.ante, 1.0)) if rules.single_pot else 0.0


CALIBRATION_ROUND = 1024  # kernel blocks per round of a calibration


def _run_calibration(rules: Rules, seats: int, policy: str, deals: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    from loo_sim.game.policy import parse_table
    from loo_sim.kernel.calibrate import calibrate_block
    from loo_sim.run.tasks import each_block

    args = kernel_args(rules, parse_table(policy, seats))  # one policy row per seat; always/basic need no table
    args.ri[L.R_PLAYERS] = seats  # may be 2: a deal with just two hands in it
    n_blocks = (deals + BLOCK - 1) // BLOCK
    seed_key, session = np.uint64(seed), np.uint64(CALIBRATION_SESSION + seats)
    carried = calibration_carried(rules)
    total, total_entries = np.zeros(SHAPE, dtype=np.int64), np.zeros(2, dtype=np.int64)
    # the blocks a round at a time: memory stays flat at any --deals (integer sums: the same in any order)
    for first in range(0, n_blocks, CALIBRATION_ROUND):
        count = min(CALIBRATION_ROUND, n_blocks - first)
        counts = np.zeros((count, *SHAPE), dtype=np.int64)
        entries = np.zeros((count, 2), dtype=np.int64)

        def block(b: int, first: int = first, counts: np.ndarray = counts, entries: np.ndarray = entries) -> None:
            calibrate_block(*args, seed_key, session, first + b, deals, carried, counts[b], entries[b])

        each_block(block, count, calibrate_block)
        total += counts.sum(axis=0)
        total_entries += entries.sum(axis=0)
    return total, total_entries


def calibrate_counts(rules: Rules, deals: int = DEFAULT_DEALS, seed: int = DEFAULT_SEED) -> np.ndarray:
    """Trick counts [class, m, k] from ``deals`` deals at each m = 2..8 seats, everyone
    playing (they do not depend on ``rules.players``)."""
    total = np.zeros(SHAPE, dtype=np.int64)
    for seats in range(2, L.MAX_PLAYERS + 1):
        counts, _ = _run_calibration(rules, seats, "always", deals, seed)
        total[:, seats, :] += counts[:, seats, :]
    total[MISS_ROW] = total[:MISS_ROW].sum(axis=0)  # the miss: a random unseen hand
    return total


def entry_rate(rules: Rules, deals: int = DEFAULT_DEALS, seed: int = DEFAULT_SEED) -> float:
    """The share of seats that come into a deal at the real table under ``basic``."""
    _, entries = _run_calibration(rules, rules.players, "basic", deals, seed)
    return float(entries[0] / entries[1])


def calibrate(
    rules: Rules, deals: int = DEFAULT_DEALS, seed: int = DEFAULT_SEED, threads: int | None = None,
    counts: np.ndarray | None = None,
) -> StrengthTable:  # fmt: skip
    """Estimate the strength table of ``rules`` (``counts`` from an earlier
    ``calibrate_counts`` of the same rules at any player count may be reused)."""
    from loo_sim.base import checks

    deals, seed = checks.deals(deals), checks.seed(seed)
    if threads is not None:  # otherwise the caller's setting stands (the caller owns numba's threads)
        from numba import set_num_threads

        set_num_threads(checks.threads(threads))
    if counts is None:
        counts = calibrate_counts(rules, deals, seed)
    p_in = entry_rate(rules, deals, seed)
    return StrengthTable(finalize(counts, rules.hand_size), counts, p_in, table_key(rules, deals, seed), deals, seed)


def save(table: StrengthTable, path: Path) -> None:
    import io

    from loo_sim.base.atomic import atomic_write_bytes

    buf = io.BytesIO()
    np.savez_compressed(buf, counts=table.counts, p_in=table.p_in, deals=table.deals, seed=table.seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, buf.getvalue())


def _from_counts(key: str, counts: np.ndarray, p_in: float, deals: int, seed: int, hand_size: int,
                 source: str) -> StrengthTable:  # fmt: skip
    return StrengthTable(finalize(counts, hand_size), counts, float(p_in), key, int(deals), int(seed), source)


def load(rules: Rules, use_shipped: bool = True, deals: int = DEFAULT_DEALS,
         seed: int = DEFAULT_SEED) -> StrengthTable | None:  # fmt: skip
    """The shipped or cached table of ``rules`` made from ``deals`` deals with ``seed``
    (``source`` says which), or None. The shipped tables are those of the defaults."""
    key, rkey = table_key(rules, deals, seed), rules_key(rules)
    if use_shipped and SHIPPED.exists():
        with np.load(SHIPPED) as shipped:
            made = (
                (int(shipped[f"{rkey}_deals"]), int(shipped[f"{rkey}_seed"])) if f"{rkey}_counts" in shipped else None
            )
            if made == (deals, seed):
                return _from_counts(key, shipped[f"{rkey}_counts"], shipped[f"{rkey}_p_in"], deals, seed,
                                    rules.hand_size, "shipped")  # fmt: skip
    path = cache_dir() / f"{key}.npz"
    if path.exists():
        try:
            with np.load(path) as cached:
                if (int(cached["deals"]), int(cached["seed"])) != (deals, seed):
                    return None  # not the table its name says: recomputed
                return _from_counts(key, cached["counts"], cached["p_in"], deals, seed, rules.hand_size, "cache")
        except (OSError, KeyError, ValueError):
            return None  # a damaged cache file is recomputed
    return None


def strength_for(rules: Rules, force: bool = False, deals: int = DEFAULT_DEALS, seed: int = DEFAULT_SEED,
                 notify: Callable[[str], None] | None = None) -> StrengthTable:  # fmt: skip
    """The strength table of ``rules``: shipped, cached, or calibrated now and cached
    (``source`` on the table says which). ``notify``, when given, is told in plain
    sentences what happens while it calibrates (the CLI prints them)."""
    if not force:
        table = load(rules, deals=deals, seed=seed)
        if table is not None:
            return table
    say = notify or (lambda message: None)
    say(f"calibrating strength tables for these rules ({deals:,} deals) ...")
    from numba import get_num_threads

    from loo_sim.run.estimate import long_run_notice

    notice = long_run_notice(8 * deals, get_num_threads(), "calibrating")  # 7 seat counts and the entry rate
    if notice:
        say(notice)
    start = time.perf_counter()
    table = calibrate(rules, deals, seed)
    try:
        save(table, cache_dir() / f"{table.key}.npz")
    except OSError as e:
        say(f"note: could not cache the table ({e}); it will be recomputed next time")
    say(f"calibrated in {time.perf_counter() - start:.1f} s")
    return table


def needs_strength(policies) -> bool:
    """Whether any of these policies decides from a strength table (threshold, ev)."""
    return any(p.declare in ("threshold", "ev") for p in policies)


def resolve_strength(rules: Rules, policies, given: StrengthTable | None = None) -> StrengthTable | None:
    """The strength table a run of ``policies`` needs: ``given`` if any, else the shipped,
    cached or newly calibrated table of ``rules``; None when no seat reads one."""
    if given is not None:
        return given
    return strength_for(rules) if needs_strength(policies) else None
