"""How simulated players decide (docs/policies.md P2, P3), in masks: the kernel's twin of
``engine/policies.py`` (declare, choose_discards, choose_card), deal for deal the same."""

from numba import njit

from loo_sim.game import abi as L
from loo_sim.kernel.bits import (
    ACE_BITS,
    FACE_BITS,
    PAM,
    PAM_BIT,
    QKA_BITS,
    SUIT_MASK,
    has,
    highest_in,
    lowest_in,
    lowest_power,
    nth_card,
    one_suit,
    popcount,
    trump_mask,
)
from loo_sim.kernel.krng import draw_below
from loo_sim.kernel.legality import flush_key

# ---- declaring (P2, P3) ---------------------------------------------------------------
FA_FLUSH, FA_FOUR, FA_PAM_ANY = 1, 2, 4  # flush-aware's clauses in force (flush_clauses' bits)


@njit(cache=True)
def flush_clauses(ri):
    """The flush-aware clauses the rules put in force, as FA_* bits: the flush (needs
    ``flush``), four of a suit (``flush`` and ``exchange``), and Pam counting towards any
    suit there (the ``pam_flush`` reading, slot R_PAM_FLUSH of game.legality.pam_flush)."""
    if ri[L.R_FLUSH] != 1:
        return 0
    bits = FA_FLUSH
    if ri[L.R_EXCHANGE] == 1:
        bits |= FA_FOUR
    if ri[L.R_PAM] == 1 and ri[L.R_PAM_FLUSH] == 1:
        bits |= FA_PAM_ANY
    return bits


@njit(cache=True)
def four_of_a_suit(hand, pam_any):
    """engine.policies.four_of_a_suit: at least four cards of one suit, Pam counting
    towards any suit with ``pam_any`` (else it is the club it is)."""
    wild = 1 if (pam_any and has(hand, PAM)) else 0
    rest = hand & ~PAM_BIT if wild else hand
    longest = 0
    for s in range(4):
        longest = max(longest, popcount(rest & SUIT_MASK[s]))
    return longest + wild >= 4


@njit(cache=True)
def flush_worth_playing(hand, t, pam, clauses):
    """engine.policies.flush_clause is not None: the show's flush test (flush_key, R9), or
    four of a suit where that clause is in force."""
    # pam_flush = false (R9c): a hand with Pam is a flush only as five clubs
    no_pam_flush = pam == 1 and has(hand, PAM) and not clauses & FA_PAM_ANY and not one_suit(hand)
    if clauses & FA_FLUSH and flush_key(hand, t, pam) >= 0 and not no_pam_flush:
        return True
    return (clauses & FA_FOUR) != 0 and four_of_a_suit(hand, (clauses & FA_PAM_ANY) != 0)


@njit(cache=True)
def declare_flush_aware(hand, t, pam, may_pass, miss_on_offer, dealer_case, clauses):
    """flush-aware (P3): basic, except that a hand basic finds weak plays where one of the
    flush clauses in force (``clauses``: flush_clauses of the rules) holds, never in R8
    case 2. A function of its own, so that ``declare``, which every deal calls, stays small."""
    weak_for_basic = (hand & (trump_mask(t, pam) | ACE_BITS)) == 0
    if weak_for_basic and clauses != 0 and dealer_case != 2 and flush_worth_playing(hand, t, pam, clauses):
        return L.DECL_PLAY
    return declare(L.D_BASIC, hand, t, pam, may_pass, miss_on_offer, dealer_case)


