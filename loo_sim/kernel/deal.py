"""One deal in numba, step for step like the reference engine (``engine/deal.py``).

``play_deal`` reads the rules (``ri``/``rf``), the policies (``pol``), a deck in
canonical deal order (as bit positions: ``bits.POS`` of the card numbers) and writes the
deal record into ``oi``/``of`` (slots in ``game/abi.py``). Hands are 52-bit masks.
It calls one step function per method of the reference's ``_Deal`` (deal_cards,
collect_antes, declare_all, settle_uncontested, exchange, show_flushes, play_tricks,
score), each inlined into it; each step names the rule it implements. The tricks are
in ``kernel/tricks.py``, the policies' decisions in ``kernel/policies.py`` and the
legal cards in ``kernel/legality.py``.
"""

from numba import njit

from loo_sim.game import abi as L
from loo_sim.kernel.bits import (
    ACE_BITS,
    CARD,
    PAM_BIT,
    one_suit,
    popcount,
    trump_mask,
    u,
)
from loo_sim.kernel.classes import declare_calibrated, hand_class
from loo_sim.kernel.infosets import infoset_index, table_declaration
from loo_sim.kernel.krng import shuffle_more
from loo_sim.kernel.legality import flush_key
from loo_sim.kernel.nrt import NO_REFCOUNT
from loo_sim.kernel.policies import declare, declare_flush_aware, discards, flush_clauses
from loo_sim.kernel.scratch import shuffled_count
from loo_sim.kernel.tricks import play_tricks


# ---- the deal, step by step like engine/deal.py (_Deal) ----------------------------------
@njit(cache=True, inline="always")
def clear_play(n, sc, oi, of):
    """Clear what the declarations' consequences write (trick slots are always overwritten)."""
    for s in range(n):
        sc[u(L.SC_COUNTERS + s)] = 0
        oi[u(L.O_WON + s)] = 0
        oi[u(L.O_LOOED + s)] = 0
        oi[u(L.O_FLUSH_HELD + s)] = 0
        of[u(L.F_SHARES + s)] = 0.0
        of[u(L.F_PENALTIES + s)] = 0.0
    oi[L.O_NTRICKS] = 0
    of[L.F_POT_NEXT] = 0.0
    oi[L.O_OUTCOME] = L.OUT_PLAY
    oi[L.O_FLUSH_WINNER] = -1
    oi[L.O_DEFENDER] = -1
    oi[L.O_REVEAL] = -1


@njit(cache=True, inline="always")
def clear_record(n, sc, oi, of):
    """Clear the slots a deal may leave unwritten (deal_hands writes every hand whole)."""
    clear_play(n, sc, oi, of)
    for s in range(n):
        oi[u(L.O_DECL + s)] = L.DECL_PASS
        of[u(L.F_ANTES + s)] = 0.0
    oi[L.O_INDICATOR] = -1
    oi[L.O_TRUMP] = -1


@njit(cache=True, inline="always")
def deal_hands(deck, n, h, dealer, miss_dealt, sc):
    """R2: the seats from the dealer's left (the dealer last) into ``order``, then ``h``
    rounds of one card each, the miss's card just before the dealer's: a round takes
    ``stride`` deck positions, the seat i-th in order the i-th of each (the dealer the
    last). Each hand is gathered in a register and written once, into the hands and the
    dealt hands. Returns (the miss, the deck position after the hands)."""
    stride = n + 1 if miss_dealt else n
    seat = dealer
    for i in range(n):  # (dealer + 1 + i) mod n, without a division
        seat = seat + 1 if seat + 1 < n else 0
        sc[u(L.SC_ORDER + i)] = seat
        at = i if i < n - 1 else stride - 1  # the dealer takes the last card of each round
        hand = 0
        for r in range(h):
            hand |= 1 << deck[u(at + r * stride)]
        sc[u(L.SC_HANDS + seat)] = hand
        sc[u(L.SC_DEALT + seat)] = hand
    miss = 0
    if miss_dealt:
        for r in range(h):
            miss |= 1 << deck[u(n - 1 + r * stride)]
    return miss, h * stride


