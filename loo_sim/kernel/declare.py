"""The declarations of a deal in numba (docs/rules.md R4, R5, R8, R9b), step for step like
``engine/declare.py``: what each seat may declare, what it declares (a forced action in a
replay, P4, else its policy's, P2, P3, P6), and every seat in turn from the dealer's left
(``declare_all``, a step of ``kernel/deal.py``'s deal, inlined into it). A seat that takes
the miss (or defends) plays it; under R9c at_turn the seats that declared play exchange
(``kernel/exchange.py``).
"""

from numba import njit

from loo_sim.game import abi as L
from loo_sim.kernel.bits import ACE_BITS, trump_mask, u
from loo_sim.kernel.classes import declare_calibrated, hand_class
from loo_sim.kernel.exchange import exchange_at_turn
from loo_sim.kernel.infosets import infoset_index, table_declaration
from loo_sim.kernel.policies import declare, declare_flush_aware, flush_clauses
from loo_sim.kernel.rule import rule_declaration


@njit(cache=True, inline="always")
def loo_penalty(ri, rf, pot_start):
    """R3, R9c: what a loo costs: the whole pot (unlimited), the fixed amount (limited), or
    the smaller of the two (capped). Here rather than in deal.py (which imports it from
    here, so the drivers still find it there) because the calibrated declarations weigh it
    first; computed where it is needed, not once per deal: a deal that nobody contests
    never needs it."""
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
                       dealer_case, already_in, miss_taken, clean, pot_start, forced_seat, forced_action,
                       seat_keys):  # fmt: skip
    """The seat's declaration: the forced one in a counterfactual replay (P4), else its
    policy's (P2, P3; a chart or table seat reads its declaration table, P6, one without
    an answer falling back to basic; a rule seat reads its table, P3b)."""
    n = ri[L.R_PLAYERS]
    family = pol[seat, L.P_DECLARE]
    action = -1
    if seat == forced_seat:
        action = forced_action
    elif family == L.D_RULE:
        penalty = loo_penalty(ri, rf, pot_start)
        action = rule_declaration(pol, seat, hand, t, ri[L.R_PAM], ri[L.R_PAM_FLUSH], allowed, i + 1, n, already_in,
                                  miss_taken, dealer_case, clean, pot_start, penalty)  # fmt: skip
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
        hand = sc[u(L.SC_HANDS + seat)]
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
                action = L.DECL_PLAY if (hand & strong_mask) != 0 else weak
            else:
                action = choose_declaration(ri, rf, pol, polf, strength, tables, i, seat, hand, t,
                                            allowed, may_pass, miss_on_offer, dealer_case, already_in, miss_taken,
                                            clean, pot_start, forced_seat, forced_action, seat_keys)  # fmt: skip
            oi[u(L.O_DECL + seat)] = action
        # selects, not branches: what a seat declares is a coin toss to the processor
        is_in = action != L.DECL_PASS
        already_in += is_in
        last_in = seat if is_in else last_in
        last_decl = action if is_in else last_decl
        takes_miss = (action == L.DECL_MISS) | (action == L.DECL_DEFEND)
        miss_taken |= takes_miss
        # the miss or the hand as it was, in arithmetic: written as a select, the compiler
        # drops the store of the unchanged hand and branches on whether the seat took the miss
        sc[u(L.SC_HANDS + seat)] = hand ^ ((hand ^ miss) & -takes_miss)
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
