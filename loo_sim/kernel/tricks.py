"""The tricks of a deal (docs/rules.md R6, R7): each trick led, followed and judged, with
trumps turned at the first renounce; a step of ``kernel/deal.py``'s ``play_deal``, the
twin of ``engine/tricks.py``'s ``play_tricks``."""

from numba import njit

from loo_sim.game import abi as L
from loo_sim.kernel.bits import (
    CARD,
    PAM,
    PAM_BIT,
    POS,
    SUIT_MASK,
    beat_mask,
    beats,
    eff_suit,
    follow_mask,
    has,
    highest_in,
    is_trump,
    lsb,
    popcount,
    power_masks,
    u,
)
from loo_sim.kernel.cardplay import pick_card
from loo_sim.kernel.legality import follow_options, lead_options
from loo_sim.kernel.nrt import NO_REFCOUNT


@njit(cache=True, inline="always")
def judge_trick(oi, trick, m, led, t, pam):
    """R6 first_renounce: the trick that revealed trumps is judged with them; returns the
    winner's place in the play order."""
    base = L.O_CARDS + trick * L.MAX_PLAYERS
    win_i = 0
    winning = POS[oi[base]]
    for k in range(1, m):
        card = POS[oi[base + k]]
        if beats(card, winning, led, t, pam):
            winning = card
            win_i = k
    return win_i


@njit(cache=True, inline="always")
def play_trick(ri, pol, seat_keys, trick, leader_i, m, single, mode, indicator, t, sc, oi, pot_start, penalty, ws):
    """R6, R7, R9: one trick, led by the leader_i-th seat in the deal. Returns (the winner's
    place in the play order, trumps after the trick). ``ws``: None, or the solver seats'
    workspace (kernel/cardplay.py), with ``pot_start`` and ``penalty`` their payoffs."""
    pam = ri[L.R_PAM]
    void = ri[L.R_VOID]
    tm, low_plain, low_trumps, suit = power_masks(t, pam)  # P1 and R7 for these trumps
    led = -1
    same_suit = 0
    winning = -1
    win_i = 0
    led_is_trump = False
    trumped = False
    civil = False
    renounced = False
    beat = 0
    j = leader_i
    for k in range(m):
        seat = sc[L.SC_IN_DEAL + j]
        j = j + 1 if j + 1 < m else 0
        hand = sc[L.SC_HANDS + seat]
        if k == 0:
            options = hand
            if t >= 0 and ri[L.R_LEAD] != L.LEAD_FREE:  # R7 lead duties (none while trumps are unknown)
                options = lead_options(hand, t, pam, ri[L.R_LEAD], trick == 0 and not single, indicator)
        else:
            if civil and has(hand, PAM) and popcount(hand) > 1:  # R9 Pam be civil
                hand &= ~PAM_BIT
            options = follow_options(hand, same_suit, tm, beat, trumped, void)
            if t < 0 and (hand & SUIT_MASK[led]) == 0:
                renounced = True  # R6 first_renounce: this trick reveals trumps
        at = trick * m + k
        if at < sc[L.SC_SCRIPT_LEN]:  # advise: the cards seen are played as they were, each checked (R7, R9)
            card = sc[L.SC_SCRIPT + at]
            if not has(options, card):
                oi[L.O_SCRIPT_BROKEN] = 1
        else:
            card = pick_card(ws, pol, pol[seat, L.P_PLAY], options, k, beat, suit, low_plain, low_trumps, pam,
                             seat_keys[seat], sc, seat, ri, oi, trick, leader_i, m, single, mode, indicator, t, civil,
                             renounced, pot_start, penalty)  # fmt: skip
        if k == 0:
            if mode == L.FIRST_LEAD and t < 0:
                t = card & 3  # R6 first_lead: the first card led sets trumps
                tm, low_plain, low_trumps, suit = power_masks(t, pam)
            led = eff_suit(card, t, pam)
            same_suit = follow_mask(led, t, pam)
            led_is_trump = is_trump(card, t, pam)
            winning = card
            beat = beat_mask(winning, led, t, pam)
            civil = ri[L.R_CIVIL] == 1 and t >= 0 and card == 48 + t
        elif has(beat, card):
            winning = card
            win_i = k
            beat = beat_mask(winning, led, t, pam)
            trumped = not led_is_trump and is_trump(winning, t, pam)
        sc[L.SC_HANDS + seat] &= ~(1 << card)
        oi[L.O_SEATS + trick * L.MAX_PLAYERS + k] = seat
        oi[L.O_CARDS + trick * L.MAX_PLAYERS + k] = CARD[card]
    if renounced and mode == L.FIRST_RENOUNCE:
        t = indicator & 3  # the trick is judged with the new trumps
        oi[L.O_INDICATOR] = CARD[indicator]
        oi[L.O_REVEAL] = trick
        win_i = judge_trick(oi, trick, m, led, t, pam)
    return win_i, t


