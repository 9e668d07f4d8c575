"""Hands as 52-bit masks and the card logic of R1/R7/P1, for the kernel.

Inside the kernel a card lives at bit ``rank * 4 + suit`` (rank-major), not at its
card number ``suit * 13 + rank``: then "highest/lowest power" (P1) is one bit scan —
plain cards order by rank and then suit, exactly P1's tie-break — and a suit is the
fixed mask ``SUIT_MASK[s]``. ``POS``/``CARD`` convert at the edges of a deal.

Mirrors ``ranking.py`` and the legality of ``reference.py``: trump suit ``t`` is -1
while unknown; ``pam`` is 1 when Pam is in play.
"""

import numpy as np
from numba import njit
from numba.core import types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic

POS = np.array([(c % 13) * 4 + c // 13 for c in range(52)], dtype=np.int64)  # card -> bit
CARD = np.array([(p % 4) * 13 + p // 4 for p in range(52)], dtype=np.int64)  # bit -> card
SUIT_MASK = np.array([sum(1 << (r * 4 + s) for r in range(13)) for s in range(4)], dtype=np.int64)
PAM = 9 * 4 + 0  # the jack of clubs
PAM_BIT = 1 << PAM
ACE_BITS = 0xF << 48
FACE_BITS = 0xFFFF << 36  # J Q K A of every suit
QKA_BITS = 0xFFF << 40


@intrinsic
def popcount(typingctx, x):
    """Number of set bits (LLVM ctpop)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


# u(i): index ``i`` (never negative) as unsigned, for the hot loops. numba indexes with a
# signed integer by first wrapping a negative one around, a few instructions each time;
# the numpy type itself rather than a function of ours, which would be inlined at every
# index and slow the first compile.
u = np.uint64


@njit(cache=True)
def msb(m):
    return 63 - leading_zeros(m)


@njit(cache=True)
def lsb(m):
    return trailing_zeros(m)


@njit(cache=True)
def has(m, p):
    return (m >> p) & 1


@njit(cache=True)
def trump_mask(t, pam):
    """Every trump (Pam counts); 0 while trumps are unknown."""
    if t < 0:
        return 0
    if pam == 1:
        return SUIT_MASK[t] | PAM_BIT
    return SUIT_MASK[t]


@njit(cache=True)
def follow_mask(s, t, pam):
    """The cards that count as suit ``s`` for following (Pam follows trumps, R1)."""
    if pam == 1:
        if s == t:
            return SUIT_MASK[s] | PAM_BIT
        return SUIT_MASK[s] & ~PAM_BIT
    return SUIT_MASK[s]


@njit(cache=True)
def is_trump(p, t, pam):
    return t >= 0 and ((p & 3) == t or (pam == 1 and p == PAM))


@njit(cache=True)
def eff_suit(p, t, pam):
    if pam == 1 and p == PAM and t >= 0:
        return t
    return p & 3


@njit(cache=True)
def trump_order(p, pam):
    if pam == 1 and p == PAM:
        return 13
    return p >> 2


@njit(cache=True)
def above(p):
    """Every bit position above ``p``."""
    return ~((2 << p) - 1)


@njit(cache=True)
def beats(c, w, led, t, pam):
    """R7: does card ``c`` beat ``w``, the card now winning a trick led in ``led``?"""
    ct = is_trump(c, t, pam)
    wt = is_trump(w, t, pam)
    if ct != wt:
        return ct
    if ct:
        return trump_order(c, pam) > trump_order(w, pam)
    return eff_suit(c, t, pam) == led and (c >> 2) > (w >> 2)


@njit(cache=True)
def beat_mask(w, led, t, pam):
    """Every card that would beat ``w`` (the card now winning) in a trick led in ``led``."""
    if is_trump(w, t, pam):
        if pam == 1:
            if w == PAM:
                return 0
            return (SUIT_MASK[t] & above(w)) | PAM_BIT
        return SUIT_MASK[t] & above(w)
    return trump_mask(t, pam) | (follow_mask(led, t, pam) & above(w))


# ---- P1 (card power), with the masks of one trump state: the trick loop computes them once -----
@njit(cache=True)
def power_masks(t, pam):
    """For ``lowest_in``/``highest_in``: (every trump, the cards below every trump (Pam
    never among them), the trumps but Pam, the trump suit); 0 where trumps are unknown."""
    tm = trump_mask(t, pam)
    suit = SUIT_MASK[t] if t >= 0 else 0
    if pam == 1:
        return tm, ~tm & ~PAM_BIT, tm & ~PAM_BIT, suit
    return tm, ~tm, tm, suit


@njit(cache=True)
def lowest_in(m, low_plain, low_trumps):
    """P1: the card of lowest power in ``m`` (non-empty), with the masks of power_masks(t, pam)."""
    plain = m & low_plain
    if plain:
        return lsb(plain)
    tb = m & low_trumps
    if tb:
        return lsb(tb)
    return PAM


@njit(cache=True)
def highest_in(m, suit, pam):
    """P1: the card of highest power in ``m`` (non-empty), with the trump suit's mask (power_masks)."""
    if pam == 1 and has(m, PAM):
        return PAM
    tb = m & suit
    return msb(tb if tb != 0 else m & ~suit)  # one bit scan of a select: holding a trump is a coin toss


@njit(cache=True)
def one_suit(m):
    """Whether every card of mask ``m`` (non-empty) is of one suit."""
    return (m & ~SUIT_MASK[lsb(m) & 3]) == 0


@njit(cache=True)
def highest_power(m, t, pam):
    """P1: the card of highest power in mask ``m`` (non-empty)."""
    return highest_in(m, power_masks(t, pam)[3], pam)


@njit(cache=True)
def lowest_power(m, t, pam):
    """P1: the card of lowest power in mask ``m`` (non-empty)."""
    _, low_plain, low_trumps, _ = power_masks(t, pam)
    return lowest_in(m, low_plain, low_trumps)


@njit(cache=True)
def nth_card(m, k):
    """The k-th card of mask ``m`` in card-number order (as the reference's sorted())."""
    for c in range(52):
        if has(m, POS[c]):
            if k == 0:
                return POS[c]
            k -= 1
    return -1


@njit(cache=True)
def suit_ranks(m, s):
    """The ranks held in suit ``s`` as a 13-bit mask."""
    out = 0
    for r in range(13):
        out |= ((m >> (r * 4 + s)) & 1) << r
    return out
