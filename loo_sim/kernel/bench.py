"""The bench's baseline (``scripts/bench.py`` only; no study uses it): shuffle and deal the
hands, the miss and the indicator (R2) into masks, and nothing else."""

from numba import njit, prange

from loo_sim.kernel import abi as L
from loo_sim.kernel.bits import POS
from loo_sim.kernel.deal import deal_hands
from loo_sim.kernel.scratch import BLOCK, deal_scratch, deck_cards_needed, prepare_deal


@njit(cache=True)
def bare_deal(ri, deck, dealer, sc):
    """Deal one shuffled deck as play_deal does (R2); returns a checksum bit so the work
    cannot be optimised away."""
    n = ri[L.R_PLAYERS]
    hands = sc[L.SC_HANDS : L.SC_HANDS + L.MAX_PLAYERS]
    for s in range(n):
        hands[s] = 0
    miss, pos = deal_hands(deck, n, ri[L.R_HAND], dealer, ri[L.R_MISS] == 1, sc[L.SC_ORDER :], hands)
    check = miss ^ POS[deck[pos]]
    for s in range(n):
        check ^= hands[s]
    return check & 1


@njit(cache=True, parallel=True)
def bare_blocks(ri, seed, session, n_blocks, total, out):
    """Deals 0..total-1 of the run keyed (seed, session) in blocks of BLOCK, dealt by seat
    k mod players like simulate's; out[b] = (deals, checksum) of block b."""
    n = ri[L.R_PLAYERS]
    need = deck_cards_needed(ri)
    for b in prange(n_blocks):
        deck, sc, seat_keys, _oi, _of = deal_scratch()
        first = b * BLOCK
        deals = 0
        check = 0
        for k in range(first, min(first + BLOCK, total)):
            prepare_deal(seed, session, k, deck, need, n, seat_keys, False)
            check += bare_deal(ri, deck, k % n, sc)
            deals += 1
        out[b, 0] = deals
        out[b, 1] = check
