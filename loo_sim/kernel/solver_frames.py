"""The search's frames (``kernel/solver.py`` explains the search): the layout of the explicit
stack ``fr``/``fb`` that ``solver_search._value`` walks, one frame a card played, and the
pruning that reads it: shallow pruning (:func:`_shallow`, Korf 1991) against the parent,
and speculative pruning (:func:`_speculate`, Sturtevant 2003) against up to ``SPEC_UP``
frames above, with what it asks of the search: a card taken back, its value left out
(:func:`_take_back`), what a frame tells the one above (:func:`_told_above`), and a frame
searched again, its unknown cards only, when its value may be inexact and its parent would
take it (:func:`_again`, :func:`_restart`, :func:`earlier`); where a card's first search
stopped, kept in its parent's row (:func:`_save`), so that searching it again goes on from
there (:func:`_resume`)."""

from numba import njit

from loo_sim.game import abi as L
from loo_sim.kernel.bits import PAM, PAM_BIT, has, power_masks
from loo_sim.kernel.solver_table import (
    NO_RESUME,
    NO_SHALLOW,
    NO_SPEC,
    ST_ACC,
    ST_FLAGS,
    ST_H,
    ST_NEED,
    ST_PAM,
    count_of,
)
from loo_sim.kernel.solver_trick import unplay_forced

# ---- search frames (the explicit stack): int matrix fr [depth, F_*], float matrix fb [depth, FB_*] ----
F_LI, F_K, F_TIX, F_WON, F_T, F_TURNED, F_CIVIL, F_RENOUNCED, F_LED, F_WIN, F_TRUMPED, F_LED_TRUMP = range(12)
F_BEAT, F_MOVER, F_HAND, F_LIVE, F_PLAIN, F_TRUMPS, F_PAM, F_PREV, F_FOUND, F_DONE, F_BEST, F_CARD = range(12, 24)
F_SLOT, F_METAKEY, F_MODE, F_PRUNED, F_UPPER = 24, 25, 26, 27, 28
F_CHAIN = 29  # followers with one legal card played after the frame's card, without frames (solver_trick.play_forced)
F_SPEC = 30  # its value may be inexact (a value left out below it): the highest frame that rejects the exact one; NONE
F_LIMIT = 31  # the highest frame a speculative prune below this one may count on (the frame itself once searched again)
F_TOP = 32  # a frame pruned speculatively (F_PRUNED 2): the highest frame its prune counted on
F_REDO = 33  # the cards whose values it does not know exactly (their values left out, or inexact)
F_BEST_CARD = 34  # the card of its best so far
F_AGAIN = 35  # 1: searching its F_REDO cards again (a tie then goes to the card earlier in the order)
F_CANON = 36  # [MAX_PLAYERS] a trick start's hands in the table's ranks, kept from its lookup for its entry
F_ID = F_CANON + L.MAX_PLAYERS  # the frame's identity (st's serial when it opened; kept when it is resumed)
F_SAVED = F_ID + 1  # [52 cards, S_LEN]: where the first search of each card's frame stopped (_save, _resume)
S_STAMP, S_ID, S_LEFT, S_FOUND, S_BEST, S_BEST_CARD, S_REDO = range(7)  # S_STAMP: this frame's F_ID when saved
# (S_FOUND: F_FOUND, and 2 if it was searching again)
S_LEN = 7
F_LEN = F_SAVED + 52 * S_LEN
FB_PAY, FB_CAP = 0, 1  # the best payoff so far, the most the mover can still get
MAX_DEPTH = L.MAX_TRICKS * L.MAX_PLAYERS + 1
SPEC_UP = 3  # how many frames up a speculative prune may count on (five-card nodes: 2 -> 8,581, 3 -> 8,433, 4 -> 9,552)
NONE = MAX_DEPTH  # F_SPEC of a frame whose value is exact
# ---- root modes -----------------------------------------------------------------------------
NODE, ROOT, ROOT_ALL = 0, 1, 2  # ROOT: note the chosen card; ROOT_ALL: every card, no cut, no merging


