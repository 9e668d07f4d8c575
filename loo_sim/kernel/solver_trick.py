"""A trick's rules as the solver's search and endgame apply them (``kernel/solver.py``
explains the search): a follower's legal cards (:func:`follower`), the winner of a
complete trick (:func:`judge`, :func:`winning_card`), the last trick played out
(:func:`last_trick`) and the followers with a single legal card (:func:`play_forced`)."""

from numba import njit

from loo_sim.game import abi as L
from loo_sim.kernel.bits import (
    PAM,
    PAM_BIT,
    SUIT_MASK,
    beat_mask,
    beats,
    eff_suit,
    follow_mask,
    has,
    is_trump,
    lsb,
    msb,
    popcount,
    trump_mask,
)
from loo_sim.kernel.legality import follow_options
from loo_sim.kernel.solver_table import (
    NO_FORCED,
    NO_MASKED,
    ST_FLAGS,
    ST_INDICATOR,
    ST_MODE,
    ST_N,
    ST_NODES,
    ST_PAM,
    ST_VOID,
)


@njit(cache=True, inline="always")
def equivalent(a, b, hand, live):
    """Whether card ``b``, tried right after ``a`` in the tie-break order, gives the mover the
    subgame ``a`` gave (kernel/solver.py, equivalent cards), so it could only tie: the same
    suit, ``b`` neither an ace nor Pam, no card of that suit in play (``live``: in a hand or
    in the trick) between them, and none of the mover's cards (``hand``) between them."""
    if (b & 3) != (a & 3) or (b >> 2) == 12 or b == PAM:
        return False
    between = ((1 << b) - 1) & ~((2 << a) - 1)
    return (between & hand) == 0 and (between & live & SUIT_MASK[b & 3]) == 0


@njit(cache=True, inline="always")
def follower(hand, cards, st, base, t, tm, civil, led, win_i, trumped):
    """A follower's legal cards (R7, R9 Pam be civil), the cards that head the trick, and
    whether it renounces (R6 first_renounce)."""
    pam = st[ST_PAM]
    held = hand
    if civil and has(hand, PAM) and popcount(hand) > 1:  # R9 Pam be civil
        held &= ~PAM_BIT
    beat = beat_mask(cards[base + win_i], led, t, pam)
    legal = follow_options(held, follow_mask(led, t, pam), tm, beat, trumped, st[ST_VOID])
    return legal, beat, t < 0 and (held & SUIT_MASK[led]) == 0


@njit(cache=True, inline="always")
def judge(cards, base, n, t, pam):
    """The winner's place in a complete trick judged with trumps ``t`` (R7)."""
    led = eff_suit(cards[base], t, pam)
    winning = cards[base]
    win_i = 0
    for k in range(1, n):
        if beats(cards[base + k], winning, led, t, pam):
            winning = cards[base + k]
            win_i = k
    return win_i


@njit(cache=True, inline="always")
def winning_card(played, led, t, pam):
    """R7: the card that wins a trick of the cards ``played`` (a mask) led in ``led``: the
    highest trump (Pam above the ace), else the highest card of the led suit."""
    if t >= 0:
        if pam == 1 and has(played, PAM):
            return PAM
        trumps = played & SUIT_MASK[t]
        if trumps:
            return msb(trumps)
    return msb(played & SUIT_MASK[led])


@njit(cache=True, inline="always")
def last_trick(hands, st, li, won, t):
    """The last trick from its lead: every seat holds one card, its only legal one. The
    winner is the seat holding :func:`winning_card` of the cards left; with ``NO_MASKED``
    the trick is judged card by card, as it is played (:func:`_last_trick_by_card`)."""
    n = st[ST_N]
    if (st[ST_FLAGS] & NO_MASKED) != 0:
        return _last_trick_by_card(hands, st, li, won, t)
    played = 0
    for i in range(n):
        played |= hands[i]
    w = last_winning_card(hands, st, li, t, played)
    winner = 0
    while not has(hands[winner], w):
        winner += 1
    return won + (1 << (4 * winner))


