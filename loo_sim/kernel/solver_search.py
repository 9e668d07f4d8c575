"""The search of the perfect-information solver (``kernel/solver.py`` explains it): the
steps of the depth-first max^n search over the explicit stack of frames ``fr``/``fb``
(:func:`_value`; their layout and the pruning that reads them, shallow and speculative,
are ``kernel/solver_frames.py``'s), the last trick played out, the last two evaluated
directly (``kernel/solver_endgame.py``) and the one before them in rows
(``kernel/solver_three.py``); the context ``st`` and the transposition table are
``kernel/solver_table.py``'s."""

from numba import njit

from loo_sim.game import abi as L
from loo_sim.kernel.bits import (
    PAM,
    eff_suit,
    has,
    is_trump,
    lsb,
    popcount,
    power_masks,
)
from loo_sim.kernel.legality import lead_options
from loo_sim.kernel.nrt import NO_REFCOUNT
from loo_sim.kernel.solver_endgame import E_PRUNED, mover_upper, two_tricks
from loo_sim.kernel.solver_frames import (
    F_AGAIN,
    F_BEAT,
    F_BEST,
    F_BEST_CARD,
    F_CANON,
    F_CARD,
    F_CHAIN,
    F_CIVIL,
    F_DONE,
    F_FOUND,
    F_HAND,
    F_ID,
    F_K,
    F_LED,
    F_LED_TRUMP,
    F_LI,
    F_LIMIT,
    F_LIVE,
    F_METAKEY,
    F_MODE,
    F_MOVER,
    F_PAM,
    F_PLAIN,
    F_PREV,
    F_PRUNED,
    F_REDO,
    F_RENOUNCED,
    F_SLOT,
    F_SPEC,
    F_T,
    F_TIX,
    F_TRUMPED,
    F_TRUMPS,
    F_TURNED,
    F_UPPER,
    F_WIN,
    F_WON,
    FB_CAP,
    FB_PAY,
    NODE,
    NONE,
    ROOT_ALL,
    _again,
    _restart,
    _resume,
    _save,
    _shallow,
    _speculate,
    _take_back,
    _told_above,
    earlier,
)
from loo_sim.kernel.solver_table import (
    NO_CUT,
    NO_ENDGAME,
    NO_MERGE,
    NO_THREE,
    NO_TT,
    ST_BEST,
    ST_CANON,
    ST_CIVIL,
    ST_FLAGS,
    ST_H,
    ST_INDICATOR,
    ST_LEAD,
    ST_MODE,
    ST_N,
    ST_NODES,
    ST_OUT_CARDS,
    ST_OUT_N,
    ST_OUT_RES,
    ST_PAM,
    ST_SERIAL,
    ST_SINGLE,
    _slot,
    canonical,
    count_of,
    lookup,
    store,
    table_key,
)
from loo_sim.kernel.solver_three import three_tricks
from loo_sim.kernel.solver_trick import equivalent, follower, judge, last_trick, play_forced


