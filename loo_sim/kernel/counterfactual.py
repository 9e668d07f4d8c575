"""Counterfactual evaluation (docs/policies.md P4) in numba: replay the same deal once per
alternative declaration of a focal seat, or once per heuristic played by the focal
seat; the other seats keep their policies, the deck and every random stream stay the
same, so each comparison is paired deal by deal."""

import numpy as np
from numba import njit

from loo_sim.game import abi as L
from loo_sim.game.classes import EARLIER_IN_BINS
from loo_sim.kernel.cardplay import workspace_for
from loo_sim.kernel.classes import hand_class
from loo_sim.kernel.deal import begin_deal, finish_deal_call, loo_penalty, rewind_deal
from loo_sim.kernel.infosets import infoset_index
from loo_sim.kernel.nrt import NO_REFCOUNT
from loo_sim.kernel.scratch import BLOCK, any_random, deal_scratch, deck_cards_needed, position_of, prepare_deal
from loo_sim.kernel.session_pots import deal_carried, pot_bucket


@njit(cache=True, inline="always")
def payoff(of, seat):
    return of[L.F_SHARES + seat] - of[L.F_ANTES + seat] - of[L.F_PENALTIES + seat]


@njit(cache=True, inline="always")
def real_choice(options):
    """Whether a seat was offered two declarations or more (``options``: bits 1 << DECL_*;
    0 for a seat not reached)."""
    return options != 0 and (options & (options - 1)) != 0


@njit(cache=True, inline="always")
def play_with_replays(ri, rf, pol, polf, strength, tables, ws, seed, session, k, need, random_seats, deck, carried,
                      seat_keys, sc, oi, of, focal_seats, br, base_options, base_decl, jobs, job_pay):  # fmt: skip
    """Deal k (shuffled and dealt here; the dealer is k mod players) played as the policies
    play it (job 0, the
    baseline: what each seat was offered, chose and got into base_options, base_decl,
    job_pay[seat]), then replayed from each focal seat's decision once per job (seat,
    action) into job_pay[MAX_PLAYERS + j]: the deal is rewound to just before that
    decision (the deck, the hands and the earlier declarations stay, as they are the same
    in every replay) and finished with the seat forced to the action. The jobs: every
    declaration on offer that the seat did not choose (``br`` empty), or the one of the
    response ``br`` [information set] -> action where it differs from the choice (-1:
    none). One call of finish_deal_call serves the baseline and the replays: the deal's
    steps compiled once, and shared with play_deal. Returns (the dealer, the number of jobs, the baseline included)."""
    n = ri[L.R_PLAYERS]
    prepare_deal(seed, session, k, deck, need, n, seat_keys, random_seats, sc)
    dealer = k % n
    begin_deal(ri, rf, deck, dealer, carried, sc, oi, of)
    n_jobs = 1
    j = 0
    while j < n_jobs:
        first_i, seat, action = 0, L.NO_FORCING, L.NO_ACTION
        if j > 0:
            seat, action = jobs[j, 0], jobs[j, 1]
            first_i = position_of(seat, dealer, n) - 1
            rewind_deal(ri, first_i, base_decl, base_options, sc, oi, of)
        finish_deal_call(ri, rf, pol, polf, strength, tables, ws, deck, dealer, carried, seat_keys, sc, oi, of,
                         first_i, seat, action)  # fmt: skip
        if j == 0:
            for s in range(n):
                base_options[s] = oi[L.O_OPTIONS + s]
                base_decl[s] = oi[L.O_DECL + s]
                job_pay[s] = payoff(of, s)
            for f in range(focal_seats.shape[0]):
                focal = focal_seats[f]
                options = base_options[focal]
                if not real_choice(options):
                    continue
                if br.shape[0] == 0:
                    for a in range(L.ACTIONS):
                        if a != base_decl[focal] and (options >> a) & 1:
                            jobs[n_jobs, 0], jobs[n_jobs, 1] = focal, a
                            n_jobs += 1
                else:
                    a = br[seat_infoset(ri, rf, dealer, focal, options, sc, oi, of, base_decl)]
                    if a >= 0 and a != base_decl[focal] and (options >> a) & 1:
                        jobs[n_jobs, 0], jobs[n_jobs, 1] = focal, a
                        n_jobs += 1
        else:
            job_pay[L.MAX_PLAYERS + j] = payoff(of, seat)
        j += 1
    return dealer, n_jobs


@njit(cache=True, inline="always")
def earlier_in(position, sc, base_decl):
    """Seats before ``position`` that came in (they declare alike in every replay)."""
    earlier = 0
    for i in range(position - 1):
        earlier += base_decl[sc[L.SC_ORDER + i]] != L.DECL_PASS
    return earlier


