"""The solver's endgame (``kernel/solver.py`` explains the search): the last two tricks
from the lead of the trick before the last, every seat holding two cards, evaluated in a
tight loop of their own (:func:`two_tricks`) rather than by the search's frames; and the
most tricks a seat can still win (:func:`mover_upper`), which the frames use too.

The trick before the last is searched seat by seat in rows of scratch (at most two legal
cards each, in the tie-break order, a card kept only when strictly better for its seat);
each of its complete plays leaves every seat one card, so the last trick is played out.
The rules are the search's (``solver_search._enter``): lead duties, Pam be civil, heading
and the void option, ``first_lead`` setting trumps, ``first_renounce``'s reveal judging
the trick again. So are the shortcuts, each under the same switch: the cut (with the
follower's, ``NO_UPPER``, and the tricks lost to higher trumps, ``NO_TRUMPS``:
:func:`tricks_lost`), equivalent cards (``NO_MERGE``) and shallow pruning
(``NO_SHALLOW``, against the search's frame that called too); it tries exactly the cards
the frames would, a node a seat, at a fraction of the cost of a frame; a follower with a
single legal card plays it without a row, as without a frame (``NO_FORCED``:
``solver_trick.play_forced``; the row before restores its hand). The last seat of
the first of the two tricks is a node without a row (:func:`_last_seat`): it cannot be
pruned against, so its cards (two at most) are played out with the last trick and the
better kept, without a cut."""

from numba import njit

from loo_sim.game import abi as L
from loo_sim.kernel.bits import (
    PAM,
    PAM_BIT,
    SUIT_MASK,
    beat_mask,
    eff_suit,
    follow_mask,
    has,
    highest_in,
    is_trump,
    lowest_in,
    popcount,
    power_masks,
)
from loo_sim.kernel.legality import follow_options, lead_options
from loo_sim.kernel.nrt import NO_REFCOUNT
from loo_sim.kernel.solver_table import (
    NO_CUT,
    NO_MASKED,
    NO_MERGE,
    NO_SHALLOW,
    NO_TRUMPS,
    NO_UPPER,
    ST_CIVIL,
    ST_FLAGS,
    ST_INDICATOR,
    ST_LEAD,
    ST_MODE,
    ST_N,
    ST_NEED,
    ST_NODES,
    ST_PAM,
    ST_SINGLE,
    ST_VOID,
    count_of,
    holder,
    holder_planes,
)
from loo_sim.kernel.solver_trick import (
    equivalent,
    follower,
    judge,
    last_trick,
    last_winning_card,
    play_forced,
    unplay_forced,
)


@njit(cache=True, inline="always")
def tricks_lost(hands, st, mover, li, k, t, tm, cant_head):
    """The fewest tricks from this one on that the mover surely loses: this one when none of
    its legal cards heads it (``cant_head``), and as many as one other seat holds trumps above
    every trump of the mover's (each wins the trick it is played in, and one seat's cards go
    to different tricks; a seat that has played to this trick plays them to later ones)."""
    n, pam = st[ST_N], st[ST_PAM]
    lost = cant_head
    if t < 0 or (st[ST_FLAGS] & NO_TRUMPS) != 0:
        return lost
    mine = hands[mover] & tm
    over = tm if mine == 0 else beat_mask(highest_in(mine, SUIT_MASK[t], pam), t, t, pam)
    if over == 0:
        return lost
    s = li
    for i in range(n):
        if s != mover:
            held = popcount(hands[s] & over)
            if i < k:
                held += cant_head
            if held > lost:
                lost = held
        s = s + 1 if s + 1 < n else 0
    return lost


@njit(cache=True, inline="always")
def mover_upper(most, legal, beat, hands, st, mover, li, k, t, tm):
    """The most tricks the mover can still win: ``most`` (the tricks left) less those it
    surely loses (:func:`tricks_lost`); with one legal card there is no cut to make and no
    child prunes against it, so ``most`` as it is. The search's frames and the endgame's rows
    both bound the cut with it."""
    if (legal & (legal - 1)) == 0:
        return most
    judged_once = t >= 0 or st[ST_MODE] != L.FIRST_RENOUNCE  # no reveal can judge this trick again
    cant_head = 0
    if k > 0 and (legal & beat) == 0 and judged_once and (st[ST_FLAGS] & NO_UPPER) == 0:
        cant_head = 1  # none of its cards heads this trick
    return most - tricks_lost(hands, st, mover, li, k, t, tm, cant_head)


