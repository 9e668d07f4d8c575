"""Rule variants on the same deals (the variants study): rows r = 0..R-1, each a rule set
and a table of policies, all play deal k of one run on the same shuffled deck (stream
(seed, k)), each dealt by seat k mod its players. Per block and row: the aggregates a
``simulate`` run of that row alone would give (``abi.A_*``, via ``aggregate.add_deal``) and
the sums of the deal-by-deal differences from the baseline row (``abi.V_*``).

In sessions (R10, ``variant_session_block``): session i of every row plays deal j on the
deck of the stream (seed, i, j), the first dealer drawn from (seed, i, -1) as in the pots
study (``kernel.sessions``), the pot carried from deal to deal and the dealer rotating; per
session and row, the sums over the deals after the burn-in (``abi.VS_*``), reduced in the
block to the first and second moments over sessions of all rows' sums together (so any
rate per deal, and its paired difference from another row, is a ratio of means with the
session as the unit), and the pots at the start of the measured deals, counted exactly
where whole and below ``EXACT_CHIPS`` (else in the log bins of ``kernel.bins.pot_bin``)."""

import numpy as np
from numba import njit

from loo_sim.game import abi as L
from loo_sim.kernel.aggregate import COUNTS_LEN, add_deal, add_seat_counts
from loo_sim.kernel.bins import exact_index, pot_bin
from loo_sim.kernel.cardplay import workspace_for
from loo_sim.kernel.deal import play_deal, play_deal_inline
from loo_sim.kernel.nrt import NO_REFCOUNT
from loo_sim.kernel.scratch import any_random, deal_scratch, deck_cards_needed, position_of, prepare_deal
from loo_sim.kernel.sessions import first_dealer


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


@njit(cache=True, **NO_REFCOUNT)  # the deal inlined, as in kernel/sessions.py's play_one_session
def play_variant_session(ri, rf, pol, polf, strength, tables, ws, seed, session, deals, burn, window, deck, sc,
                         seat_keys, oi, of, bal, vec, pot_at):  # fmt: skip
    """Session ``session`` of one row: ``deals`` deals from a clean pot, the first dealer
    drawn as in the pots study, the pot carried over (R10). ``vec`` [VS_*] gets the sums over
    deals burn..deals-1 (the windows: deals burn..burn+window-1 and the last ``window``),
    ``pot_at[j]`` the pot at the start of measured deal j (NaN before the burn-in's end and
    after a stop), ``bal`` each seat's net over the measured deals. A session stops when the
    pot passes OVERFLOW_LIMIT (flagged)."""
    n = ri[L.R_PLAYERS]
    need = deck_cards_needed(ri)
    random_seats = any_random(pol, n)
    dealer = first_dealer(seed, session, n)
    carried = 0.0
    for x in range(L.VS_LEN):
        vec[x] = 0.0
    vec[L.VS_ONE] = 1.0
    for s in range(n):
        bal[s] = 0.0
    for j in range(deals):
        pot_at[j] = np.nan
    late_from = deals - window
    for j in range(deals):
        prepare_deal(seed, session, j, deck, need, n, seat_keys, random_seats, sc)
        play_deal_inline(ri, rf, pol, polf, strength, tables, ws, deck, dealer, carried, seat_keys, sc, oi, of,
                         L.NO_FORCING, L.NO_ACTION)  # fmt: skip
        pot_start = of[L.F_POT_START]
        pot_next = of[L.F_POT_NEXT]
        biggest = max(pot_start, pot_next)
        measured = j >= burn
        looed = 0
        for s in range(n):
            net = of[L.F_SHARES + s] - of[L.F_ANTES + s] - of[L.F_PENALTIES + s]
            looed += oi[L.O_LOOED + s]
            biggest = max(biggest, abs(net), of[L.F_SHARES + s], of[L.F_PENALTIES + s])
            if measured:
                bal[s] += net
                biggest = max(biggest, abs(bal[s]))
                vec[L.VS_NET] += net
                vec[L.VS_NET_SQ] += net * net
                vec[L.VS_NET_POS + position_of(s, dealer, n)] += net
        if measured:
            outcome = oi[L.O_OUTCOME]
            single = 1.0 if oi[L.O_SINGLE] else 0.0
            contested = 1.0 if outcome == L.OUT_PLAY or outcome == L.OUT_FLUSH else 0.0
            vec[L.VS_DEALS] += 1.0
            vec[L.VS_LOOED] += looed
            vec[L.VS_SINGLE] += single
            vec[L.VS_CONTESTED] += contested
            vec[L.VS_POT] += pot_start
            pot_at[j] = pot_start
            for w in range(2):
                base = L.VS_EARLY if w == 0 else L.VS_LATE
                if (w == 0 and j < burn + window) or (w == 1 and j >= late_from):
                    vec[base + L.VW_DEALS] += 1.0
                    vec[base + L.VW_LOOED] += looed
                    vec[base + L.VW_SINGLE] += single
                    vec[base + L.VW_CONTESTED] += contested
                    vec[base + L.VW_POT] += pot_start
        if biggest > L.EXACT_LIMIT:  # R3: said, never silent
            vec[L.VS_INEXACT] = 1.0
        carried = pot_next
        dealer = dealer + 1 if dealer + 1 < n else 0
        if carried > L.OVERFLOW_LIMIT:
            vec[L.VS_OVERFLOW] = 1.0
            break
    for s in range(n):
        vec[L.VS_BAL_SQ] += bal[s] * bal[s]


