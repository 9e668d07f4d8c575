"""What every block driver (chunks, counterfactual, sessions, calibrate, tournament) needs around
``play_deal``, written once: the per-deal working arrays, how much of the deck a deal
uses, each deal's streams (the deck's and the seats' own), and positions from the dealer."""

import numpy as np
from numba import njit

from loo_sim.base.config import BLOCK  # noqa: F401 (deals per block of simulate, the counterfactual runs and calibration)
from loo_sim.game import abi as L
from loo_sim.kernel.bits import POS
from loo_sim.kernel.krng import shuffle_prefix, stream_key


@njit(cache=True)
def deal_scratch():
    """The per-deal working arrays of play_deal: deck, scratch, seat stream keys, record."""
    deck = np.zeros(52, dtype=np.int64)
    sc = np.zeros(L.SC_LEN, dtype=np.int64)
    seat_keys = np.zeros(L.MAX_PLAYERS + 1, dtype=np.uint64)  # the seats' streams, the deck's (DECK_KEY)
    oi = np.zeros(L.O_LEN, dtype=np.int64)
    of = np.zeros(L.F_LEN, dtype=np.float64)
    return deck, sc, seat_keys, oi, of


@njit(cache=True)
def session_arrays(deals, recorded):
    """The working arrays of one session (``sessions.play_one_session``), reused from session
    to session: the seats' balances, the per-deal aggregates, the pot and looed players of
    each deal, the looed-players histogram, and the record rows (``deals`` of them when
    ``recorded``, else one row, unused)."""
    balances = np.zeros(L.MAX_PLAYERS, dtype=np.float64)
    deal_stats = np.zeros((deals, L.DS_LEN), dtype=np.float64)
    pots = np.zeros(deals, dtype=np.float64)
    looed_by_deal = np.zeros(deals, dtype=np.int64)
    looed_hist = np.zeros(L.MAX_PLAYERS + 1, dtype=np.float64)
    rows = deals if recorded else 1
    rec_oi = np.zeros((rows, L.O_LEN), dtype=np.int64)
    rec_of = np.zeros((rows, L.F_LEN), dtype=np.float64)
    return balances, deal_stats, pots, looed_by_deal, looed_hist, rec_oi, rec_of


@njit(cache=True)
def deck_cards_needed(ri):
    """How many deck positions a deal shuffles first: hands, miss, indicator (an exchange
    shuffles the stock as it draws from it, ``exchange`` in deal.py)."""
    return ri[L.R_PLAYERS] * ri[L.R_HAND] + ri[L.R_HAND] * ri[L.R_MISS] + 1


@njit(cache=True)
def shuffled_count(need):
    """Positions final after shuffling ``need``: the last card is placed when the one before is."""
    return need if need < 51 else 52


@njit(cache=True)
def any_random(pol, n):
    """Whether one of the first ``n`` policy rows plays the random or pimc family or declares
    from a table (which may be mixed): only then does a deal need the seats' own streams."""
    found = False
    for s in range(n):  # a loop, not an array expression: the hot loops run without the runtime (deal.py)
        play = pol[s, L.P_PLAY]
        found |= (play == L.PL_RANDOM) | (play == L.PL_PIMC) | (pol[s, L.P_DECLARE] == L.D_TABLE)
    return found


@njit(cache=True, inline="always")
def set_seat_keys(seed, session, deal, n, seat_keys):
    """Seat s's own stream in deal ``deal`` (a uint64): (seed, session, deal, 1 + s)."""
    for s in range(n):
        seat_keys[s] = stream_key(seed, session, deal, np.uint64(1 + s))


@njit(cache=True, inline="always")
def prepare_deal(seed, session, k, deck, need, n, seat_keys, random_seats, sc):
    """Deal k of the run keyed (seed, session): shuffle the first ``need`` cards of its deck
    (as bit positions, what play_deal reads) from the stream (seed, session, k, 0), keep
    that stream's key for the stock and, when ``random_seats``, set the seats' streams."""
    deal = np.uint64(k)
    key = stream_key(seed, session, deal, np.uint64(0))
    shuffle_prefix(key, deck, need, POS)
    seat_keys[L.DECK_KEY] = key
    sc[L.SC_SHUFFLED] = shuffled_count(need)
    if random_seats:
        set_seat_keys(seed, session, deal, n, seat_keys)


@njit(cache=True, inline="always")
def position_of(seat, dealer, n):
    """A seat's position from the dealer's left: 1 = the dealer's left ... n = the dealer."""
    return seat - dealer if seat > dealer else seat - dealer + n
