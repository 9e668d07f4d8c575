"""The perfect-information solver's search as a numba recursion: the twin of
``kernel/solver.py``'s explicit-stack :func:`~loo_sim.kernel.solver._value` as it was before
shallow pruning and the endgame (the stack with ``OLD_SEARCH`` but sharing the table's
key), card for card, without the ``NO_*`` switches. Nothing in a study calls it;
``scripts/bench.py --solver`` measures it beside the stack (the recursion is the slower,
and numba cannot cache a self-recursive function: the cached copy crashes on load, so it
compiles in each process).
``tests/test_compile_fixes.py`` checks that both give the same answers.
"""

from numba import njit

from loo_sim.game import abi as L
from loo_sim.kernel.bits import (
    PAM,
    PAM_BIT,
    SUIT_MASK,
    beat_mask,
    eff_suit,
    follow_mask,
    has,
    is_trump,
    lsb,
    popcount,
    power_masks,
)
from loo_sim.kernel.legality import follow_options, lead_options
from loo_sim.kernel.nrt import NO_REFCOUNT
from loo_sim.kernel.solver import _root_state, _setup
from loo_sim.kernel.solver_frames import NODE, ROOT, ROOT_ALL
from loo_sim.kernel.solver_table import (
    ST_BEST,
    ST_CIVIL,
    ST_CONTEXT,
    ST_FLAGS,
    ST_GEN,
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
    ST_SINGLE,
    ST_VOID,
    TT_GEN,
    TT_HANDS,
    TT_META,
    TT_VALUE,
    _slot,
    count_of,
    table_key,
)
from loo_sim.kernel.solver_trick import equivalent, judge, last_trick


