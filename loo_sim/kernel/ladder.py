"""The card-play ladder (the cardplay study): entrants e = 0..E-1 each take a focal seat at
a table of the same other players, on the same deals, in every position. Arm
a = e * players + s is the table with entrant e at seat s (``run.ladder`` stacks them);
deal k of the run is shuffled from the stream (seed, session, k) and dealt by seat
k mod players, as in ``simulate``, and every entrant plays it once in each position p
(the focal seat (dealer + p) mod players). Per block, entrant and position: the sums of
the focal seat's values (``abi.LD_*``) and of their differences from entrant 0's on the
same deal and position; position 0 holds the mean over the positions, one value per deal."""

import numpy as np
from numba import njit

from loo_sim.game import abi as L
from loo_sim.kernel.cardplay import workspace_for
from loo_sim.kernel.deal import play_deal_inline
from loo_sim.kernel.nrt import NO_REFCOUNT
from loo_sim.kernel.scratch import any_random, deal_scratch, deck_cards_needed, prepare_deal


@njit(cache=True, **NO_REFCOUNT)  # the deal inlined (kernel/deal.py); nothing here allocates
def ladder_deals(ri, rf, pol, polf, strength, tables, ws, entrants, seed, session, first, count, carried, acc, vals,
                 deck, sc, seat_keys, oi, of):  # fmt: skip
    """ladder_block's deals, into ``acc`` [entrant, position 0..players, LD_LEN] (added
    into); ``vals`` [entrant, position, LD_VALUES] is one deal's working values."""
    n = ri[0, L.R_PLAYERS]
    arms = ri.shape[0]
    need = deck_cards_needed(ri[0])
    random_seats = False
    for a in range(arms):
        random_seats = random_seats or any_random(pol[a], n)
    for k in range(first, first + count):
        prepare_deal(seed, session, k, deck, need, n, seat_keys, random_seats, sc)
        dealer = k % n
        for e in range(entrants):
            for j in range(L.LD_VALUES):
                vals[e, 0, j] = 0.0
            for p in range(1, n + 1):
                s = (dealer + p) % n  # position p from the dealer's left
                a = e * n + s
                play_deal_inline(ri[a], rf[a], pol[a], polf[a], strength[a], tables[a], ws, deck, dealer, carried,
                                 seat_keys, sc, oi, of, L.NO_FORCING, L.NO_ACTION)  # fmt: skip
                played = oi[L.O_DECL + s] != L.DECL_PASS and oi[L.O_OUTCOME] == L.OUT_PLAY
                v = vals[e, p]
                v[L.LD_NET] = of[L.F_SHARES + s] - of[L.F_ANTES + s] - of[L.F_PENALTIES + s]
                v[L.LD_LOOED] = oi[L.O_LOOED + s]
                v[L.LD_TRICKS] = oi[L.O_WON + s] if played else 0.0
                v[L.LD_PLAYED] = 1.0 if played else 0.0
                for j in range(L.LD_DNET):
                    b = vals[0, p, j]
                    v[L.LD_DNET + j] = v[j] - b if j < L.LD_PLAYED else abs(v[j] - b)
                for j in range(L.LD_VALUES):
                    vals[e, 0, j] += v[j] / n
        for e in range(entrants):
            for p in range(n + 1):
                v = vals[e, p]
                row = acc[e, p]
                for j in range(L.LD_VALUES):
                    row[L.LD_SUM + j] += v[j]
                    row[L.LD_SQ + j] += v[j] * v[j]
                row[L.LD_TP] += v[L.LD_TRICKS] * v[L.LD_PLAYED]
                row[L.LD_DTP] += v[L.LD_DTRICKS] * v[L.LD_PLAYED]


@njit(cache=True, nogil=True)
def ladder_block(ri, rf, pol, polf, strength, tables, solver, entrants, seed, session, first, count, carried, acc):
    """Deals first..first+count-1 (one block of ``BLOCK`` deals, or the last one) for
    every entrant in every position: ``acc`` [entrant, position, LD_LEN] (added into; the
    caller zeroes it). Blocks are independent: ``run.tasks.ladder_task`` runs them on
    threads (nogil)."""
    deck, sc, seat_keys, oi, of = deal_scratch()
    ws = workspace_for(solver)  # None without solver seats (kernel/cardplay.py)
    vals = np.zeros((entrants, ri[0, L.R_PLAYERS] + 1, L.LD_VALUES), dtype=np.float64)
    ladder_deals(ri, rf, pol, polf, strength, tables, ws, entrants, seed, session, first, count, carried, acc, vals,
                 deck, sc, seat_keys, oi, of)  # fmt: skip
