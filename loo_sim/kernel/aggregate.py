"""One deal's record reduced into a block's aggregate row (``abi.A_*``): the sums behind
every table of ``simulate`` and the variants study.

The chip sums are floats added deal by deal in deal order (so a run's sums do not depend
on how it was split). Everything else is a count: a seat's declaration, whether it was
looed, its tricks and its flush at the show, and its position. Those are counted per
deal into one integer cell per seat (its ``seat_state`` at that dealer, ``SeatCounts``)
and spread into the row's count slots once per block by :func:`add_seat_counts`; whole
numbers add exactly in any order, so the row is the same as counting slot by slot.
"""

import numpy as np
from numba import njit

from loo_sim.game import abi as L
from loo_sim.game.classes import MISS_ROW
from loo_sim.kernel.bits import u
from loo_sim.kernel.classes import hand_class
from loo_sim.kernel.scratch import position_of

NOT_PLAYED = L.MAX_TRICKS + 1  # the "tricks" of a seat that played no tricks in the deal
TRICK_STATES = L.MAX_TRICKS + 2  # 0..MAX_TRICKS tricks won, NOT_PLAYED
FLUSH_STATES = 3  # not at a flush show, at the show without a flush, at the show with one
N_STATES = 4 * 2 * TRICK_STATES * FLUSH_STATES  # declaration x looed x tricks x flush
COUNTS_LEN = L.MAX_PLAYERS * L.MAX_PLAYERS * N_STATES  # [seat, dealer, state]


@njit(cache=True)
def seat_counts():
    """The per-block integer cells of add_deal, zeroed (add_seat_counts zeroes them again)."""
    return np.zeros(COUNTS_LEN, dtype=np.int64)


@njit(cache=True)
def seat_state(d, looed, tricks, flush):
    return ((d * 2 + looed) * TRICK_STATES + tricks) * FLUSH_STATES + flush


@njit(cache=True, inline="always")
def add_deal(agg, counts, ri, oi, of, dealer):
    """Reduce one deal's record into the aggregate row ``agg``: the chip sums and the
    per-deal squares now, each seat's counts into ``counts`` (``add_seat_counts`` spreads
    them into ``agg`` at the end of the block)."""
    n = ri[L.R_PLAYERS]
    outcome = oi[L.O_OUTCOME]
    agg[L.A_DEALS] += 1.0
    agg[u(L.A_OUTCOME + outcome)] += 1.0
    agg[L.A_SINGLE] += oi[L.O_SINGLE]
    ps = of[L.F_POT_START]
    pn = of[L.F_POT_NEXT]
    agg[L.A_POT_START] += ps
    agg[L.A_POT_START_SQ] += ps * ps
    agg[L.A_POT_NEXT] += pn
    agg[L.A_POT_NEXT_SQ] += pn * pn
    shown = ri[L.R_FLUSH] == 1 and oi[L.O_NIN] >= 2
    looed_count = 0
    decl_packed = 0  # seats declaring d, 8 bits per d
    trick_packed = 0  # seats winning k tricks, 8 bits per k
    played = 0
    flush_held = 0
    flush_shown = 0
    for s in range(n):
        base = L.A_SEAT + s * L.SEAT_LEN
        d = oi[u(L.O_DECL + s)]
        looed = oi[u(L.O_LOOED + s)]
        net = of[u(L.F_SHARES + s)] - of[u(L.F_ANTES + s)] - of[u(L.F_PENALTIES + s)]
        looed_count += looed
        decl_packed += 1 << (8 * d)
        agg[u(base + L.S_NET)] += net
        agg[u(base + L.S_NET_SQ)] += net * net
        agg[u(base + L.S_DECL_NET + d)] += net
        agg[u(base + L.S_DECL_NET_SQ + d)] += net * net
        pos = L.A_POS + position_of(s, dealer, n) * L.POS_LEN
        agg[u(pos + L.POS_NET)] += net
        agg[u(pos + L.POS_NET_SQ)] += net * net
        # whether a seat came in is a coin toss to the processor: selects, not branches (a
        # passer's O_WON and O_FLUSH_HELD hold 0)
        is_in = d != L.DECL_PASS
        played_tricks = is_in and outcome == L.OUT_PLAY
        won = oi[u(L.O_WON + s)]
        tricks = won if played_tricks else NOT_PLAYED
        played += played_tricks
        trick_packed += (1 << (8 * won)) if played_tricks else 0
        flush = 0
        if shown:  # the same in every deal of the rules but for the seats in: guessed right
            held = oi[u(L.O_FLUSH_HELD + s)]
            flush = 1 + held if is_in else 0
            flush_shown += is_in
            flush_held += held if is_in else 0
        counts[u((s * L.MAX_PLAYERS + dealer) * N_STATES + seat_state(d, looed, tricks, flush))] += 1
    agg[u(L.A_LOOED_HIST + looed_count)] += 1.0
    for d in range(4):
        c = (decl_packed >> (8 * d)) & 0xFF
        agg[u(L.A_DECL_SQ + d)] += c * c
    for k in range(ri[L.R_HAND] + 1):  # no seat wins more tricks than the hand has cards
        c = (trick_packed >> (8 * k)) & 0xFF
        agg[u(L.A_TRICKS_XX + k)] += c * c
        agg[u(L.A_TRICKS_XY + k)] += c * played
    agg[L.A_PLAYED_YY] += played * played
    agg[L.A_FLUSH_XX] += flush_held * flush_held
    agg[L.A_FLUSH_XY] += flush_held * flush_shown
    agg[L.A_FLUSH_YY] += flush_shown * flush_shown


@njit(cache=True)
def add_seat_counts(agg, counts, n):
    """Spread the seats' counts of a block into its row ``agg`` (declarations, looed,
    tricks, flushes by seat and by declaration; looed and in the deal by position) and
    zero them."""
    for s in range(n):
        base = L.A_SEAT + s * L.SEAT_LEN
        for dealer in range(n):
            pos = L.A_POS + position_of(s, dealer, n) * L.POS_LEN
            cell = (s * L.MAX_PLAYERS + dealer) * N_STATES
            for d in range(4):
                for looed in range(2):
                    for tricks in range(TRICK_STATES):
                        for flush in range(FLUSH_STATES):
                            i = cell + seat_state(d, looed, tricks, flush)
                            c = counts[i]
                            if c == 0:
                                continue
                            counts[i] = 0
                            agg[base + L.S_DECL + d] += c
                            agg[base + L.S_LOOED] += c * looed
                            agg[base + L.S_DECL_LOOED + d] += c * looed
                            agg[pos + L.POS_LOOED] += c * looed
                            agg[pos + L.POS_IN] += c * (d != L.DECL_PASS)
                            if tricks != NOT_PLAYED:
                                agg[base + L.S_PLAYED] += c
                                agg[base + L.S_TRICKS + tricks] += c
                            if flush > 0:
                                agg[base + L.S_FLUSH_SHOWN] += c
                                agg[base + L.S_FLUSH_HELD] += c * (flush - 1)


@njit(cache=True, inline="always")
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
