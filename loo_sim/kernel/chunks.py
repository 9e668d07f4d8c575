"""Many deals in parallel (docs/design.md properties 3-5).

Deals are grouped in fixed blocks of ``BLOCK`` deals; ``prange`` runs over blocks and
each block reduces its deals to one aggregate row (``abi.A_*``). Blocks never share
a slot, and the caller adds the rows in block order, so the result is the same bit for
bit whatever the number of threads or the number of blocks per call.

``play_many`` (``play_deals``) plays given decks instead and keeps every deal's record
row; ``shuffle_many`` writes the decks of a run (``rng.shuffled_deck`` in bulk).
"""

import numpy as np
from numba import njit, prange

from loo_sim.config import BLOCK
from loo_sim.game.classes import MISS_ROW
from loo_sim.kernel import abi as L
from loo_sim.kernel.classes import hand_class
from loo_sim.kernel.deal import play_deal
from loo_sim.kernel.krng import shuffle_prefix, stream_key
from loo_sim.kernel.scratch import (
    any_random,
    deal_scratch,
    deck_cards_needed,
    position_of,
    prepare_deal,
    set_seat_keys,
)


@njit(cache=True)
def add_classes(agg, ri, oi, sc):
    """Hands played by class (at their declaration) and how many were looed."""
    if oi[L.O_OUTCOME] == L.OUT_LONE or oi[L.O_OUTCOME] == L.OUT_NOBODY:
        return
    t = oi[L.O_T_DECL]
    for s in range(ri[L.R_PLAYERS]):
        d = oi[L.O_DECL + s]
        if d == L.DECL_PLAY:
            cls = hand_class(sc[L.SC_DEALT + s], t, ri[L.R_PAM])
        elif d == L.DECL_MISS:
            cls = MISS_ROW
        else:
            continue
        agg[L.A_CLASS + 2 * cls] += 1.0
        agg[L.A_CLASS + 2 * cls + 1] += oi[L.O_LOOED + s]


@njit(cache=True)
def add_deal(agg, ri, oi, of, decl_count, trick_count, dealer):
    """Reduce one deal's record into the aggregate row ``agg`` (the two count arrays
    are scratch)."""
    n = ri[L.R_PLAYERS]
    outcome = oi[L.O_OUTCOME]
    agg[L.A_DEALS] += 1.0
    agg[L.A_OUTCOME + outcome] += 1.0
    agg[L.A_SINGLE] += oi[L.O_SINGLE]
    ps = of[L.F_POT_START]
    pn = of[L.F_POT_NEXT]
    agg[L.A_POT_START] += ps
    agg[L.A_POT_START_SQ] += ps * ps
    agg[L.A_POT_NEXT] += pn
    agg[L.A_POT_NEXT_SQ] += pn * pn
    looed_count = 0
    shown = ri[L.R_FLUSH] == 1 and oi[L.O_NIN] >= 2
    decl_count[:] = 0
    trick_count[:] = 0
    played = 0
    flush_held = 0
    flush_shown = 0
    for s in range(n):
        base = L.A_SEAT + s * L.SEAT_LEN
        d = oi[L.O_DECL + s]
        looed = oi[L.O_LOOED + s]
        net = of[L.F_SHARES + s] - of[L.F_ANTES + s] - of[L.F_PENALTIES + s]
        looed_count += looed
        decl_count[d] += 1
        agg[base + L.S_DECL + d] += 1.0
        agg[base + L.S_LOOED] += looed
        agg[base + L.S_NET] += net
        agg[base + L.S_NET_SQ] += net * net
        agg[base + L.S_DECL_NET + d] += net
        agg[base + L.S_DECL_NET_SQ + d] += net * net
        agg[base + L.S_DECL_LOOED + d] += looed
        pos = L.A_POS + position_of(s, dealer, n) * L.POS_LEN
        agg[pos + L.POS_NET] += net
        agg[pos + L.POS_NET_SQ] += net * net
        agg[pos + L.POS_LOOED] += looed
        agg[pos + L.POS_IN] += d != L.DECL_PASS
        if d != L.DECL_PASS:
            if outcome == L.OUT_PLAY:
                agg[base + L.S_PLAYED] += 1.0
                agg[base + L.S_TRICKS + oi[L.O_WON + s]] += 1.0
                played += 1
                trick_count[oi[L.O_WON + s]] += 1
            if shown:
                agg[base + L.S_FLUSH_SHOWN] += 1.0
                agg[base + L.S_FLUSH_HELD] += oi[L.O_FLUSH_HELD + s]
                flush_shown += 1
                flush_held += oi[L.O_FLUSH_HELD + s]
    agg[L.A_LOOED_HIST + looed_count] += 1.0
    for d in range(4):
        agg[L.A_DECL_SQ + d] += decl_count[d] * decl_count[d]
    for k in range(L.MAX_TRICKS + 1):
        agg[L.A_TRICKS_XX + k] += trick_count[k] * trick_count[k]
        agg[L.A_TRICKS_XY + k] += trick_count[k] * played
    agg[L.A_PLAYED_YY] += played * played
    agg[L.A_FLUSH_XX] += flush_held * flush_held
    agg[L.A_FLUSH_XY] += flush_held * flush_shown
    agg[L.A_FLUSH_YY] += flush_shown * flush_shown


