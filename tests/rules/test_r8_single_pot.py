"""R8: the single pot, with R6 first_renounce trumps (golden deals)."""

from __future__ import annotations

from tests.deckbuild import build_deck
from tests.rules.golden import MONEY, outcome, run, trick

# --------------------------------------------------------------------------------------
# R8 single pot / R6 first_renounce (classic-limited, carried 0)
# --------------------------------------------------------------------------------------


def test_r8_single_pot_trumps_revealed_at_first_renounce():
    # Clean pot -> single pot: no miss dealt (the indicator is card 16, right after the
    # hands), nobody may pass (basic plays), trumps unknown, pot = dealer's ante 3,
    # share 1.
    # T1: S1 leads AH (rank 12); S2 4H, S4 5H, S0 6H follow; S3 is void: trumps unknown
    # -> any card, nothing wins as things stand -> lowest 2S. S3 renounced: at the end of
    # the trick the indicator 9S is turned, spades are trumps, and the trick is judged
    # with them: 2S wins.
    # T2: S3 leads (no trump held -> free) highest 6C; S4 must head: lowest winner 9C;
    # S0, S1, S2 void with no trump (trump_to_win -> any): JD, 2D, 7D.
    # T3: S4 leads TC; S0 QD, S1 3D, S2 8D, S3 5C (cannot head).
    # S3 1 share, S4 2; S0 S1 S2 looed, limited 3 each -> pot_next 9.
    deck = build_deck(
        5,
        0,
        {1: "AH 2D 3D", 2: "4H 7D 8D", 3: "2S 5C 6C", 4: "5H 9C TC", 0: "6H JD QD"},
        indicator="9S",
    )
    d = run("classic-limited", deck, policy="basic")
    assert d == {
        "trump": "S",
        "indicator": "9S",
        "single_pot": True,
        "declarations": ["play"] * 5,
        "tricks": [
            trick(1, "1:AH 2:4H 3:2S 4:5H 0:6H", 3),
            trick(3, "3:6C 4:9C 0:JD 1:2D 2:7D", 4),
            trick(4, "4:TC 0:QD 1:3D 2:8D 3:5C", 4),
        ],
        "tricks_won": [0, 0, 0, 1, 2],
        "flush_winner": None,
        "looed": [0, 1, 2],
        "shares": [0.0, 0.0, 0.0, 1.0, 2.0],
        "penalties": [3.0, 3.0, 3.0, 0.0, 0.0],
        "antes": [3.0, 0.0, 0.0, 0.0, 0.0],
        "pot_start": 3.0,
        "pot_next": 9.0,
    }


def test_r8_single_pot_trumps_never_revealed():
    # Every seat holds one heart, one diamond, one club: nobody ever renounces, so the
    # indicator is never turned (trump and indicator none).
    # T1: S1 leads AH, all follow -> S1. T2: S1 leads 2D (2D and 2C tie on rank; D > C
    # breaks it); each must head: 3D 4D 5D 6D -> S0. T3: S0 leads 6C; 2C..5C -> S0.
    deck = build_deck(
        5,
        0,
        {1: "AH 2D 2C", 2: "KH 3D 3C", 3: "QH 4D 4C", 4: "JH 5D 5C", 0: "TH 6D 6C"},
        indicator="9S",
    )
    d = run("classic-limited", deck, policy="basic")
    assert (d["trump"], d["indicator"], d["single_pot"]) == (None, None, True)
    assert d["declarations"] == ["play"] * 5
    assert d["tricks"] == [
        trick(1, "1:AH 2:KH 3:QH 4:JH 0:TH", 1),
        trick(1, "1:2D 2:3D 3:4D 4:5D 0:6D", 0),
        trick(0, "0:6C 1:2C 2:3C 3:4C 4:5C", 0),
    ]
    assert outcome(d, *MONEY) == {
        "shares": [2.0, 1.0, 0.0, 0.0, 0.0],
        "penalties": [0.0, 0.0, 3.0, 3.0, 3.0],
        "looed": [2, 3, 4],
        "antes": [3.0, 0.0, 0.0, 0.0, 0.0],
        "pot_start": 3.0,
        "pot_next": 9.0,
    }


def test_r8_single_pot_lead_obligations_only_after_reveal():
    # Single pot, everyone "always/low", lead = trump. T1: trumps unknown, so S1 may lead
    # its lowest card 2H although it holds AS. S2 5H; S3 void -> lowest 2S; S4 must head
    # 5H with 6H; S0 7H. Renounce -> 9S turned -> spades: 2S wins.
    # T2: trumps known, S3 holds a trump -> must lead it: 3S (low would lead 4D); S4, S0
    # void, no trump -> 8C, TC; S1 must follow and head with AS; S2 6C -> S1.
    # T3: S1 3C; S2 must head 7C; S3 4D; S4 must head 9C; S0 must head JC -> S0.
    # One share (1) each to S3, S1, S0; S2, S4 looed 3 each -> pot_next 6.
    deck = build_deck(
        5,
        0,
        {1: "2H 3C AS", 2: "5H 6C 7C", 3: "2S 3S 4D", 4: "6H 8C 9C", 0: "7H TC JC"},
        indicator="9S",
    )
    d = run("classic-limited", deck, policy="always/low")
    assert (d["trump"], d["indicator"], d["single_pot"]) == ("S", "9S", True)
    assert d["tricks"] == [
        trick(1, "1:2H 2:5H 3:2S 4:6H 0:7H", 3),
        trick(3, "3:3S 4:8C 0:TC 1:AS 2:6C", 1),
        trick(1, "1:3C 2:7C 3:4D 4:9C 0:JC", 0),
    ]
    assert outcome(d, *MONEY) == {
        "shares": [1.0, 1.0, 0.0, 1.0, 0.0],
        "penalties": [0.0, 0.0, 3.0, 0.0, 3.0],
        "looed": [2, 4],
        "antes": [3.0, 0.0, 0.0, 0.0, 0.0],
        "pot_start": 3.0,
        "pot_next": 6.0,
    }
