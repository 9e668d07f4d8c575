"""Hand classes (docs/policies.md P5) and the calibrated declarations (P3 threshold and ev)
in numba; mirrors ``classes.py`` and ``policies.py`` (the chart and table families read a
declaration table: ``kernel/infosets.py``)."""

from numba import njit

from loo_sim.game import abi as L
from loo_sim.game.classes import (
    COL_NONE,
    MISS_ROW,
    N_COLS,
    ROW_NONE,
    ROW_ONE_LOW,
    ROW_THREE,
    ROW_TOP,
    ROW_TWO_PLAIN,
    ROW_UNKNOWN,
)
from loo_sim.kernel.bits import ACE_BITS, PAM, has, highest_power, lsb, msb, popcount, trump_mask, trump_order


@njit(cache=True, inline="always")
def column(best_rank):
    if best_rank <= 7:
        return 0
    if best_rank <= 9:
        return 1
    return best_rank - 8


@njit(cache=True)
def hand_class(hand, t, pam):
    """classes.hand_class on a mask (rank-major bits)."""
    if t < 0:
        aces = min(popcount(hand & ACE_BITS), 2)
        others = hand & ~ACE_BITS
        col = column(msb(others) >> 2) if others else COL_NONE
        return (ROW_UNKNOWN + aces) * N_COLS + col
    tm = trump_mask(t, pam)
    trumps = hand & tm
    plain = hand & ~tm
    top = PAM if pam == 1 else 48 + t
    if has(hand, top):
        row = ROW_TOP
    elif trumps == 0:
        row = ROW_NONE
    else:
        count = popcount(trumps)
        if count == 1:
            order = trump_order(lsb(trumps), pam)
            if order <= 7:
                row = ROW_ONE_LOW
            elif order <= 9:
                row = ROW_ONE_LOW + 1
            else:
                row = ROW_ONE_LOW + order - 8
        elif count == 2:
            row = ROW_TWO_PLAIN + (1 if trump_order(highest_power(trumps, t, pam), pam) >= 10 else 0)
        else:
            row = ROW_THREE
    col = column(msb(plain) >> 2) if plain else COL_NONE
    return row * N_COLS + col


@njit(cache=True)
def seats_expected(already_in, later, players, p_in):
    """Seats expected in the deal: those already in, this one, and the later ones at the
    calibrated entry rate (the row of the strength table to read)."""
    m = already_in + 1 + int(later * p_in + 0.5)
    return min(players, max(2, m))


@njit(cache=True)
def expected_chips(probs, pot, h, penalty):
    """EV of playing a hand with trick distribution ``probs``: shares won minus the loo."""
    tricks = 0.0
    for k in range(1, h + 1):
        tricks += k * probs[k]
    return pot * tricks / h - probs[0] * penalty


@njit(cache=True)
def declare_calibrated(family, seat, hand, t, pam, may_pass, miss_on_offer, dealer_case, polf, strength, position,
                       already_in, later, players, pot, h, penalty, p_in):  # fmt: skip
    """engine.policies.declare for threshold and ev: returns a DECL_* code."""
    cls = hand_class(hand, t, pam)
    m = seats_expected(already_in, later, players, p_in)
    if family == L.D_THRESHOLD:
        q = 1.0 - strength[cls, m, 0]
        if q >= polf[seat, L.PF_PLAY_AT]:
            return L.DECL_PLAY
        if dealer_case == 2:
            return L.DECL_DEFEND
        if miss_on_offer and q < polf[seat, L.PF_MISS_BELOW]:
            return L.DECL_MISS
        return L.DECL_PASS if may_pass else L.DECL_PLAY
    # ev: the best of play, pass (0), miss and defend (0); ties to the first in that order
    best = L.DECL_PLAY
    value = expected_chips(strength[cls, m], pot, h, penalty)
    if may_pass and dealer_case != 2 and value < 0.0:
        best, value = L.DECL_PASS, 0.0
    if miss_on_offer:
        miss_value = expected_chips(strength[MISS_ROW, m], pot, h, penalty)
        if miss_value > value:
            best, value = L.DECL_MISS, miss_value
    if dealer_case == 2 and value < 0.0:
        best, value = L.DECL_DEFEND, 0.0
    return best
