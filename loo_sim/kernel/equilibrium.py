"""The declaration game's oracle (docs/policies.md P6) in numba: the payoff of every action at
every information set against the table as it plays (what fictitious play best-responds
to), and what a given response gains over the table deal by deal (NashConv). Both replay
a deal from the decision (``counterfactual.play_with_replays``): the shuffle, the deal and
the earlier declarations are shared, every stream is the same in each arm."""

import numpy as np
from numba import njit

from loo_sim.game import abi as L
from loo_sim.kernel.cardplay import workspace_for
from loo_sim.kernel.counterfactual import add_cell, focal_pays, play_with_replays, real_choice, seat_infoset
from loo_sim.kernel.nrt import NO_REFCOUNT
from loo_sim.kernel.scratch import BLOCK, any_random, deal_scratch, deck_cards_needed, position_of

# exploit_lane's sums by position from the dealer's left (rows 1..players) and for the
# whole table (row E_TABLE: gains summed over seats on the same deal)
E_GAIN, E_GAIN_SQ, E_VALUE, E_VALUE_SQ, E_DEALS, E_ANTES = range(6)
E_LEN = 6
E_TABLE = L.MAX_PLAYERS + 1


def _scratch(n_jobs):
    deck, sc, seat_keys, oi, of = deal_scratch()
    base_options = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    base_decl = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    jobs = np.zeros((n_jobs, 2), dtype=np.int64)
    job_pay = np.zeros(L.MAX_PLAYERS + n_jobs, dtype=np.float64)
    return deck, sc, seat_keys, oi, of, base_options, base_decl, jobs, job_pay


scratch = njit(cache=True)(_scratch)


@njit(cache=True, **NO_REFCOUNT)
def infoset_deals(ri, rf, pol, polf, strength, tables, ws, seed, session, first, last, carried, seats, out, deck, sc,
                  seat_keys, oi, of, base_options, base_decl, jobs, job_pay, pay, no_br):  # fmt: skip
    n = ri[L.R_PLAYERS]
    need = deck_cards_needed(ri)
    random_seats = any_random(pol, n)
    for k in range(first, last):
        dealer, n_jobs = play_with_replays(ri, rf, pol, polf, strength, tables, ws, seed, session, k, need,
                                           random_seats, deck, carried, seat_keys, sc, oi, of, seats, no_br,
                                           base_options, base_decl, jobs, job_pay)  # fmt: skip
        j = 1
        for s in range(n):
            options = base_options[s]
            if not real_choice(options):
                continue
            chosen = base_decl[s]
            j = focal_pays(s, chosen, options, jobs, job_pay, j, n_jobs, pay)
            add_cell(out[seat_infoset(ri, rf, dealer, s, options, sc, oi, of, base_decl)], options, chosen, pay)


@njit(cache=True, nogil=True)
def infoset_lane(ri, rf, pol, polf, strength, tables, solver, seed, session, lane, lanes, total, carried, out):
    """out[information set, CF_*], added into: for each deal of the blocks lane, lane +
    lanes, ... (in that order) and each seat with a real choice, its payoff under every
    declaration on offer (the others replayed from its decision, the later seats
    declaring by their policies), in the cell of the information set it declared at (P6;
    kernel/infosets.py). A lane's sums do not depend on the threads that run the lanes."""
    n = ri[L.R_PLAYERS]
    deck, sc, seat_keys, oi, of, base_options, base_decl, jobs, job_pay = scratch(1 + L.MAX_PLAYERS * L.ACTIONS)
    ws = workspace_for(solver)  # None without solver seats (kernel/cardplay.py)
    pay = np.zeros(L.ACTIONS, dtype=np.float64)
    seats = np.arange(n)
    no_br = np.zeros(0, dtype=np.int64)
    block = lane
    while block * BLOCK < total:
        first = block * BLOCK
        infoset_deals(ri, rf, pol, polf, strength, tables, ws, seed, session, first, min(first + BLOCK, total), carried,
                      seats, out, deck, sc, seat_keys, oi, of, base_options, base_decl, jobs, job_pay, pay,
                      no_br)  # fmt: skip
        block += lanes


@njit(cache=True, **NO_REFCOUNT)
def exploit_deals(ri, rf, pol, polf, strength, tables, ws, seed, session, first, last, carried, seats, br, out, deck,
                  sc, seat_keys, oi, of, base_options, base_decl, jobs, job_pay):  # fmt: skip
    n = ri[L.R_PLAYERS]
    need = deck_cards_needed(ri)
    random_seats = any_random(pol, n)
    for k in range(first, last):
        dealer, n_jobs = play_with_replays(ri, rf, pol, polf, strength, tables, ws, seed, session, k, need,
                                           random_seats, deck, carried, seat_keys, sc, oi, of, seats, br, base_options,
                                           base_decl, jobs, job_pay)  # fmt: skip
        total = 0.0
        antes = 0.0
        j = 1
        for s in range(n):
            gain = 0.0
            if j < n_jobs and jobs[j, 0] == s:
                gain = job_pay[L.MAX_PLAYERS + j] - job_pay[s]
                j += 1
            value = job_pay[s]
            row = out[position_of(s, dealer, n)]
            row[E_GAIN] += gain
            row[E_GAIN_SQ] += gain * gain
            row[E_VALUE] += value
            row[E_VALUE_SQ] += value * value
            row[E_DEALS] += 1.0
            total += gain
            antes += of[L.F_ANTES + s]
        row = out[E_TABLE]
        row[E_GAIN] += total
        row[E_GAIN_SQ] += total * total
        row[E_DEALS] += 1.0
        row[E_ANTES] += antes


@njit(cache=True, nogil=True)
def exploit_lane(ri, rf, pol, polf, strength, tables, solver, seed, session, lane, lanes, total, carried, br, out):
    """out[position, E_*] (row E_TABLE: the whole table), added into: deal by deal of the
    blocks lane, lane + lanes, ..., what each seat gains by declaring as the response
    ``br`` [information set] -> action (-1: as the table) instead of as its policy, the
    later seats declaring by theirs, and its value under the table's policies. The
    table's gain is the sum over seats on the same deal (NashConv's estimate, paired)."""
    n = ri[L.R_PLAYERS]
    deck, sc, seat_keys, oi, of, base_options, base_decl, jobs, job_pay = scratch(1 + L.MAX_PLAYERS)
    ws = workspace_for(solver)  # None without solver seats (kernel/cardplay.py)
    seats = np.arange(n)
    block = lane
    while block * BLOCK < total:
        first = block * BLOCK
        exploit_deals(ri, rf, pol, polf, strength, tables, ws, seed, session, first, min(first + BLOCK, total), carried,
                      seats, br, out, deck, sc, seat_keys, oi, of, base_options, base_decl, jobs, job_pay)  # fmt: skip
        block += lanes
