"""Sessions (docs/rules.md R10) in numba: many independent sessions of M deals, each arm of
a comparison on the same decks (deal j of session i: stream (seed, i, j)), reduced to
aggregates that do not grow with the number of sessions."""

import numpy as np
from numba import njit, prange

from loo_sim import rng
from loo_sim.kernel import abi as L
from loo_sim.kernel.deal import play_deal
from loo_sim.kernel.krng import below, stream_key, word
from loo_sim.kernel.scratch import any_random, deal_scratch, deck_cards_needed, prepare_deal

NO_DEAL = np.uint64(rng.NO_DEAL)  # the deal part of the first dealer's stream key (-1), as numba's uint64


@njit(cache=True)
def first_dealer(seed, session, n):
    """R2: the first dealer, drawn from the stream (seed, session, -1) like session.first_dealer."""
    return below(word(stream_key(seed, session, NO_DEAL, np.uint64(0)), 0) >> np.uint64(32), n)


@njit(cache=True)
def pot_bin(p):
    """Bin of an amount: 0 below 1, then 16 per decade up to 1e16, then one per decade."""
    if not p >= 1.0:  # also NaN
        return 0
    if p < 1e16:
        return 1 + int(16.0 * np.log10(p))
    if p == np.inf:
        return L.NB_POT - 1
    return min(L.NB_POT - 1, 257 + int(np.log10(p)) - 16)


@njit(cache=True)
def balance_bin(x):
    """Signed bins: [0, NB_POT) for negative amounts (mirrored), [NB_POT, 2 NB_POT) for >= 0."""
    if x < 0:
        return L.NB_POT - 1 - pot_bin(-x)
    return L.NB_POT + pot_bin(x)


@njit(cache=True)
def play_one_session(ri, rf, pol, polf, strength, chart, seed, session, deals, bankroll, share_final, deck, sc,
                     seat_keys, oi, of, balances, deal_stats, pot_hist, pot_sum, looed_hist, rec_oi, rec_of,
                     record):  # fmt: skip
    """Play session ``session``; per-deal aggregates go into deal_stats, pot_hist (pots by
    bin) and pot_sum (the pots' sum in each bin, so a quantile reads the bin's mean), each
    deal's record into rec_oi/rec_of when ``record``. Returns (deals played, ruined seat
    or -1, first inexact deal or -1, overflow deal or -1, pot left, largest pot, looed)."""
    n = ri[L.R_PLAYERS]
    need = deck_cards_needed(ri)
    random_seats = any_random(pol, n)
    dealer = first_dealer(seed, session, n)
    carried = 0.0
    for s in range(n):
        balances[s] = 0.0
    ruined, inexact, overflow = -1, -1, -1
    largest = 0.0
    looed_total = 0
    played = 0
    for j in range(deals):
        prepare_deal(seed, session, j, deck, need, n, seat_keys, random_seats)
        play_deal(ri, rf, pol, polf, strength, chart, deck, dealer, carried, seat_keys, sc, oi, of, L.NO_FORCING, 0)
        played += 1
        if record:
            rec_oi[j, :] = oi
            rec_of[j, :] = of
        pot_start = of[L.F_POT_START]
        pot_next = of[L.F_POT_NEXT]
        largest = max(largest, pot_start)
        biggest = max(pot_start, pot_next)
        looed = 0
        antes = 0.0
        penalties = 0.0
        shares = 0.0
        for s in range(n):
            balances[s] += of[L.F_SHARES + s] - of[L.F_ANTES + s] - of[L.F_PENALTIES + s]
            looed += oi[L.O_LOOED + s]
            antes += of[L.F_ANTES + s]
            penalties += of[L.F_PENALTIES + s]
            shares += of[L.F_SHARES + s]
            biggest = max(biggest, abs(balances[s]), of[L.F_SHARES + s], of[L.F_PENALTIES + s], of[L.F_ANTES + s])
        looed_total += looed
        looed_hist[looed] += 1.0
        row = deal_stats[j]
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
        row[L.DS_GROWTH] += pot_next - carried
        bin_ = pot_bin(pot_start)
        pot_hist[j, bin_] += 1.0
        pot_sum[j, bin_] += pot_start
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


