"""The perfect-information solver's vectors and its transposition table (``kernel/solver.py``
explains the search): the per-solve context ``st`` (slots ``ST_*``), the switches that turn
shortcuts off (``NO_*``), the table ``tt`` (columns ``TT_*``) and a trick start's key in it:
:func:`table_key`, the hands in ranks (:func:`canonical`) and the slot (:func:`_slot`); an
entry read (:func:`lookup`) and written (:func:`store`)."""

from numba import njit

from loo_sim.game import abi as L
from loo_sim.kernel.bits import ACE_BITS, PAM_BIT, SUIT_MASK, has, lsb, popcount

# ---- the per-solve context and results: int vector ``st`` ----------------------------------
ST_GEN = 0  # generation number of the current solve (transposition entries carry it)
ST_NODES = 1  # nodes searched (statistics)
ST_N, ST_H, ST_PAM, ST_CIVIL, ST_LEAD, ST_VOID, ST_MODE, ST_INDICATOR, ST_SINGLE = range(2, 11)
ST_BEST = 11  # the root's chosen card (bit position)
ST_OUT_N = 12  # card_values: legal cards at the root
ST_OUT_CARDS = 13  # [MAX_TRICKS] their bit positions, in tie-break order
ST_OUT_RES = ST_OUT_CARDS + L.MAX_TRICKS  # [MAX_TRICKS] the packed counts after each
ST_FLAGS = ST_OUT_RES + L.MAX_TRICKS  # the shortcuts turned off (measurements and tests): NO_* below
ST_CONTEXT = ST_FLAGS + 1  # 1 + the flags the table's entries were made with; 0: a new table generation next solve
ST_FUTURE = ST_CONTEXT + 1  # 1: the table keys on whether each seat has won a trick, not on the tricks won
ST_NEED = ST_FUTURE + 1  # [MAX_PLAYERS * (MAX_TRICKS + 1)] the fewest tricks with i's payoff at k tricks or more
ST_ACC = ST_NEED + L.MAX_PLAYERS * (L.MAX_TRICKS + 1)  # [as ST_NEED] the fewest tricks paying i more than k (H+1: none)
ST_CANON = ST_ACC + L.MAX_PLAYERS * (L.MAX_TRICKS + 1)  # [MAX_PLAYERS] a trick start's hands in the table's ranks
ST_TABLES = ST_CANON + L.MAX_PLAYERS  # 1 + the flags cap, ST_NEED, ST_ACC and ST_FUTURE were made with; 0: none yet
ST_SERIAL = ST_TABLES + 1  # frames opened so far, never reset: a frame's identity (solver_frames.F_ID)
ST_LEN = ST_SERIAL + 1
NO_MERGE, NO_TT, NO_CUT = 1, 2, 4
NO_SHALLOW, NO_FUTURE, NO_SHARE = 8, 16, 32  # shallow pruning, the key on tricks won or not, the table across solves
NO_RANKS = 64  # the table keyed on the cards themselves, not on their ranks among the cards in play
NO_UPPER = 128  # the cut without the follower that cannot head the trick
NO_ENDGAME = 256  # the last two tricks by the search's frames and table, not by solver_endgame.two_tricks
NO_TRUMPS = 512  # the cut without the tricks lost to another seat's trumps above all of the mover's
NO_FORCED = 1024  # a frame for every follower, also one with a single legal card
NO_MASKED = 2048  # the last trick judged card by card (beats), not from the mask of its cards
NO_SPEC = 4096  # no speculative pruning (against up to SPEC_UP frames above), so no search again
NO_RESUME = 8192  # a card searched again from nothing, not from where its first search stopped
NO_THREE = 16384  # the trick before the endgame's two by the search's frames, not by solver_three.three_tricks
NO_MIX = 32768  # the table's slot as it was: the hands' bits from 45 up never reached it (solver_table._slot)
# the search before these (measurements, tests)
OLD_SEARCH = (NO_SHALLOW | NO_FUTURE | NO_SHARE | NO_RANKS | NO_UPPER | NO_ENDGAME | NO_TRUMPS | NO_FORCED | NO_MASKED
              | NO_SPEC | NO_RESUME | NO_THREE | NO_MIX)
# ---- transposition table: int matrix [slot, TT_*] ------------------------------------------
TT_GEN, TT_META, TT_VALUE = 0, 1, 2
TT_HANDS = 3  # [MAX_PLAYERS]
TT_COLS = TT_HANDS + L.MAX_PLAYERS
# 2**14 slots (1.4 MB, as kernel/cardplay.py's workspaces): at 2**16 (5.5 MB) a five-card first-lead solve spent 16%
# of its time waiting for the table's first word (scripts/profile_kernel.py); at 2**14 it searches 0.8% more nodes
# (7,213 against 7,154 a solve) and ran about 6% faster (scratch runs alternating the two sizes; stop 47)
TT_BITS = 14
OLD_TT_BITS = 16  # the table's size when OLD_SEARCH was the search: its measurements keep it (scripts/bench_solver.py)
# canonical keeps a hand's suits in bits 57-62: at most 4 cards a hand at a trick start after the first
assert L.MAX_TRICKS <= 5, "solver_table.canonical's key holds hands of at most 4 cards"
_K = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64


@njit(cache=True, inline="always")
def count_of(packed, i):
    """Seat index ``i``'s tricks in packed counts (4 bits a seat)."""
    return (packed >> (4 * i)) & 15