# ---- a seat's row of the endgame, in the rows of the search's frames below the caller's ----
E_T, E_LED, E_WIN, E_TRUMPED, E_CIVIL, E_REN = range(6)  # the trick as the seat finds it
E_MOVER, E_HAND, E_NEXT, E_LATER, E_BEAT, E_LED_TRUMP, E_FOUND, E_BEST = range(6, 14)
E_UPPER, E_PRUNED = 14, 15  # the most tricks the seat can still win; 1: stopped by shallow pruning
E_LEFT = 16  # its legal cards not tried yet (an equivalent one left untried counts, as in the search's frames)
E_PREV = 17  # the row of the seat before it in the trick (-1: the search's frame that called); play_forced skips some
E_CHAIN = 18  # the followers with a single legal card played after its card, without rows (play_forced)
EB_PAY, EB_CAP = 0, 1  # (float row) the best payoff so far, the most the seat can still get


@njit(cache=True, inline="always")
def open_row(fr, fb, r, hands, cards, st, cap, li, k, tix, won, t, turned, civil, renounced, led, win_i, trumped,
             known, prev, tricks):  # fmt: skip
    """Row ``r``: seat ``k`` of the trick to move, ``tricks`` tricks left, as
    ``solver_search._enter`` opens a frame: the trick, the mover, its legal cards
    (``E_LEFT``; returned), the cap; ``known`` a follower's (legal, beat, renounces) as
    play_forced found them (legal -1: find them here), ``prev`` the row before it (E_PREV)."""
    n, pam = st[ST_N], st[ST_PAM]
    st[ST_NODES] += 1
    mover = li + k
    if mover >= n:
        mover -= n
    hand = hands[mover]
    tm, _, _, _ = power_masks(t, pam)
    beat = 0
    led_trump = False
    if k == 0:
        legal = hand
        if t >= 0 and st[ST_LEAD] != L.LEAD_FREE:
            indicator = st[ST_INDICATOR] if turned else -1
            legal = lead_options(hand, t, pam, st[ST_LEAD], tix == 0 and st[ST_SINGLE] == 0, indicator)
    else:
        base = tix * L.MAX_PLAYERS
        legal, beat, renounces = known
        if legal < 0:
            legal, beat, renounces = follower(hand, cards, st, base, t, tm, civil, led, win_i, trumped)
        renounced = renounced or renounces
        led_trump = is_trump(cards[base], t, pam)
    fr[r, E_T] = t
    fr[r, E_LED] = led
    fr[r, E_WIN] = win_i
    fr[r, E_TRUMPED] = trumped
    fr[r, E_CIVIL] = civil
    fr[r, E_REN] = renounced
    fr[r, E_MOVER] = mover
    fr[r, E_HAND] = hand
    fr[r, E_BEAT] = beat
    fr[r, E_LED_TRUMP] = led_trump
    fr[r, E_FOUND] = 0
    fr[r, E_PRUNED] = 0
    fr[r, E_LEFT] = legal
    fr[r, E_PREV] = prev
    upper = mover_upper(tricks, legal, beat, hands, st, mover, li, k, t, tm)
    fr[r, E_UPPER] = upper
    fb[r, EB_CAP] = cap[mover, count_of(won, mover), upper]
    return legal


@njit(cache=True, inline="always")
def _open(fr, fb, r, hands, cards, st, cap, li, k, tix, won, t, turned, civil, renounced, led, win_i, trumped, live,
          known, prev):  # fmt: skip
    """Row ``r`` of the trick before the last (:func:`open_row`): its two cards at most in
    the tie-break order, the second left out when equivalent to the first."""
    legal = open_row(fr, fb, r, hands, cards, st, cap, li, k, tix, won, t, turned, civil, renounced, led, win_i,
                     trumped, known, prev, 2)  # fmt: skip
    _, low_plain, low_trumps, _ = power_masks(t, st[ST_PAM])
    first = lowest_in(legal, low_plain, low_trumps)
    rest = legal & ~(1 << first)
    later = lowest_in(rest, low_plain, low_trumps) if rest else -1
    # (the seat holds just these two cards: none of its own lies between them)
    if later >= 0 and (st[ST_FLAGS] & NO_MERGE) == 0 and equivalent(first, later, fr[r, E_HAND], live):
        later = -1
    fr[r, E_NEXT] = first
    fr[r, E_LATER] = later


