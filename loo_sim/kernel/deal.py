"""One deal in numba, step for step like ``reference.py``.

``play_deal`` reads the rules (``ri``/``rf``), the policies (``pol``), a deck in
canonical deal order and writes the deal record into ``oi``/``of`` (slots in
``layout.py``). Hands are 52-bit masks. Each step names the rule it implements.
"""

import numpy as np
from numba import njit

from loo_sim.kernel import abi as L
from loo_sim.kernel.bits import (
    ACE_BITS,
    CARD,
    FACE_BITS,
    PAM,
    PAM_BIT,
    POS,
    QKA_BITS,
    SUIT_MASK,
    beat_mask,
    beats,
    eff_suit,
    follow_mask,
    has,
    highest_power,
    is_trump,
    lowest_power,
    nth_card,
    popcount,
    suit_ranks,
    trump_mask,
)
from loo_sim.kernel.classes import declare_calibrated
from loo_sim.kernel.krng import draw_below


# ---- declaring (P2, P3) ---------------------------------------------------------------
@njit(cache=True)
def declare(family, hand, t, pam, may_pass, miss_on_offer, dealer_case):
    """engine.policies.declare in ints: returns a DECL_* code."""
    tm = trump_mask(t, pam)
    if family == L.D_ALWAYS or family == L.D_NOTHING:
        if dealer_case != 0:
            return L.DECL_PLAY
        if family == L.D_NOTHING and miss_on_offer and (hand & tm) == 0 and (hand & FACE_BITS) == 0:
            return L.DECL_MISS
        return L.DECL_PLAY
    if family == L.D_BASIC:
        strong = (hand & tm) != 0 or (hand & ACE_BITS) != 0
    elif t < 0:
        strong = (hand & ACE_BITS) != 0
    else:  # cautious: a trump of queen or higher (Pam counts), or two or more trumps
        trumps = hand & tm
        high = (QKA_BITS & SUIT_MASK[t]) | (PAM_BIT if pam == 1 else 0)
        strong = popcount(trumps) >= 2 or (trumps & high) != 0
    if strong:
        return L.DECL_PLAY
    if dealer_case == 2:
        return L.DECL_DEFEND
    if family == L.D_BASIC and miss_on_offer and dealer_case == 0:
        return L.DECL_MISS
    return L.DECL_PASS if may_pass else L.DECL_PLAY


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
    if lead == L.LEAD_ACE:
        if first and pam == 1 and has(hand, PAM):
            return PAM_BIT
        if first and has(hand, ace):
            return 1 << ace
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
def follow_options(hand, led, winning, beat, led_is_trump, t, pam, void):
    """R7 followers: follow suit, head the trick, then the void option (``beat`` is
    beat_mask of the winning card)."""
    same = hand & follow_mask(led, t, pam)
    if same:
        if is_trump(winning, t, pam) and not led_is_trump:
            return same  # the trick is trumped: a plain follower cannot head it
        heading = same & beat
        return heading if heading else same
    trumps = hand & trump_mask(t, pam)
    if trumps == 0:
        return hand
    winning_trumps = trumps & beat
    if void == L.VOID_MUST:
        return winning_trumps if winning_trumps else trumps
    return winning_trumps if winning_trumps else hand


@njit(cache=True)
def choose_card(family, legal, n_played, beat, t, pam, key, counters, seat):
    """engine.policies.choose_card in masks (``beat``: the cards that would win as things stand)."""
    if family == L.PL_RANDOM:
        k = draw_below(key, counters[seat], popcount(legal))
        counters[seat] += 1
        return nth_card(legal, k)
    if family == L.PL_HIGH or (family == L.PL_BASIC and n_played == 0):
        return highest_power(legal, t, pam)
    if family == L.PL_LOW:
        return lowest_power(legal, t, pam)
    winners = legal & beat
    if winners:
        return lowest_power(winners, t, pam)
    return lowest_power(legal, t, pam)


