"""Many deals in parallel (docs/design.md properties 3-5).

Deals are grouped in fixed blocks of ``BLOCK`` deals; ``run_block`` reduces one block's
deals to one aggregate row (``abi.A_*``), and ``run.tasks`` runs blocks on threads. Blocks
never share a slot, and the caller adds the rows in block order, so the result is the
same bit for bit whatever the number of threads or the number of blocks per call.

``play_rows`` (``play_deals``) plays given decks instead and keeps every deal's record
row; ``shuffle_many`` writes the decks of a run (``rng.shuffled_deck`` in bulk).
"""

import numpy as np
from numba import njit, prange

from loo_sim.game import abi as L
from loo_sim.kernel.aggregate import add_classes, add_deal, add_seat_counts, seat_counts
from loo_sim.kernel.bits import POS
from loo_sim.kernel.cardplay import workspace_for
from loo_sim.kernel.deal import play_deal, play_deal_flat
from loo_sim.kernel.krng import shuffle_prefix, stream_key
from loo_sim.kernel.nrt import NO_REFCOUNT
from loo_sim.kernel.scratch import (
    any_random,
    deal_scratch,
    deck_cards_needed,
    prepare_deal,
    set_seat_keys,
)

CARD_NUMBERS = np.arange(52, dtype=np.int64)  # the canonical deck as card numbers (shuffled_decks)


@njit(cache=True, **NO_REFCOUNT)
def play_block(ri, rf, pol, polf, strength, tables, ws, seed, session, first, count, dealer0, rotate, carried, agg,
               by_class, deck, sc, seat_keys, oi, of, counts):  # fmt: skip
    """run_block's deals, with the deal inlined, its tricks too (kernel/deal.py: why without
    reference counting, and why only here play_deal_flat)."""
    n = ri[L.R_PLAYERS]
    need = deck_cards_needed(ri)
    random_seats = any_random(pol, n)
    for k in range(first, first + count):
        prepare_deal(seed, session, k, deck, need, n, seat_keys, random_seats, sc)
        dealer = dealer0
        if rotate:
            dealer = (dealer0 + k) % n
        play_deal_flat(ri, rf, pol, polf, strength, tables, ws, deck, dealer, carried, seat_keys, sc, oi, of,
                       L.NO_FORCING, 0)  # fmt: skip
        add_deal(agg, counts, ri, oi, of, dealer)
        if by_class:
            add_classes(agg, ri, oi, sc)


@njit(cache=True, nogil=True)
def run_block(ri, rf, pol, polf, strength, tables, solver, seed, session, first, count, dealer0, rotate, carried, agg,
              by_class):  # fmt: skip
    """Play deals first..first+count-1 of the run keyed (seed, session) into ``agg``;
    ``by_class`` adds the hands played and looed by hand class."""
    deck, sc, seat_keys, oi, of = deal_scratch()
    ws = workspace_for(solver)  # None without solver seats (kernel/cardplay.py)
    counts = seat_counts()
    play_block(ri, rf, pol, polf, strength, tables, ws, seed, session, first, count, dealer0, rotate, carried, agg,
               by_class, deck, sc, seat_keys, oi, of, counts)  # fmt: skip
    add_seat_counts(agg, counts, ri[L.R_PLAYERS])


@njit(cache=True, nogil=True)
def play_rows(ri, rf, pol, polf, strength, tables, solver, decks, dealers, carried, seed, session, deal_ids, lo, hi,
              forced_seat, forced_action, script, oi_out, of_out):  # fmt: skip
    """Deals lo..hi-1 of ``decks``: deal i's record into row i of ``oi_out``/``of_out``, the
    seats' own streams keyed (seed, session, deal_ids[i]); ``forced_seat`` declares
    ``forced_action`` in every deal (``L.NO_FORCING``: nobody is forced; advise's replays, P4),
    and the first cards of every deal are ``script``'s (card numbers in play order, each
    checked: ``O_SCRIPT_BROKEN``; empty: none)."""
    n = ri[L.R_PLAYERS]
    deck, sc, seat_keys, oi, of = deal_scratch()
    sc[L.SC_SCRIPT_LEN] = script.shape[0]
    for j in range(script.shape[0]):
        sc[L.SC_SCRIPT + j] = POS[script[j]]
    ws = workspace_for(solver)  # None without solver seats (kernel/cardplay.py)
    random_seats = any_random(pol, n)
    for i in range(lo, hi):
        if random_seats:
            set_seat_keys(seed, session, deal_ids[i], n, seat_keys)
        for c in range(52):  # card numbers to the bit positions play_deal reads
            deck[c] = POS[decks[i, c]]
        sc[L.SC_SHUFFLED] = 52  # a given deck is final throughout
        play_deal(ri, rf, pol, polf, strength, tables, ws, deck, dealers[i], carried[i], seat_keys, sc, oi, of,
                  forced_seat, forced_action)  # fmt: skip
        for j in range(oi.shape[0]):  # loops, not row copies: those compile their shape check's message
            oi_out[i, j] = oi[j]
        for j in range(of.shape[0]):
            of_out[i, j] = of[j]


@njit(cache=True, parallel=True)
def shuffle_many(seed, session, first, out):
    """Row i of ``out`` [N, 52]: the deck of deal first + i of the run keyed (seed,
    session), shuffled in full (as ``rng.shuffled_deck``)."""
    for i in prange(out.shape[0]):
        shuffle_prefix(stream_key(seed, session, first + np.uint64(i), np.uint64(0)), out[i], 52, CARD_NUMBERS)