@njit(cache=True, inline="always")
def last_winning_card(hands, st, li, t, played):
    """The card that wins the last trick led by ``li``, ``played`` the mask of every seat's
    one card (:func:`winning_card`; under ``first_lead`` the lead sets trumps, under
    ``first_renounce`` a follower void in the led suit reveals them)."""
    pam, mode = st[ST_PAM], st[ST_MODE]
    first = lsb(hands[li])
    if mode == L.FIRST_LEAD and t < 0:
        t = first & 3
    led = eff_suit(first, t, pam)
    if t < 0 and mode == L.FIRST_RENOUNCE and (played & ~SUIT_MASK[led]) != 0:
        t = st[ST_INDICATOR] & 3  # a follower renounced: judged with the trumps it reveals
        led = eff_suit(first, t, pam)
    return winning_card(played, led, t, pam)


@njit(cache=True, inline="always")
def _last_trick_by_card(hands, st, li, won, t):
    """:func:`last_trick` as the search did before ``winning_card``: card by card."""
    n, pam, mode = st[ST_N], st[ST_PAM], st[ST_MODE]
    c = lsb(hands[li])
    if mode == L.FIRST_LEAD and t < 0:
        t = c & 3
    first = c
    led = eff_suit(c, t, pam)
    winning = c
    win_i = 0
    renounced = False
    j = li
    for k in range(1, n):
        j = j + 1 if j + 1 < n else 0
        hand = hands[j]
        c = lsb(hand)
        if t < 0 and (hand & SUIT_MASK[led]) == 0:
            renounced = True
        if beats(c, winning, led, t, pam):
            winning = c
            win_i = k
    if renounced and mode == L.FIRST_RENOUNCE:  # judged again with the trumps it reveals
        t = st[ST_INDICATOR] & 3
        led = eff_suit(first, t, pam)
        winning = first
        win_i = 0
        j = li
        for k in range(1, n):
            j = j + 1 if j + 1 < n else 0
            c = lsb(hands[j])
            if beats(c, winning, led, t, pam):
                winning = c
                win_i = k
    winner = li + win_i
    if winner >= n:
        winner -= n
    return won + (1 << (4 * winner))


@njit(cache=True, inline="always")
def play_forced(hands, cards, st, li, k, stop, base, t, civil, led, win_i, trumped, renounced):
    """Play on, from seat ``k + 1`` of the trick to seat ``stop - 1`` at most, every follower
    with a single legal card: its subgame is its one child's, so it needs no frame of the
    search (nor a row of the endgame). Returns the last seat played, the winning card's
    place, trumped, renounced, how many played (the frame or row whose card came before
    restores their hands), and the next follower's (legal, beat, renounces) for its frame
    (legal -1: none, seat ``stop`` is next). With ``NO_FORCED`` every follower opens one."""
    n, pam = st[ST_N], st[ST_PAM]
    played = 0
    tm = trump_mask(t, pam)
    led_trump = is_trump(cards[base], t, pam)
    known = (-1, 0, False)
    while k + 1 < stop:
        mover = li + k + 1
        if mover >= n:
            mover -= n
        known = follower(hands[mover], cards, st, base, t, tm, civil, led, win_i, trumped)
        legal, beat, renounces = known
        if (legal & (legal - 1)) != 0 or (st[ST_FLAGS] & NO_FORCED) != 0:
            break
        known = (-1, 0, False)
        k += 1
        c = lsb(legal)
        cards[base + k] = c
        hands[mover] &= ~legal
        if has(beat, c):
            win_i = k
            trumped = not led_trump and is_trump(c, t, pam)
        renounced = renounced or renounces
        played += 1
    st[ST_NODES] += played
    return k, win_i, trumped, renounced, played, known


@njit(cache=True, inline="always")
def unplay_forced(hands, cards, st, mover, at, played):
    """Give back the cards :func:`play_forced` played for the ``played`` seats after
    ``mover``, at ``cards[at:]``, to their hands."""
    s = mover
    for j in range(played):
        s = s + 1 if s + 1 < st[ST_N] else 0
        hands[s] |= 1 << cards[at + j]
