"""R4: declaring: a lone player, nobody in, bold stand (golden deals)."""

from __future__ import annotations

from tests.deckbuild import build_deck
from tests.rules.golden import MONEY, outcome, run, table, trick

# --------------------------------------------------------------------------------------
# R4: lone player, nobody, bold stand
# --------------------------------------------------------------------------------------

# three-card, 5 players, dealer S0, indicator 2S (spades trumps); no seat holds a spade.
# Order of declaring: S1 S2 S3 S4 (the dealer's right-hand neighbour) S0.
BOLD_DECK = build_deck(
    5,
    0,
    {1: "7C 8D 9H", 2: "8C 9D TH", 3: "9C TD JH", 4: "AH 3C 4D", 0: "KH 5C 6D"},
    miss="QC JD QH",
    indicator="2S",
)


def test_r4_lone_player_takes_the_pot_without_play():
    # carried 5 (not clean: no bold stand). S4 holds an ace -> basic plays; everyone else
    # is cautious with no trump -> pass. Exactly one seat in -> it takes the whole pot,
    # 5 + 5 x 3 = 20, without play; nobody is looed; nothing is carried.
    d = run("three-card", BOLD_DECK, carried=5, policy=table(5, "cautious", s4="basic"))
    assert d == {
        "trump": "S",
        "indicator": "2S",
        "single_pot": False,
        "declarations": ["pass", "pass", "pass", "pass", "play"],
        "tricks": [],
        "tricks_won": [0, 0, 0, 0, 0],
        "flush_winner": None,
        "looed": [],
        "shares": [0.0, 0.0, 0.0, 0.0, 20.0],
        "penalties": [0.0] * 5,
        "antes": [3.0] * 5,
        "pot_start": 20.0,
        "pot_next": 0.0,
    }


def test_r4_nobody_in_pot_carried_over():
    # carried 4, everyone cautious without a trump -> all pass (bold stand needs a clean
    # pot). The whole pot 4 + 15 = 19 goes to the next deal.
    d = run("three-card", BOLD_DECK, carried=4, policy="cautious")
    assert d["declarations"] == ["pass"] * 5
    assert d["tricks"] == []
    assert outcome(d, *MONEY) == {
        "shares": [0.0] * 5,
        "penalties": [0.0] * 5,
        "looed": [],
        "antes": [3.0] * 5,
        "pot_start": 19.0,
        "pot_next": 19.0,
    }


def test_r4_bold_stand_last_and_dealer_clean_pot():
    # Clean pot, everyone cautious. S1-S3 pass, so S4 (the dealer's right-hand
    # neighbour) and the dealer may not pass: cautious never takes the miss -> play.
    # Eldest in the deal: S4. T1: S4 leads AH (power 12 > 4D 2 > 3C 1); S0 follows KH.
    # T2: S4 leads 4D; S0 must head with 6D. T3: S0 leads 5C, S4 follows 3C.
    # Pot 15, share 5: S4 5, S0 10; nobody looed.
    d = run("three-card", BOLD_DECK, policy="cautious")
    assert d["declarations"] == ["play", "pass", "pass", "pass", "play"]
    assert d["tricks"] == [
        trick(4, "4:AH 0:KH", 4),
        trick(4, "4:4D 0:6D", 0),
        trick(0, "0:5C 4:3C", 0),
    ]
    assert outcome(d, *MONEY) == {
        "shares": [10.0, 0.0, 0.0, 0.0, 5.0],
        "penalties": [0.0] * 5,
        "looed": [],
        "antes": [3.0] * 5,
        "pot_start": 15.0,
        "pot_next": 0.0,
    }


def test_r4_bold_stand_last_and_dealer_not_with_carried_pot():
    # Same deal with carried 1: the pot is not clean, so S4 and the dealer may pass
    # (cautious, no trump) -> nobody in, pot 1 + 15 = 16 carried.
    d = run("three-card", BOLD_DECK, carried=1, policy="cautious")
    assert d["declarations"] == ["pass"] * 5
    assert d["tricks"] == []
    assert (d["pot_start"], d["pot_next"]) == (16.0, 16.0)


# bold-stand preset (three-card with bold_stand = everyone), dealer S0, spades trumps,
# nobody holds a spade; everyone cautious (would pass).
EVERYONE_DECK = build_deck(
    5,
    0,
    {1: "AH 2C 3D", 2: "KH 4C 5D", 3: "QH 6C 7D", 4: "JH 8C 9D", 0: "TH TC TD"},
    miss="3S 4S 5S",
    indicator="2S",
)


def test_r4_bold_stand_everyone_clean_pot():
    # Clean pot: nobody may pass -> everyone plays (cautious never takes the miss).
    # T1: S1 leads AH (12); each other seat holds one heart: KH QH JH TH -> S1.
    # T2: S1 leads 3D (1 > 2C 0); each must head: 5D, 7D, 9D, TD -> S0.
    # T3: S0 leads TC; 2C 4C 6C 8C -> S0.
    # Pot 15, share 5: S1 5, S0 10; S2 S3 S4 looed, unlimited -> 15 each; pot_next 45.
    d = run("bold-stand", EVERYONE_DECK, policy="cautious")
    assert d["declarations"] == ["play"] * 5
    assert d["tricks"] == [
        trick(1, "1:AH 2:KH 3:QH 4:JH 0:TH", 1),
        trick(1, "1:3D 2:5D 3:7D 4:9D 0:TD", 0),
        trick(0, "0:TC 1:2C 2:4C 3:6C 4:8C", 0),
    ]
    assert outcome(d, *MONEY) == {
        "shares": [10.0, 5.0, 0.0, 0.0, 0.0],
        "penalties": [0.0, 0.0, 15.0, 15.0, 15.0],
        "looed": [2, 3, 4],
        "antes": [3.0] * 5,
        "pot_start": 15.0,
        "pot_next": 45.0,
    }


def test_r4_bold_stand_everyone_not_with_carried_pot():
    # carried 2: not clean, everyone may pass -> all cautious pass; pot 17 carried.
    d = run("bold-stand", EVERYONE_DECK, carried=2, policy="cautious")
    assert d["declarations"] == ["pass"] * 5
    assert d["tricks"] == []
    assert (d["pot_start"], d["pot_next"]) == (17.0, 17.0)
