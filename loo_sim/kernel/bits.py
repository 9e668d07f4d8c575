"""Hands as 52-bit masks (bit ``card`` set when held) and the card logic of R1/R7/P1.

Mirrors ``ranking.py`` and the legality of ``reference.py``: trump suit ``t`` is -1
while unknown; ``pam`` is 1 when Pam is in play.
"""

import numpy as np
from numba import njit

FULL13 = 0x1FFF
PAM = 9  # the jack of clubs
PAM_BIT = 1 << PAM
ACE_BITS = (1 << 12) | (1 << 25) | (1 << 38) | (1 << 51)
FACE_BITS = 0
for _s in range(4):
    FACE_BITS |= 0xF << (13 * _s + 9)  # J Q K A


def _tables():
    high = np.full(1 << 13, -1, dtype=np.int64)
    low = np.full(1 << 13, 99, dtype=np.int64)
    pop = np.zeros(1 << 13, dtype=np.int64)
    for m in range(1, 1 << 13):
        high[m] = m.bit_length() - 1
        low[m] = (m & -m).bit_length() - 1
        pop[m] = bin(m).count("1")
    return high, low, pop


HIGH13, LOW13, POP13 = _tables()


@njit(cache=True, inline="always")
def suit_bits(m, s):
    return (m >> (13 * s)) & FULL13


@njit(cache=True)
def popcount(m):
    return POP13[m & FULL13] + POP13[(m >> 13) & FULL13] + POP13[(m >> 26) & FULL13] + POP13[(m >> 39) & FULL13]


@njit(cache=True, inline="always")
def has(m, c):
    return (m >> c) & 1


@njit(cache=True)
def trump_mask(t, pam):
    """Every trump (Pam counts); 0 while trumps are unknown."""
    if t < 0:
        return 0
    m = FULL13 << (13 * t)
    if pam:
        m |= PAM_BIT
    return m


@njit(cache=True)
def follow_mask(s, t, pam):
    """The cards that count as suit ``s`` for following (Pam follows trumps, R1)."""
    m = FULL13 << (13 * s)
    if pam:
        if s == t:
            m |= PAM_BIT
        else:
            m &= ~PAM_BIT
    return m


@njit(cache=True, inline="always")
def is_trump(c, t, pam):
    return t >= 0 and (c // 13 == t or (pam == 1 and c == PAM))


@njit(cache=True, inline="always")
def eff_suit(c, t, pam):
    if pam == 1 and c == PAM and t >= 0:
        return t
    return c // 13


@njit(cache=True, inline="always")
def trump_order(c, pam):
    if pam == 1 and c == PAM:
        return 13
    return c % 13


@njit(cache=True)
def beats(c, w, led, t, pam):
    """R7: does card ``c`` beat ``w``, the card now winning a trick led in ``led``?"""
    ct = is_trump(c, t, pam)
    wt = is_trump(w, t, pam)
    if ct != wt:
        return ct
    if ct:
        return trump_order(c, pam) > trump_order(w, pam)
    return eff_suit(c, t, pam) == led and c % 13 > w % 13


@njit(cache=True)
def beat_mask(w, led, t, pam):
    """Every card that would beat ``w`` (the card now winning) in a trick led in ``led``."""
    r = w % 13
    above = ((FULL13 << (r + 1)) & FULL13)
    if is_trump(w, t, pam):
        if pam == 1 and w == PAM:
            return 0
        m = above << (13 * t)
        if pam == 1:
            m |= PAM_BIT
        return m
    return trump_mask(t, pam) | ((above << (13 * led)) & follow_mask(led, t, pam))


@njit(cache=True)
def highest_power(m, t, pam):
    """P1: the card of highest power in mask ``m`` (non-empty)."""
    if pam == 1 and has(m, PAM):
        return PAM
    if t >= 0:
        tb = suit_bits(m, t)
        if pam == 1 and t == 0:
            tb &= ~PAM_BIT
        if tb:
            return 13 * t + HIGH13[tb]
    best, best_rank = -1, -1
    for s in range(3, -1, -1):  # ties between plain suits go to the higher suit
        if s == t:
            continue
        b = suit_bits(m, s)
        if pam == 1 and s == 0:
            b &= ~PAM_BIT
        if b and HIGH13[b] > best_rank:
            best_rank = HIGH13[b]
            best = 13 * s + best_rank
    return best


@njit(cache=True)
def lowest_power(m, t, pam):
    """P1: the card of lowest power in mask ``m`` (non-empty)."""
    best, best_rank = -1, 99
    for s in range(4):  # ties between plain suits go to the lower suit
        if s == t:
            continue
        b = suit_bits(m, s)
        if pam == 1 and s == 0:
            b &= ~PAM_BIT
        if b and LOW13[b] < best_rank:
            best_rank = LOW13[b]
            best = 13 * s + best_rank
    if best >= 0:
        return best
    if t >= 0:
        tb = suit_bits(m, t)
        if pam == 1 and t == 0:
            tb &= ~PAM_BIT
        if tb:
            return 13 * t + LOW13[tb]
    return PAM


@njit(cache=True)
def nth_card(m, k):
    """The k-th card (0-based, in card order) of mask ``m``."""
    for s in range(4):
        b = suit_bits(m, s)
        n = POP13[b]
        if k < n:
            while True:
                low = LOW13[b]
                if k == 0:
                    return 13 * s + low
                b &= b - 1
                k -= 1
        k -= n
    return -1
