"""Risk of ruin (R10 sessions) in numba: a focal seat's policy at a table, the same sessions
played again with ``basic`` in its seat on the same decks; each session's running balance of
the focal seat, read at every bankroll level, comes back for the caller to reduce
(``run/risk.py``)."""

import numpy as np
from numba import njit

from loo_sim.game import abi as L
from loo_sim.kernel.cardplay import workspace_for
from loo_sim.kernel.scratch import deal_scratch, session_arrays
from loo_sim.kernel.sessions import play_one_session


@njit(cache=True, nogil=True)
def risk_block(ri, rf, pol, polf, strength, tables, solver, share_final, seed, block, total, deals, focal, levels, out):
    """Sessions block * SESSION_BLOCK + k of every arm a, without ruin (each plays ``deals``
    deals): out[a, k, 0] the focal seat's lowest running balance, [1] its final balance,
    [2] the deals played (negative where an amount passed 2**53 and is no longer exact,
    R3), [3 + l] the first deal (1-based) after which its balance was below -levels[l]
    (0: never). One run is read at every bankroll: a seat with bankroll B
    is ruined within the session exactly when its lowest balance falls below -B."""
    arms = ri.shape[0]
    out[...] = np.nan
    deck, sc, seat_keys, oi, of = deal_scratch()
    ws = workspace_for(solver)  # None without solver seats (kernel/cardplay.py)
    balances, deal_stats, pots, looed_by_deal, looed_hist, rec_oi, rec_of = session_arrays(deals, True)
    no_positions = np.zeros((0, 0, 2), dtype=np.float64)
    first = block * L.SESSION_BLOCK
    for i in range(first, min(first + L.SESSION_BLOCK, total)):
        k = i - first
        for a in range(arms):
            played, _, inexact, overflow, _, _, _ = play_one_session(
                ri[a], rf[a], pol[a], polf[a], strength[a], tables[a], ws, seed, np.uint64(i), deals, -1.0,
                share_final[a], deck, sc, seat_keys, oi, of, balances, deal_stats, pots, looed_by_deal, looed_hist,
                rec_oi, rec_of, True, no_positions)  # fmt: skip
            row = out[a, k]
            for x in range(levels.shape[0]):
                row[3 + x] = 0.0
            running, lowest = 0.0, 0.0
            for j in range(played):
                f = rec_of[j]
                running += f[L.F_SHARES + focal] - f[L.F_ANTES + focal] - f[L.F_PENALTIES + focal]
                lowest = min(lowest, running)
                for x in range(levels.shape[0]):
                    if row[3 + x] == 0.0 and running < -levels[x]:
                        row[3 + x] = j + 1
            row[0] = lowest
            row[1] = balances[focal]
            row[2] = played if inexact < 0 and overflow < 0 else -played
