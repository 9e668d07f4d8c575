"""The search's frames (``kernel/solver.py`` explains the search): the layout of the explicit
stack ``fr``/``fb`` that ``solver_search._value`` walks, one frame a card played, and the
pruning that reads it: shallow pruning (:func:`_shallow`, Korf 1991) against the parent,
and speculative pruning (:func:`_speculate`, Sturtevant 2003) against the grandparent, with
what it asks of the search: a value left out (:func:`_leave_out`) and a frame searched
again when its value may be inexact and its parent would take it (:func:`_again`,
:func:`_restart`)."""

from numba import njit

from loo_sim.game import abi as L
from loo_sim.kernel.bits import PAM, has, power_masks
from loo_sim.kernel.solver_table import NO_SHALLOW, NO_SPEC, ST_ACC, ST_FLAGS, ST_H, ST_NEED, ST_PAM, count_of
from loo_sim.kernel.solver_trick import unplay_forced

# ---- search frames (the explicit stack): int matrix fr [depth, F_*], float matrix fb [depth, FB_*] ----
F_LI, F_K, F_TIX, F_WON, F_T, F_TURNED, F_CIVIL, F_RENOUNCED, F_LED, F_WIN, F_TRUMPED, F_LED_TRUMP = range(12)
F_BEAT, F_MOVER, F_HAND, F_LIVE, F_PLAIN, F_TRUMPS, F_PAM, F_PREV, F_FOUND, F_DONE, F_BEST, F_CARD = range(12, 24)
F_SLOT, F_METAKEY, F_MODE, F_PRUNED, F_UPPER = 24, 25, 26, 27, 28
F_CHAIN = 29  # followers with one legal card played after the frame's card, without frames (solver_trick.play_forced)
F_LEGAL = 30  # the mover's legal cards (a search again starts from them)
F_SPEC = 31  # 1: a child's value was left out by speculative pruning (the frame's value may be inexact)
F_NOSPEC = 32  # 1: searched again, exactly: no child of it is pruned speculatively
F_CANON = 33  # [MAX_PLAYERS] a trick start's hands in the table's ranks, kept from its lookup for its entry
F_LEN = F_CANON + L.MAX_PLAYERS
FB_PAY, FB_CAP = 0, 1  # the best payoff so far, the most the mover can still get
MAX_DEPTH = L.MAX_TRICKS * L.MAX_PLAYERS + 1
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
    if extra > 0 and cap[p, count_of(won, p), most] <= fb[up, FB_PAY]:
        fr[d, F_DONE] = 1
        fr[d, F_PRUNED] = 1


@njit(cache=True, inline="always")
def _speculate(fr, d, st):
    """Speculative max^n pruning (Sturtevant 2003) against the grandparent: frame ``d``'s mover
    ``m`` ends with at least ``need`` tricks, its parent's (``p``) takes a value only with at
    least ``acc_p`` (the fewest paying it strictly more than its best so far; 0 before it has
    one) and its grandparent's (``a``) only with at least ``acc_a``; three different seats'
    tricks add up to at most all the tricks, so when ``acc_a + acc_p + need`` exceed them, the
    grandparent will not take this frame's value through the parent. Stop: the parent leaves
    the value out (``F_PRUNED`` 2), and is searched again, exactly, if its grandparent would
    take the value it then finds (:func:`_value`)."""
    if d < 2 or (st[ST_FLAGS] & NO_SPEC) != 0:
        return
    up = d - 1
    a = d - 2
    if fr[up, F_NOSPEC] == 1 or fr[a, F_FOUND] == 0 or fr[a, F_MODE] == ROOT_ALL:
        return
    if fr[d, F_TIX] + 2 >= st[ST_H]:
        return  # not in the last two tricks (the endgame's rows, which it costs more than it saves)
    m = fr[d, F_MOVER]
    p = fr[up, F_MOVER]
    pa = fr[a, F_MOVER]
    row = L.MAX_TRICKS + 1
    total = st[ST_ACC + pa * row + count_of(fr[a, F_BEST], pa)] + st[ST_NEED + m * row + count_of(fr[d, F_BEST], m)]
    if pa == m:
        return
    if fr[up, F_FOUND] == 1:
        if p == m or p == pa:  # noqa: SIM109 (numba: no tuple membership needed)
            return
        total += st[ST_ACC + p * row + count_of(fr[up, F_BEST], p)]
    if total > st[ST_H]:
        fr[d, F_DONE] = 1
        fr[d, F_PRUNED] = 2


@njit(cache=True, inline="always")
def _leave_out(fr, d, hands, cards, st, speculated):
    """A child's value left out: restore the hands; when the child was pruned speculatively,
    the frame's own value may be inexact (``F_SPEC``). A child that found no value (every one
    of its children left out) is left out exactly: its value, whichever it is, is one this
    frame would not take."""
    mover = fr[d, F_MOVER]
    hands[mover] = fr[d, F_HAND]
    unplay_forced(hands, cards, st, mover, fr[d, F_TIX] * L.MAX_PLAYERS + fr[d, F_K] + 1, fr[d, F_CHAIN])
    if speculated:
        fr[d, F_SPEC] = 1


@njit(cache=True, inline="always")
def _again(fr, fb, d, st, pay, best):
    """Whether frame ``d``, which left a child's value out (speculative pruning), must be
    searched again: its parent would take the value it found (or it found none, and then
    the parent takes nothing: each value left out is one the parent would not take)."""
    if fr[d, F_SPEC] == 0 or d == 0 or fr[d, F_FOUND] == 0 or fr[d, F_PRUNED] != 0:
        return False  # (a pruned frame's parent will not take its value, nor the exact one)
    up = d - 1
    p = fr[up, F_MOVER]
    return fr[up, F_FOUND] == 0 or pay[p, count_of(best, p)] > fb[up, FB_PAY]


@njit(cache=True, inline="always")
def _restart(fr, fb, d, st):
    """Search frame ``d`` again from its first card, with no child pruned speculatively."""
    legal = fr[d, F_LEGAL]
    _, low_plain, low_trumps, _ = power_masks(fr[d, F_T], st[ST_PAM])
    fr[d, F_PLAIN] = legal & low_plain
    fr[d, F_TRUMPS] = legal & low_trumps
    fr[d, F_PAM] = st[ST_PAM] == 1 and has(legal, PAM)
    fr[d, F_PREV] = -1
    fr[d, F_FOUND] = 0
    fr[d, F_DONE] = 0
    fr[d, F_BEST] = 0
    fr[d, F_PRUNED] = 0
    fr[d, F_SPEC] = 0
    fr[d, F_NOSPEC] = 1
    fb[d, FB_PAY] = 0.0