@njit(cache=True, inline="always")
def deal_cards(ri, deck, dealer, mode, miss_dealt, sc, oi):
    """R2, R6: the hands, the miss and the indicator (turned at once with turn_up).
    Returns (indicator as a bit position or -1, trumps or -1, the miss, the stock's start)."""
    n = ri[L.R_PLAYERS]
    miss, pos = deal_hands(deck, n, ri[L.R_HAND], dealer, miss_dealt, sc)
    indicator = -1  # as a bit position
    if mode == L.TURN_UP or mode == L.FIRST_RENOUNCE:
        indicator = deck[pos]
        pos += 1
    t = -1
    if mode == L.TURN_UP:
        t = indicator & 3
        oi[L.O_INDICATOR] = CARD[indicator]
    oi[L.O_TRUMP] = t
    oi[L.O_T_DECL] = t
    sc[L.SC_DEALT + L.MAX_PLAYERS] = miss
    sc[L.SC_INDICATOR] = indicator
    sc[L.SC_STOCK] = pos
    return indicator, t, miss, pos


@njit(cache=True, inline="always")
def collect_antes(ri, rf, dealer, carried, of):
    """R3: the antes; returns the pot at the start of the deal."""
    ante = rf[L.RF_ANTE]
    total = 0.0
    for s in range(ri[L.R_PLAYERS]):
        if ri[L.R_ANTE_EACH] == 1 or s == dealer:
            of[u(L.F_ANTES + s)] = ante
        total += of[u(L.F_ANTES + s)]
    pot_start = carried + total
    of[L.F_POT_START] = pot_start
    return pot_start


@njit(cache=True, inline="always")
def loo_penalty(ri, rf, pot_start):
    """R3, R9c: what a loo costs: the whole pot (unlimited), the fixed amount (limited), or
    the smaller of the two (capped)."""
    kind = ri[L.R_PENALTY]
    if kind == L.PEN_UNLIMITED:
        return pot_start
    if kind == L.PEN_LIMITED:
        return rf[L.RF_PENALTY]
    return min(pot_start, rf[L.RF_PENALTY])


@njit(cache=True, inline="always")
def declaration_options(ri, i, seat, dealer, single, club_law, clean, defence, miss_on_offer, already_in, early_in,
                        last_in, last_decl):  # fmt: skip
    """R4, R5, R8: what the i-th seat from the dealer's left may declare, given how many
    earlier seats came in (``already_in``; ``early_in`` of them before the dealer's
    right-hand neighbour; the last of them ``last_in``, who declared ``last_decl``).
    Returns (allowed, bit 1 << DECL_*; may_pass; miss_on_offer; dealer_case: 0, 2 or 3 as
    in R8, and 1 when the dealer takes the pot without play)."""
    n = ri[L.R_PLAYERS]
    bold = ri[L.R_BOLD]
    may_pass = not (single or club_law)
    if clean and bold == L.BOLD_EVERYONE:
        may_pass = False
    if clean and bold == L.BOLD_LAST and i >= n - 2 and early_in == 0:
        may_pass = False  # everyone before the dealer's right-hand neighbour passed
    dealer_case = 0
    if seat == dealer and already_in == 0 and (defence or ri[L.R_TAKES_ALL] == 1):  # R8 case 1, R9c
        return 1 << L.DECL_PLAY, False, False, 1
    if seat == dealer and defence and already_in == 1:  # R8 cases 2 and 3
        dealer_case = 2 if last_decl == L.DECL_PLAY else 3
    if dealer_case == 2:
        may_pass = False
        miss_on_offer = False
    elif dealer_case == 3:
        miss_on_offer = False
    allowed = 1 << L.DECL_PLAY
    if dealer_case == 2:
        allowed |= 1 << L.DECL_DEFEND
        if ri[L.R_TAKES_MISS] == 1:  # R9c: the dealer may also take the miss (no family does by itself)
            allowed |= 1 << L.DECL_MISS
    elif may_pass:
        allowed |= 1 << L.DECL_PASS
    if miss_on_offer:
        allowed |= 1 << L.DECL_MISS
    return allowed, may_pass, miss_on_offer, dealer_case


