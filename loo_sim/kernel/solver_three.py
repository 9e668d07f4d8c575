"""The trick before the endgame's two (``kernel/solver.py`` explains the search): the third
trick from the end, every seat holding three cards, searched seat by seat in rows of
scratch as :mod:`~loo_sim.kernel.solver_endgame` searches the trick before the last
(:func:`three_tricks`), rather than by the search's frames. A row tries its seat's legal
cards in the tie-break order, skipping a card equivalent to the one before it as a frame
does, and keeps a card's counts only when strictly better for its seat; a row opens and
keeps its counts by the endgame's own steps, three tricks left
(``solver_endgame.open_row`` and ``keep_row``), so the cut and shallow pruning (against
the row before, or the search's frame that called) are the frames'. Each complete play
of the trick goes to the endgame: the table first, then ``solver_endgame.two_tricks``,
exact values stored. Speculative pruning stays out of it:
in this trick it saved as many nodes as it cost (five-card, 8,149 nodes a solve with it
against 8,304 without, the same speed). With ``NO_SPEC`` the rows search exactly the
nodes the frames would."""

from numba import njit

from loo_sim.game import abi as L
from loo_sim.kernel.bits import lowest_in, power_masks
from loo_sim.kernel.nrt import NO_REFCOUNT
from loo_sim.kernel.solver_endgame import (
    E_BEST,
    E_CHAIN,
    E_FOUND,
    E_HAND,
    E_LEFT,
    E_MOVER,
    E_NEXT,
    E_PREV,
    E_PRUNED,
    E_T,
    EB_PAY,
    keep_row,
    open_row,
    play_row_card,
    two_tricks,
)
from loo_sim.kernel.solver_table import (
    NO_MERGE,
    NO_TT,
    ST_CANON,
    ST_FLAGS,
    ST_INDICATOR,
    ST_MODE,
    ST_N,
    ST_PAM,
    _slot,
    canonical,
    lookup,
    store,
    table_key,
)
from loo_sim.kernel.solver_trick import equivalent, judge, play_forced

# a row's columns besides solver_endgame's E_*: the card tried before (-1: none yet), the trick
# start's hands in ranks (row r0 only, for its entry); E_NEXT -1 once the row is done (keep_row)
R_TRIED, R_CANON = 19, 20
TRICKS = 3  # the tricks from this one on


@njit(cache=True, inline="always")
def _next(fr, r, st, live):
    """Row ``r``'s next card in the tie-break order, a card equivalent to the one tried
    before it skipped as the frames skip it (``solver_search._value``); -1: none left."""
    if fr[r, E_NEXT] < 0:
        return -1
    t, pam = fr[r, E_T], st[ST_PAM]
    _, low_plain, low_trumps, _ = power_masks(t, pam)
    merge = (st[ST_FLAGS] & NO_MERGE) == 0
    while fr[r, E_LEFT] != 0:
        c = lowest_in(fr[r, E_LEFT], low_plain, low_trumps)
        fr[r, E_LEFT] &= ~(1 << c)
        prev = fr[r, R_TRIED]
        fr[r, R_TRIED] = c
        if merge and prev >= 0 and equivalent(prev, c, fr[r, E_HAND], live):
            continue  # equivalent to the card just tried: it could only tie
        return c
    return -1


