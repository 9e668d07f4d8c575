"""The kernel's fast paths against what they stand for: ``tricks.play_trick_basic`` (a
trick with trumps known where every seat plays basic) against the general
``play_trick``, its ``follower_beat`` against ``bits.beat_mask``, and the pairwise
``krng.shuffle_more`` against a longer ``shuffle_prefix``."""

from __future__ import annotations

import numpy as np
import pytest

from loo_sim import Rules
from loo_sim.game import abi as L
from loo_sim.game.policy import parse_table
from loo_sim.kernel.bits import POS, beat_mask, eff_suit, follow_mask, trump_mask
from loo_sim.kernel.krng import shuffle_more, shuffle_prefix
from loo_sim.kernel.scratch import deal_scratch
from loo_sim.kernel.tricks import follower_beat, play_trick, play_trick_basic
from loo_sim.run.args import kernel_args


def test_follower_beat_is_beat_mask_for_every_card_that_heads_a_trick():
    for pam in (0, 1):
        for t in range(4):
            tm = trump_mask(t, pam)
            for led in range(4):
                same_suit = follow_mask(led, t, pam)
                for w in range(52):
                    beat = beat_mask(w, led, t, pam)
                    for c in range(52):
                        if (beat >> c) & 1:
                            assert follower_beat(c, same_suit, tm, t, pam) == beat_mask(c, led, t, pam)
            for c in range(52):  # and for a card led
                led = eff_suit(c, t, pam)
                assert follower_beat(c, follow_mask(led, t, pam), tm, t, pam) == beat_mask(c, led, t, pam)


@pytest.mark.parametrize(
    "options",
    [{}, {"pam_be_civil": False}, {"void": "trump_to_win"}, {"lead": "trump"}, {"lead": "classic"},
     {"lead": "ace", "ace_lead_king": True}],
)  # fmt: skip
@pytest.mark.parametrize("preset", ["five-card", "three-card"])
def test_play_trick_basic_plays_the_trick_play_trick_plays(preset, options):
    rules = Rules.preset(preset, players=8, **options)
    a = kernel_args(rules, parse_table("basic", 8))
    rng = np.random.default_rng(13)
    h = rules.hand_size
    _, sc, seat_keys, oi, _ = deal_scratch()
    _, sc2, _, oi2, _ = deal_scratch()
    civil, pam = a.ri[L.R_CIVIL], a.ri[L.R_PAM]
    void, lead = a.ri[L.R_VOID], a.ri[L.R_LEAD]
    for _ in range(3000):
        m = int(rng.integers(2, 9))
        size = int(rng.integers(1, h + 1))  # cards left in each hand
        deck = POS[rng.permutation(52)]
        sc[:] = 0
        oi[:] = 0
        for i in range(m):
            sc[L.SC_IN_DEAL + i] = i
            sc[L.SC_HANDS + i] = int(np.bitwise_or.reduce(np.int64(1) << deck[i * size : (i + 1) * size]))
        indicator = int(deck[m * size])
        t = indicator & 3
        trick, leader_i = int(rng.integers(0, h)), int(rng.integers(0, m))
        single = bool(rng.integers(0, 2))
        sc2[:], oi2[:] = sc, oi
        want, t_after = play_trick(a.ri, a.pol, seat_keys, trick, leader_i, m, single, L.TURN_UP, indicator, t, sc2,
                                   oi2, 0.0, 0.0, None)  # fmt: skip
        got = play_trick_basic(trick, leader_i, m, t, pam, civil, void, lead, trick == 0 and not single, indicator,
                               sc, oi)  # fmt: skip
        assert (got, t) == (want, t_after)
        assert np.array_equal(sc, sc2) and np.array_equal(oi, oi2)


def test_shuffle_more_continues_shuffle_prefix():
    rng = np.random.default_rng(5)
    cards = np.arange(52, dtype=np.int64)
    for _ in range(400):
        key = np.uint64(int(rng.integers(0, 2**63)))
        start, stop = sorted(int(x) for x in rng.integers(0, 53, size=2))
        whole, part = np.empty(52, dtype=np.int64), np.empty(52, dtype=np.int64)
        shuffle_prefix(key, whole, stop, cards)
        shuffle_prefix(key, part, start, cards)
        shuffle_more(key, part, start, stop)
        assert np.array_equal(whole[:stop], part[:stop])
        assert sorted(part) == list(range(52))