@njit(cache=True, inline="always")
def choose_declaration(ri, rf, pol, polf, strength, tables, i, seat, hand, t, allowed, may_pass, miss_on_offer,
                       dealer_case, already_in, pot_start, forced_seat, forced_action, seat_keys):  # fmt: skip
    """The seat's declaration: the forced one in a counterfactual replay (P4), else its
    policy's (P2, P3; a chart or table seat reads its declaration table, P6; one without
    an answer falls back to basic)."""
    n = ri[L.R_PLAYERS]
    family = pol[seat, L.P_DECLARE]
    action = -1
    if seat == forced_seat:
        action = forced_action
    elif L.D_THRESHOLD <= family <= L.D_TABLE:  # threshold, ev, chart, table: contiguous codes (abi.py)
        penalty = loo_penalty(ri, rf, pot_start)
        if family >= L.D_CHART:
            cls = hand_class(hand, t, ri[L.R_PAM])
            index = infoset_index(cls, i + 1, already_in, allowed, pot_start, penalty)
            action = table_declaration(tables, pol[seat, L.P_TABLE], index, seat_keys[seat])
        else:
            action = declare_calibrated(family, seat, hand, t, ri[L.R_PAM], may_pass, miss_on_offer, dealer_case,
                                        polf, strength, i + 1, already_in, n - 1 - i, n, pot_start, ri[L.R_HAND],
                                        penalty, rf[L.RF_P_IN])  # fmt: skip
        if action < 0:
            family = L.D_BASIC
    if action < 0:
        if family == L.D_FLUSH_AWARE:
            action = declare_flush_aware(hand, t, ri[L.R_PAM], may_pass, miss_on_offer, dealer_case, flush_clauses(ri))
        else:
            action = declare(family, hand, t, ri[L.R_PAM], may_pass, miss_on_offer, dealer_case)
    return action


@njit(cache=True, inline="always")
def declare_all(ri, rf, pol, polf, strength, tables, deck, dealer, carried, single, mode, miss_dealt, indicator, t,
                pot_start, miss, first_i, forced_seat, forced_action, seat_keys, sc, oi):  # fmt: skip
    """R4, R5, R8, R9b: every seat declares in turn from the dealer's left; a seat that
    takes the miss (or defends) plays it. The seats before the ``first_i``-th keep the
    declarations already in ``oi`` (a replay from a decision, ``rewind_deal``). Returns
    (the defender or -1, seats in the deal).

    R9c at_turn: each seat that declared play exchanges as it declared
    (``exchange_at_turn``), a dealer who took the pot without declaring (R8 case 1, R9c)
    not. The reference engine exchanges inside its loop; here the exchanges follow the
    loop, in declaration order, which draws each seat the same cards from the same stock:
    no declaration reads the stock or another seat's hand, and a seat's own hand is
    exchanged only after it declared. The loop stays as after_all plays it (the hot path),
    and a replay redoes the earlier seats' exchanges with the later ones."""
    n = ri[L.R_PLAYERS]
    clean = carried == 0.0
    club_law = ri[L.R_CLUB_LAW] == 1 and mode == L.TURN_UP and indicator & 3 == 0
    defence = ri[L.R_DEFENDS] == 1 and miss_dealt
    miss_taken = False
    defender = -1
    already_in = 0
    early_in = 0  # seats in before the dealer's right-hand neighbour (R4 bold stand)
    last_in = -1
    last_decl = L.DECL_PASS
    took_pot = False  # the dealer took the pot without declaring (R8 case 1, R9c dealer_takes_all_pass)
    basic = True  # every seat declares basic: its test inline, once per deal rather than a dispatch per seat
    for s in range(n):
        basic &= pol[s, L.P_DECLARE] == L.D_BASIC
    strong_mask = trump_mask(t, ri[L.R_PAM]) | ACE_BITS  # basic plays with a trump or an ace (P2)
    for i in range(n):
        seat = sc[u(L.SC_ORDER + i)]
        if i == n - 2:
            early_in = already_in
        if i < first_i:
            action = oi[u(L.O_DECL + seat)]  # declared before the replayed decision, as it stands
        else:
            allowed, may_pass, miss_on_offer, dealer_case = declaration_options(
                ri, i, seat, dealer, single, club_law, clean, defence, miss_dealt and not miss_taken and not club_law,
                already_in, early_in, last_in, last_decl)  # fmt: skip
            oi[u(L.O_OPTIONS + seat)] = allowed
            if dealer_case == 1:  # R8 case 1: the dealer takes the pot without play
                oi[u(L.O_DECL + seat)] = L.DECL_PLAY
                took_pot = True
                break
            if basic and seat != forced_seat:  # policies.declare for D_BASIC, inline
                if dealer_case == 2:
                    weak = L.DECL_DEFEND
                elif miss_on_offer and dealer_case == 0:
                    weak = L.DECL_MISS
                else:
                    weak = L.DECL_PASS if may_pass else L.DECL_PLAY
                action = L.DECL_PLAY if (sc[u(L.SC_HANDS + seat)] & strong_mask) != 0 else weak
            else:
                action = choose_declaration(ri, rf, pol, polf, strength, tables, i, seat, sc[u(L.SC_HANDS + seat)], t,
                                            allowed, may_pass, miss_on_offer, dealer_case, already_in, pot_start,
                                            forced_seat, forced_action, seat_keys)  # fmt: skip
            oi[u(L.O_DECL + seat)] = action
        # selects, not branches: what a seat declares is a coin toss to the processor
        is_in = action != L.DECL_PASS
        already_in += is_in
        last_in = seat if is_in else last_in
        last_decl = action if is_in else last_decl
        takes_miss = (action == L.DECL_MISS) | (action == L.DECL_DEFEND)
        miss_taken |= takes_miss
        sc[u(L.SC_HANDS + seat)] = miss if takes_miss else sc[u(L.SC_HANDS + seat)]
        defender = seat if action == L.DECL_DEFEND else defender
    oi[L.O_DEFENDER] = defender
    m = 0
    for i in range(n):  # without a branch: whether a seat is in is a coin toss to the processor
        sc[u(L.SC_IN_DEAL + m)] = sc[u(L.SC_ORDER + i)]
        m += oi[u(L.O_DECL + sc[u(L.SC_ORDER + i)])] != L.DECL_PASS
    oi[L.O_NIN] = m
    if ri[L.R_AT_TURN] == 1 and not single and not took_pot:  # R9c at_turn (never in a single pot): see above
        stock_pos = sc[L.SC_STOCK]
        for i in range(m):  # every seat in the deal declared play: no miss goes with an exchange (R5)
            stock_pos = exchange_at_turn(ri, pol, deck, t, sc[u(L.SC_IN_DEAL + i)], stock_pos, seat_keys, sc)
    return defender, m


