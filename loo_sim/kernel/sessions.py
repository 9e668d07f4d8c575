"""Sessions (docs/rules.md R10) in numba: many independent sessions of M deals, each arm of
a comparison on the same decks (deal j of session i: stream (seed, i, j)), reduced to
aggregates that do not grow with the number of sessions."""

import numpy as np
from numba import njit

from loo_sim.base import rng
from loo_sim.game import abi as L
from loo_sim.kernel.cardplay import workspace_for
from loo_sim.kernel.deal import play_deal_inline
from loo_sim.kernel.krng import below, stream_key, word
from loo_sim.kernel.nrt import NO_REFCOUNT
from loo_sim.kernel.scratch import (
    any_random,
    deal_scratch,
    deck_cards_needed,
    position_of,
    prepare_deal,
    session_arrays,
)

NO_DEAL = np.uint64(rng.NO_DEAL)  # the deal part of the first dealer's stream key (-1), as numba's uint64


@njit(cache=True)
def first_dealer(seed, session, n):
    """R2: the first dealer, drawn from the stream (seed, session, -1) like session.first_dealer."""
    return below(word(stream_key(seed, session, NO_DEAL, np.uint64(0)), 0) >> np.uint64(32), n)


@njit(cache=True, inline="always")
def _settle_seats(n, dealer, oi, of, balances, by_position, biggest):
    """One deal's net chips (shares - antes - penalties) into each seat's running balance
    and, when ``by_position`` has rows, into the position the seat held. Returns the deal's
    looed players, antes, penalties and shares, and ``biggest`` raised to the largest
    amount met (a balance, share, penalty or ante: R3's exactness check)."""
    looed = 0
    antes = 0.0
    penalties = 0.0
    shares = 0.0
    for s in range(n):
        net = of[L.F_SHARES + s] - of[L.F_ANTES + s] - of[L.F_PENALTIES + s]
        balances[s] += net
        if by_position.shape[0] > 0:
            p = position_of(s, dealer, n)
            by_position[s, p, 0] += net
            by_position[s, p, 1] += 1.0
        looed += oi[L.O_LOOED + s]
        antes += of[L.F_ANTES + s]
        penalties += of[L.F_PENALTIES + s]
        shares += of[L.F_SHARES + s]
        biggest = max(biggest, abs(balances[s]), of[L.F_SHARES + s], of[L.F_PENALTIES + s], of[L.F_ANTES + s])
    return looed, antes, penalties, shares, biggest


@njit(cache=True, inline="always")
def _add_deal_stats(row, oi, looed, antes, penalties, shares, growth):
    """One deal added into its row of the per-deal aggregates (``DS_*``): one more session
    running, its looed players, the kind of pot and outcome, the chips moved and the pot's
    growth."""
    row[L.DS_RUNNING] += 1.0
    row[L.DS_LOOED] += looed
    row[L.DS_LOOED_SQ] += looed * looed
    row[L.DS_SINGLE] += oi[L.O_SINGLE]
    row[L.DS_NOBODY] += oi[L.O_OUTCOME] == L.OUT_NOBODY
    row[L.DS_LONE] += oi[L.O_OUTCOME] == L.OUT_LONE
    row[L.DS_FLUSH] += oi[L.O_OUTCOME] == L.OUT_FLUSH
    row[L.DS_ANTES] += antes
    row[L.DS_PENALTIES] += penalties
    row[L.DS_SHARES] += shares
    row[L.DS_GROWTH] += growth