@njit(cache=True, nogil=True)
def run_block(ri, rf, pol, polf, strength, chart, seed, session, first, count, dealer0, rotate, carried, agg,
              by_class):  # fmt: skip
    """Play deals first..first+count-1 of the run keyed (seed, session) into ``agg``;
    ``by_class`` adds the hands played and looed by hand class."""
    n = ri[L.R_PLAYERS]
    deck, sc, seat_keys, oi, of = deal_scratch()
    decl_count = np.zeros(4, dtype=np.int64)
    trick_count = np.zeros(L.MAX_TRICKS + 1, dtype=np.int64)
    need = deck_cards_needed(ri)
    random_seats = any_random(pol, n)
    for k in range(first, first + count):
        prepare_deal(seed, session, k, deck, need, n, seat_keys, random_seats)
        dealer = dealer0
        if rotate:
            dealer = (dealer0 + k) % n
        play_deal(ri, rf, pol, polf, strength, chart, deck, dealer, carried, seat_keys, sc, oi, of, L.NO_FORCING, 0)
        add_deal(agg, ri, oi, of, decl_count, trick_count, dealer)
        if by_class:
            add_classes(agg, ri, oi, sc)


@njit(cache=True, parallel=True)
def run_blocks(ri, rf, pol, polf, strength, chart, seed, session, first_block, n_blocks, total, dealer0, rotate,
               carried, out, by_class):  # fmt: skip
    """Blocks first_block.. of a run of ``total`` deals; block b's aggregates in out[b - first_block]."""
    for b in prange(n_blocks):
        block = first_block + b
        first = block * BLOCK
        count = min(BLOCK, total - first)
        out[b, :] = 0.0
        if count > 0:
            run_block(ri, rf, pol, polf, strength, chart, seed, session, first, count, dealer0, rotate, carried,
                      out[b], by_class)  # fmt: skip


@njit(cache=True, nogil=True)
def play_rows(ri, rf, pol, polf, strength, chart, decks, dealers, carried, seed, session, first_index, lo, hi,
              oi_out, of_out):  # fmt: skip
    """Deals lo..hi-1 of ``decks``: deal i's record into row i of ``oi_out``/``of_out``, the
    seats' own streams keyed (seed, session, first_index + i)."""
    n = ri[L.R_PLAYERS]
    _, sc, seat_keys, oi, of = deal_scratch()
    random_seats = any_random(pol, n)
    for i in range(lo, hi):
        if random_seats:
            set_seat_keys(seed, session, first_index + np.uint64(i), n, seat_keys)
        play_deal(ri, rf, pol, polf, strength, chart, decks[i], dealers[i], carried[i], seat_keys, sc, oi, of,
                  L.NO_FORCING, 0)  # fmt: skip
        oi_out[i, :] = oi
        of_out[i, :] = of


@njit(cache=True, parallel=True)
def play_many(ri, rf, pol, polf, strength, chart, decks, dealers, carried, seed, session, first_index, oi_out,
              of_out):  # fmt: skip
    """Play deal i of ``decks`` [N, 52] (dealt by ``dealers[i]`` with ``carried[i]`` chips
    in) into row i of ``oi_out``/``of_out``, blocks of ``BLOCK`` deals in parallel; every
    row depends on its deal alone, so the rows do not depend on the threads."""
    count = decks.shape[0]
    n_blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        lo = b * BLOCK
        hi = min(lo + BLOCK, count)
        play_rows(ri, rf, pol, polf, strength, chart, decks, dealers, carried, seed, session, first_index, lo, hi,
                  oi_out, of_out)  # fmt: skip


@njit(cache=True, parallel=True)
def shuffle_many(seed, session, first, out):
    """Row i of ``out`` [N, 52]: the deck of deal first + i of the run keyed (seed,
    session), shuffled in full (as ``rng.shuffled_deck``)."""
    for i in prange(out.shape[0]):
        shuffle_prefix(stream_key(seed, session, first + np.uint64(i), np.uint64(0)), out[i], 52)
