"""R8: the dealer's defence, cases 1 to 4 (golden deals)."""

from __future__ import annotations

from tests.deckbuild import build_deck
from tests.rules.golden import MONEY, outcome, run, table, trick

# --------------------------------------------------------------------------------------
# R8: the dealer's defence (classic-limited double pots: carried > 0, ante by the dealer)
# --------------------------------------------------------------------------------------


def test_r8_case1_dealer_takes_pot_without_play():
    # carried 6 + dealer's ante 3 = 9, double pot. Indicator 5S; nobody holds two spades
    # or a spade Q+, so cautious S1-S4 pass. Everyone else passed -> the dealer takes the
    # pot without play, recorded as `play` (even though cautious would pass).
    deck = build_deck(
        5,
        0,
        {1: "2S 3D 4C", 2: "6D 7C 8H", 3: "9D TC JH", 4: "QD KC AH", 0: "2D 3C 4H"},
        miss="AS KS QS",
        indicator="5S",
    )
    d = run("classic-limited", deck, carried=6, policy="cautious")
    assert d["declarations"] == ["play", "pass", "pass", "pass", "pass"]
    assert d["tricks"] == []
    assert outcome(d, *MONEY) == {
        "shares": [9.0, 0.0, 0.0, 0.0, 0.0],
        "penalties": [0.0] * 5,
        "looed": [],
        "antes": [3.0, 0.0, 0.0, 0.0, 0.0],
        "pot_start": 9.0,
        "pot_next": 0.0,
    }


def test_r8_case2_dealer_defends_with_miss():
    # carried 9 -> pot 12, indicator 5S (spades trumps). S1 holds AS -> basic plays;
    # S2-S4 cautious pass; dealer S0 (basic) holds no spade and no ace -> R8 case 2 ->
    # `defend`, playing the miss 3S QD 4C.
    # T1: S1 must lead AS (lead = trump, ace held); the defender follows 3S.
    # T2: S1 holds no trump -> free; basic leads KD; defender follows QD.
    # T3: S1 leads 2C; defender must head with 4C and wins.
    # S1 2 tricks = 8. The defender's share (4) stays in the pot: pot_next 4; the
    # defender wins nothing and is not looed; S1 won tricks -> nobody looed.
    deck = build_deck(
        5,
        0,
        {1: "AS KD 2C", 2: "2D 3C 4H", 3: "5D 6C 7S", 4: "8D 9C TH", 0: "6D 7C 8H"},
        miss="3S QD 4C",
        indicator="5S",
    )
    d = run("classic-limited", deck, carried=9, policy=table(5, "cautious", s0="basic", s1="basic"))
    assert d["declarations"] == ["defend", "play", "pass", "pass", "pass"]
    assert d["tricks"] == [
        trick(1, "1:AS 0:3S", 1),
        trick(1, "1:KD 0:QD", 1),
        trick(1, "1:2C 0:4C", 0),
    ]
    assert d["tricks_won"] == [1, 2, 0, 0, 0]
    assert outcome(d, *MONEY) == {
        "shares": [0.0, 8.0, 0.0, 0.0, 0.0],
        "penalties": [0.0] * 5,
        "looed": [],
        "antes": [3.0, 0.0, 0.0, 0.0, 0.0],
        "pot_start": 12.0,
        "pot_next": 4.0,
    }


def test_r8_case2_defender_sweeps_player_looed():
    # As above, but S1 plays 2S 3D 4C against a miss of AS KS QS.
    # T1: S1 holds a trump, not the ace (and the ace is not the indicator) -> leads 2S;
    # the defender must head: lowest winning spade QS. T2: defender must lead a trump,
    # basic highest: AS; S1 void with no trump -> lowest 3D. T3: KS; S1 4C.
    # Defender wins all 3: all three shares stay (12); S1 looed, limited 3 -> pot_next 15.
    deck = build_deck(
        5,
        0,
        {1: "2S 3D 4C", 2: "2D 3C 4H", 3: "5D 6C 7S", 4: "8D 9C TH", 0: "6D 7C 8H"},
        miss="AS KS QS",
        indicator="5S",
    )
    d = run("classic-limited", deck, carried=9, policy=table(5, "cautious", s0="basic", s1="basic"))
    assert d["declarations"] == ["defend", "play", "pass", "pass", "pass"]
    assert d["tricks"] == [
        trick(1, "1:2S 0:QS", 0),
        trick(0, "0:AS 1:3D", 0),
        trick(0, "0:KS 1:4C", 0),
    ]
    assert d["tricks_won"] == [3, 0, 0, 0, 0]
    assert outcome(d, *MONEY) == {
        "shares": [0.0] * 5,
        "penalties": [0.0, 3.0, 0.0, 0.0, 0.0],
        "looed": [1],
        "antes": [3.0, 0.0, 0.0, 0.0, 0.0],
        "pot_start": 12.0,
        "pot_next": 15.0,
    }


