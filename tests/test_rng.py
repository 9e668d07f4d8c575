"""Counter-based randomness (docs/design.md property 3, docs/rules.md R13): the deck of a deal and a
seat's own stream are pure functions of their key."""

from collections import Counter

import pytest

from loo_sim.base.rng import NO_SESSION, below, seat_draws, shuffled_deck


@pytest.mark.parametrize("seed, deal, session", [(0, 0, NO_SESSION), (1, 0, NO_SESSION), (7, 3, 0), (2**63 - 1, 99, 5)])
def test_r13_shuffled_deck_is_a_permutation_of_the_52_cards(seed, deal, session):
    deck = shuffled_deck(seed, deal, session)
    assert len(deck) == 52
    assert sorted(deck) == list(range(52))


def test_r13_same_key_same_deck():
    for seed in (0, 1, 12345):
        for deal in (0, 1, 50):
            assert shuffled_deck(seed, deal) == shuffled_deck(seed, deal)
            assert shuffled_deck(seed, deal, 3) == shuffled_deck(seed, deal, 3)


def test_r13_default_session_is_the_independent_deal_stream():
    assert shuffled_deck(4, 2) == shuffled_deck(4, 2, NO_SESSION)


def test_r13_different_deals_differ():
    decks = {tuple(shuffled_deck(1, k)) for k in range(50)}
    assert len(decks) == 50


def test_r13_different_seeds_differ():
    decks = {tuple(shuffled_deck(s, 0)) for s in range(50)}
    assert len(decks) == 50


def test_r13_different_sessions_differ():
    decks = {tuple(shuffled_deck(1, 0, i)) for i in range(20)} | {tuple(shuffled_deck(1, 0))}
    assert len(decks) == 21
    # session i deal j is not deal j of session j or deal i of session j
    assert shuffled_deck(1, 2, 3) != shuffled_deck(1, 3, 2)


def test_r13_order_of_calls_does_not_matter():
    forward = [shuffled_deck(9, k) for k in range(10)]
    backward = [shuffled_deck(9, k) for k in reversed(range(10))][::-1]
    assert forward == backward


def test_shuffle_is_not_grossly_biased():
    # Every card should reach the front about as often as any other (2,600 shuffles, 50
    # expected per card); a gross bias (e.g. an unshuffled deck) fails this.
    firsts = Counter(shuffled_deck(3, k)[0] for k in range(2600))
    assert len(firsts) == 52
    assert max(firsts.values()) < 100
    lasts = Counter(shuffled_deck(3, k)[51] for k in range(2600))
    assert len(lasts) == 52


def test_seat_draws_are_in_range():
    draw = seat_draws(1, 0, 2)
    for n in list(range(1, 53)) * 5:
        assert 0 <= draw(n) < n


def test_seat_draws_are_deterministic():
    a = seat_draws(5, 3, 1)
    b = seat_draws(5, 3, 1)
    ns = [(i % 13) + 2 for i in range(200)]
    assert [a(n) for n in ns] == [b(n) for n in ns]
    c = seat_draws(5, 3, 1, 7)
    d = seat_draws(5, 3, 1, 7)
    assert [c(n) for n in ns] == [d(n) for n in ns]


def test_seat_draws_differ_by_seat_deal_seed_and_session():
    def seq(*key):
        draw = seat_draws(*key)
        return [draw(1000) for _ in range(20)]

    base = seq(5, 3, 1)
    assert seq(5, 3, 2) != base
    assert seq(5, 4, 1) != base
    assert seq(6, 3, 1) != base
    assert seq(5, 3, 1, 0) != base


def test_seat_draws_advance():
    draw = seat_draws(0, 0, 0)
    values = [draw(2**20) for _ in range(50)]
    assert len(set(values)) > 40


def test_seat_draws_are_roughly_uniform():
    draw = seat_draws(11, 0, 0)
    counts = Counter(draw(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(800 < c < 1200 for c in counts.values())


def test_below_maps_32_bits_into_range():
    for n in (1, 2, 3, 52):
        assert below(0, n) == 0
        assert below(2**32 - 1, n) == n - 1
        for u in (1, 2**31, 123456789):
            assert 0 <= below(u, n) < n