def _play_one_session(ri, rf, pol, polf, strength, tables, ws, seed, session, deals, bankroll, share_final, deck, sc,
                     seat_keys, oi, of, balances, deal_stats, pots, looed_by_deal, looed_hist, rec_oi, rec_of,
                     record, by_position):  # fmt: skip
    """Play session ``session``; per-deal aggregates go into deal_stats, the pot at the
    start of deal j into pots[j] and its looed players into looed_by_deal[j] (NaN and 0
    past the session's end), each deal's record into rec_oi/rec_of when ``record``, and,
    when ``by_position`` has rows ([seat, position from the dealer's left, 0: net chips /
    1: deals], added into), each seat's net chips by the position it held in each deal.
    Returns (deals played, ruined seat or -1, first inexact deal or -1, overflow deal or
    -1, pot left, largest pot, looed)."""
    n = ri[L.R_PLAYERS]
    need = deck_cards_needed(ri)
    random_seats = any_random(pol, n)
    dealer = first_dealer(seed, session, n)
    carried = 0.0
    for s in range(n):
        balances[s] = 0.0
    for j in range(deals):
        pots[j] = np.nan
        looed_by_deal[j] = 0
    ruined, inexact, overflow = -1, -1, -1
    largest = 0.0
    looed_total = 0
    played = 0
    for j in range(deals):
        prepare_deal(seed, session, j, deck, need, n, seat_keys, random_seats, sc)
        play_deal_inline(ri, rf, pol, polf, strength, tables, ws, deck, dealer, carried, seat_keys, sc, oi, of,
                         L.NO_FORCING, L.NO_ACTION)  # fmt: skip
        played += 1
        if record:  # element by element: a row copy may allocate (this loop runs without the runtime)
            for x in range(L.O_LEN):
                rec_oi[j, x] = oi[x]
            for x in range(L.F_LEN):
                rec_of[j, x] = of[x]
        pot_start = of[L.F_POT_START]
        pot_next = of[L.F_POT_NEXT]
        largest = max(largest, pot_start)
        looed, antes, penalties, shares, biggest = _settle_seats(n, dealer, oi, of, balances, by_position,
                                                                 max(pot_start, pot_next))  # fmt: skip
        looed_total += looed
        looed_hist[looed] += 1.0
        looed_by_deal[j] = looed
        pots[j] = pot_start
        row = deal_stats[j]
        _add_deal_stats(row, oi, looed, antes, penalties, shares, pot_next - carried)
        if inexact < 0 and biggest > L.EXACT_LIMIT:  # R3: say so, with the deal where it happened
            inexact = j
            row[L.DS_INEXACT_FIRST] += 1.0
        carried = pot_next
        dealer = dealer + 1 if dealer + 1 < n else 0
        if bankroll >= 0.0:
            worst = 0
            for s in range(1, n):
                if balances[s] < balances[worst]:
                    worst = s
            if balances[worst] < -bankroll:
                ruined = worst
                break
        if carried > L.OVERFLOW_LIMIT:
            overflow = j
            row[L.DS_OVERFLOW_AT] += 1.0
            break
    if share_final:
        for s in range(n):
            balances[s] += carried / n
    return played, ruined, inexact, overflow, carried, largest, looed_total


# Two compiled forms, as for the deal (kernel/deal.py): ``play_one_session``, a call of
# its own without reference counting (the tournaments, risk and a recorded session), and
# ``play_one_session_inline``, inlined into session_block, itself compiled without
# reference counting, so that ``pots`` compiles one library the less.
play_one_session = njit(cache=True, **NO_REFCOUNT)(_play_one_session)  # the deal inlined, as in simulate's loop
play_one_session_inline = njit(inline="always")(_play_one_session)


@njit(cache=True)
def session_scratch(solver, arms, deals):
    """session_block's working arrays, one set per block: the deal's (deal_scratch), the
    solver seats' workspace (None without them), per arm its seats' balances, looed
    players by deal, deals played, largest pot (log10) and ruin, and the empty record
    and by-position arrays of a session not recorded. The caller allocates them:
    session_block runs without reference counting (nrt.py), so that it inlines the
    session (play_one_session_inline) rather than call a compiled library of its own
    (each library compiles every function it calls again)."""
    deck, sc, seat_keys, oi, of = deal_scratch()
    ws = workspace_for(solver)  # None without solver seats (kernel/cardplay.py)
    balances = np.zeros((arms, L.MAX_PLAYERS), dtype=np.float64)
    looed_by_deal = np.zeros((arms, deals), dtype=np.int64)
    played = np.zeros(arms, dtype=np.int64)
    maxlog = np.zeros(arms, dtype=np.float64)
    ruin = np.zeros(arms, dtype=np.float64)
    no_rec_i = np.zeros((1, L.O_LEN), dtype=np.int64)
    no_rec_f = np.zeros((1, L.F_LEN), dtype=np.float64)
    no_positions = np.zeros((0, 0, 2), dtype=np.float64)
    return (
        deck,
        sc,
        seat_keys,
        oi,
        of,
        ws,
        balances,
        looed_by_deal,
        played,
        maxlog,
        ruin,
        no_rec_i,
        no_rec_f,
        no_positions,
    )


