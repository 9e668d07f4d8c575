"""The carried pot of a deal drawn from a session distribution (``--carried session``), in
numba: the twin of ``rng.carried_uniform`` and ``rng.pick``, and the pot bucket of
``game.infosets.pot_bucket``. Nothing here allocates (the per-deal loops run without
reference counting, kernel/nrt.py)."""

import numpy as np
from numba import njit

from loo_sim.kernel.infosets import EDGES, UNIT
from loo_sim.kernel.krng import stream_key, word

ZERO = np.uint64(0)


@njit(cache=True, inline="always")
def pick(cum, u):
    """The first i with u < cum[i] (the last where rounding leaves u past every one): rng.pick."""
    lo, hi = 0, cum.shape[0] - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if u < cum[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


@njit(cache=True, inline="always")
def deal_carried(carried, values, cum, seed, draw_session, k):
    """The carried pot of deal ``k``: ``carried`` when ``values`` is empty (a fixed pot),
    else the atom of the distribution (values, cumulative probabilities) that word 0 of
    the stream (seed, draw_session, k) picks (rng.carried_uniform)."""
    if values.shape[0] == 0:
        return carried
    u = np.float64(word(stream_key(seed, draw_session, np.uint64(k), ZERO), 0) >> np.uint64(11)) * UNIT
    return values[pick(cum, u)]


@njit(cache=True, inline="always")
def pot_bucket(pot_start, penalty, buckets):
    """game.infosets.pot_bucket (pot_start / penalty: <= 1, 1-2, 2-4, 4-8, > 8), cut to
    ``buckets`` (1: every deal in bucket 0, a chart without the pot axis)."""
    b = 0
    while b < EDGES.shape[0] and pot_start > EDGES[b] * penalty:
        b += 1
    return min(b, buckets - 1)