@njit(cache=True, inline="always")
def settle_uncontested(m, pot_start, sc, oi, of):
    """R4: a lone player takes the pot without play; if nobody is in, it carries over.
    Returns True when the deal ends here."""
    if m == 0:
        oi[L.O_OUTCOME] = L.OUT_NOBODY
        of[L.F_POT_NEXT] = pot_start
        return True
    if m == 1:
        oi[L.O_OUTCOME] = L.OUT_LONE
        of[u(L.F_SHARES + sc[L.SC_IN_DEAL])] = pot_start
        return True
    return False


@njit(cache=True, inline="always")
def exchange(ri, pol, deck, single, miss_dealt, t, m, stock_pos, seat_keys, sc):
    """R9: the seats in the deal, in order, throw cards and draw as many from the stock.
    What a seat throws depends on its hand and the stock left, not on the cards drawn
    before it, so all throw first; then the stock is shuffled as far as it is drawn
    (positions up to SC_SHUFFLED are final) and each draws in turn. Under R9c at_turn the
    seats have exchanged already, each as it declared (``exchange_at_turn``)."""
    if not (ri[L.R_EXCHANGE] == 1 and not single and not miss_dealt) or ri[L.R_AT_TURN] == 1:
        return
    pam = ri[L.R_PAM]
    tm = trump_mask(t, pam)
    drawn = 0  # cards each seat draws, 4 bits per place in the deal
    end = stock_pos
    for i in range(m):
        seat = sc[u(L.SC_IN_DEAL + i)]
        stock = 52 - end
        if stock == 0:
            break
        hand = sc[u(L.SC_HANDS + seat)]
        family = pol[seat, L.P_EXCHANGE]
        if family == L.X_BASIC and popcount(hand & ~tm & ~ACE_BITS) <= stock:
            thrown = hand & ~tm & ~ACE_BITS  # P2 basic, inline: all but trumps and aces
        else:
            thrown = discards(family, hand, t, pam, stock)
        sc[u(L.SC_HANDS + seat)] = hand & ~thrown
        count = popcount(thrown)
        drawn |= count << (4 * i)
        end += count
    if end > sc[L.SC_SHUFFLED]:
        shuffle_more(seat_keys[L.DECK_KEY], deck, sc[L.SC_SHUFFLED], end)
        sc[L.SC_SHUFFLED] = shuffled_count(end)
    for i in range(m):
        seat = sc[u(L.SC_IN_DEAL + i)]
        for _ in range((drawn >> (4 * i)) & 0xF):
            sc[u(L.SC_HANDS + seat)] |= 1 << deck[u(stock_pos)]
            stock_pos += 1