@njit(cache=True, nogil=True, **NO_REFCOUNT)
def session_block(ri, rf, pol, polf, strength, tables, bankroll, share_final, seed, block, total, deals, scal,
                  deal_stats, pots, largest, finals, pair, scratch):  # fmt: skip
    """Arms a = 0..A-1 (rules ri[a], policies pol[a], ...) play sessions of ``deals``
    deals; block ``block`` covers sessions block * SESSION_BLOCK + k, k < SESSION_BLOCK
    (the last block stops at ``total``). Outputs, the block's rows, added into (zeros,
    and NaN for pots, largest and finals, from the caller): scal [arm, S_*], deal_stats
    [arm, deal, DS_*], pair [x, y, PR_*] (arm x against arm y < x, session by session),
    and each session's values, NaN where there is none, for the caller to count into its
    histograms (``count_pots``, ...): pots [arm, k, deal] (the pot at the start of each
    deal played), largest [arm, k] (the session's largest pot), finals [arm, k, seat]
    (final net balances). ``scratch``: session_scratch's arrays. Blocks are independent:
    ``run.tasks.pots_task`` runs them on threads (nogil)."""
    arms = ri.shape[0]
    deck, sc, seat_keys, oi, of, ws, balances, looed_by_deal, played, maxlog, ruin, no_rec_i, no_rec_f, no_positions = (
        scratch
    )
    first = block * L.SESSION_BLOCK
    for i in range(first, min(first + L.SESSION_BLOCK, total)):
        k = i - first
        session = np.uint64(i)
        for a in range(arms):
            n = ri[a, L.R_PLAYERS]
            d, ruined, inexact, overflow, left, big, looed = play_one_session_inline(
                ri[a], rf[a], pol[a], polf[a], strength[a], tables[a], ws, seed, session, deals, bankroll[a],
                share_final[a], deck, sc, seat_keys, oi, of, balances[a], deal_stats[a], pots[a, k],
                looed_by_deal[a], scal[a, L.S_LOOED_HIST : L.S_LOOED_HIST + L.MAX_PLAYERS + 1], no_rec_i,
                no_rec_f, False, no_positions)  # fmt: skip
            s_row = scal[a]
            s_row[L.S_SESSIONS] += 1.0
            s_row[L.S_DEALS] += d
            s_row[L.S_DEALS_SQ] += d * d
            s_row[L.S_LOOED] += looed
            s_row[L.S_LOOED_SQ] += looed * looed
            s_row[L.S_LOOED_DEALS] += looed * d
            s_row[L.S_RUINED] += ruined >= 0
            s_row[L.S_OVERFLOW] += overflow >= 0
            s_row[L.S_INEXACT] += inexact >= 0
            s_row[L.S_FINAL_POT] += left
            s_row[L.S_FINAL_POT_SQ] += left * left
            s_row[L.S_FINAL_POT_DEALS] += left * d
            played[a] = d
            maxlog[a] = np.log10(big) if big > 0 else 0.0
            ruin[a] = 1.0 if ruined >= 0 else 0.0
            s_row[L.S_MAXLOG] += maxlog[a]
            s_row[L.S_MAXLOG_SQ] += maxlog[a] * maxlog[a]
            largest[a, k] = big
            if ruined >= 0:
                s_row[L.S_RUINED_SEAT + ruined] += 1.0
            for s in range(n):
                x = balances[a, s]
                s_row[L.S_BAL + s] += x
                s_row[L.S_BAL_SQ + s] += x * x
                finals[a, k, s] = x
        for x in range(1, arms):  # every pair of arms: the same decks, session by session
            for y in range(x):
                pair_session(pair[x, y], min(ri[x, L.R_PLAYERS], ri[y, L.R_PLAYERS]), balances[x],
                             balances[y], maxlog[x] - maxlog[y], ruin[x] - ruin[y], played[x], played[y],
                             looed_by_deal[x], looed_by_deal[y])  # fmt: skip


@njit(cache=True)
def pair_session(row, seats, bal_x, bal_y, maxlog_diff, ruin_diff, played_x, played_y, looed_x, looed_y):
    """Add one session's paired differences of arm x against arm y to ``row`` [PR_*]."""
    for s in range(seats):
        d = bal_x[s] - bal_y[s]
        row[L.PR_BAL + s] += d
        row[L.PR_BAL_SQ + s] += d * d
    row[L.PR_MAXLOG] += maxlog_diff
    row[L.PR_MAXLOG_SQ] += maxlog_diff * maxlog_diff
    row[L.PR_RUIN] += ruin_diff
    row[L.PR_RUIN_SQ] += ruin_diff * ruin_diff
    d = played_x - played_y
    row[L.PR_DEALS] += d
    row[L.PR_DEALS_SQ] += d * d
    shared = min(played_x, played_y)
    diff = 0
    for j in range(shared):
        diff += looed_x[j] - looed_y[j]
        row[L.PR_LOOED_DIFFER] += looed_x[j] != looed_y[j]
    row[L.PR_SHARED] += shared
    row[L.PR_SHARED_SQ] += shared * shared
    row[L.PR_LOOED] += diff
    row[L.PR_LOOED_SQ] += diff * diff
    row[L.PR_LOOED_SHARED] += diff * shared
    row[L.PR_ONLY_X] += played_x - shared
    row[L.PR_ONLY_Y] += played_y - shared
    for j in range(shared, played_x):
        row[L.PR_LOOED_ONLY_X] += looed_x[j]
    for j in range(shared, played_y):
        row[L.PR_LOOED_ONLY_Y] += looed_y[j]


@njit(cache=True)
def record_session(ri, rf, pol, polf, strength, tables, solver, bankroll, share_final, seed, session, deals, rec_oi,
                   rec_of, balances):  # fmt: skip
    """One session with every deal's record (tests, replays): returns its summary tuple."""
    deck, sc, seat_keys, oi, of = deal_scratch()
    ws = workspace_for(solver)  # None without solver seats (kernel/cardplay.py)
    _, deal_stats, pots, looed_by_deal, looed_hist, _, _ = session_arrays(deals, False)
    return play_one_session(ri, rf, pol, polf, strength, tables, ws, seed, np.uint64(session), deals, bankroll,
                            share_final, deck, sc, seat_keys, oi, of, balances, deal_stats, pots, looed_by_deal,
                            looed_hist, rec_oi, rec_of, True, np.zeros((0, 0, 2), dtype=np.float64))  # fmt: skip