@njit(cache=True, inline="always")
def follower_beat(card, same_suit, tm, t, pam):
    """beat_mask(card, led, t, pam) for a ``card`` that heads the trick, led or not (trumps
    known; ``same_suit`` = follow_mask(led, t, pam), ``tm`` = trump_mask(t, pam)), in
    selects rather than branches."""
    higher = ~((2 << card) - 1)  # bits.above(card)
    trump_beat = tm & (higher | PAM_BIT) if pam == 1 else tm & higher
    trump_beat = 0 if pam == 1 and card == PAM else trump_beat  # nothing beats Pam
    return trump_beat if (tm >> card) & 1 else tm | (same_suit & higher)


@njit(cache=True, inline="always")
def play_trick_basic(trick, leader_i, m, t, pam, civil_rule, void, lead, first, indicator, sc, oi):
    """play_trick for a trick where trumps are known at its lead and every seat in the
    deal plays basic (P2): the same cards, with basic's choice and follow_options folded
    into selects. A follower holding the led suit (``same``) plays the lowest of it that
    heads the trick, else the lowest of it; one without plays the lowest trump that heads
    it, else the lowest of its trumps (a void that must trump) or of its hand. So with
    ``heads`` the cards of ``same`` (or, without, of the trumps) that would win, the
    follower wins the trick exactly when ``heads`` is not empty and then plays its
    lowest; ``heads`` is of one suit but for Pam, the highest trump. Once a trump heads a
    plain-suit trick no card of that suit heads it, so ``trumped`` is not needed.
    Returns the winner's place in the play order."""
    tm, low_plain, low_trumps, suit = power_masks(t, pam)
    seat = sc[u(L.SC_IN_DEAL + leader_i)]
    hand = sc[u(L.SC_HANDS + seat)]
    options = hand
    if lead != L.LEAD_FREE:  # R7 lead duties
        options = lead_options(hand, t, pam, lead, first, indicator)
    card = highest_in(options, suit, pam)
    led = eff_suit(card, t, pam)
    same_suit = follow_mask(led, t, pam)
    beat = follower_beat(card, same_suit, tm, t, pam)  # beat_mask for the card led, in selects
    civil = civil_rule == 1 and card == 48 + t  # R9 Pam be civil, to the ace of trumps
    sc[u(L.SC_HANDS + seat)] = hand & ~(1 << card)
    base = trick * L.MAX_PLAYERS
    oi[u(L.O_SEATS + base)] = seat
    oi[u(L.O_CARDS + base)] = CARD[card]
    void_must = void == L.VOID_MUST
    not_pam = ~PAM_BIT if pam == 1 else -1
    win_i = 0
    j = leader_i
    for k in range(1, m):
        j = j + 1 if j + 1 < m else 0
        seat = sc[u(L.SC_IN_DEAL + j)]
        held = sc[u(L.SC_HANDS + seat)]
        hand = held
        if civil and has(hand, PAM) and popcount(hand) > 1:
            hand &= ~PAM_BIT
        same = hand & same_suit
        trumps = hand & tm
        rest = trumps if void_must and trumps != 0 else hand
        rest = same if same != 0 else rest  # what the follower plays the lowest of when it cannot win
        heads = (same if same != 0 else trumps) & beat
        wins = heads != 0
        low_head = lsb(heads & not_pam)
        low_head = PAM if low_head == 64 else low_head
        plain = rest & low_plain
        low_rest = lsb(plain if plain != 0 else rest & low_trumps)  # lowest_in, as selects
        low_rest = PAM if low_rest == 64 else low_rest
        head_beat = follower_beat(low_head, same_suit, tm, t, pam)  # won or not: selects, not a branch (codegen.py)
        card = low_head if wins else low_rest
        win_i = k if wins else win_i
        beat = head_beat if wins else beat
        sc[u(L.SC_HANDS + seat)] = held & ~(1 << card)
        oi[u(L.O_SEATS + base + k)] = seat
        oi[u(L.O_CARDS + base + k)] = CARD[u(card)]
    return win_i