@njit(cache=True)
def declare(family, hand, t, pam, may_pass, miss_on_offer, dealer_case):
    """engine.policies.declare in ints for always, basic, cautious and nothing-takes-miss:
    returns a DECL_* code (flush-aware: ``declare_flush_aware``)."""
    tm = trump_mask(t, pam)
    if family == L.D_ALWAYS or family == L.D_NOTHING:
        if dealer_case != 0:
            return L.DECL_PLAY
        if family == L.D_NOTHING and miss_on_offer and (hand & tm) == 0 and (hand & FACE_BITS) == 0:
            return L.DECL_MISS
        return L.DECL_PLAY
    if family == L.D_BASIC:
        strong = (hand & (tm | ACE_BITS)) != 0
    elif t < 0:
        strong = (hand & ACE_BITS) != 0
    else:  # cautious: a trump of queen or higher (Pam counts), or two or more trumps
        trumps = hand & tm
        high = (QKA_BITS & SUIT_MASK[t]) | (PAM_BIT if pam == 1 else 0)
        strong = (popcount(trumps) >= 2) | ((trumps & high) != 0)
    # what a weak hand does depends on the seat's options, not its cards; the hand only
    # picks between the two, as a select rather than a branch the processor would guess
    if dealer_case == 2:
        weak = L.DECL_DEFEND
    elif family == L.D_BASIC and miss_on_offer and dealer_case == 0:
        weak = L.DECL_MISS
    else:
        weak = L.DECL_PASS if may_pass else L.DECL_PLAY
    return L.DECL_PLAY if strong else weak


# ---- exchanging (P2, P3) ----------------------------------------------------------------
@njit(cache=True)
def flush_odd_cards(hand, pam):
    """flush-chase, Pam wild: 0 with a flush, the odd card with four of a suit (or three
    plus Pam), -1 otherwise."""
    wild = 1 if (pam == 1 and has(hand, PAM)) else 0
    rest = hand & ~PAM_BIT if pam == 1 else hand
    best_suit, longest = 0, -1
    for s in range(4):
        n = popcount(rest & SUIT_MASK[s])
        if n > longest:
            longest, best_suit = n, s
    if longest + wild >= 5:
        return 0
    if longest + wild == 4 and popcount(hand) == 5:
        return rest & ~SUIT_MASK[best_suit]
    return -1


@njit(cache=True)
def discards(family, hand, t, pam, stock_size):
    """engine.policies.choose_discards in masks: the cards thrown."""
    if family == L.X_NONE:
        return 0
    tm = trump_mask(t, pam)
    cand = -1
    if family == L.X_KEEP and t >= 0:
        cand = hand & ~tm
    elif family == L.X_FLUSH:
        cand = flush_odd_cards(hand, pam)
    if cand < 0:
        cand = hand & ~tm & ~ACE_BITS
    if popcount(cand) > stock_size:  # short stock: the lowest-power candidates first
        keep = 0
        for _ in range(stock_size):
            c = lowest_power(cand & ~keep, t, pam)
            keep |= 1 << c
        cand = keep
    return cand


@njit(cache=True)
def random_card(legal, key, sc, seat):
    """The random family: a legal card drawn from the seat's own stream (P2); the draws it
    used are counted in the scratch's SC_COUNTERS."""
    k = draw_below(key, sc[L.SC_COUNTERS + seat], popcount(legal))
    sc[L.SC_COUNTERS + seat] += 1
    return nth_card(legal, k)


@njit(cache=True)
def fixed_card(family, legal, n_played, beat, suit, low_plain, low_trumps, pam):
    """The deterministic families' card (basic, high, low), inlined into the trick loop:
    ``beat`` holds the cards that would win as things stand; the masks are
    bits.power_masks of the trump state."""
    if family == L.PL_HIGH or (family == L.PL_BASIC and n_played == 0):
        return highest_in(legal, suit, pam)
    if family == L.PL_BASIC:
        winners = legal & beat
        if winners:
            return lowest_in(winners, low_plain, low_trumps)
    return lowest_in(legal, low_plain, low_trumps)


@njit(cache=True)
def choose_card(family, legal, n_played, beat, suit, low_plain, low_trumps, pam, key, sc, seat):
    """engine.policies.choose_card in masks: the random family draws (a call, it is rare),
    the others decide inline."""
    if family == L.PL_RANDOM:
        return random_card(legal, key, sc, seat)
    return fixed_card(family, legal, n_played, beat, suit, low_plain, low_trumps, pam)