# R8 case 3 deck: indicator 5D (diamonds trumps). S1's own hand 2C 3H 4S has no trump and
# no ace -> basic takes the miss AD 6C 7C. S2-S4 cautious pass.
CASE3_HANDS = {1: "2C 3H 4S", 2: "2D 3C 4H", 3: "6D 5H 5S", 4: "7D 9C 6S"}


def test_r8_case3_dealer_passes_miss_taker_lone():
    # Dealer (basic) holds 8C 9H TS: no diamond, no ace -> case 3 -> pass; the seat that
    # took the miss is then the lone player and takes the whole pot 9 + 3 = 12.
    deck = build_deck(5, 0, {**CASE3_HANDS, 0: "8C 9H TS"}, miss="AD 6C 7C", indicator="5D")
    d = run("classic-limited", deck, carried=9, policy=table(5, "cautious", s0="basic", s1="basic"))
    assert d["declarations"] == ["pass", "miss", "pass", "pass", "pass"]
    assert d["tricks"] == []
    assert outcome(d, *MONEY) == {
        "shares": [0.0, 12.0, 0.0, 0.0, 0.0],
        "penalties": [0.0] * 5,
        "looed": [],
        "antes": [3.0, 0.0, 0.0, 0.0, 0.0],
        "pot_start": 12.0,
        "pot_next": 0.0,
    }


def test_r8_case3_dealer_plays_against_miss_taker():
    # Dealer holds KD 8C 9H: a trump -> case 3 -> play (defence impossible).
    # T1: S1 (the miss) must lead AD; dealer follows KD. T2: S1 no trump left -> free,
    # basic highest 7C; dealer must head with 8C. T3: dealer leads 9H, S1 discards 6C.
    # S1 1 trick = 4, dealer 2 = 8; nobody looed.
    deck = build_deck(5, 0, {**CASE3_HANDS, 0: "KD 8C 9H"}, miss="AD 6C 7C", indicator="5D")
    d = run("classic-limited", deck, carried=9, policy=table(5, "cautious", s0="basic", s1="basic"))
    assert d["declarations"] == ["play", "miss", "pass", "pass", "pass"]
    assert d["tricks"] == [
        trick(1, "1:AD 0:KD", 1),
        trick(1, "1:7C 0:8C", 0),
        trick(0, "0:9H 1:6C", 0),
    ]
    assert outcome(d, *MONEY) == {
        "shares": [8.0, 4.0, 0.0, 0.0, 0.0],
        "penalties": [0.0] * 5,
        "looed": [],
        "antes": [3.0, 0.0, 0.0, 0.0, 0.0],
        "pot_start": 12.0,
        "pot_next": 0.0,
    }


def test_r8_case4_dealer_declares_as_r4_takes_miss_and_is_looed():
    # Indicator 5C (clubs trumps). S1 AC and S2 KC play (basic); S3, S4 cautious pass.
    # Two others in -> the dealer declares as R4: basic, own hand 2H 3H 4S has no trump
    # and no ace -> an ordinary `miss` (not `defend`), playing 6S 7S 8S.
    # T1: S1 must lead AC; S2 follows KC; dealer void, no trump -> lowest 6S.
    # T2: S1 no trump left -> free, highest 3D; S2 must head with 9D; dealer 7S.
    # T3: S2 leads 4H; dealer 8S; S1 2D (void, no trump). S1 1 trick (4), S2 2 (8).
    # The dealer played the miss and won nothing -> looed, limited 3 -> pot_next 3.
    deck = build_deck(
        5,
        0,
        {1: "AC 2D 3D", 2: "KC 4H 9D", 3: "5H 6H 7D", 4: "8H 9H TD", 0: "2H 3H 4S"},
        miss="6S 7S 8S",
        indicator="5C",
    )
    d = run("classic-limited", deck, carried=9, policy=table(5, "basic", s3="cautious", s4="cautious"))
    assert d["declarations"] == ["miss", "play", "play", "pass", "pass"]
    assert d["tricks"] == [
        trick(1, "1:AC 2:KC 0:6S", 1),
        trick(1, "1:3D 2:9D 0:7S", 2),
        trick(2, "2:4H 0:8S 1:2D", 2),
    ]
    assert outcome(d, *MONEY) == {
        "shares": [0.0, 4.0, 8.0, 0.0, 0.0],
        "penalties": [3.0, 0.0, 0.0, 0.0, 0.0],
        "looed": [0],
        "antes": [3.0, 0.0, 0.0, 0.0, 0.0],
        "pot_start": 12.0,
        "pot_next": 3.0,
    }