@njit(cache=False, **NO_REFCOUNT)  # numba cannot cache a self-recursive function (it crashes on load)
def _value_rec(hands, cards, st, tt, pay, cap, li, k, tix, won, t, turned, civil, renounced, led, win_i, trumped,
               mode_r):  # fmt: skip
    """:func:`_value` as a recursion (kept to measure the two; ``scripts/bench.py --solver``):
    the same search, card for card, without the ``NO_*`` switches."""
    n = st[ST_N]
    h = st[ST_H]
    pam = st[ST_PAM]
    slot = -1
    meta = 0
    if k == 0:
        if tix == h - 1 and mode_r == NODE:
            return last_trick(hands, st, li, won, t)
        meta = table_key(st, li, tix, t, turned, won)
        slot = _slot(hands, n, meta, tt.shape[0], st[ST_FLAGS])
        if mode_r == NODE and tt[slot, TT_GEN] == st[ST_GEN] and tt[slot, TT_META] == meta:
            same = True
            for i in range(n):
                if tt[slot, TT_HANDS + i] != hands[i]:
                    same = False
                    break
            if same:
                return tt[slot, TT_VALUE] + won  # the entries hold the tricks won from the trick start
    st[ST_NODES] += 1
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
        held = hand
        if civil and has(hand, PAM) and popcount(hand) > 1:  # R9 Pam be civil
            held &= ~PAM_BIT
        beat = beat_mask(cards[base + win_i], led, t, pam)
        legal = follow_options(held, follow_mask(led, t, pam), tm, beat, trumped, st[ST_VOID])
        renounces = t < 0 and (held & SUIT_MASK[led]) == 0  # R6 first_renounce
        led_trump = is_trump(cards[base], t, pam)
    live = 0
    if popcount(legal) > 1 and mode_r != ROOT_ALL:
        for i in range(n):
            live |= hands[i]
        for j in range(k):
            live |= 1 << cards[base + j]
    cap_m = cap[mover, count_of(won, mover), h - tix]
    mode = st[ST_MODE]
    rest_plain = legal & low_plain
    rest_trumps = legal & low_trumps
    pam_left = pam == 1 and has(legal, PAM)
    best = 0
    best_pay = 0.0
    found = False
    prev = -1
    out = 0
    while True:
        if rest_plain:
            c = lsb(rest_plain)
            rest_plain &= rest_plain - 1
        elif rest_trumps:
            c = lsb(rest_trumps)
            rest_trumps &= rest_trumps - 1
        elif pam_left:
            c = PAM
            pam_left = False
        else:
            break
        if mode_r != ROOT_ALL and prev >= 0 and equivalent(prev, c, hand, live):
            prev = c
            continue  # equivalent to the card just tried: it could only tie
        prev = c
        hands[mover] = hand & ~(1 << c)
        cards[base + k] = c
        nt = t
        nled = led
        ncivil = civil
        nwin = win_i
        ntrumped = trumped
        if k == 0:
            if mode == L.FIRST_LEAD and t < 0:
                nt = c & 3  # R6 first_lead: the first card led sets trumps
            nled = eff_suit(c, nt, pam)
            ncivil = st[ST_CIVIL] == 1 and nt >= 0 and c == 48 + nt
            nwin = 0
            ntrumped = False
        elif has(beat, c):
            nwin = k
            ntrumped = not led_trump and is_trump(c, t, pam)
        nren = renounced or renounces
        if k + 1 < n:
            res = _value_rec(hands, cards, st, tt, pay, cap, li, k + 1, tix, won, nt, turned, ncivil, nren, nled, nwin,
                         ntrumped, NODE)  # fmt: skip
        else:
            nturned = turned
            if nren and mode == L.FIRST_RENOUNCE:  # the trick is judged with the new trumps
                nt = st[ST_INDICATOR] & 3
                nturned = 1
                nwin = judge(cards, base, n, nt, pam)
            winner = li + nwin
            if winner >= n:
                winner -= n
            nwon = won + (1 << (4 * winner))
            if tix + 1 == h:
                res = nwon
            else:
                res = _value_rec(hands, cards, st, tt, pay, cap, winner, 0, tix + 1, nwon, nt, nturned, False, False, 0,
                             0, False, NODE)  # fmt: skip
        hands[mover] = hand
        p = pay[mover, count_of(res, mover)]
        if mode_r == ROOT_ALL:
            st[ST_OUT_CARDS + out] = c
            st[ST_OUT_RES + out] = res
            out += 1
        if not found or p > best_pay:  # strictly better only: ties keep the earlier card
            found = True
            best = res
            best_pay = p
            if mode_r != NODE:
                st[ST_BEST] = c
            if p >= cap_m and mode_r != ROOT_ALL:
                break
    if mode_r == ROOT_ALL:
        st[ST_OUT_N] = out
    if slot >= 0:
        tt[slot, TT_GEN] = st[ST_GEN]
        tt[slot, TT_META] = meta
        tt[slot, TT_VALUE] = best - won
        for i in range(n):
            tt[slot, TT_HANDS + i] = hands[i]
    return best


@njit(cache=False, **NO_REFCOUNT)
def solve_many_recursive(pis, pfs, ri, tt, st, hands, cards, pay, cap, fr, fb, out):
    """:func:`solve_many` with the recursive search (not cached: compiled in each process)."""
    for j in range(pis.shape[0]):
        st[ST_NODES] = 0
        st[ST_CONTEXT] = 0  # independent positions: a fresh table each, as solve_many
        _setup(pis[j], pfs[j], ri, st, hands, cards, pay, cap)
        pi = pis[j]
        won, led, win_i, trumped = _root_state(pi, ri, cards)
        out[j, 0] = _value_rec(hands, cards, st, tt, pay, cap, pi[L.PI_LEADER], pi[L.PI_NCARDS], pi[L.PI_TRICK], won,
                               pi[L.PI_TRUMP], pi[L.PI_TURNED], pi[L.PI_CIVIL] == 1, pi[L.PI_RENOUNCED] == 1, led,
                               win_i, trumped, ROOT)  # fmt: skip
        out[j, 1] = st[ST_BEST]
        out[j, 2] = st[ST_NODES]
    st[ST_CONTEXT] = 0  # its entries are keyed on the cards themselves: no later solve may share them
