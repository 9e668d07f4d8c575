"""Mixed-table tournaments (R10 sessions) in numba: every lineup of heuristics (one arm a
lineup) plays the same sessions, on the same decks; each session's final balance, deals
played and net chips by position, per seat, come back for the caller to reduce."""

import numpy as np
from numba import njit

from loo_sim.game import abi as L
from loo_sim.kernel.cardplay import workspace_for
from loo_sim.kernel.scratch import deal_scratch, session_arrays
from loo_sim.kernel.sessions import play_one_session


@njit(cache=True, nogil=True)
def tournament_block(ri, rf, pol, polf, strength, tables, solver, bankroll, share_final, seed, block, total, deals,
                     finals, by_position):  # fmt: skip
    """Sessions block * SESSION_BLOCK + k (k < SESSION_BLOCK, up to ``total``) of every arm a
    (rules ri[a], lineup pol[a], ...): finals[a, k, seat] the final net balance,
    finals[a, k, MAX_PLAYERS] the deals played and finals[a, k, MAX_PLAYERS + 1] 1 where an
    amount passed 2**53 (no longer exact, R3) or the pot overflowed; by_position[a, k, seat, position, 0/1]
    net chips and deals at each position from the dealer's left. Rows past ``total`` stay
    NaN. Blocks are independent: ``run.tasks.tournament_task`` runs them on threads."""
    arms = ri.shape[0]
    finals[...] = np.nan
    by_position[...] = 0.0
    deck, sc, seat_keys, oi, of = deal_scratch()
    ws = workspace_for(solver)  # None without solver seats (kernel/cardplay.py)
    balances, deal_stats, pots, looed_by_deal, looed_hist, no_rec_i, no_rec_f = session_arrays(deals, False)
    first = block * L.SESSION_BLOCK
    for i in range(first, min(first + L.SESSION_BLOCK, total)):
        k = i - first
        for a in range(arms):
            played, _, inexact, overflow, _, _, _ = play_one_session(
                ri[a], rf[a], pol[a], polf[a], strength[a], tables[a], ws, seed, np.uint64(i), deals, bankroll[a],
                share_final[a], deck, sc, seat_keys, oi, of, balances, deal_stats, pots, looed_by_deal, looed_hist,
                no_rec_i, no_rec_f, False, by_position[a, k])  # fmt: skip
            for s in range(ri[a, L.R_PLAYERS]):
                finals[a, k, s] = balances[s]
            finals[a, k, L.MAX_PLAYERS] = played
            finals[a, k, L.MAX_PLAYERS + 1] = 1.0 if (inexact >= 0 or overflow >= 0) else 0.0