@njit(cache=True, inline="always")
def keep_row(fr, fb, r, r0, hands, cards, base, st, pay, cap, res, won, parent, parent_pay, tricks):
    """The counts after row ``r``'s card came back (the hands as they were before it): keep
    them if strictly better; then the cut, or shallow pruning against the row before (row
    ``r0``: against the search's frame that called, whose mover is ``parent``, -1 for
    none, with ``parent_pay`` so far), as ``solver_frames._shallow``: a pruned row's value
    is not exact, and its parent rejects it. ``tricks``: the tricks left from the row's
    trick on (here 2; 3 in ``solver_three``'s rows). A row done has ``E_NEXT`` -1."""
    mover = fr[r, E_MOVER]
    hands[mover] = fr[r, E_HAND]
    unplay_forced(hands, cards, st, mover, base + r - r0 + 1, fr[r, E_CHAIN])
    pm = pay[mover, count_of(res, mover)]
    if fr[r, E_FOUND] == 1 and pm <= fb[r, EB_PAY]:
        return
    fr[r, E_FOUND] = 1
    fr[r, E_BEST] = res
    fb[r, EB_PAY] = pm
    if pm >= fb[r, EB_CAP] and (st[ST_FLAGS] & NO_CUT) == 0:
        fr[r, E_NEXT] = -1  # the most it can still get: the other card could only tie
        return
    if (st[ST_FLAGS] & NO_SHALLOW) != 0 or fr[r, E_LEFT] == 0:  # (no card left: the value is exact)
        return
    p, p_pay, p_upper = parent, parent_pay, tricks
    prev = fr[r, E_PREV]
    if prev >= 0:
        p = fr[prev, E_MOVER]  # in the same trick
        p_pay = fb[prev, EB_PAY] if fr[prev, E_FOUND] == 1 else -1e300
        p_upper = fr[prev, E_UPPER]
    if p < 0 or p == mover:
        return
    extra = st[ST_NEED + mover * (L.MAX_TRICKS + 1) + count_of(res, mover)] - count_of(won, mover)
    most = min(tricks - extra, p_upper)
    if extra > 0 and cap[p, count_of(won, p), most] <= p_pay:
        fr[r, E_NEXT] = -1
        fr[r, E_PRUNED] = 1


@njit(cache=True, inline="always")
def _last_seat(hands, cards, st, pay, li, tix, won, t, civil, renounced, led, win_i, trumped, live):
    """The counts after the last seat of the trick before the last plays (a node, without a
    row): its legal cards in the tie-break order, the second (unless equivalent to the
    first) kept only when strictly better; no cut, as both are cheap. The last trick after
    each is judged from the mask of the cards left (``solver_trick.last_winning_card``),
    the other seats' cards and who holds each found once for both."""
    n, pam, mode = st[ST_N], st[ST_PAM], st[ST_MODE]
    st[ST_NODES] += 1
    mover = li + n - 1
    if mover >= n:
        mover -= n
    hand = hands[mover]
    held = hand
    if civil and has(hand, PAM) and popcount(hand) > 1:
        held &= ~PAM_BIT
    base = tix * L.MAX_PLAYERS
    tm, low_plain, low_trumps, _ = power_masks(t, pam)
    beat = beat_mask(cards[base + win_i], led, t, pam)
    legal = follow_options(held, follow_mask(led, t, pam), tm, beat, trumped, st[ST_VOID])
    rejudge = mode == L.FIRST_RENOUNCE and (renounced or (t < 0 and (held & SUIT_MASK[led]) == 0))
    c = lowest_in(legal, low_plain, low_trumps)
    others = 0  # the other seats' last cards, and who holds each
    for i in range(n):
        if i != mover:
            others |= hands[i]
    planes = holder_planes(hands, n, mover)
    masked = (st[ST_FLAGS] & NO_MASKED) == 0
    best, best_pay = 0, 0.0
    for j in range(2):
        hands[mover] = hand & ~(1 << c)
        cards[base + n - 1] = c
        nt, nwin = t, win_i
        if has(beat, c):
            nwin = n - 1
        if rejudge:  # judged again with the trumps it reveals
            nt = st[ST_INDICATOR] & 3
            nwin = judge(cards, base, n, nt, pam)
        winner = li + nwin
        if winner >= n:
            winner -= n
        if masked:  # last_trick, from the other seats' cards found once
            w = last_winning_card(hands, st, winner, nt, others | hands[mover])
            last = mover if has(hands[mover], w) else holder(planes, w)
            res = won + (1 << (4 * winner)) + (1 << (4 * last))
        else:
            res = last_trick(hands, st, winner, won + (1 << (4 * winner)), nt)
        p = pay[mover, count_of(res, mover)]
        if j == 0 or p > best_pay:
            best, best_pay = res, p
        rest = legal & ~(1 << c)
        if j == 1 or rest == 0:
            break
        later = lowest_in(rest, low_plain, low_trumps)
        if (st[ST_FLAGS] & NO_MERGE) == 0 and equivalent(c, later, hand, live):
            break  # equivalent to the first: it could only tie
        c = later
    hands[mover] = hand
    return best


