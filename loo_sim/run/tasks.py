"""Chunk tasks: one call of a kernel over blocks first..first+count-1, returning the
aggregate rows of each block (the caller adds them in block order). Plain top-level
functions of arrays and numbers, so a Dask worker can run them (backend.py)."""

from __future__ import annotations

import numpy as np

from loo_sim.kernel import abi as L
from loo_sim.rng import HEURISTIC_SESSION, MASK64, MISS_SESSION, NO_SESSION


def simulate_task(ri, rf, pol, polf, strength, chart, seed, total, dealer, rotate, carried, by_class, first, count):
    from loo_sim.kernel.chunks import run_blocks

    rows = np.zeros((count, L.A_LEN), dtype=np.float64)
    run_blocks(ri, rf, pol, polf, strength, chart, np.uint64(seed), np.uint64(NO_SESSION & MASK64), first, count,
               total, dealer, rotate, carried, rows, by_class)  # fmt: skip
    return rows


def decision_shape(players: int) -> tuple[int, ...]:
    """The sums of one block of decisions: [class, position 0..players, miss on offer,
    earlier seats in, CF_*] (``kernel.abi.CHART_SHAPE`` cut to the positions a table has)."""
    n_classes, _, offers, earlier = L.CHART_SHAPE
    return n_classes, players + 1, offers, earlier, L.CF_LEN


def decision_task(ri, rf, pol, polf, strength, chart, seed, total, carried, focal_seats, first, count):
    from loo_sim.kernel.counterfactual import decision_blocks

    rows = np.zeros((count, *decision_shape(int(ri[L.R_PLAYERS]))), dtype=np.float64)
    decision_blocks(ri, rf, pol, polf, strength, chart, np.uint64(seed), np.uint64(MISS_SESSION), first, count,
                    total, carried, focal_seats, rows)  # fmt: skip
    return rows


def heuristic_task(ri, rf, pol, polf, strength, chart, seed, total, carried, focal, variants, variants_f,
                   first, count):  # fmt: skip
    from loo_sim.kernel.counterfactual import heuristic_blocks

    rows = np.zeros((count, variants.shape[0], L.H_LEN), dtype=np.float64)
    heuristic_blocks(ri, rf, pol, polf, strength, chart, np.uint64(seed), np.uint64(HEURISTIC_SESSION), first, count,
                     total, carried, focal, variants, variants_f, rows)  # fmt: skip
    return rows


def pots_shapes(arms: int, deals: int) -> dict[str, tuple[int, ...]]:
    """The rows of one block of sessions (``kernel.sessions.session_blocks``): aggregates
    (scal, deal_stats, pair) and each session's pots, largest pot and final balances
    (NaN where none), which the caller counts into its histograms."""
    n, k = L.MAX_PLAYERS, L.SESSION_BLOCK
    return {
        "scal": (arms, L.S_LEN),
        "deal_stats": (arms, deals, L.DS_LEN),
        "pots": (arms, k, deals),
        "largest": (arms, k),
        "finals": (arms, k, n),
        "pair": (arms, arms, L.PR_LEN),
    }


def pots_task(ri, rf, pol, polf, strength, chart, bankroll, share, seed, total, deals, first, count):
    from loo_sim.kernel.sessions import session_blocks

    rows = {k: np.zeros((count, *shape), dtype=np.float64) for k, shape in pots_shapes(ri.shape[0], deals).items()}
    session_blocks(ri, rf, pol, polf, strength, chart, bankroll, share, np.uint64(seed), first, count, total, deals,
                   *rows.values())  # fmt: skip
    return rows


def variants_task(ri, rf, pol, polf, strength, chart, base, seed, total, carried, first, count):
    from loo_sim.kernel.variants import variant_blocks

    rows = ri.shape[0]
    agg = np.zeros((count, rows, L.A_LEN), dtype=np.float64)
    pair = np.zeros((count, rows, L.V_LEN), dtype=np.float64)
    variant_blocks(ri, rf, pol, polf, strength, chart, base, np.uint64(seed), np.uint64(NO_SESSION & MASK64), first,
                   count, total, carried, agg, pair)  # fmt: skip
    return agg, pair