@njit(cache=True, inline="always")
def _shallow(fr, fb, d, st, cap):
    """Shallow max^n pruning (Korf 1991) on the constant sum of tricks: frame ``d``'s mover
    ``m`` will end with at least ``need`` tricks (the fewest paying it as much as its best so
    far), so the parent's mover ``p`` with at most ``extra = need - m's tricks now`` fewer
    than all the tricks left; when even the best of those cannot beat the parent's best so
    far (it keeps strictly better only), the parent will not take this card: stop, and keep
    the inexact value out of the table. Never under a ROOT_ALL frame (its cards' values are
    reported)."""
    if d == 0 or (st[ST_FLAGS] & NO_SHALLOW) != 0:
        return
    up = d - 1
    p = fr[up, F_MOVER]
    m = fr[d, F_MOVER]
    if p == m or fr[up, F_FOUND] == 0 or fr[up, F_MODE] == ROOT_ALL:
        return
    won = fr[d, F_WON]
    extra = st[ST_NEED + m * (L.MAX_TRICKS + 1) + count_of(fr[d, F_BEST], m)] - count_of(won, m)
    most = st[ST_H] - fr[d, F_TIX] - extra  # p's tricks from here on, at most
    if fr[up, F_TIX] == fr[d, F_TIX] and fr[up, F_UPPER] < most:
        most = fr[up, F_UPPER]  # p cannot head this trick either
    most_pay = cap[p, count_of(won, p), most]
    if extra > 0 and (most_pay < fb[up, FB_PAY] or (most_pay == fb[up, FB_PAY] and fr[up, F_AGAIN] == 0)):
        fr[d, F_DONE] = 1
        fr[d, F_PRUNED] = 1


@njit(cache=True, inline="always")
def _speculate(fr, d, st):
    """Speculative max^n pruning (Sturtevant 2003): frame ``d``'s mover ends with at least
    ``need`` tricks (the fewest paying it as much as its best so far); a frame above it takes
    a value only when its mover gets at least ``acc`` (the fewest paying it strictly more
    than its best so far; 0 before it has one). Each seat's tricks are at least the largest
    of these bounds on it, and all seats' tricks add up to the tricks of the hand; so when,
    going up from the parent, the bounds add up to more, no value of this frame can be
    taken by every frame up to that one (the top), and none can reach it. Stop: the parent
    leaves the value out (``F_PRUNED`` 2, ``F_TOP``), its own value may then be inexact, and
    it is searched again, exactly, if its parent would take the value it found; else the
    frame above learns the same (:func:`_again`, :func:`_told_above`). Not above the
    frame's limit (``F_LIMIT``: a ROOT_ALL root reports every card's value; a frame searched
    again must be exact), nor in the last two tricks (the endgame's, where it costs more
    than it saves)."""
    if (st[ST_FLAGS] & NO_SPEC) != 0 or fr[d, F_TIX] + 2 >= st[ST_H]:
        return
    h = st[ST_H]
    row = L.MAX_TRICKS + 1
    m = fr[d, F_MOVER]
    need = st[ST_NEED + m * row + count_of(fr[d, F_BEST], m)]
    bounds = need << (4 * m)  # each seat's least tricks, 4 bits a seat
    total = need
    a = d - 1
    limit = fr[a, F_LIMIT] if a >= 0 else 0
    if limit < d - SPEC_UP:
        limit = d - SPEC_UP
    while a >= limit:
        if fr[a, F_FOUND] == 1:
            s = fr[a, F_MOVER]
            acc = st[(ST_NEED if fr[a, F_AGAIN] == 1 else ST_ACC) + s * row + count_of(fr[a, F_BEST], s)]
            now = (bounds >> (4 * s)) & 15
            if acc > now:
                total += acc - now
                bounds += (acc - now) << (4 * s)
                if total > h:
                    fr[d, F_DONE] = 1
                    fr[d, F_PRUNED] = 2
                    fr[d, F_TOP] = a
                    return
        a -= 1


@njit(cache=True, inline="always")
def _take_back(fr, d, hands, cards, st):
    """Take back the card frame ``d`` tried and the forced followers' after it: restore the
    hands (before its value is judged, or when it is left out)."""
    mover = fr[d, F_MOVER]
    hands[mover] = fr[d, F_HAND]
    unplay_forced(hands, cards, st, mover, fr[d, F_TIX] * L.MAX_PLAYERS + fr[d, F_K] + 1, fr[d, F_CHAIN])


@njit(cache=True, inline="always")
def _again(fr, fb, d, pay, best):
    """Whether frame ``d``, whose value may be inexact (a value left out below it), must be
    searched again: its parent would take the value it found. Not when it found none (each
    value left out below it is one a frame above would not take), nor when it was pruned
    (its parent takes neither its value nor the exact one)."""
    if fr[d, F_SPEC] == NONE or d == 0 or fr[d, F_FOUND] == 0 or fr[d, F_PRUNED] != 0:
        return False
    up = d - 1
    p = fr[up, F_MOVER]
    got = pay[p, count_of(best, p)]
    return fr[up, F_FOUND] == 0 or got > fb[up, FB_PAY] or (got == fb[up, FB_PAY] and fr[up, F_AGAIN] == 1)


