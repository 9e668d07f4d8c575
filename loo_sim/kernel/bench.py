"""The bench's baselines (``scripts/bench.py`` only; no study uses it): the bare deal (shuffle
and deal the hands, the miss and the indicator into masks, R2) and the staged deal, which
stops after a given step of ``play_deal`` so that one deal's cost can be split into its
steps (shuffle, deal, declarations, tricks, scoring, aggregation)."""

import numpy as np
from numba import njit, prange

from loo_sim.game import abi as L
from loo_sim.kernel.aggregate import add_deal, add_seat_counts, seat_counts
from loo_sim.kernel.cardplay import workspace_for
from loo_sim.kernel.deal import (
    clear_record,
    collect_antes,
    deal_cards,
    deal_hands,
    loo_penalty,
    score,
    settle_uncontested,
)
from loo_sim.kernel.declare import declare_all
from loo_sim.kernel.exchange import exchange, show_flushes
from loo_sim.kernel.nrt import NO_REFCOUNT
from loo_sim.kernel.scratch import BLOCK, any_random, deal_scratch, deck_cards_needed, prepare_deal
from loo_sim.kernel.tricks import play_tricks

# the stages of a deal, cumulative: stage k runs every step up to and including k
STAGES = ("shuffle", "deal into masks", "declarations", "tricks", "scoring", "aggregation")
ST_SHUFFLE, ST_DEAL, ST_DECLARE, ST_TRICKS, ST_SCORE, ST_AGGREGATE = range(len(STAGES))


@njit(cache=True)
def bare_deal(ri, deck, dealer, sc):
    """Deal one shuffled deck as play_deal does (R2); returns a checksum bit so the work
    cannot be optimised away."""
    n = ri[L.R_PLAYERS]
    miss, pos = deal_hands(deck, n, ri[L.R_HAND], dealer, ri[L.R_MISS] == 1, sc)
    check = miss ^ deck[pos]
    for s in range(n):
        check ^= sc[L.SC_HANDS + s]
    return check & 1


@njit(cache=True, parallel=True)
def bare_blocks(ri, seed, session, n_blocks, total, out):
    """Deals 0..total-1 of the run keyed (seed, session) in blocks of BLOCK, dealt by seat
    k mod players like simulate's; out[b] = (deals, checksum) of block b."""
    n = ri[L.R_PLAYERS]
    need = deck_cards_needed(ri)
    for b in prange(n_blocks):
        deck, sc, seat_keys, _oi, _of = deal_scratch()
        first = b * BLOCK
        deals = 0
        check = 0
        for k in range(first, min(first + BLOCK, total)):
            prepare_deal(seed, session, k, deck, need, n, seat_keys, False, sc)
            check += bare_deal(ri, deck, k % n, sc)
            deals += 1
        out[b, 0] = deals
        out[b, 1] = check


@njit(cache=True, inline="always")
def staged_deal(ri, rf, pol, polf, strength, tables, ws, deck, dealer, seat_keys, sc, oi, of, stage):
    """play_deal from a clean pot, stopping after step ``stage`` (ST_DEAL ... ST_SCORE); the
    steps are play_deal's, so the full stage costs what play_deal costs."""
    clear_record(ri[L.R_PLAYERS], sc, oi, of)
    carried = 0.0
    single = ri[L.R_SINGLE_POT] == 1
    mode = L.FIRST_RENOUNCE if single else ri[L.R_TRUMP]
    miss_dealt = ri[L.R_MISS] == 1 and not single
    oi[L.O_SINGLE] = single
    indicator, t, miss, stock_pos = deal_cards(ri, deck, dealer, mode, miss_dealt, sc, oi)
    pot_start = collect_antes(ri, rf, dealer, carried, of)
    if stage < ST_DECLARE:
        return
    defender, m = declare_all(ri, rf, pol, polf, strength, tables, deck, dealer, carried, single, mode, miss_dealt,
                              indicator, t, pot_start, miss, 0, L.NO_FORCING, L.NO_ACTION, seat_keys, sc,
                              oi)  # fmt: skip
    if settle_uncontested(m, pot_start, sc, oi, of) or stage < ST_TRICKS:
        return
    exchange(ri, pol, deck, single, miss_dealt, t, m, stock_pos, seat_keys, sc)
    penalty = loo_penalty(ri, rf, pot_start)
    if show_flushes(ri, t, m, pot_start, penalty, sc, oi, of):
        return
    play_tricks(ri, pol, seat_keys, single, mode, indicator, t, m, sc, oi, pot_start, penalty, ws)
    if stage < ST_SCORE:
        return
    score(ri, m, pot_start, penalty, defender, sc, oi, of)


@njit(cache=True, **NO_REFCOUNT)
def staged_loop(ri, rf, pol, polf, strength, tables, ws, seed, session, total, stage, deck, sc, seat_keys, oi, of, row,
                counts):  # fmt: skip
    """The deals of staged_block, compiled as the hot drivers' loops are (the deal inlined,
    no reference counting), so that the last stage costs what a deal of simulate costs."""
    n = ri[L.R_PLAYERS]
    need = deck_cards_needed(ri)
    random_seats = any_random(pol, n)
    check = 0
    for k in range(total):
        prepare_deal(seed, session, k, deck, need, n, seat_keys, random_seats, sc)
        if stage == ST_SHUFFLE:
            check += deck[need - 1]
            continue
        staged_deal(ri, rf, pol, polf, strength, tables, ws, deck, k % n, seat_keys, sc, oi, of, stage)
        if stage == ST_AGGREGATE:
            add_deal(row, counts, ri, oi, of, k % n)
        check += oi[L.O_OUTCOME] + oi[L.O_DECL] + sc[L.SC_HANDS] + oi[L.O_WON] + int(of[L.F_POT_NEXT])
    return check


@njit(cache=True)
def staged_block(ri, rf, pol, polf, strength, tables, solver, seed, session, total, stage):
    """Deals 0..total-1 (one thread), each up to step ``stage`` (``STAGES``); returns a
    checksum so that no stage can be optimised away."""
    deck, sc, seat_keys, oi, of = deal_scratch()
    ws = workspace_for(solver)  # None without solver seats (kernel/cardplay.py)
    row = np.zeros(L.A_LEN, dtype=np.float64)
    counts = seat_counts()
    check = 0
    for first in range(0, total, BLOCK):
        check += staged_loop(ri, rf, pol, polf, strength, tables, ws, seed, session, min(BLOCK, total - first), stage,
                             deck, sc, seat_keys, oi, of, row, counts)  # fmt: skip
        add_seat_counts(row, counts, ri[L.R_PLAYERS])
    return check + int(row[L.A_DEALS])