@njit(cache=True, inline="always", **NO_REFCOUNT)
def play_row_card(fr, r, hands, cards, st, base, k, c):
    """Seat ``k`` of the trick plays ``c`` from row ``r``: the card leaves its hand and
    joins the trick; returns the trick's state after it (trump, suit led, winner, trumped,
    civil, renounced), from the row's state before it."""
    hands[fr[r, E_MOVER]] = fr[r, E_HAND] & ~(1 << c)
    cards[base + k] = c
    nt = fr[r, E_T]
    nled = fr[r, E_LED]
    nwin = fr[r, E_WIN]
    ntrumped = fr[r, E_TRUMPED] == 1
    ncivil = fr[r, E_CIVIL] == 1
    if k == 0:
        if st[ST_MODE] == L.FIRST_LEAD and nt < 0:
            nt = c & 3
        nled = eff_suit(c, nt, st[ST_PAM])
        ncivil = st[ST_CIVIL] == 1 and nt >= 0 and c == 48 + nt
    elif has(fr[r, E_BEAT], c):
        nwin = k
        ntrumped = fr[r, E_LED_TRUMP] == 0 and is_trump(c, nt, st[ST_PAM])
    return nt, nled, nwin, ntrumped, ncivil, fr[r, E_REN] == 1


# compiled into the search that calls it: three-card solves 7% faster (bench --solver), and the solver's cold
# compile about 26 s longer (docs/performance.md, kernel.COMPILE_SECONDS["search"])
@njit(cache=True, inline="always", **NO_REFCOUNT)
def two_tricks(fr, fb, r0, hands, cards, st, pay, cap, li, tix, won, t, turned, parent, parent_pay):
    """The final counts (packed) of the last two tricks under max^n, trick ``tix`` led by
    ``li``; rows ``r0`` on of ``fr``/``fb`` are its scratch, ``cards[tix * MAX_PLAYERS:]``
    takes the trick's cards; the hands are as they were when it returns. ``parent`` (the
    mover of the search's frame that called, -1: no pruning against it) and
    ``parent_pay`` (its best payoff so far) for shallow pruning; when that stopped the
    endgame, ``fr[r0, E_PRUNED]`` is 1 and the value is not exact."""
    n = st[ST_N]
    base = tix * L.MAX_PLAYERS
    live = hands[0]  # the cards in play: in a hand or in this trick, the same until it is complete
    for i in range(1, n):
        live |= hands[i]
    _open(fr, fb, r0, hands, cards, st, cap, li, 0, tix, won, t, turned, False, False, 0, 0, False, live,
          (-1, 0, False), -1)  # fmt: skip
    k = 0
    while True:
        r = r0 + k  # a seat's row: seat k of the trick
        c = fr[r, E_NEXT]
        if c < 0:  # seat k is done
            res = fr[r, E_BEST]
            if k == 0:
                return res
            k = fr[r, E_PREV] - r0
            keep_row(fr, fb, r0 + k, r0, hands, cards, base, st, pay, cap, res, won, parent, parent_pay, 2)
            continue
        fr[r, E_NEXT] = fr[r, E_LATER]
        fr[r, E_LATER] = -1
        fr[r, E_LEFT] &= ~(1 << c)
        nt, nled, nwin, ntrumped, ncivil, nren = play_row_card(fr, r, hands, cards, st, base, k, c)
        j, nwin, ntrumped, nren, fr[r, E_CHAIN], known = play_forced(hands, cards, st, li, k, n - 1, base, nt, ncivil,
                                                                     nled, nwin, ntrumped, nren)  # fmt: skip
        if j + 2 < n:
            _open(fr, fb, r0 + j + 1, hands, cards, st, cap, li, j + 1, tix, won, nt, turned, ncivil, nren, nled, nwin,
                  ntrumped, live, known, r)  # fmt: skip
            k = j + 1
            continue
        res = _last_seat(hands, cards, st, pay, li, tix, won, nt, ncivil, nren, nled, nwin, ntrumped, live)
        keep_row(fr, fb, r, r0, hands, cards, base, st, pay, cap, res, won, parent, parent_pay, 2)