@njit(cache=True, inline="always")
def exchange_at_turn(ri, pol, deck, t, seat, stock_pos, seat_keys, sc):
    """R9c at_turn: one seat that declared play throws and draws as many from the stock at
    ``stock_pos`` (the stock shuffled as far as it is drawn, as in ``exchange``); with the
    stock empty it does nothing. Returns where the stock it leaves starts."""
    stock = 52 - stock_pos
    if stock == 0:
        return stock_pos
    pam = ri[L.R_PAM]
    hand = sc[L.SC_HANDS + seat]
    thrown = discards(pol[seat, L.P_EXCHANGE], hand, t, pam, stock)
    end = stock_pos + popcount(thrown)
    if end > sc[L.SC_SHUFFLED]:
        shuffle_more(seat_keys[L.DECK_KEY], deck, sc[L.SC_SHUFFLED], end)
        sc[L.SC_SHUFFLED] = shuffled_count(end)
    hand &= ~thrown
    for p in range(stock_pos, end):
        hand |= 1 << deck[p]
    sc[L.SC_HANDS + seat] = hand
    return end


@njit(cache=True, inline="always")
def show_flushes(ri, t, m, pot_start, penalty, sc, oi, of):
    """R9: the best flush in the deal takes the pot and loos the others. Returns True
    when the deal ends here."""
    if ri[L.R_FLUSH] != 1:
        return False
    pam = ri[L.R_PAM]
    best_seat = -1
    best_key = -1
    for i in range(m):
        seat = sc[u(L.SC_IN_DEAL + i)]
        hand = sc[u(L.SC_HANDS + seat)]
        if not one_suit(hand & ~PAM_BIT if pam == 1 else hand):
            continue  # most hands: no flush, and no call to rank one
        if ri[L.R_NO_PAM_FLUSH] == 1 and not one_suit(hand):
            continue  # R9c pam_flush = false: Pam with four of another suit is no flush
        key = flush_key(hand, t, pam)
        if key >= 0:
            oi[u(L.O_FLUSH_HELD + seat)] = 1
        if key > best_key:  # elder hands first: an exact tie stays with them
            best_key, best_seat = key, seat
    if best_seat < 0:
        return False
    oi[L.O_OUTCOME] = L.OUT_FLUSH
    oi[L.O_FLUSH_WINNER] = best_seat  # under flush_tie = split, the eldest of the tied seats
    winners = 1 << best_seat
    if ri[L.R_FLUSH_SPLIT] == 1:  # R9c: every seat of the best flush shares the pot
        for i in range(m):
            seat = sc[u(L.SC_IN_DEAL + i)]
            if oi[u(L.O_FLUSH_HELD + seat)] == 1 and flush_key(sc[u(L.SC_HANDS + seat)], t, pam) == best_key:
                winners |= 1 << seat
    share = pot_start / popcount(winners)
    looed = 0
    in_deal = 0  # a bit per seat in the deal
    for i in range(m):
        seat = sc[u(L.SC_IN_DEAL + i)]
        in_deal |= 1 << seat
        if (winners >> seat) & 1 == 1:
            of[u(L.F_SHARES + seat)] = share
            continue
        if ri[L.R_SPARES_PAM] == 1 and (sc[u(L.SC_HANDS + seat)] & PAM_BIT) != 0:
            continue  # R9c flush_spares_pam: a holder of Pam is not looed by the flush
        if ri[L.R_SPARES_FLUSHES] == 1 and oi[u(L.O_FLUSH_HELD + seat)] == 1:
            continue  # R9c flush_spares_flushes: a beaten flush is not looed
        oi[u(L.O_LOOED + seat)] = 1
        of[u(L.F_PENALTIES + seat)] = penalty
        looed += 1
    if ri[L.R_LOOS_ALL] == 1:  # R9c flush_loos_all: the passers pay too
        for seat in range(ri[L.R_PLAYERS]):
            if (in_deal >> seat) & 1 == 0:
                oi[u(L.O_LOOED + seat)] = 1
                of[u(L.F_PENALTIES + seat)] = penalty
                looed += 1
    of[L.F_POT_NEXT] = penalty * looed
    oi[L.O_TRUMP] = t
    return True