@njit(cache=True, inline="always")
def _enter(fr, fb, d, hands, cards, st, cap, li, k, tix, won, t, turned, civil, renounced, led, win_i, trumped,
           mode_r, slot, meta, known, limit):  # fmt: skip
    """Open the frame of a node at depth ``d``: its state, the mover's legal cards, the cap;
    ``limit`` its ``F_LIMIT`` (its parent's).
    ``known``: a follower's (legal, beat, renounces) as ``solver_trick.play_forced`` found them, or
    legal -1: find them here."""
    n = st[ST_N]
    pam = st[ST_PAM]
    st[ST_NODES] += 1
    st[ST_SERIAL] += 1
    base = tix * L.MAX_PLAYERS
    mover = li + k
    if mover >= n:
        mover -= n
    hand = hands[mover]
    tm, low_plain, low_trumps, _ = power_masks(t, pam)
    renounces = False
    beat = 0
    led_trump = False
    if k == 0:
        legal = hand
        if t >= 0 and st[ST_LEAD] != L.LEAD_FREE:  # R7 lead duties (none while trumps are unknown)
            indicator = st[ST_INDICATOR] if turned else -1
            legal = lead_options(hand, t, pam, st[ST_LEAD], tix == 0 and st[ST_SINGLE] == 0, indicator)
    else:
        legal, beat, renounces = known
        if legal < 0:
            legal, beat, renounces = follower(hand, cards, st, base, t, tm, civil, led, win_i, trumped)
        led_trump = is_trump(cards[base], t, pam)
    live = 0
    if popcount(legal) > 1 and mode_r != ROOT_ALL:
        for i in range(n):
            live |= hands[i]
        for j in range(k):
            live |= 1 << cards[base + j]
    fr[d, F_LI] = li
    fr[d, F_K] = k
    fr[d, F_TIX] = tix
    fr[d, F_WON] = won
    fr[d, F_T] = t
    fr[d, F_TURNED] = turned
    fr[d, F_CIVIL] = civil
    fr[d, F_RENOUNCED] = renounced or renounces
    fr[d, F_LED] = led
    fr[d, F_WIN] = win_i
    fr[d, F_TRUMPED] = trumped
    fr[d, F_LED_TRUMP] = led_trump
    fr[d, F_BEAT] = beat
    fr[d, F_MOVER] = mover
    fr[d, F_HAND] = hand
    fr[d, F_LIVE] = live
    fr[d, F_PLAIN] = legal & low_plain
    fr[d, F_TRUMPS] = legal & low_trumps
    fr[d, F_PAM] = pam == 1 and has(legal, PAM)
    fr[d, F_PREV] = -1
    fr[d, F_FOUND] = 0
    fr[d, F_DONE] = 0
    fr[d, F_BEST] = 0
    fr[d, F_SLOT] = slot
    fr[d, F_METAKEY] = meta
    fr[d, F_MODE] = mode_r
    fr[d, F_PRUNED] = 0
    fr[d, F_SPEC] = NONE
    fr[d, F_LIMIT] = limit
    fr[d, F_REDO] = 0
    fr[d, F_AGAIN] = 0
    fr[d, F_ID] = st[ST_SERIAL]
    fb[d, FB_PAY] = 0.0
    upper = mover_upper(st[ST_H] - tix, legal, beat, hands, st, mover, li, k, t, tm)  # tricks it can still win
    fr[d, F_UPPER] = upper
    fb[d, FB_CAP] = cap[mover, count_of(won, mover), upper]


@njit(cache=True, inline="always")
def _deliver(fr, fb, d, hands, cards, st, pay, cap, res):
    """The value of the card frame ``d`` is trying came back: keep it if strictly better (or,
    searching again, as good and earlier in the order)."""
    _take_back(fr, d, hands, cards, st)
    mover = fr[d, F_MOVER]
    p = pay[mover, count_of(res, mover)]
    mode_r = fr[d, F_MODE]
    if mode_r == ROOT_ALL:
        out = st[ST_OUT_N]
        st[ST_OUT_CARDS + out] = fr[d, F_CARD]
        st[ST_OUT_RES + out] = res
        st[ST_OUT_N] = out + 1
    better = fr[d, F_FOUND] == 0 or p > fb[d, FB_PAY]  # strictly better only: ties keep the earlier card
    if not better and fr[d, F_AGAIN] == 1 and p == fb[d, FB_PAY]:  # searched again: the order decides a tie
        better = earlier(fr, d, st, fr[d, F_CARD], fr[d, F_BEST_CARD])
    if better:
        fr[d, F_FOUND] = 1
        fr[d, F_BEST] = res
        fr[d, F_BEST_CARD] = fr[d, F_CARD]
        fb[d, FB_PAY] = p
        if mode_r != NODE:
            st[ST_BEST] = fr[d, F_CARD]
        if p >= fb[d, FB_CAP] and mode_r != ROOT_ALL and (st[ST_FLAGS] & NO_CUT) == 0:
            fr[d, F_DONE] = 1  # the most the mover can still get: a later card could only tie
        elif fr[d, F_PLAIN] | fr[d, F_TRUMPS] | fr[d, F_PAM]:  # (no card left: the value is exact, keep it so)
            _shallow(fr, fb, d, st, cap)
            if fr[d, F_DONE] == 0:
                _speculate(fr, d, st)


