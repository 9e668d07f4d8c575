"""Which cards a seat may lead or follow with, and how a five-card hand ranks as a flush
(docs/rules.md R7, R9), in masks: the kernel's twin of ``game/legality.py``."""

from numba import njit

from loo_sim.game import abi as L
from loo_sim.kernel.bits import (
    PAM,
    PAM_BIT,
    SUIT_MASK,
    has,
    highest_power,
    popcount,
    suit_ranks,
    trump_mask,
)


# ---- flushes (R9) ------------------------------------------------------------------------
@njit(cache=True)
def flush_key(hand, t, pam):
    """A sortable flush rank (higher wins), -1 without a flush: Pam-flush, then trump
    flush, then the cards from the top (Pam above all)."""
    wild = pam == 1 and has(hand, PAM)
    rest = hand & ~PAM_BIT if wild else hand
    if popcount(hand) != 5:
        return -1
    suit = -1
    for s in range(4):
        if rest & SUIT_MASK[s]:
            if suit >= 0:
                return -1
            suit = s
    key = 0
    if wild:
        key = 1 << 20
    if t >= 0 and suit == t:
        key |= 1 << 19
    ranks = suit_ranks(rest, suit)
    # cards from the top: Pam as rank 13, then the suit's ranks; one bit each, higher first
    key |= (1 << 13) if wild else 0
    key |= ranks
    return key


# ---- trick play (R7) ---------------------------------------------------------------------
@njit(cache=True)
def lead_options(hand, t, pam, lead, first, indicator):
    """R7 lead obligations, while trumps are known."""
    if t < 0 or lead == L.LEAD_FREE:
        return hand
    ace = 48 + t
    king = 44 + t
    ace_is_indicator = indicator == ace  # indicator as a bit position
    trumps = hand & trump_mask(t, pam)
    if lead == L.LEAD_ACE or lead == L.LEAD_ACE_KING:
        if first and pam == 1 and has(hand, PAM):
            return PAM_BIT
        if first and has(hand, ace):
            return 1 << ace
        if first and lead == L.LEAD_ACE_KING and ace_is_indicator and has(hand, king):
            return 1 << king  # R9c ace_lead_king
        return hand
    if lead == L.LEAD_TRUMP:
        if trumps == 0:
            return hand
        if first and has(hand, ace):
            return 1 << ace
        if first and ace_is_indicator and has(hand, king):
            return 1 << king
        return trumps
    if first and has(hand, ace):
        return 1 << ace
    if first and ace_is_indicator and has(hand, king):
        return 1 << king
    if popcount(trumps) >= 2:
        return 1 << highest_power(trumps, t, pam)
    return hand


@njit(cache=True)
def follow_options(hand, same_suit, trumps_mask, beat, trumped, void):
    """R7 followers: follow suit, head the trick, then the void option. ``same_suit``: the
    cards that follow the led suit (follow_mask), ``trumps_mask``: every trump, ``beat``:
    the cards that would win as things stand (beat_mask), ``trumped``: a plain-suit trick
    that a trump now wins, which a plain follower cannot head."""
    same = hand & same_suit
    if same:
        if trumped:
            return same
        heading = same & beat
        return heading if heading else same
    trumps = hand & trumps_mask
    if trumps == 0:
        return hand
    winning_trumps = trumps & beat
    if winning_trumps:
        return winning_trumps
    return trumps if void == L.VOID_MUST else hand