# ---- the deal ------------------------------------------------------------------------------
@njit(cache=True)
def play_deal(ri, rf, pol, polf, strength, chart, deck, dealer, carried, seat_keys, sc, oi, of,
              forced_seat, forced_action):  # fmt: skip
    """Play one deal (RULES.md R2-R9); write its record into ``oi``/``of``.

    ``pol``/``polf``: policy codes and threshold parameters per seat; ``strength``
    [class, seats in deal, tricks] and ``chart`` [class, position] feed the calibrated
    families. ``seat_keys[s]`` is seat s's own stream (play family random). ``sc`` is
    scratch (``layout.SC_*``). When ``forced_seat`` >= 0, that seat declares
    ``forced_action`` instead of asking its policy (counterfactual replays, P4).
    """
    n = ri[L.R_PLAYERS]
    h = ri[L.R_HAND]
    pam = ri[L.R_PAM]
    hands = sc[L.SC_HANDS : L.SC_HANDS + L.MAX_PLAYERS]
    order = sc[L.SC_ORDER : L.SC_ORDER + L.MAX_PLAYERS]
    in_deal = sc[L.SC_IN_DEAL : L.SC_IN_DEAL + L.MAX_PLAYERS]
    dealt = sc[L.SC_DEALT : L.SC_DEALT + L.MAX_PLAYERS + 1]
    counters = sc[L.SC_COUNTERS : L.SC_COUNTERS + L.MAX_PLAYERS]
    # clear the slots this deal may leave unwritten (trick slots are always overwritten)
    for s in range(n):
        counters[s] = 0
        hands[s] = 0
        oi[L.O_DECL + s] = L.DECL_PASS
        oi[L.O_WON + s] = 0
        oi[L.O_LOOED + s] = 0
        oi[L.O_FLUSH_HELD + s] = 0
        of[L.F_SHARES + s] = 0.0
        of[L.F_PENALTIES + s] = 0.0
        of[L.F_ANTES + s] = 0.0
    oi[L.O_NTRICKS] = 0
    of[L.F_POT_NEXT] = 0.0
    oi[L.O_OUTCOME] = L.OUT_PLAY
    oi[L.O_FLUSH_WINNER] = -1
    oi[L.O_DEFENDER] = -1
    oi[L.O_REVEAL] = -1
    oi[L.O_INDICATOR] = -1
    oi[L.O_TRUMP] = -1

    # R8: a clean pot with single_pot on is a single pot
    single = ri[L.R_SINGLE_POT] == 1 and carried == 0.0
    mode = L.FIRST_RENOUNCE if single else ri[L.R_TRUMP]
    miss_dealt = ri[L.R_MISS] == 1 and not single
    oi[L.O_SINGLE] = single

    # ---- R2: the deal ------------------------------------------------------------------
    seat = dealer
    for i in range(n):  # (dealer + 1 + i) mod n, without a division
        seat = seat + 1 if seat + 1 < n else 0
        order[i] = seat
    pos = 0
    miss = 0
    for _ in range(h):
        for i in range(n):
            seat = order[i]
            if seat == dealer and miss_dealt:
                miss |= 1 << POS[deck[pos]]
                pos += 1
            hands[seat] |= 1 << POS[deck[pos]]
            pos += 1
    indicator = -1  # as a bit position
    if mode == L.TURN_UP or mode == L.FIRST_RENOUNCE:
        indicator = POS[deck[pos]]
        pos += 1
    t = -1
    if mode == L.TURN_UP:
        t = indicator & 3
        oi[L.O_INDICATOR] = CARD[indicator]
    oi[L.O_TRUMP] = t
    oi[L.O_T_DECL] = t
    for s in range(n):
        dealt[s] = hands[s]
    dealt[L.MAX_PLAYERS] = miss
    stock_pos = pos

    # ---- R3: antes ---------------------------------------------------------------------
    ante = rf[L.RF_ANTE]
    total = 0.0
    for s in range(n):
        if ri[L.R_ANTE_EACH] == 1 or s == dealer:
            of[L.F_ANTES + s] = ante
        total += of[L.F_ANTES + s]
    pot_start = carried + total
    of[L.F_POT_START] = pot_start

    # ---- R4, R5, R8, R9b: declarations ---------------------------------------------------
    clean = carried == 0.0
    club_law = ri[L.R_CLUB_LAW] == 1 and mode == L.TURN_UP and indicator & 3 == 0
    defence = ri[L.R_DEFENDS] == 1 and miss_dealt
    bold = ri[L.R_BOLD]
    miss_taken = False
    early_passed = True  # everyone before the dealer's right-hand neighbour passed
    defender = -1
    already_in = 0
    for i in range(n):
        seat = order[i]
        if i == n - 2:
            early_passed = True
            for k in range(n - 2):
                if oi[L.O_DECL + order[k]] != L.DECL_PASS:
                    early_passed = False
        may_pass = not (single or club_law)
        if clean and bold == L.BOLD_EVERYONE:
            may_pass = False
        if clean and bold == L.BOLD_LAST and i >= n - 2 and early_passed:
            may_pass = False
        miss_on_offer = miss_dealt and not miss_taken and not club_law
        dealer_case = 0
        if seat == dealer and defence:
            others = 0
            other = -1
            for k in range(n - 1):
                if oi[L.O_DECL + order[k]] != L.DECL_PASS:
                    others += 1
                    other = order[k]
            if others == 0:  # R8 case 1: the dealer takes the pot without play
                oi[L.O_DECL + seat] = L.DECL_PLAY
                oi[L.O_OPTIONS + seat] = 1 << L.DECL_PLAY
                break
            if others == 1:
                dealer_case = 2 if oi[L.O_DECL + other] == L.DECL_PLAY else 3
        if dealer_case == 2:
            may_pass = False
            miss_on_offer = False
        elif dealer_case == 3:
            miss_on_offer = False
        allowed = 1 << L.DECL_PLAY
        if dealer_case == 2:
            allowed |= 1 << L.DECL_DEFEND
        elif may_pass:
            allowed |= 1 << L.DECL_PASS
        if miss_on_offer:
            allowed |= 1 << L.DECL_MISS
        oi[L.O_OPTIONS + seat] = allowed
        family = pol[seat, L.P_DECLARE]
        action = -1
        if seat == forced_seat:
            action = forced_action
        elif family >= L.D_THRESHOLD:
            penalty = pot_start if ri[L.R_LIMITED] == 0 else rf[L.RF_PENALTY]
            action = declare_calibrated(family, seat, hands[seat], t, pam, may_pass, miss_on_offer, dealer_case,
                                        polf, strength, chart, i + 1, already_in, n - 1 - i, n, pot_start, h,
                                        penalty, rf[L.RF_P_IN])  # fmt: skip
            if action < 0:
                family = L.D_BASIC
        if action < 0:
            action = declare(family, hands[seat], t, pam, may_pass, miss_on_offer, dealer_case)
        oi[L.O_DECL + seat] = action
        if action != L.DECL_PASS:
            already_in += 1
        if action == L.DECL_MISS or action == L.DECL_DEFEND:
            miss_taken = True
            hands[seat] = miss
            if action == L.DECL_DEFEND:
                defender = seat
    oi[L.O_DEFENDER] = defender
    m = 0
    for i in range(n):
        if oi[L.O_DECL + order[i]] != L.DECL_PASS:
            in_deal[m] = order[i]
            m += 1
    oi[L.O_NIN] = m

    # ---- R4: lone player / nobody ------------------------------------------------------------
    if m == 0:
        oi[L.O_OUTCOME] = L.OUT_NOBODY
        of[L.F_POT_NEXT] = pot_start
        return
    if m == 1:
        oi[L.O_OUTCOME] = L.OUT_LONE
        of[L.F_SHARES + in_deal[0]] = pot_start
        return

    # ---- R9: exchange --------------------------------------------------------------------------
    if ri[L.R_EXCHANGE] == 1 and not single and not miss_dealt:
        for i in range(m):
            seat = in_deal[i]
            stock = 52 - stock_pos
            if stock == 0:
                break
            thrown = discards(pol[seat, L.P_EXCHANGE], hands[seat], t, pam, stock)
            hands[seat] &= ~thrown
            for _ in range(popcount(thrown)):
                hands[seat] |= 1 << POS[deck[stock_pos]]
                stock_pos += 1

    penalty = pot_start if ri[L.R_LIMITED] == 0 else rf[L.RF_PENALTY]

    # ---- R9: flushes -----------------------------------------------------------------------------
    if ri[L.R_FLUSH] == 1:
        best_seat = -1
        best_key = -1
        for i in range(m):
            seat = in_deal[i]
            key = flush_key(hands[seat], t, pam)
            if key >= 0:
                oi[L.O_FLUSH_HELD + seat] = 1
            if key > best_key:  # elder hands first: an exact tie stays with them
                best_key, best_seat = key, seat
        if best_seat >= 0:
            oi[L.O_OUTCOME] = L.OUT_FLUSH
            oi[L.O_FLUSH_WINNER] = best_seat
            of[L.F_SHARES + best_seat] = pot_start
            looed = 0
            for i in range(m):
                seat = in_deal[i]
                if seat != best_seat:
                    oi[L.O_LOOED + seat] = 1
                    of[L.F_PENALTIES + seat] = penalty
                    looed += 1
            of[L.F_POT_NEXT] = penalty * looed
            oi[L.O_TRUMP] = t
            return

    # ---- R6, R7: the tricks ------------------------------------------------------------------------
    lead = ri[L.R_LEAD]
    void = ri[L.R_VOID]
    civil_rule = ri[L.R_CIVIL] == 1
    leader_i = 0
    for trick in range(h):
        leader = in_deal[leader_i]
        oi[L.O_LEADER + trick] = leader
        led = -1
        winning = -1
        win_i = 0
        led_is_trump = False
        civil = False
        renounced = False
        beat = 0
        j = leader_i
        for k in range(m):
            seat = in_deal[j]
            j = j + 1 if j + 1 < m else 0
            hand = hands[seat]
            if k == 0:
                options = lead_options(hand, t, pam, lead, trick == 0 and not single, indicator)
            else:
                if civil and has(hand, PAM) and popcount(hand) > 1:  # R9 Pam be civil
                    hand &= ~PAM_BIT
                beat = beat_mask(winning, led, t, pam)
                options = follow_options(hand, led, winning, beat, led_is_trump, t, pam, void)
                if t < 0 and (hand & SUIT_MASK[led]) == 0:
                    renounced = True  # R6 first_renounce: this trick reveals trumps
            card = choose_card(pol[seat, L.P_PLAY], options, k, beat, t, pam, seat_keys[seat], counters, seat)
            if k == 0:
                if mode == L.FIRST_LEAD and t < 0:
                    t = card & 3  # R6 first_lead: the first card led sets trumps
                led = eff_suit(card, t, pam)
                led_is_trump = is_trump(card, t, pam)
                winning = card
                civil = civil_rule and t >= 0 and card == 48 + t
            elif has(beat, card):
                winning = card
                win_i = k
            hands[seat] &= ~(1 << card)
            oi[L.O_SEATS + trick * L.MAX_PLAYERS + k] = seat
            oi[L.O_CARDS + trick * L.MAX_PLAYERS + k] = CARD[card]
        if renounced and mode == L.FIRST_RENOUNCE:
            t = indicator & 3  # the trick is judged with the new trumps
            oi[L.O_INDICATOR] = CARD[indicator]
            oi[L.O_REVEAL] = trick
            win_i = 0
            winning = POS[oi[L.O_CARDS + trick * L.MAX_PLAYERS]]
            for k in range(1, m):
                card = POS[oi[L.O_CARDS + trick * L.MAX_PLAYERS + k]]
                if beats(card, winning, led, t, pam):
                    winning = card
                    win_i = k
        winner = oi[L.O_SEATS + trick * L.MAX_PLAYERS + win_i]
        oi[L.O_WINNER + trick] = winner
        oi[L.O_WON + winner] += 1
        leader_i = leader_i + win_i if leader_i + win_i < m else leader_i + win_i - m
    oi[L.O_NTRICKS] = h
    oi[L.O_TRUMP] = t

    # ---- R3: scoring ---------------------------------------------------------------------------------
    unclaimed = 0.0
    looed = 0
    for i in range(m):
        seat = in_deal[i]
        won = pot_start * oi[L.O_WON + seat] / h
        if seat == defender:
            unclaimed += won  # R8: a defender's shares stay in the pot
        else:
            of[L.F_SHARES + seat] = won
            if oi[L.O_WON + seat] == 0:
                oi[L.O_LOOED + seat] = 1
                of[L.F_PENALTIES + seat] = penalty
                looed += 1
    of[L.F_POT_NEXT] = penalty * looed + unclaimed


@njit(cache=True)
def play_many(ri, rf, pol, polf, strength, chart, decks, dealers, carried, seat_keys, oi_out, of_out):
    """Play deal i of ``decks`` [N, 52] into row i of ``oi_out``/``of_out``."""
    sc = np.zeros(L.SC_LEN, dtype=np.int64)
    oi = np.zeros(L.O_LEN, dtype=np.int64)  # one scratch record for all deals, as in simulate
    of = np.zeros(L.F_LEN, dtype=np.float64)
    for i in range(decks.shape[0]):
        play_deal(ri, rf, pol, polf, strength, chart, decks[i], dealers[i], carried[i], seat_keys[i], sc, oi, of,
                  L.NO_FORCING, 0)  # fmt: skip
        oi_out[i, :] = oi
        of_out[i, :] = of
