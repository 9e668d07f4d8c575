"""``loo_sim.base.rng`` in numba: the same SplitMix64 arithmetic on uint64, bit for bit."""

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
M1 = np.uint64(0xBF58476D1CE4E5B9)
M2 = np.uint64(0x94D049BB133111EB)
LOW32 = np.uint64(0xFFFFFFFF)
S30, S27, S31, S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)


@njit(cache=True)
def mix64(z):
    z = (z ^ (z >> S30)) * M1
    z = (z ^ (z >> S27)) * M2
    return z ^ (z >> S31)


@njit(cache=True)
def stream_key(seed, session, deal, purpose):
    """All arguments uint64, as ``rng.stream_key``."""
    k = mix64(seed ^ GOLDEN)
    k = mix64(k ^ session)
    k = mix64(k ^ (deal + GOLDEN))
    return mix64(k ^ (purpose * GOLDEN))


@njit(cache=True)
def word(key, counter):
    return mix64(key + (np.uint64(counter) + np.uint64(1)) * GOLDEN)


@njit(cache=True)
def below(u32, n):
    return np.int64((u32 * np.uint64(n)) >> S32)


@njit(cache=True)
def swap(deck, i, j):
    i, j = np.uint64(i), np.uint64(j)  # never negative: unsigned indices need no wraparound
    tmp = deck[i]
    deck[i] = deck[j]
    deck[j] = tmp


@njit(cache=True)
def shuffle_prefix(key, deck, count, cards):
    """Forward Fisher-Yates of ``cards`` (the 52 cards in canonical order: card numbers,
    or the kernel's bit positions) into ``deck``; only positions < ``count`` are final,
    which is all a deal needs when it uses no stock. Two 32-bit draws per word."""
    for i in range(52):
        deck[np.uint64(i)] = cards[np.uint64(i)]
    last = min(count, 51)
    i = 0
    while i + 1 < last:  # draws i (low half) and i + 1 (high half) of word i / 2
        w = word(key, i >> 1)
        swap(deck, i, i + below(w & LOW32, 52 - i))
        swap(deck, i + 1, i + 1 + below(w >> S32, 51 - i))
        i += 2
    if i < last:
        swap(deck, i, i + below(word(key, i >> 1) & LOW32, 52 - i))


@njit(cache=True)
def shuffle_more(key, deck, start, stop):
    """Go on with shuffle_prefix's Fisher-Yates from position ``start`` to ``stop``: the
    same draws, so the deck is the one a longer prefix would have given (each word once,
    for its two positions)."""
    stop = min(stop, 51)
    i = start
    if i < stop and i & 1 == 1:  # the high half of a word whose low half placed i - 1
        swap(deck, i, i + below(word(key, i >> 1) >> S32, 52 - i))
        i += 1
    while i + 1 < stop:
        w = word(key, i >> 1)
        swap(deck, i, i + below(w & LOW32, 52 - i))
        swap(deck, i + 1, i + 1 + below(w >> S32, 51 - i))
        i += 2
    if i < stop:
        swap(deck, i, i + below(word(key, i >> 1) & LOW32, 52 - i))


@njit(cache=True)
def draw_below(key, counter, n):
    """Draw ``counter`` of a seat's own stream, mapped to 0..n-1 (as ``rng.seat_draws``)."""
    return below(word(key, counter) >> S32, n)
