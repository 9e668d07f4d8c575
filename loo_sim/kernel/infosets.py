"""Information sets of the declaration game and the declaration tables that read them
(docs/policies.md P6), in numba: the twin of ``game/infosets.py`` and of the table
family in ``engine/policies.py``."""

import numpy as np
from numba import njit

from loo_sim.game import abi as L
from loo_sim.game.classes import EARLIER_IN_BINS
from loo_sim.game.infosets import MAX_POSITION, N_POT_BUCKETS, N_SITUATIONS, POT_EDGES, SITUATION_OF_MASK
from loo_sim.kernel.krng import word

SITUATION_OF = np.array(SITUATION_OF_MASK, dtype=np.int64)
EDGES = np.array(POT_EDGES, dtype=np.float64)
UNIT = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True)
def infoset_index(cls, position, already_in, allowed, pot_start, penalty):
    """game.infosets.seat_infoset: the key of what a seat sees, -1 without a real choice."""
    situation = SITUATION_OF[allowed]
    if situation < 0:
        return -1
    bucket = 0
    while bucket < EDGES.shape[0] and pot_start > EDGES[bucket] * penalty:
        bucket += 1
    earlier = min(already_in, EARLIER_IN_BINS - 1)
    return (((cls * (MAX_POSITION + 1) + position) * EARLIER_IN_BINS + earlier) * N_SITUATIONS + situation) * (
        N_POT_BUCKETS
    ) + bucket


@njit(cache=True)
def seat_uniform(key):
    """A uniform draw in [0, 1) from the seat's own stream (``rng.SeatStream.declaration_uniform``)."""
    return np.float64(word(key, L.DECLARE_DRAW) >> np.uint64(11)) * UNIT


@njit(cache=True)
def table_declaration(tables, k, index, key):
    """The declaration table ``k``'s action at information set ``index`` (-1: not in the
    table, or no real choice). A pure row decides without a draw; a mixed one draws once
    from the seat's stream and takes the first action whose cumulative probability
    exceeds the draw."""
    if index < 0 or index >= tables.shape[1] or np.isnan(tables[k, index, 0]):
        return -1
    pure = -1
    for a in range(L.ACTIONS):
        if tables[k, index, a] == 1.0:
            pure = a
    if pure >= 0:
        return pure
    u = seat_uniform(key)
    total = 0.0
    last = -1
    for a in range(L.ACTIONS):
        p = tables[k, index, a]
        if p > 0.0:
            last = a
            total += p
            if u < total:
                return a
    return last