@njit(cache=True, inline="always")
def score(ri, m, pot_start, penalty, defender, sc, oi, of):
    """R3, R8: a share of the pot per trick; a seat without a trick is looed. A defender's
    shares stay in the pot."""
    h = ri[L.R_HAND]
    unclaimed = 0.0
    looed = 0
    for i in range(m):
        seat = sc[u(L.SC_IN_DEAL + i)]
        won = pot_start * oi[u(L.O_WON + seat)] / h
        if seat == defender:
            unclaimed += won
        else:
            of[u(L.F_SHARES + seat)] = won
            if oi[u(L.O_WON + seat)] == 0:
                oi[u(L.O_LOOED + seat)] = 1
                of[u(L.F_PENALTIES + seat)] = penalty
                looed += 1
    of[L.F_POT_NEXT] = penalty * looed + unclaimed


@njit(cache=True, inline="always")
def begin_deal(ri, rf, deck, dealer, carried, sc, oi, of):
    """The deal up to the declarations: the record cleared, the cards dealt (R2, R6), the
    antes in (R3)."""
    clear_record(ri[L.R_PLAYERS], sc, oi, of)
    single = ri[L.R_SINGLE_POT] == 1 and carried == 0.0  # R8: a clean pot with single_pot on
    mode = L.FIRST_RENOUNCE if single else ri[L.R_TRUMP]
    oi[L.O_SINGLE] = single
    deal_cards(ri, deck, dealer, mode, ri[L.R_MISS] == 1 and not single, sc, oi)
    collect_antes(ri, rf, dealer, carried, of)


def _finish_deal(ri, rf, pol, polf, strength, tables, ws, deck, dealer, carried, seat_keys, sc, oi, of, first_i,
                 forced_seat, forced_action):  # fmt: skip
    """The deal from the ``first_i``-th declaration on (R4-R9): what begin_deal dealt is read
    back from the record and the scratch."""
    single = oi[L.O_SINGLE] == 1
    mode = L.FIRST_RENOUNCE if single else ri[L.R_TRUMP]
    miss_dealt = ri[L.R_MISS] == 1 and not single
    indicator = sc[L.SC_INDICATOR]
    t = oi[L.O_T_DECL]
    miss = sc[L.SC_DEALT + L.MAX_PLAYERS]
    pot_start = of[L.F_POT_START]
    defender, m = declare_all(ri, rf, pol, polf, strength, tables, deck, dealer, carried, single, mode, miss_dealt,
                              indicator, t, pot_start, miss, first_i, forced_seat, forced_action, seat_keys, sc,
                              oi)  # fmt: skip
    if settle_uncontested(m, pot_start, sc, oi, of):
        return
    exchange(ri, pol, deck, single, miss_dealt, t, m, sc[L.SC_STOCK], seat_keys, sc)
    penalty = loo_penalty(ri, rf, pot_start)
    if show_flushes(ri, t, m, pot_start, penalty, sc, oi, of):
        return
    play_tricks(ri, pol, seat_keys, single, mode, indicator, t, m, sc, oi, pot_start, penalty, ws)
    score(ri, m, pot_start, penalty, defender, sc, oi, of)


# Two compiled forms of the same steps, as for the whole deal below: ``finish_deal``,
# inlined where the deal is (play_deal_inline), and ``finish_deal_call``, compiled once
# and called, by play_deal and by each arm of the decision chart's replays. Sharing one
# compiled body spares ``loo-sim miss`` a second compile of these steps (its chart and
# its heuristics' play_deal each compiled them: 1.6 s of its first run); a replay arm
# pays one call (the chart's decisions/s: 7.34 M instead of 7.51 M, three-card).
finish_deal = njit(inline="always")(_finish_deal)
finish_deal_call = njit(cache=True, **NO_REFCOUNT)(_finish_deal)


