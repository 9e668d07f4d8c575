"""Rule variants on the same deals (the variants study): rows r = 0..R-1, each a rule set
and a table of policies, all play deal k of one run on the same shuffled deck (stream
(seed, k)), each dealt by seat k mod its players. Per block and row: the aggregates a
``simulate`` run of that row alone would give (``abi.A_*``, via ``aggregate.add_deal``) and
the sums of the deal-by-deal differences from the baseline row (``abi.V_*``)."""

import numpy as np
from numba import njit

from loo_sim.kernel import abi as L
from loo_sim.kernel.aggregate import COUNTS_LEN, add_deal, add_seat_counts
from loo_sim.kernel.cardplay import workspace_for
from loo_sim.kernel.deal import play_deal
from loo_sim.kernel.scratch import any_random, deal_scratch, deck_cards_needed, position_of, prepare_deal


@njit(cache=True)
def deal_values(vals, ri, oi, of, dealer, carried):
    """One deal's values of the variants table into ``vals`` (``abi.V_*``): looed seats per
    player, whether two or more seats were in, the pot's growth, net chips by position."""
    n = ri[L.R_PLAYERS]
    vals[:] = 0.0
    looed = 0
    for s in range(n):
        looed += oi[L.O_LOOED + s]
        net = of[L.F_SHARES + s] - of[L.F_ANTES + s] - of[L.F_PENALTIES + s]
        vals[L.V_NET_POS + position_of(s, dealer, n)] = net
    vals[L.V_LOO] = looed / n
    outcome = oi[L.O_OUTCOME]
    vals[L.V_CONTESTED] = 1.0 if outcome == L.OUT_PLAY or outcome == L.OUT_FLUSH else 0.0
    vals[L.V_GROWTH] = of[L.F_POT_NEXT] - carried


@njit(cache=True, nogil=True)
def variant_block(ri, rf, pol, polf, strength, tables, solver, base, seed, session, first, count, carried, agg, pair):
    """Deals first..first+count-1 (one block of ``BLOCK`` deals, or the last one), every
    row on each deal's deck: ``agg[r]`` (A_*) and ``pair[r]`` (V_*, row r minus row
    ``base``), added into (the caller zeroes them). Blocks are independent:
    ``run.tasks.variants_task`` runs them on threads (nogil)."""
    rows = ri.shape[0]
    need = 0
    n_max = 0
    random_seats = False
    for r in range(rows):
        need = max(need, deck_cards_needed(ri[r]))  # a longer prefix of the same shuffle: forward Fisher-Yates
        n_max = max(n_max, ri[r, L.R_PLAYERS])
        random_seats = random_seats or any_random(pol[r], ri[r, L.R_PLAYERS])
    deck, sc, seat_keys, oi, of = deal_scratch()
    ws = workspace_for(solver)  # None without solver seats (kernel/cardplay.py)
    counts = np.zeros((rows, COUNTS_LEN), dtype=np.int64)
    vals = np.zeros((rows, L.V_VALUES), dtype=np.float64)
    for k in range(first, first + count):
        prepare_deal(seed, session, k, deck, need, n_max, seat_keys, random_seats, sc)
        for r in range(rows):
            dealer = k % ri[r, L.R_PLAYERS]
            play_deal(ri[r], rf[r], pol[r], polf[r], strength[r], tables[r], ws, deck, dealer, carried, seat_keys,
                      sc, oi, of, L.NO_FORCING, L.NO_ACTION)  # fmt: skip
            add_deal(agg[r], counts[r], ri[r], oi, of, dealer)
            deal_values(vals[r], ri[r], oi, of, dealer, carried)
        for r in range(rows):
            for j in range(L.V_VALUES):
                d = vals[r, j] - vals[base, j]
                pair[r, L.V_DIFF + j] += d
                pair[r, L.V_DIFF_SQ + j] += d * d
    for r in range(rows):
        add_seat_counts(agg[r], counts[r], ri[r, L.R_PLAYERS])
