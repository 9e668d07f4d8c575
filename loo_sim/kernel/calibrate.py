"""Strength-table calibration in numba: how many tricks hands of each class win, by the
number of seats in the deal (docs/policies.md P3, P5), and how often seats enter a deal."""

from numba import njit

from loo_sim.game import abi as L
from loo_sim.game.classes import MISS_ROW
from loo_sim.kernel.cardplay import workspace_for
from loo_sim.kernel.classes import hand_class
from loo_sim.kernel.deal import play_deal
from loo_sim.kernel.scratch import BLOCK, deal_scratch, deck_cards_needed, prepare_deal


@njit(cache=True)
def count_tricks(ri, oi, sc, counts, entries):
    """Add one played deal: counts[class, seats in deal, tricks] for every own hand
    played, counts[MISS_ROW, ...] for the miss; entries = (seats in, seats declaring)."""
    n = ri[L.R_PLAYERS]
    entries[1] += n
    entries[0] += oi[L.O_NIN]
    if oi[L.O_OUTCOME] != L.OUT_PLAY:
        return
    m = oi[L.O_NIN]
    t = oi[L.O_T_DECL]
    for s in range(n):
        d = oi[L.O_DECL + s]
        if d == L.DECL_PLAY:
            cls = hand_class(sc[L.SC_DEALT + s], t, ri[L.R_PAM])
            counts[cls, m, oi[L.O_WON + s]] += 1
        elif d == L.DECL_MISS or d == L.DECL_DEFEND:
            counts[MISS_ROW, m, oi[L.O_WON + s]] += 1


@njit(cache=True, nogil=True)
def calibrate_block(ri, rf, pol, polf, strength, tables, solver, seed, session, block, total, carried, counts, entries):
    """counts / entries: the trick counts and entries of block ``block`` (deals
    block*BLOCK.., up to ``total``), added into. ``ri`` may have fewer players than the
    rules allow (2 seats: a table where just two hands are in the deal). Blocks are
    independent: ``run.strength`` runs them on threads (nogil)."""
    first = block * BLOCK
    n = ri[L.R_PLAYERS]
    deck, sc, seat_keys, oi, of = deal_scratch()
    ws = workspace_for(solver)  # None without solver seats (kernel/cardplay.py)
    need = deck_cards_needed(ri)
    for k in range(first, min(first + BLOCK, total)):
        prepare_deal(seed, session, k, deck, need, n, seat_keys, False, sc)  # no seat streams in calibration
        play_deal(ri, rf, pol, polf, strength, tables, ws, deck, k % n, carried, seat_keys, sc, oi, of, L.NO_FORCING,
                  L.NO_ACTION)  # fmt: skip
        count_tricks(ri, oi, sc, counts, entries)