@njit(cache=True, inline="always")
def rewind_deal(ri, first_i, decls, options, sc, oi, of):
    """Take a played deal back to just before its ``first_i``-th declaration (P4: a decision
    replayed, ``finish_deal`` from ``first_i``), the earlier seats having declared
    ``decls`` with ``options`` on offer (per seat, as the deal first went): the hands as
    dealt, the miss with a seat that took it before then, later declarations and
    everything after them cleared. Whatever was played since, replays included. Under R9c
    at_turn the earlier seats that played hold their dealt hands again: finish_deal's
    declare_all redoes their exchanges from the stock's start (the same cards: a seat's
    discards depend only on its hand and the stock left, and the deck positions shuffled
    so far stay as they are)."""
    n = ri[L.R_PLAYERS]
    clear_play(n, sc, oi, of)
    for i in range(n):
        seat = sc[L.SC_ORDER + i]
        d = decls[seat] if i < first_i else L.DECL_PASS
        oi[L.O_DECL + seat] = d
        oi[L.O_OPTIONS + seat] = options[seat]
        took = d == L.DECL_MISS or d == L.DECL_DEFEND
        sc[L.SC_HANDS + seat] = sc[L.SC_DEALT + L.MAX_PLAYERS] if took else sc[L.SC_DEALT + seat]
    oi[L.O_TRUMP] = oi[L.O_T_DECL]  # trumps as the declarations knew them (R6)
    single = oi[L.O_SINGLE] == 1
    turned = (L.FIRST_RENOUNCE if single else ri[L.R_TRUMP]) == L.TURN_UP
    oi[L.O_INDICATOR] = CARD[sc[L.SC_INDICATOR]] if turned else -1


def _play_deal(ri, rf, pol, polf, strength, tables, ws, deck, dealer, carried, seat_keys, sc, oi, of,
               forced_seat, forced_action):  # fmt: skip
    """Play one deal (docs/rules.md R2-R9); write its record into ``oi``/``of``.

    ``pol``/``polf``: policy codes and threshold parameters per seat; ``strength``
    [class, seats in deal, tricks] feeds threshold and ev, ``tables`` [table, information
    set, action] the chart and table families (P6). ``seat_keys[s]`` is seat s's own
    stream (play family random, a mixed table's draws), then the deck's. ``sc`` is scratch (``abi.SC_*``). When
    ``forced_seat`` >= 0, that seat declares ``forced_action`` instead of asking its policy
    (counterfactual replays, P4). ``ws`` is None, or the workspace of the seats that play
    perfect or pimc (P8, kernel/cardplay.py ``workspace_for``).
    The steps are those of engine/deal.py, in its order.
    """
    begin_deal(ri, rf, deck, dealer, carried, sc, oi, of)
    finish_deal(ri, rf, pol, polf, strength, tables, ws, deck, dealer, carried, seat_keys, sc, oi, of, 0, forced_seat,
                forced_action)  # fmt: skip


@njit(cache=True, **NO_REFCOUNT)
def play_deal(ri, rf, pol, polf, strength, tables, ws, deck, dealer, carried, seat_keys, sc, oi, of, forced_seat,
              forced_action):  # fmt: skip
    """_play_deal's steps as a function of its own: begin_deal inlined, then the rest in
    finish_deal_call, compiled once and shared with the decision chart."""
    begin_deal(ri, rf, deck, dealer, carried, sc, oi, of)
    finish_deal_call(ri, rf, pol, polf, strength, tables, ws, deck, dealer, carried, seat_keys, sc, oi, of, 0,
                     forced_seat, forced_action)  # fmt: skip


# Two compiled forms of the deal, both without reference counting (kernel/nrt.py):
# ``play_deal``, called once per deal (a call passes its eleven arrays as some eighty
# machine words, which costs about a tenth of a three-card deal), and ``play_deal_inline``,
# inlined into the per-block loops of the hot drivers (simulate, sessions, the ladder),
# which are compiled without reference counting too. The inlined form is never compiled
# on its own, so it has no cache of its own.
play_deal_inline = njit(inline="always")(_play_deal)