@njit(cache=True, inline="always")
def _trick_done(fr, fb, r, r0, hands, cards, st, tt, pay, cap, li, tix, won, t, turned, win_i, renounced):
    """The trick complete after row ``r``'s card: judged (again with the trumps a renounce
    revealed, R6 first_renounce), then the last two tricks from the table or the endgame
    (``solver_endgame.two_tricks``, pruning against row ``r``), its exact value stored."""
    n = st[ST_N]
    if renounced and st[ST_MODE] == L.FIRST_RENOUNCE:
        t = st[ST_INDICATOR] & 3
        turned = 1
        win_i = judge(cards, tix * L.MAX_PLAYERS, n, t, st[ST_PAM])
    winner = li + win_i
    if winner >= n:
        winner -= n
    won += 1 << (4 * winner)
    meta = table_key(st, winner, tix + 1, t, turned, won)
    slot = -1
    if (st[ST_FLAGS] & NO_TT) == 0:
        canonical(hands, st, n)
        slot = _slot(st[ST_CANON : ST_CANON + n], n, meta, tt.shape[0], st[ST_FLAGS])
    found = lookup(tt, slot, st, n, meta)
    if found >= 0:
        return found + won
    parent = fr[r, E_MOVER] if fr[r, E_FOUND] == 1 else -1
    res = two_tricks(fr, fb, r0 + n, hands, cards, st, pay, cap, winner, tix + 1, won, t, turned, parent,
                     fb[r, EB_PAY])  # fmt: skip
    if slot >= 0 and fr[r0 + n, E_PRUNED] == 0:
        store(tt, slot, st, n, meta, res - won)
    return res


@njit(cache=True, **NO_REFCOUNT)
def three_tricks(fr, fb, r0, hands, cards, st, tt, pay, cap, li, tix, won, t, turned, parent, parent_pay, slot,
                 meta):  # fmt: skip
    """The final counts (packed) of the last three tricks under max^n, trick ``tix`` led by
    ``li``; rows ``r0`` on of ``fr``/``fb`` are its scratch (the endgame's after the first
    ``n``); the hands are as they were when it returns. ``parent`` (the mover of the
    search's frame that called, -1: no pruning against it) and ``parent_pay`` (its best
    payoff so far) for shallow pruning; when that stopped it, ``fr[r0, E_PRUNED]`` is 1 and
    the value is not exact. Its exact value goes into the table at ``slot`` (-1: none), the
    trick start's hands in ranks being at ``st[ST_CANON:]`` when it is called."""
    n = st[ST_N]
    base = tix * L.MAX_PLAYERS
    for i in range(n):
        fr[r0, R_CANON + i] = st[ST_CANON + i]
    live = hands[0]  # the cards in play: in a hand or in this trick, the same until it is complete
    for i in range(1, n):
        live |= hands[i]
    # the trick as the next row to open finds it; one call site each for open_row and keep_row (compile time)
    k, prev, opening = 0, -1, True
    nt, ncivil, nren, nled, nwin, ntrumped, known = t, False, False, 0, 0, False, (-1, 0, False)
    while True:
        if opening:
            open_row(fr, fb, r0 + k, hands, cards, st, cap, li, k, tix, won, nt, turned, ncivil, nren, nled, nwin,
                     ntrumped, known, prev, TRICKS)  # fmt: skip
            fr[r0 + k, R_TRIED] = -1
            fr[r0 + k, E_NEXT] = 0
            opening = False
        r = r0 + k  # a seat's row: seat k of the trick
        c = _next(fr, r, st, live)
        if c < 0:  # seat k is done: its counts go to the row before
            res = fr[r, E_BEST]
            if k == 0:
                if slot >= 0 and fr[r0, E_PRUNED] == 0:
                    for i in range(n):
                        st[ST_CANON + i] = fr[r0, R_CANON + i]
                    store(tt, slot, st, n, meta, res - won)
                return res
            r = fr[r, E_PREV]
            k = r - r0
        else:
            nt, nled, nwin, ntrumped, ncivil, nren = play_row_card(fr, r, hands, cards, st, base, k, c)
            j, nwin, ntrumped, nren, fr[r, E_CHAIN], known = play_forced(hands, cards, st, li, k, n, base, nt, ncivil,
                                                                         nled, nwin, ntrumped, nren)  # fmt: skip
            if j + 1 < n:
                k, prev, opening = j + 1, r, True
                continue
            res = _trick_done(fr, fb, r, r0, hands, cards, st, tt, pay, cap, li, tix, won, nt, turned, nwin, nren)
        keep_row(fr, fb, r, r0, hands, cards, base, st, pay, cap, res, won, parent, parent_pay, TRICKS)