@njit(cache=True)
def pot_index(p):
    """Where a pot is counted: its value when whole and below EXACT_CHIPS, else EXACT_CHIPS + its log bin."""
    e = exact_index(p, L.EXACT_CHIPS)
    return e if e >= 0 else L.EXACT_CHIPS + pot_bin(p)


@njit(cache=True, nogil=True)
def variant_session_block(ri, rf, pol, polf, strength, tables, solver, seed, block, total, deals, burn, window, s1, s2,
                          pot_n, pot_sq, pot_nm, pot_sum):  # fmt: skip
    """Sessions block * SESSION_BLOCK + k (k < SESSION_BLOCK, up to ``total``) of every row r
    (rules ri[r], policies pol[r], ...), each session on the same decks for every row. With
    v the session's sums of all rows side by side (v[r * VS_LEN + x], ``abi.VS_*``): s1 += v,
    s2 += v v^T, sessions in order. Pots at the start of the measured deals, by
    ``pot_index`` e: pot_n[r, e] (count), pot_sq[r, e] (sum over sessions of the session's
    count squared), pot_nm[r, e] (of count x measured deals), pot_sum[r, e] (the pots
    themselves). Zeroed here. Blocks are independent: ``run.tasks.variant_sessions_task``
    runs them on threads (nogil)."""
    rows = ri.shape[0]
    k_len = L.VS_LEN
    width = rows * k_len
    s1[...] = 0.0
    s2[...] = 0.0
    pot_n[...] = 0.0
    pot_sq[...] = 0.0
    pot_nm[...] = 0.0
    pot_sum[...] = 0.0
    deck, sc, seat_keys, oi, of = deal_scratch()
    ws = workspace_for(solver)  # None without solver seats (kernel/cardplay.py)
    bal = np.zeros(L.MAX_PLAYERS, dtype=np.float64)
    vec = np.zeros(width, dtype=np.float64)
    pot_at = np.zeros(deals, dtype=np.float64)
    cnt = np.zeros(pot_n.shape[1], dtype=np.float64)
    touched = np.zeros(deals, dtype=np.int64)
    first = block * L.SESSION_BLOCK
    for i in range(first, min(first + L.SESSION_BLOCK, total)):
        session = np.uint64(i)
        for r in range(rows):
            play_variant_session(ri[r], rf[r], pol[r], polf[r], strength[r], tables[r], ws, seed, session, deals, burn,
                                 window, deck, sc, seat_keys, oi, of, bal, vec[r * k_len : (r + 1) * k_len],
                                 pot_at)  # fmt: skip
            m = vec[r * k_len + L.VS_DEALS]
            used = 0
            for j in range(burn, deals):
                p = pot_at[j]
                if p != p:
                    break  # the session stopped (overflow)
                e = pot_index(p)
                if cnt[e] == 0.0:
                    touched[used] = e
                    used += 1
                cnt[e] += 1.0
                pot_sum[r, e] += p
            for u in range(used):
                e = touched[u]
                c = cnt[e]
                pot_n[r, e] += c
                pot_sq[r, e] += c * c
                pot_nm[r, e] += c * m
                cnt[e] = 0.0
        for a in range(width):
            va = vec[a]
            s1[a] += va
            for b in range(width):
                s2[a, b] += va * vec[b]
