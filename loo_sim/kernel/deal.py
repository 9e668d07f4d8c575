"""One deal in numba, step for step like the reference engine (``engine/deal.py``).

``play_deal`` reads the rules (``ri``/``rf``), the policies (``pol``), a deck in
canonical deal order (as bit positions: ``bits.POS`` of the card numbers) and writes the
deal record into ``oi``/``of`` (slots in ``game/abi.py``). Hands are 52-bit masks.
It calls one step function per method of the reference's ``_Deal`` (deal_cards,
collect_antes, declare_all, settle_uncontested, exchange, show_flushes, play_tricks,
score), each inlined into it; each step names the rule it implements. The files follow
the reference's: dealing, antes, settling and scoring here, the declarations in
``kernel/declare.py``, exchange and flushes in ``kernel/exchange.py``, the tricks in
``kernel/tricks.py``; the policies' decisions are in ``kernel/policies.py`` and the
legal cards in ``kernel/legality.py``. The drivers import only what this module defines
(``play_deal``, ``play_deal_inline``, ``begin_deal``, ``finish_deal*``, ``rewind_deal``,
``loo_penalty``).
"""

from numba import njit

from loo_sim.game import abi as L
from loo_sim.kernel.bits import CARD, u
from loo_sim.kernel.declare import declare_all, loo_penalty
from loo_sim.kernel.exchange import exchange, show_flushes
from loo_sim.kernel.nrt import NO_REFCOUNT
from loo_sim.kernel.tricks import play_tricks, play_tricks_inline


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
    oi[L.O_SCRIPT_BROKEN] = 0


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


# what a loo costs (R3, ``loo_penalty``) is in kernel/declare.py, where the calibrated
# declarations first weigh it; it is imported here, and the drivers import it from here
# the declarations (R4, R5, R8, R9b): kernel/declare.py; exchange and flushes (R9): kernel/exchange.py


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
def score(ri, m, pot_start, penalty, defender, sc, oi, of):
    """R3, R8: a share of the pot per trick; a seat without a trick is looed. A defender's
    shares stay in the pot."""
    h = ri[L.R_HAND]
    unclaimed = 0.0
    looed = 0
    for i in range(m):
        seat = sc[u(L.SC_IN_DEAL + i)]
        tricks = oi[u(L.O_WON + seat)]
        won = pot_start * tricks / h
        if seat == defender:  # rare, and the same seat all deal: a branch the processor guesses
            unclaimed += won
        else:
            # whether a seat was looed is a coin toss to the processor: stores of selects, not
            # a branch (the slots hold 0 from clear_play, so a seat with a trick writes 0 again)
            is_looed = tricks == 0
            of[u(L.F_SHARES + seat)] = won
            oi[u(L.O_LOOED + seat)] = is_looed
            of[u(L.F_PENALTIES + seat)] = penalty if is_looed else 0.0
            looed += is_looed
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


@njit(cache=True, inline="always")
def deal_to_tricks(ri, rf, pol, polf, strength, tables, deck, dealer, carried, seat_keys, sc, oi, of, first_i,
                   forced_seat, forced_action):  # fmt: skip
    """The deal from the ``first_i``-th declaration up to the tricks (R4, R5, R8, R9): what
    begin_deal dealt is read back from the record and the scratch. Returns (whether the
    tricks are played, the defender, the seats in, single, the trump mode, the indicator,
    trumps, the pot at the start, the loo penalty): what the tricks and score take."""
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
    penalty = 0.0
    played = not settle_uncontested(m, pot_start, sc, oi, of)
    if played:
        exchange(ri, pol, deck, single, miss_dealt, t, m, sc[L.SC_STOCK], seat_keys, sc)
        penalty = loo_penalty(ri, rf, pot_start)
        played = not show_flushes(ri, t, m, pot_start, penalty, sc, oi, of)
    return played, defender, m, single, mode, indicator, t, pot_start, penalty


def _finish_deal(ri, rf, pol, polf, strength, tables, ws, deck, dealer, carried, seat_keys, sc, oi, of, first_i,
                 forced_seat, forced_action):  # fmt: skip
    """The deal from the ``first_i``-th declaration on (R4-R9), the tricks a call of their own."""
    played, defender, m, single, mode, indicator, t, pot_start, penalty = deal_to_tricks(
        ri, rf, pol, polf, strength, tables, deck, dealer, carried, seat_keys, sc, oi, of, first_i, forced_seat,
        forced_action)  # fmt: skip
    if played:
        play_tricks(ri, pol, seat_keys, single, mode, indicator, t, m, sc, oi, pot_start, penalty, ws)
        score(ri, m, pot_start, penalty, defender, sc, oi, of)


def _finish_deal_flat(ri, rf, pol, polf, strength, tables, ws, deck, dealer, carried, seat_keys, sc, oi, of, first_i,
                      forced_seat, forced_action):  # fmt: skip
    """_finish_deal with the basic tricks inlined too (play_tricks_inline): for simulate's blocks alone."""
    played, defender, m, single, mode, indicator, t, pot_start, penalty = deal_to_tricks(
        ri, rf, pol, polf, strength, tables, deck, dealer, carried, seat_keys, sc, oi, of, first_i, forced_seat,
        forced_action)  # fmt: skip
    if played:
        play_tricks_inline(ri, pol, seat_keys, single, mode, indicator, t, m, sc, oi, pot_start, penalty, ws)
        score(ri, m, pot_start, penalty, defender, sc, oi, of)


# Two compiled forms of the same steps, as for the whole deal below: ``finish_deal``,
# inlined where the deal is (play_deal_inline), and ``finish_deal_call``, compiled once
# and called, by play_deal and by each arm of the decision chart's replays. Sharing one
# compiled body spares ``loo-sim miss`` a second compile of these steps (its chart and
# its heuristics' play_deal each compiled them: 1.6 s of its first run); a replay arm
# pays one call (the chart's decisions/s: 7.34 M instead of 7.51 M, three-card).
# ``finish_deal_flat`` inlines the tricks as well, for play_deal_flat alone.
finish_deal = njit(inline="always")(_finish_deal)
finish_deal_call = njit(cache=True, **NO_REFCOUNT)(_finish_deal)
finish_deal_flat = njit(inline="always")(_finish_deal_flat)


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


@njit(inline="always")
def play_deal_flat(ri, rf, pol, polf, strength, tables, ws, deck, dealer, carried, seat_keys, sc, oi, of, forced_seat,
                   forced_action):  # fmt: skip
    """_play_deal with the basic tricks inlined too (finish_deal_flat, tricks.py
    ``play_tricks_inline``), for simulate's blocks (chunks.play_block) alone: a call of
    play_tricks is about 10 ns of a 170 ns three-card deal, but what is inlined is compiled
    again in each driver that inlines it, so the other drivers (sessions, variants, the
    ladder) keep play_deal_inline and the one compiled play_tricks."""
    begin_deal(ri, rf, deck, dealer, carried, sc, oi, of)
    finish_deal_flat(ri, rf, pol, polf, strength, tables, ws, deck, dealer, carried, seat_keys, sc, oi, of, 0,
                     forced_seat, forced_action)  # fmt: skip
