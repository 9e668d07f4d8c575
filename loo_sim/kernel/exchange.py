"""The exchange and the flushes of a deal in numba (docs/rules.md R9, R9c), step for step
like ``engine/exchange.py``: the seats in the deal throw cards and draw as many from the
stock (all at once, or each as it declares under R9c at_turn), then the best flush takes
the pot and loos the others. Steps of ``kernel/deal.py``'s deal, inlined into it.
"""

from numba import njit

from loo_sim.game import abi as L
from loo_sim.kernel.bits import ACE_BITS, PAM_BIT, one_suit, popcount, trump_mask, u
from loo_sim.kernel.krng import shuffle_more
from loo_sim.kernel.legality import flush_key
from loo_sim.kernel.policies import discards
from loo_sim.kernel.scratch import shuffled_count


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