@njit(cache=True, inline="always")
def seat_infoset(ri, rf, dealer, seat, options, sc, oi, of, base_decl):
    """The information set (P6) a seat declared at in the baseline, where ``options`` were on
    offer to it (base_options: the record's own may be a replay's by now)."""
    n = ri[L.R_PLAYERS]
    position = position_of(seat, dealer, n)
    pot_start = of[L.F_POT_START]
    penalty = loo_penalty(ri, rf, pot_start)
    cls = hand_class(sc[L.SC_DEALT + seat], oi[L.O_T_DECL], ri[L.R_PAM])
    return infoset_index(cls, position, earlier_in(position, sc, base_decl), options, pot_start, penalty)


@njit(cache=True, inline="always")
def focal_pays(focal, chosen, options, jobs, job_pay, j, n_jobs, pay):
    """The focal seat's payoff under each action on offer into ``pay``: the baseline's for
    the action it chose, its replays' (jobs j.. of this seat) for the others. Returns the
    next job."""
    pay[chosen] = job_pay[focal]
    while j < n_jobs and jobs[j, 0] == focal:
        pay[jobs[j, 1]] = job_pay[L.MAX_PLAYERS + j]
        j += 1
    return j


@njit(cache=True, inline="always")
def add_cell(cell, options, chosen, pay):
    """One decision into its cell (CF_*): the payoff of each action on offer, its square,
    the paired differences of every pair on offer, and what was chosen."""
    cell[L.CF_CHOSEN + chosen] += 1.0
    for a in range(L.ACTIONS):
        if (options >> a) & 1:
            cell[L.CF_N + a] += 1.0
            cell[L.CF_SUM + a] += pay[a]
            cell[L.CF_SQ + a] += pay[a] * pay[a]
    for p in range(len(L.PAIRS)):
        a, c = L.PAIRS[p]
        if (options >> a) & 1 and (options >> c) & 1:
            d = pay[a] - pay[c]
            cell[L.CF_PAIR_N + p] += 1.0
            cell[L.CF_PAIR_SUM + p] += d
            cell[L.CF_PAIR_SQ + p] += d * d


@njit(cache=True, inline="always")
def add_decisions(ri, dealer, focal_seats, sc, oi, out, base_options, base_decl, jobs, job_pay, n_jobs, pay):
    """One deal's decisions into their chart cells [class, position, offer, earlier]: each
    focal seat's payoff under every action on offer (``pay`` is scratch)."""
    n = ri[L.R_PLAYERS]
    j = 1
    for f in range(focal_seats.shape[0]):
        focal = focal_seats[f]
        options = base_options[focal]
        chosen = base_decl[focal]
        if not real_choice(options):
            continue
        cls = hand_class(sc[L.SC_DEALT + focal], oi[L.O_T_DECL], ri[L.R_PAM])
        position = position_of(focal, dealer, n)
        offer = 1 if (options >> L.DECL_MISS) & 1 or (options >> L.DECL_DEFEND) & 1 else 0
        earlier = earlier_in(position, sc, base_decl)
        j = focal_pays(focal, chosen, options, jobs, job_pay, j, n_jobs, pay)
        add_cell(out[cls, position, offer, min(earlier, EARLIER_IN_BINS - 1)], options, chosen, pay)


