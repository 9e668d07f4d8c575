"""Counter-based random numbers (docs/design.md property 3).

Every random number is a pure function of a key and a counter, so results never
depend on threads, chunks or workers:

* the deck of deal ``k`` of a run with seed ``s`` comes from the stream
  ``(s, k)``; deal ``j`` of session ``i`` from ``(s, i, j)``;
* a seat's own random choices (play family ``random``) come from a separate stream of
  the same key, one per seat.

The generator is SplitMix64 read at arbitrary positions: word ``c`` of a stream with
key ``K`` is ``mix64(K + (c + 1) * GOLDEN)``. Keys are built by chaining ``mix64``
over the key's parts. This module is the plain-Python form; ``kernel/krng.py`` has the
same arithmetic in numba, and a test checks they agree bit for bit.

The session part of a key tells the runs apart: the constants below are every stream
family's, so two kinds of run never read the same decks by accident.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
# ---- the session (and deal) parts of the keys of each kind of run ----------------------------
NO_SESSION = MASK64  # independent deals (simulate, play_deals): deal k of seed s is (s, NO_SESSION, k)
MISS_SESSION = 2**61  # decision charts (the miss study): deal k is (s, MISS_SESSION, k)
HEURISTIC_SESSION = MISS_SESSION + 1  # heuristic comparisons: other deals, so a chart is judged out of sample
# `--carried session`: the carried pot of chart deal k is drawn from (s, MISS_CARRIED_SESSION, k), that of
# heuristic deal k from (s, HEURISTIC_CARRIED_SESSION, k) (rng.carried_uniform)
MISS_CARRIED_SESSION = MISS_SESSION + 2
HEURISTIC_CARRIED_SESSION = MISS_SESSION + 3
ADVISE_SESSION = MISS_SESSION + 4  # loo-sim advise: deal k drawn around the seat's hand is (s, ADVISE_SESSION, k)
CALIBRATION_SESSION = 2**62  # strength-table calibration at m seats: (s, CALIBRATION_SESSION + m, k)
NO_DEAL = MASK64  # sessions (R10): the deal part of the first dealer's key (s, i, NO_DEAL), i.e. -1
PURPOSE_DECK = 0  # stream purposes; seat s's own choices use PURPOSE_SEAT + s
PURPOSE_SEAT = 1


def mix64(z: int) -> int:
    """SplitMix64's output function: a bijective 64-bit mixer."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def stream_key(seed: int, session: int, deal: int, purpose: int) -> int:
    """The key of one stream: (seed, session, deal, purpose)."""
    k = mix64((seed & MASK64) ^ GOLDEN)
    k = mix64(k ^ (session & MASK64))
    k = mix64(k ^ ((deal & MASK64) + GOLDEN) & MASK64)
    return mix64(k ^ ((purpose * GOLDEN) & MASK64))


def word(key: int, counter: int) -> int:
    """The 64-bit word at position ``counter`` of the stream ``key``."""
    return mix64((key + (counter + 1) * GOLDEN) & MASK64)


def below(u32: int, n: int) -> int:
    """Map a 32-bit number to 0..n-1 by multiply-shift (bias below n / 2**32)."""
    return (u32 * n) >> 32


def shuffled_deck(seed: int, deal: int, session: int = NO_SESSION) -> list[int]:
    """Forward Fisher-Yates shuffle of cards 0..51, two 32-bit draws per 64-bit word.

    Position ``i`` is fixed by draw ``i`` alone (swap with ``i + below(u, 52 - i)``),
    so a kernel that needs only the first cards of the deck can stop early and still
    agree with the full shuffle.
    """
    key = stream_key(seed, session, deal, PURPOSE_DECK)
    deck = list(range(52))
    for i in range(51):
        w = word(key, i >> 1)
        u32 = (w & 0xFFFFFFFF) if i & 1 == 0 else (w >> 32)
        j = i + below(u32, 52 - i)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def carried_uniform(seed: int, session: int, deal: int) -> float:
    """The uniform draw in [0, 1) that picks deal ``deal``'s carried pot from a session
    distribution (``--carried session``): word 0 of the stream (seed, session, deal,
    PURPOSE_DECK) of its own session kind (MISS_CARRIED_SESSION, HEURISTIC_CARRIED_SESSION),
    so it is a pure function of the seed and the deal and meets no deck of any run."""
    return (word(stream_key(seed, session, deal, PURPOSE_DECK), 0) >> 11) * 2.0**-53


def pick(cum, u: float) -> int:
    """The index of the atom a draw ``u`` picks: the first i with u < cum[i] (the last
    when rounding leaves u at or past the last cumulative probability), as the kernel's
    ``kernel.session_pots.pick``."""
    lo, hi = 0, len(cum) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if u < cum[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


DECLARE_DRAW = 1 << 32  # the word a declaration table's mixed row draws (game.abi.DECLARE_DRAW)


class SeatStream:
    """A seat's own stream for one deal: each call ``stream(n)`` gives 0..n-1 (card play,
    counting up from word 0); ``declaration_uniform()`` is the one uniform draw in [0, 1)
    of a mixed declaration table, from a word card play never reaches."""

    def __init__(self, key: int) -> None:
        self.key = key
        self.counter = 0

    def __call__(self, n: int) -> int:
        w = word(self.key, self.counter)
        self.counter += 1
        return below(w >> 32, n)

    def declaration_uniform(self) -> float:
        return (word(self.key, DECLARE_DRAW) >> 11) * 2.0**-53


def seat_draws(seed: int, deal: int, seat: int, session: int = NO_SESSION) -> SeatStream:
    """A seat's own stream for one deal: (seed, session, deal, PURPOSE_SEAT + seat)."""
    return SeatStream(stream_key(seed, session, deal, PURPOSE_SEAT + seat))


def seat_streams(seed: int, deal: int, policies, session: int = NO_SESSION) -> list[SeatStream | None]:
    """Each seat's stream for one deal where its policy draws (``Policy.needs_stream``), else None."""
    return [seat_draws(seed, deal, s, session) if p.needs_stream else None for s, p in enumerate(policies)]
