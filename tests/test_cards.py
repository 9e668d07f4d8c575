"""Cards and their text form (docs/rules.md R1); full deck strings (R2, R13)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loo_sim.base.errors import LooError
from loo_sim.game.cards import (
    PAM,
    card_str,
    deck_str,
    parse_card,
    parse_cards,
    parse_deck,
    rank_of,
    suit_of,
)

# R1: suits C D H S (clubs, diamonds, hearts, spades), ranks 2..A, ace high.
SUIT_LETTERS = "CDHS"
RANK_LETTERS = "23456789TJQKA"
ALL_CARDS = [r + s for s in SUIT_LETTERS for r in RANK_LETTERS]


def test_r1_there_are_52_distinct_cards_and_every_text_form_round_trips():
    parsed = [parse_card(t) for t in ALL_CARDS]
    assert len(set(parsed)) == 52
    assert sorted(parsed) == list(range(52))
    for text, card in zip(ALL_CARDS, parsed):
        assert card_str(card) == text


@pytest.mark.parametrize(
    "text, rank, suit",
    [("AS", "A", "S"), ("TH", "T", "H"), ("2C", "2", "C"), ("JC", "J", "C"), ("QD", "Q", "D"), ("9S", "9", "S")],
)
def test_r1_parse_rank_then_suit(text, rank, suit):
    card = parse_card(text)
    assert card_str(card) == text
    assert rank_of(card) == RANK_LETTERS.index(rank)
    assert suit_of(card) == SUIT_LETTERS.index(suit)


def test_r1_ace_is_high_and_deuce_low():
    ranks = [rank_of(parse_card(r + "H")) for r in RANK_LETTERS]
    assert ranks == sorted(ranks)
    assert rank_of(parse_card("AH")) == max(ranks)
    assert rank_of(parse_card("2H")) == min(ranks)


@pytest.mark.parametrize("text", ["TH", "10H", "th", "10h", "tH", "Th", " TH ", "10H\n"])
def test_r1_ten_of_hearts_in_every_accepted_spelling(text):
    assert card_str(parse_card(text)) == "TH"


@pytest.mark.parametrize("text, want", [("as", "AS"), ("jc", "JC"), ("2d", "2D"), ("kS", "KS"), ("10s", "TS")])
def test_r1_lower_case_is_accepted(text, want):
    assert card_str(parse_card(text)) == want


def test_r1_pam_is_the_jack_of_clubs():
    assert parse_card("JC") == PAM


@pytest.mark.parametrize(
    "text", ["", "A", "1H", "11H", "AX", "ZZ", "AS1", "0S", "1S", "XS", "A S", "10", "100H", "JOKER"]
)
def test_r1_unknown_card_is_refused_with_a_clear_message(text):
    with pytest.raises(LooError) as e:
        parse_card(text)
    msg = str(e.value)
    assert "unknown card" in msg
    assert repr(text) in msg  # names the bad input
    assert "\n" not in msg


def test_r1_parse_cards_accepts_ints_strings_and_separators():
    assert parse_cards("AS TH 2c") == [parse_card("AS"), parse_card("TH"), parse_card("2C")]
    assert parse_cards("AS,TH, 2c") == parse_cards("AS TH 2C")
    assert parse_cards(["AS", "10h", "jc"]) == parse_cards("AS TH JC")
    assert parse_cards([0, 51, 13]) == [0, 51, 13]
    assert parse_cards([parse_card("AS"), "AS"]) == [parse_card("AS")] * 2


@pytest.mark.parametrize("bad", [52, -1, 100])
def test_r1_card_number_outside_0_51_is_refused(bad):
    with pytest.raises(LooError, match="0..51"):
        parse_cards([bad])


def test_r1_bool_is_not_a_card_number():
    with pytest.raises(LooError):
        parse_cards([True])


def test_r1_format_is_rank_then_suit_letter_space_separated():
    cards = parse_cards("AS TH 2C JC")
    assert deck_str(cards) == "AS TH 2C JC"
    assert deck_str([]) == ""


def test_r2_full_deck_string_round_trips():
    order = list(range(52))
    random.Random(7).shuffle(order)
    text = deck_str(order)
    assert len(text.split()) == 52
    assert parse_deck(text) == order
    assert parse_deck(text.lower()) == order
    assert parse_deck(text.split()) == order
    assert parse_deck(order) == order
    assert parse_deck(", ".join(text.split())) == order
    assert parse_deck(text.replace("T", "10")) == order


@given(st.permutations(list(range(52))))
@settings(max_examples=50, deadline=None)
def test_r2_every_deck_order_round_trips(order):
    assert parse_deck(deck_str(order)) == list(order)


def _deck_text() -> list[str]:
    return list(ALL_CARDS)


def test_r2_deck_of_51_cards_is_refused():
    with pytest.raises(LooError) as e:
        parse_deck(" ".join(_deck_text()[:51]))
    assert "52" in str(e.value) and "51" in str(e.value)


def test_r2_deck_of_53_cards_is_refused():
    cards = _deck_text() + ["AS"]
    with pytest.raises(LooError) as e:
        parse_deck(" ".join(cards))
    assert "52" in str(e.value) and "53" in str(e.value)


def test_r2_empty_deck_is_refused():
    with pytest.raises(LooError, match="52"):
        parse_deck("")


def test_r2_duplicate_card_is_refused_and_named():
    cards = _deck_text()
    cards[-1] = "QH"  # QH twice, AS missing
    with pytest.raises(LooError) as e:
        parse_deck(" ".join(cards))
    msg = str(e.value)
    assert "duplicate" in msg
    assert "QH" in msg


def test_r2_duplicate_given_as_ints_is_refused():
    order = list(range(52))
    order[0] = 51
    with pytest.raises(LooError, match="duplicate"):
        parse_deck(order)


def test_r2_bad_card_text_in_a_deck_is_refused_and_named():
    cards = _deck_text()
    cards[10] = "XX"
    with pytest.raises(LooError, match="XX"):
        parse_deck(" ".join(cards))


def test_looerror_is_a_valueerror():
    # docs/design.md: one domain exception class; it is a ValueError for callers.
    assert issubclass(LooError, ValueError)