@njit(cache=True)
def decision_scratch(solver):
    """decision_block's working arrays, one set per block: the deal's (deal_scratch), the
    solver seats' workspace (None without them), then per seat as the policies played the
    deal (base_options, base_decl), the replays' seat and action (jobs) and payoffs
    (job_pay), one decision's payoffs (pay) and an empty best response (no_br). The
    caller allocates them: decision_block runs without reference counting (nrt.py), and a
    separate call of its own for the allocations would link the whole deal into one more
    compiled library (each library compiles every function it calls again)."""
    deck, sc, seat_keys, oi, of = deal_scratch()
    ws = workspace_for(solver)  # None without solver seats (kernel/cardplay.py)
    base_options = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    base_decl = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    jobs = np.zeros((1 + L.MAX_PLAYERS * L.ACTIONS, 2), dtype=np.int64)
    job_pay = np.zeros(L.MAX_PLAYERS + 1 + L.MAX_PLAYERS * L.ACTIONS, dtype=np.float64)
    pay = np.zeros(L.ACTIONS, dtype=np.float64)
    no_br = np.zeros(0, dtype=np.int64)
    return deck, sc, seat_keys, oi, of, ws, base_options, base_decl, jobs, job_pay, pay, no_br


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def decision_block(ri, rf, pol, polf, strength, tables, seed, session, block, total, carried, pot_values, pot_cum,
                   draw_session, focal_seats, out, scratch):  # fmt: skip
    """out[pot bucket, class, position, miss on offer, earlier seats in, CF_*], added into: for each
    deal of block ``block`` and each focal seat with a real choice, the focal payoff of
    every declaration on offer, in the cell of what that seat sees when it declares (its
    hand class, its position, whether the miss is on offer to it, to take or as the dealer
    to defend with, and how many earlier seats came in: 0, 1, 2, 3+), and of the deal's pot.
    Each deal is played once as the policies play it, then replayed from each focal
    seat's decision once per other declaration on offer (play_with_replays), from
    ``carried`` chips or, with ``pot_values``, a carried pot drawn per deal
    (deal_carried); its decisions go to the bucket of its pot against the penalty (bucket
    0 when ``out`` has one). ``scratch``: decision_scratch's arrays. Blocks are
    independent: ``run.tasks.decision_task`` runs them on threads (nogil)."""
    deck, sc, seat_keys, oi, of, ws, base_options, base_decl, jobs, job_pay, pay, no_br = scratch
    n = ri[L.R_PLAYERS]
    need = deck_cards_needed(ri)
    random_seats = any_random(pol, n)
    first = block * BLOCK
    for k in range(first, min(first + BLOCK, total)):
        c = deal_carried(carried, pot_values, pot_cum, seed, draw_session, k)
        dealer, n_jobs = play_with_replays(ri, rf, pol, polf, strength, tables, ws, seed, session, k, need,
                                           random_seats, deck, c, seat_keys, sc, oi, of, focal_seats, no_br,
                                           base_options, base_decl, jobs, job_pay)  # fmt: skip
        pot_start = of[L.F_POT_START]
        bucket = pot_bucket(pot_start, loo_penalty(ri, rf, pot_start), out.shape[0])
        add_decisions(ri, dealer, focal_seats, sc, oi, out[bucket], base_options, base_decl, jobs, job_pay, n_jobs,
                      pay)  # fmt: skip


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def heuristic_block(ri, rf, pol, strength, tables, seed, session, block, total, carried, pot_values, pot_cum,
                    draw_session, focal, variants, variants_f, out, scratch):  # fmt: skip
    """out[h, H_*], added into: deal by deal of block ``block``, the focal seat plays
    heuristic h (``variants[h]`` policy codes, ``variants_f[h]`` parameters) at the same
    table; differences are taken against heuristic 0 on the same deal (from ``carried``
    chips, or a carried pot drawn per deal from ``pot_values``: deal_carried).
    ``scratch``: copies of the policy codes and parameters (``pol``, ``polf``) in which
    the focal seat's row is changed, then the deal's arrays and the solver seats'
    workspace as decision_scratch makes them. Blocks are independent:
    ``run.tasks.heuristic_task`` runs them on threads (nogil)."""
    my_pol, my_polf, deck, sc, seat_keys, oi, of, ws = scratch
    n = ri[L.R_PLAYERS]
    need = deck_cards_needed(ri)
    n_h = variants.shape[0]
    random_seats = any_random(pol, n) or any_random(variants, n_h)
    first = block * BLOCK
    for k in range(first, min(first + BLOCK, total)):
        prepare_deal(seed, session, k, deck, need, n, seat_keys, random_seats, sc)
        c = deal_carried(carried, pot_values, pot_cum, seed, draw_session, k)
        base = 0.0
        for h in range(n_h):
            for j in range(my_pol.shape[1]):  # a loop, not a row copy: that compiles its shape check's message
                my_pol[focal, j] = variants[h, j]
            for j in range(my_polf.shape[1]):
                my_polf[focal, j] = variants_f[h, j]
            begin_deal(ri, rf, deck, k % n, c, sc, oi, of)  # play_deal's steps, without a library of its own
            finish_deal_call(ri, rf, my_pol, my_polf, strength, tables, ws, deck, k % n, c, seat_keys, sc, oi, of, 0,
                             L.NO_FORCING, L.NO_ACTION)  # fmt: skip
            x = payoff(of, focal)
            if h == 0:
                base = x
            row = out[h]
            row[L.H_SUM] += x
            row[L.H_SQ] += x * x
            row[L.H_LOOED] += oi[L.O_LOOED + focal]
            row[L.H_MISS] += oi[L.O_DECL + focal] == L.DECL_MISS
            row[L.H_DIFF] += x - base
            row[L.H_DIFF_SQ] += (x - base) * (x - base)