@njit(cache=True, inline="always")
def table_key(st, li, tix, t, turned, won):
    """A trick start's key in the table, besides the hands: the leader, the trick, trumps,
    the indicator (pimc's samples differ in it while it is hidden) and the tricks won. Under
    ``ST_FUTURE`` only whether each seat has won a trick yet: the entries hold the tricks
    won from the trick start on, and a seat's payoff then orders those the same way
    whatever it won before, from its first trick on (``_setup`` checks the floats)."""
    if st[ST_FUTURE] == 1:
        won = (won | (won >> 1) | (won >> 2) | (won >> 3)) & 0x11111111  # a bit a seat: has it won a trick
    return li | (tix << 4) | ((t + 1) << 8) | (turned << 11) | ((st[ST_INDICATOR] + 1) << 12) | (won << 18)


@njit(cache=True, inline="always")
def holder_planes(hands, n, skip):
    """Three bit planes of the seat numbers (at most 8 seats): bit c of plane j is bit j of
    the number of the seat holding card c; seat ``skip`` left out (-1: none). :func:`holder`
    reads them."""
    plane0 = plane1 = plane2 = 0
    for i in range(1, n):
        if i != skip:
            plane0 |= hands[i] if i & 1 else 0
            plane1 |= hands[i] if i & 2 else 0
            plane2 |= hands[i] if i & 4 else 0
    return plane0, plane1, plane2


@njit(cache=True, inline="always")
def holder(planes, c):
    """The seat holding card ``c`` (0 when no seat of the planes holds it), from :func:`holder_planes`."""
    return ((planes[0] >> c) & 1) | (((planes[1] >> c) & 1) << 1) | (((planes[2] >> c) & 1) << 2)


@njit(cache=True, inline="always")
def canonical(hands, st, n):
    """A trick start's hands in the table's ranks, into ``st[ST_CANON:]``: each card in play
    at bit ``4 r + s``, ``r`` the number of cards of its suit ``s`` in play below it, Pam
    counted among the clubs (its place among them, which decides while trumps are unknown,
    is the rank the other clubs leave out); Pam and, under Pam be civil, the aces apart, Pam
    at bit 52 and the ace of suit s at 53 + s;
    and the suits of each hand's cards in bit order, all but the last (the ranks give it),
    two bits each from bit 57 (a hand holds at most 4 cards at a trick start after the
    first, ``MAX_TRICKS`` being 5). So each suit's order, each hand's tie-break order (plain
    cards in bit order) and the ace of trumps and Pam are kept, and nothing else from a
    trick start on (the first-trick clauses are behind; a dead card is never compared):
    hands with the same ranks have the same subgame, and the transpositions that differ in
    which of two cards, equal by then, went earlier meet in the table. Each card's rank is
    one popcount, independent of the others' (the ranks before it packed each card above
    the one placed before it in its suit and in its hand: a chain, 2-3 times as slow)."""
    if (st[ST_FLAGS] & NO_RANKS) != 0:
        for i in range(n):
            st[ST_CANON + i] = hands[i]
        return
    fixed = PAM_BIT if st[ST_PAM] == 1 else 0
    if st[ST_CIVIL] == 1:
        fixed |= ACE_BITS
    ranked = 0  # every card in play: Pam among the clubs (a club while trumps are unknown); an ace is above all
    for i in range(n):
        ranked |= hands[i]
    for i in range(n):
        m = hands[i]
        key = 0
        at = 57
        while m:
            c = lsb(m)
            m &= m - 1
            s = c & 3
            if has(fixed, c):
                key |= 1 << (52 + (s + 1 if c >= 48 else 0))
            else:
                key |= 1 << (4 * popcount(ranked & SUIT_MASK[s] & ((1 << c) - 1)) + s)
            if m:
                key |= s << at
                at += 2
        st[ST_CANON + i] = key


@njit(cache=True, inline="always")
def _slot(hands, n, meta, size, flags):
    """The table's slot of a key: every bit of the hands reaches it (under ``NO_MIX`` as it
    was, where a hand's bits from 45 up, the kings and aces of the raw hands, never did)."""
    x = meta * _K
    for i in range(n):
        x = (x ^ hands[i]) * _K
    x ^= x >> 29
    if (flags & NO_MIX) == 0:
        x *= _K
        x ^= x >> 32
    return x & (size - 1)


@njit(cache=True, inline="always")
def lookup(tt, slot, st, n, meta):
    """The tricks won from a trick start on, from the table (the hands in ranks at
    ``st[ST_CANON:]``, ``meta`` its :func:`table_key`); -1: not there."""
    if slot < 0 or tt[slot, TT_GEN] != st[ST_GEN] or tt[slot, TT_META] != meta:
        return -1
    for i in range(n):
        if tt[slot, TT_HANDS + i] != st[ST_CANON + i]:
            return -1
    return tt[slot, TT_VALUE]


@njit(cache=True, inline="always")
def store(tt, slot, st, n, meta, value):
    """Into the table: the tricks won from a trick start on, under its key (the hands in
    ranks at ``st[ST_CANON:]``)."""
    tt[slot, TT_GEN] = st[ST_GEN]
    tt[slot, TT_META] = meta
    tt[slot, TT_VALUE] = value
    for i in range(n):
        tt[slot, TT_HANDS + i] = st[ST_CANON + i]