@njit(cache=True, parallel=True)
def session_blocks(ri, rf, pol, polf, strength, chart, bankroll, share_final, seed, first_block, n_blocks, total,
                   deals, scal, deal_stats, pot_hist, pot_sum, max_hist, max_sum, bal_hist, bal_sum):  # fmt: skip
    """Arms a = 0..A-1 (rules ri[a], policies pol[a], ...) play sessions of ``deals``
    deals; block b covers sessions (first_block + b) * SESSION_BLOCK ... Outputs, per
    block and arm: scal [S_*], deal_stats [deal, DS_*], pot_hist [deal, bin],
    max_hist [bin] (largest pot of a session), bal_hist [seat, signed bin]; each *_sum
    holds the sum of the values counted in each bin."""
    arms = ri.shape[0]
    for b in prange(n_blocks):
        scal[b] = 0.0
        deal_stats[b] = 0.0
        pot_hist[b] = 0.0
        pot_sum[b] = 0.0
        max_hist[b] = 0.0
        max_sum[b] = 0.0
        bal_hist[b] = 0.0
        bal_sum[b] = 0.0
        deck, sc, seat_keys, oi, of = deal_scratch()
        balances = np.zeros((arms, L.MAX_PLAYERS), dtype=np.float64)
        maxlog = np.zeros(arms, dtype=np.float64)
        ruin = np.zeros(arms, dtype=np.float64)
        looed_rate = np.zeros(arms, dtype=np.float64)
        no_rec_i = np.zeros((1, L.O_LEN), dtype=np.int64)
        no_rec_f = np.zeros((1, L.F_LEN), dtype=np.float64)
        first = (first_block + b) * L.SESSION_BLOCK
        for i in range(first, min(first + L.SESSION_BLOCK, total)):
            session = np.uint64(i)
            for a in range(arms):
                n = ri[a, L.R_PLAYERS]
                played, ruined, inexact, overflow, left, largest, looed = play_one_session(
                    ri[a], rf[a], pol[a], polf[a], strength[a], chart[a], seed, session, deals, bankroll[a],
                    share_final[a], deck, sc, seat_keys, oi, of, balances[a], deal_stats[b, a], pot_hist[b, a],
                    pot_sum[b, a], scal[b, a, L.S_LOOED_HIST : L.S_LOOED_HIST + L.MAX_PLAYERS + 1], no_rec_i,
                    no_rec_f, False)  # fmt: skip
                s_row = scal[b, a]
                s_row[L.S_SESSIONS] += 1.0
                s_row[L.S_DEALS] += played
                s_row[L.S_RUINED] += ruined >= 0
                s_row[L.S_OVERFLOW] += overflow >= 0
                s_row[L.S_INEXACT] += inexact >= 0
                s_row[L.S_FINAL_POT] += left
                maxlog[a] = np.log10(largest) if largest > 0 else 0.0
                ruin[a] = 1.0 if ruined >= 0 else 0.0
                looed_rate[a] = looed / played
                s_row[L.S_MAXLOG] += maxlog[a]
                s_row[L.S_MAXLOG_SQ] += maxlog[a] * maxlog[a]
                max_hist[b, a, pot_bin(largest)] += 1.0
                max_sum[b, a, pot_bin(largest)] += largest
                if ruined >= 0:
                    s_row[L.S_RUINED_SEAT + ruined] += 1.0
                for s in range(n):
                    x = balances[a, s]
                    s_row[L.S_BAL + s] += x
                    s_row[L.S_BAL_SQ + s] += x * x
                    bal_hist[b, a, s, balance_bin(x)] += 1.0
                    bal_sum[b, a, s, balance_bin(x)] += x
            for a in range(1, arms):  # paired with arm 0: the same decks, session by session
                s_row = scal[b, a]
                for s in range(min(ri[a, L.R_PLAYERS], ri[0, L.R_PLAYERS])):
                    d = balances[a, s] - balances[0, s]
                    s_row[L.P_BAL + s] += d
                    s_row[L.P_BAL_SQ + s] += d * d
                d = maxlog[a] - maxlog[0]
                s_row[L.P_MAXLOG] += d
                s_row[L.P_MAXLOG_SQ] += d * d
                d = ruin[a] - ruin[0]
                s_row[L.P_RUIN] += d
                s_row[L.P_RUIN_SQ] += d * d
                d = looed_rate[a] - looed_rate[0]
                s_row[L.P_LOOED] += d
                s_row[L.P_LOOED_SQ] += d * d


@njit(cache=True)
def record_session(ri, rf, pol, polf, strength, chart, bankroll, share_final, seed, session, deals, rec_oi, rec_of,
                   balances):  # fmt: skip
    """One session with every deal's record (tests, replays): returns its summary tuple."""
    deck, sc, seat_keys, oi, of = deal_scratch()
    deal_stats = np.zeros((deals, L.DS_LEN), dtype=np.float64)
    pot_hist = np.zeros((deals, L.NB_POT), dtype=np.float64)
    pot_sum = np.zeros((deals, L.NB_POT), dtype=np.float64)
    looed_hist = np.zeros(L.MAX_PLAYERS + 1, dtype=np.float64)
    return play_one_session(ri, rf, pol, polf, strength, chart, seed, np.uint64(session), deals, bankroll,
                            share_final, deck, sc, seat_keys, oi, of, balances, deal_stats, pot_hist, pot_sum,
                            looed_hist, rec_oi, rec_of, True)  # fmt: skip