@njit(cache=True, inline="always")
def _told_above(fr, d):
    """Frame ``d`` is done and will not be searched again: the highest frame that rejects its
    exact value if its parent does not see that value (its prune's top, or the frame's own
    ``F_SPEC``), or NONE: its parent sees its exact value, or rejects it as it would the exact one."""
    if fr[d, F_PRUNED] == 2:
        return fr[d, F_TOP]
    if fr[d, F_PRUNED] == 1:  # shallow: the parent rejects the exact value as it rejects this one
        return NONE
    return fr[d, F_SPEC]


@njit(cache=True, inline="always")
def _restart(fr, fb, d, st):
    """Search frame ``d`` again, exactly: only the cards whose values it does not know
    exactly (``F_REDO``), its best so far kept; no prune below it counts on a frame above it.
    Every other card's value it knows, or knows that it would not take; so its exact value
    is the first in the order of the best of its best so far and those cards' values."""
    redo = fr[d, F_REDO]
    _, low_plain, low_trumps, _ = power_masks(fr[d, F_T], st[ST_PAM])
    fr[d, F_PLAIN] = redo & low_plain
    fr[d, F_TRUMPS] = redo & low_trumps
    fr[d, F_PAM] = st[ST_PAM] == 1 and has(redo, PAM)
    fr[d, F_PREV] = -1
    fr[d, F_DONE] = 0
    fr[d, F_PRUNED] = 0
    fr[d, F_SPEC] = NONE
    fr[d, F_REDO] = 0
    fr[d, F_AGAIN] = 1
    fr[d, F_LIMIT] = d


@njit(cache=True, inline="always")
def earlier(fr, d, st, c, b):
    """Whether card ``c`` comes before card ``b`` in frame ``d``'s order (the plain cards in
    bit order, then the trumps, then Pam)."""
    pam = st[ST_PAM]
    _, _, low_trumps, _ = power_masks(fr[d, F_T], pam)
    kc = 128 if pam == 1 and c == PAM else c + 64 * has(low_trumps, c)
    kb = 128 if pam == 1 and b == PAM else b + 64 * has(low_trumps, b)
    return kc < kb


@njit(cache=True, inline="always")
def _save(fr, d):
    """Frame ``d`` is done, and its parent will search its card again: keep, in the parent's
    row under that card, where it stopped: the cards it did not try (if pruned), its best so
    far (exact: an inexact value its parent would take is searched again before it counts)
    and the cards whose values it does not know (``F_REDO``)."""
    up = d - 1
    at = F_SAVED + fr[up, F_CARD] * S_LEN
    left = 0
    if fr[d, F_PRUNED] == 2:
        left = fr[d, F_PLAIN] | fr[d, F_TRUMPS] | (PAM_BIT if fr[d, F_PAM] else 0)
    fr[up, at + S_STAMP] = fr[up, F_ID]
    fr[up, at + S_ID] = fr[d, F_ID]
    fr[up, at + S_LEFT] = left
    fr[up, at + S_FOUND] = fr[d, F_FOUND] | (fr[d, F_AGAIN] << 1)
    fr[up, at + S_BEST] = fr[d, F_BEST]
    fr[up, at + S_BEST_CARD] = fr[d, F_BEST_CARD]
    fr[up, at + S_REDO] = fr[d, F_REDO]


@njit(cache=True, inline="always")
def _resume(fr, fb, d, st, pay):
    """Frame ``d`` searches again the card it is trying, and the card's frame ``d + 1`` has
    just opened: if the first search of that card stopped short (:func:`_save`), go on from
    there: the same best so far, only the cards not tried and those whose values it did not
    know. A tie may then go to a card earlier in the order than its best (``F_AGAIN``). Its
    identity is the first search's, so its own children's saved searches still match."""
    at = F_SAVED + fr[d, F_CARD] * S_LEN
    if fr[d, F_AGAIN] == 0 or fr[d, at + S_STAMP] != fr[d, F_ID] or (st[ST_FLAGS] & NO_RESUME) != 0:
        return
    c = d + 1
    left = fr[d, at + S_LEFT] | fr[d, at + S_REDO]
    fr[c, F_ID] = fr[d, at + S_ID]
    fr[c, F_PLAIN] &= left
    fr[c, F_TRUMPS] &= left
    if not has(left, PAM):
        fr[c, F_PAM] = 0
    if (fr[d, at + S_FOUND] & 1) == 1:
        fr[c, F_FOUND] = 1
        fr[c, F_BEST] = fr[d, at + S_BEST]
        fr[c, F_BEST_CARD] = fr[d, at + S_BEST_CARD]
        m = fr[c, F_MOVER]
        fb[c, FB_PAY] = pay[m, count_of(fr[c, F_BEST], m)]
    if fr[d, at + S_REDO] != 0 or fr[d, at + S_FOUND] > 1:  # cards before its best left, or searching again
        fr[c, F_AGAIN] = 1