@njit(cache=True, **NO_REFCOUNT)
def _value(hands, cards, st, tt, pay, cap, fr, fb, li, k, tix, won, t, turned, civil, renounced, led, win_i, trumped,
           mode_r):  # fmt: skip
    """max^n from a node, the final counts (packed), by an explicit stack of frames
    ``fr``/``fb`` (one a card played); the same search as :func:`_value_rec`. ``k`` cards of
    trick ``tix`` are in ``cards[tix * MAX_PLAYERS:]``; ``led`` (its suit), ``win_i`` (the
    winning card's place) and ``trumped`` (a plain lead now won by a trump) describe them."""
    n = st[ST_N]
    h = st[ST_H]
    pam = st[ST_PAM]
    mode = st[ST_MODE]
    size = tt.shape[0]
    _enter(fr, fb, 0, hands, cards, st, cap, li, k, tix, won, t, turned, civil, renounced, led, win_i, trumped,
           mode_r, -1, 0, (-1, 0, False), 1 if mode_r == ROOT_ALL else 0)  # fmt: skip
    d = 0
    while True:
        # the next card of frame d, in tie-break order, skipping equivalent cards
        c = -1
        if fr[d, F_DONE] == 0:
            all_cards = fr[d, F_MODE] == ROOT_ALL or (st[ST_FLAGS] & NO_MERGE) != 0
            while True:
                if fr[d, F_PLAIN]:
                    m = fr[d, F_PLAIN]
                    c = lsb(m)
                    fr[d, F_PLAIN] = m & (m - 1)
                elif fr[d, F_TRUMPS]:
                    m = fr[d, F_TRUMPS]
                    c = lsb(m)
                    fr[d, F_TRUMPS] = m & (m - 1)
                elif fr[d, F_PAM]:
                    c = PAM
                    fr[d, F_PAM] = 0
                else:
                    c = -1
                    break
                prev = fr[d, F_PREV]
                fr[d, F_PREV] = c
                if not all_cards and prev >= 0 and equivalent(prev, c, fr[d, F_HAND], fr[d, F_LIVE]):
                    continue  # equivalent to the card just tried: it could only tie
                break
        if c < 0:  # frame d is searched
            best = fr[d, F_BEST]
            if _again(fr, fb, d, pay, best):
                _restart(fr, fb, d, st)
                continue
            slot = fr[d, F_SLOT]
            if slot >= 0 and fr[d, F_PRUNED] == 0 and fr[d, F_SPEC] == NONE:  # a pruned frame's value is not exact
                for i in range(n):
                    st[ST_CANON + i] = fr[d, F_CANON + i]
                store(tt, slot, st, n, fr[d, F_METAKEY], best - fr[d, F_WON])
            if d == 0:
                return best
            top = _told_above(fr, d)
            if top < d - 1:  # the parent will search this card again: from where this search stopped
                _save(fr, d)
            left_out = fr[d, F_PRUNED] == 2 or fr[d, F_FOUND] == 0
            d -= 1
            if left_out:  # the parent leaves it out
                _take_back(fr, d, hands, cards, st)
            else:
                _deliver(fr, fb, d, hands, cards, st, pay, cap, best)
            if top < d:  # the parent's value may be inexact in turn: this card's value to find again
                fr[d, F_REDO] |= 1 << fr[d, F_CARD]
                if top < fr[d, F_SPEC]:
                    fr[d, F_SPEC] = top
            continue
        # play c
        fr[d, F_CARD] = c
        mover = fr[d, F_MOVER]
        hands[mover] = fr[d, F_HAND] & ~(1 << c)
        li = fr[d, F_LI]
        k = fr[d, F_K]
        tix = fr[d, F_TIX]
        t = fr[d, F_T]
        base = tix * L.MAX_PLAYERS
        cards[base + k] = c
        nled = fr[d, F_LED]
        ncivil = fr[d, F_CIVIL] == 1
        nwin = fr[d, F_WIN]
        ntrumped = fr[d, F_TRUMPED] == 1
        if k == 0:
            if mode == L.FIRST_LEAD and t < 0:
                t = c & 3  # R6 first_lead: the first card led sets trumps
            nled = eff_suit(c, t, pam)
            ncivil = st[ST_CIVIL] == 1 and t >= 0 and c == 48 + t
            nwin = 0
            ntrumped = False
        elif has(fr[d, F_BEAT], c):
            nwin = k
            ntrumped = fr[d, F_LED_TRUMP] == 0 and is_trump(c, t, pam)
        nren = fr[d, F_RENOUNCED] == 1
        k, nwin, ntrumped, nren, fr[d, F_CHAIN], known = play_forced(hands, cards, st, li, k, n, base, t, ncivil, nled,
                                                              nwin, ntrumped, nren)  # fmt: skip
        won = fr[d, F_WON]
        turned = fr[d, F_TURNED]
        if k + 1 < n:
            _enter(fr, fb, d + 1, hands, cards, st, cap, li, k + 1, tix, won, t, turned, ncivil, nren, nled, nwin,
                   ntrumped, NODE, -1, 0, known, fr[d, F_LIMIT])  # fmt: skip
            _resume(fr, fb, d, st, pay)
            d += 1
            continue
        if nren and mode == L.FIRST_RENOUNCE:  # the trick is judged with the new trumps
            t = st[ST_INDICATOR] & 3
            turned = 1
            nwin = judge(cards, base, n, t, pam)
        winner = li + nwin
        if winner >= n:
            winner -= n
        won += 1 << (4 * winner)
        if tix + 1 == h:
            _deliver(fr, fb, d, hands, cards, st, pay, cap, won)
            continue
        if tix + 2 == h:
            _deliver(fr, fb, d, hands, cards, st, pay, cap, last_trick(hands, st, winner, won, t))
            continue
        endgame = tix + 3 == h and (st[ST_FLAGS] & NO_ENDGAME) == 0
        # (a frame searching cards again may take a tie: no shallow pruning against it)
        parent = fr[d, F_MOVER] if fr[d, F_FOUND] == 1 and fr[d, F_MODE] != ROOT_ALL and fr[d, F_AGAIN] == 0 else -1
        meta = table_key(st, winner, tix + 1, t, turned, won)
        slot = -1
        # (after one trick no two plays reach the same hands: no table for the endgame there)
        if (st[ST_FLAGS] & NO_TT) == 0 and not (endgame and tix == 0):
            canonical(hands, st, n)
            slot = _slot(st[ST_CANON : ST_CANON + n], n, meta, size, st[ST_FLAGS])
        found = lookup(tt, slot, st, n, meta)
        if found >= 0:
            _deliver(fr, fb, d, hands, cards, st, pay, cap, found + won)
            continue
        if tix + 4 == h and (st[ST_FLAGS] & (NO_ENDGAME | NO_THREE)) == 0:
            res = three_tricks(fr, fb, d + 1, hands, cards, st, tt, pay, cap, winner, tix + 1, won, t, turned, parent,
                               fb[d, FB_PAY], slot, meta)  # fmt: skip
            _deliver(fr, fb, d, hands, cards, st, pay, cap, res)
            continue
        if endgame:  # exact: into the table as a searched frame's value goes (one call: the compile time)
            res = two_tricks(fr, fb, d + 1, hands, cards, st, pay, cap, winner, tix + 1, won, t, turned, parent,
                             fb[d, FB_PAY])  # fmt: skip
            if slot >= 0 and fr[d + 1, E_PRUNED] == 0:
                store(tt, slot, st, n, meta, res - won)
            _deliver(fr, fb, d, hands, cards, st, pay, cap, res)
            continue
        _enter(fr, fb, d + 1, hands, cards, st, cap, winner, 0, tix + 1, won, t, turned, False, False, 0, 0, False,
               NODE, slot, meta, (-1, 0, False), fr[d, F_LIMIT])  # fmt: skip
        _resume(fr, fb, d, st, pay)
        d += 1
        if slot >= 0:
            for i in range(n):
                fr[d, F_CANON + i] = st[ST_CANON + i]