@njit(cache=True, inline="always")
def all_basic(pol, m, sc):
    """Whether every seat in the deal plays basic and nothing is scripted: its tricks with
    trumps known go by play_trick_basic."""
    basic = sc[L.SC_SCRIPT_LEN] == 0
    for i in range(m):
        basic &= pol[sc[u(L.SC_IN_DEAL + i)], L.P_PLAY] == L.PL_BASIC
    return basic


@njit(cache=True, inline="always")
def end_trick(trick, leader_i, win_i, m, oi):
    """The trick's winner into the record; returns the place of the next leader (the winner)."""
    winner = oi[u(L.O_SEATS + trick * L.MAX_PLAYERS + win_i)]
    oi[u(L.O_WINNER + trick)] = winner
    oi[u(L.O_WON + winner)] += 1
    return leader_i + win_i if leader_i + win_i < m else leader_i + win_i - m


@njit(cache=True, **NO_REFCOUNT)  # a call of its own, once a deal: compiled once for every driver
def play_tricks(ri, pol, seat_keys, single, mode, indicator, t, m, sc, oi, pot_start, penalty, ws):
    """R6, R7: the tricks; the winner of each leads the next. The trumps at the end go into the record."""
    h = ri[L.R_HAND]
    pam = ri[L.R_PAM]
    civil_rule = ri[L.R_CIVIL]
    void = ri[L.R_VOID]
    lead = ri[L.R_LEAD]
    basic = all_basic(pol, m, sc)
    leader_i = 0
    for trick in range(h):
        oi[u(L.O_LEADER + trick)] = sc[u(L.SC_IN_DEAL + leader_i)]
        if basic and t >= 0:
            win_i = play_trick_basic(trick, leader_i, m, t, pam, civil_rule, void, lead, trick == 0 and not single,
                                     indicator, sc, oi)  # fmt: skip
        else:
            win_i, t = play_trick(ri, pol, seat_keys, trick, leader_i, m, single, mode, indicator, t, sc, oi,
                                  pot_start, penalty, ws)  # fmt: skip
        leader_i = end_trick(trick, leader_i, win_i, m, oi)
    oi[L.O_NTRICKS] = h
    oi[L.O_TRUMP] = t


@njit(inline="always")
def play_tricks_inline(ri, pol, seat_keys, single, mode, indicator, t, m, sc, oi, pot_start, penalty, ws):
    """play_tricks for simulate's blocks alone (kernel/deal.py ``play_deal_flat``): a deal
    whose every trick goes by play_trick_basic (all_basic, trumps known at the first lead,
    so at every lead) plays them here, inlined; any other deal calls play_tricks. The
    call costs about 10 ns of a 170 ns three-card deal; inlining the whole of play_tricks
    (play_trick and the card-play policies with it) would add seconds to the first
    compile, and inlining it into every driver would add them to every driver."""
    if not (t >= 0 and all_basic(pol, m, sc)):
        play_tricks(ri, pol, seat_keys, single, mode, indicator, t, m, sc, oi, pot_start, penalty, ws)
        return
    h = ri[L.R_HAND]
    pam = ri[L.R_PAM]
    civil_rule = ri[L.R_CIVIL]
    void = ri[L.R_VOID]
    lead = ri[L.R_LEAD]
    leader_i = 0
    for trick in range(h):
        oi[u(L.O_LEADER + trick)] = sc[u(L.SC_IN_DEAL + leader_i)]
        win_i = play_trick_basic(trick, leader_i, m, t, pam, civil_rule, void, lead, trick == 0 and not single,
                                 indicator, sc, oi)  # fmt: skip
        leader_i = end_trick(trick, leader_i, win_i, m, oi)
    oi[L.O_NTRICKS] = h
    oi[L.O_TRUMP] = t
