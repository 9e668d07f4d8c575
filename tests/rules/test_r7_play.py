"""R7: playing the tricks: lead obligations, following, heading, void in the led
suit (golden deals)."""

from __future__ import annotations

from tests.deckbuild import build_deck
from tests.rules.golden import MONEY, outcome, run, trick

# --------------------------------------------------------------------------------------
# R7: lead obligations (three-card, 3 players, everyone "always/low": the lowest legal
# card, so any higher lead is forced by the rule)
# --------------------------------------------------------------------------------------

# Dealer S0, order S1 S2 miss S0; indicator 5H (hearts trumps). Pot 3 x 3 = 9, share 3.
LEAD_DECK = build_deck(3, 0, {1: "AH 2C 3D", 2: "4C 9D KS", 0: "6C 7D 8S"}, miss="2S 3S 4S", indicator="5H")


def test_r7_lead_free_any_card():
    # lead = free: S1 leads its lowest card 2C although it holds AH.
    # T1: S2 must head with 4C, S0 with 6C -> S0. T2: S0 leads 7D (5 < 8S 6); S1 3D
    # (cannot head); S2 must head with 9D -> S2. T3: S2 leads KS; S0 8S; S1 void ->
    # must_trump -> AH -> S1. One trick each, nobody looed.
    d = run("three-card", LEAD_DECK, policy="always/low", players=3, lead="free")
    assert d["tricks"] == [
        trick(1, "1:2C 2:4C 0:6C", 0),
        trick(0, "0:7D 1:3D 2:9D", 2),
        trick(2, "2:KS 0:8S 1:AH", 1),
    ]
    assert (d["shares"], d["looed"], d["pot_next"]) == ([3.0, 3.0, 3.0], [], 0.0)


def test_r7_lead_ace_first_trick_ace_of_trumps():
    # lead = ace: S1 holds the ace of trumps and must lead it on the first trick.
    # T1: S2 and S0 void, no trump -> lowest 4C and 6C -> S1. T2 (no obligation any
    # more): S1 leads 2C; S2 and S0 void -> 9D and 7D -> S1. T3: 3D; KS, 8S -> S1.
    # S1 takes 9; S0 and S2 looed, unlimited 9 each -> pot_next 18.
    d = run("three-card", LEAD_DECK, policy="always/low", players=3, lead="ace")
    assert d["tricks"] == [
        trick(1, "1:AH 2:4C 0:6C", 1),
        trick(1, "1:2C 2:9D 0:7D", 1),
        trick(1, "1:3D 2:KS 0:8S", 1),
    ]
    assert (d["shares"], d["penalties"], d["looed"], d["pot_next"]) == (
        [0.0, 9.0, 0.0],
        [9.0, 0.0, 9.0],
        [0, 2],
        18.0,
    )


# Indicator AH: the ace of trumps is out of play. S1 holds KH 2H 3C.
ACE_UP_DECK = build_deck(3, 0, {1: "KH 2H 3C", 2: "4C 5D 6S", 0: "7C 8D 9S"}, miss="2S 3S 4S", indicator="AH")


def test_r7_lead_ace_no_substitute_when_ace_is_indicator():
    # lead = ace: nobody holds the ace (it is the indicator) and there is no substitute,
    # so S1 leads its lowest card 3C (power 1 < 2H 50 < KH 61).
    # T1: S2 heads with 4C, S0 with 7C -> S0. T2: S0 leads 8D (6 < 9S 7); S1 void ->
    # must_trump, any trump heads, lowest 2H; S2 5D (trick trumped: any diamond) -> S1.
    # T3: S1 KH; S2 6S, S0 9S -> S1. S1 2 tricks (6), S0 1 (3), S2 looed 9.
    d = run("three-card", ACE_UP_DECK, policy="always/low", players=3, lead="ace")
    assert d["indicator"] == "AH"
    assert d["tricks"] == [
        trick(1, "1:3C 2:4C 0:7C", 0),
        trick(0, "0:8D 1:2H 2:5D", 1),
        trick(1, "1:KH 2:6S 0:9S", 1),
    ]
    assert (d["shares"], d["penalties"], d["looed"], d["pot_next"]) == (
        [3.0, 6.0, 0.0],
        [0.0, 0.0, 9.0],
        [2],
        9.0,
    )


def test_r7_lead_trump_king_when_ace_is_indicator():
    # lead = trump (every deal is a double pot here): on the first lead S1 must lead a
    # trump, and as the ace is the indicator and S1 holds the king: KH.
    # T1: S2 4C, S0 7C (void, no trump, lowest) -> S1. T2: S1 still holds a trump -> must
    # lead it: 2H (low would rather lead 3C); S2 5D, S0 8D -> S1. T3: 3C; S2 6S, S0 9S.
    # S1 takes 9; S0 and S2 looed 9 each.
    d = run("three-card", ACE_UP_DECK, policy="always/low", players=3, lead="trump")
    assert d["tricks"] == [
        trick(1, "1:KH 2:4C 0:7C", 1),
        trick(1, "1:2H 2:5D 0:8D", 1),
        trick(1, "1:3C 2:6S 0:9S", 1),
    ]
    assert (d["shares"], d["penalties"], d["looed"], d["pot_next"]) == (
        [0.0, 9.0, 0.0],
        [9.0, 0.0, 9.0],
        [0, 2],
        18.0,
    )


def test_r7_lead_classic_king_when_ace_is_indicator_then_free_with_one_trump():
    # lead = classic: first trick, the ace is the indicator -> S1 must lead KH.
    # T2: S1 holds one trump (2H) only -> no obligation ("two or more"), low leads 3C;
    # S2 void -> 5D, S0 void -> 8D -> S1. T3: 2H; 6S, 9S -> S1.
    d = run("three-card", ACE_UP_DECK, policy="always/low", players=3, lead="classic")
    assert d["tricks"] == [
        trick(1, "1:KH 2:4C 0:7C", 1),
        trick(1, "1:3C 2:5D 0:8D", 1),
        trick(1, "1:2H 2:6S 0:9S", 1),
    ]
    assert d["shares"] == [0.0, 9.0, 0.0]


def test_r7_lead_classic_highest_of_two_trumps_at_later_lead():
    # Indicator 5H. S1 AH 2H 9H, S2 6H 3C 4D, S0 7C 8D QS.
    # lead = classic: T1 S1 must lead AH; S2 follows 6H; S0 void, no trump -> 7C.
    # T2: S1 holds two trumps (2H, 9H) -> must lead the highest, 9H (low would lead 2H);
    # S2 (no heart left) 3C, S0 8D.
    # T3: S1 2H; S2 4D, S0 QS. S1 takes all 9.
    deck = build_deck(3, 0, {1: "AH 2H 9H", 2: "6H 3C 4D", 0: "7C 8D QS"}, miss="2S 3S 4S", indicator="5H")
    d = run("three-card", deck, policy="always/low", players=3, lead="classic")
    assert d["tricks"] == [
        trick(1, "1:AH 2:6H 0:7C", 1),
        trick(1, "1:9H 2:3C 0:8D", 1),
        trick(1, "1:2H 2:4D 0:QS", 1),
    ]
    assert d["shares"] == [0.0, 9.0, 0.0]
    # Contrast, lead = free: S1 leads its lowest 2H first; S2 must head with 6H and wins.
    free = run("three-card", deck, policy="always/low", players=3, lead="free")
    assert free["tricks"][0] == trick(1, "1:2H 2:6H 0:7C", 2)


def test_r7_lead_ace_pam_first_with_pam():
    # five-card (pam on), lead = ace, 3 players, dealer S0, indicator 5H, no exchange
    # (exchange family none); all "always/low". S1 holds Pam and AH -> must lead Pam.
    # T1: S1 JC; S2 void in trumps, no trump -> lowest 6C; S0 lowest 2D -> S1.
    # T2: S1 low: 2C; S2 must head with 9C; S0 4C -> S2.
    # T3: S2 low: 7D; S0 6D (cannot head 7D); S1 3D -> S2.
    # T4: S2 8S; S0 3S (lowest spade, cannot head); S1 4S -> S2.
    # T5: S2 TD; S0 7S (void, no trump); S1 AH (void -> must trump) -> S1.
    # Pot 3 x 5 = 15, fifths of 3: S1 2 tricks = 6, S2 3 = 9; S0 looed, unlimited 15.
    deck = build_deck(
        3,
        0,
        {1: "JC AH 2C 3D 4S", 2: "6C 7D 8S 9C TD", 0: "2D 3S 4C 6D 7S"},
        indicator="5H",
    )
    d = run("five-card", deck, policy="always/low/none", players=3, lead="ace")
    assert d["tricks"] == [
        trick(1, "1:JC 2:6C 0:2D", 1),
        trick(1, "1:2C 2:9C 0:4C", 2),
        trick(2, "2:7D 0:6D 1:3D", 2),
        trick(2, "2:8S 0:3S 1:4S", 2),
        trick(2, "2:TD 0:7S 1:AH", 1),
    ]
    assert outcome(d, *MONEY) == {
        "shares": [0.0, 6.0, 9.0],
        "penalties": [15.0, 0.0, 0.0],
        "looed": [0],
        "antes": [5.0, 5.0, 5.0],
        "pot_start": 15.0,
        "pot_next": 15.0,
    }


# --------------------------------------------------------------------------------------
# R7: void in the led suit (must_trump / trump_to_win) and heading
# --------------------------------------------------------------------------------------

# three-card, 3 players, dealer S0, indicator 5S (spades trumps), all "always/low".
VOID_DECK = build_deck(3, 0, {1: "2H 3H 4H", 2: "KS 9C TC", 0: "2S 3C 4C"}, miss="6D 7D 8D", indicator="5S")


def test_r7_void_must_trump_under_trumping():
    # T1: S1 leads 2H; S2 void -> must trump: KS; S0 void -> must trump, cannot overtrump
    # KS -> under-trumps with 2S (although low would rather play 3C) -> S2.
    # T2: S2 leads 9C; S0 3C (cannot head); S1 void, no trump -> 3H -> S2.
    # T3: S2 TC; S0 4C; S1 4H -> S2. S2 takes 9; S0 and S1 looed 9 each.
    d = run("three-card", VOID_DECK, policy="always/low", players=3, void="must_trump")
    assert d["tricks"] == [
        trick(1, "1:2H 2:KS 0:2S", 2),
        trick(2, "2:9C 0:3C 1:3H", 2),
        trick(2, "2:TC 0:4C 1:4H", 2),
    ]
    assert (d["shares"], d["penalties"], d["looed"], d["pot_next"]) == (
        [0.0, 0.0, 9.0],
        [9.0, 9.0, 0.0],
        [0, 1],
        18.0,
    )


def test_r7_void_trump_to_win_free_discard_without_winning_trump():
    # T1: S1 2H; S2 void, KS wins -> must play it; S0 void, 2S cannot win -> any card:
    # low 3C -> S2. T2: S2 9C; S0 follows 4C; S1 3H -> S2.
    # T3: S2 TC; S0 void, 2S now wins -> must play it; S1 4H -> S0.
    # S2 2 tricks (6), S0 1 (3), S1 looed 9.
    d = run("three-card", VOID_DECK, policy="always/low", players=3, void="trump_to_win")
    assert d["tricks"] == [
        trick(1, "1:2H 2:KS 0:3C", 2),
        trick(2, "2:9C 0:4C 1:3H", 2),
        trick(2, "2:TC 0:2S 1:4H", 0),
    ]
    assert (d["shares"], d["penalties"], d["looed"], d["pot_next"]) == (
        [3.0, 0.0, 6.0],
        [0.0, 9.0, 0.0],
        [1],
        9.0,
    )


def test_r7_heading_follower_must_beat_winning_card():
    # Indicator 5S. S1 4H 9D TD, S2 2H 6C 7C, S0 3H KH 8C; all "always/low".
    # T1: S1 leads 4H; S2 2H (cannot head); S0 must head 4H: only KH does (not 3H) -> S0.
    # T2: S0 low 3H; S1 void, no trump -> 9D; S2 6C -> S0. T3: S0 8C; TD; 7C -> S0.
    deck = build_deck(3, 0, {1: "4H 9D TD", 2: "2H 6C 7C", 0: "3H KH 8C"}, miss="2D 3D 4D", indicator="5S")
    d = run("three-card", deck, policy="always/low", players=3)
    assert d["tricks"] == [
        trick(1, "1:4H 2:2H 0:KH", 0),
        trick(0, "0:3H 1:9D 2:6C", 0),
        trick(0, "0:8C 1:TD 2:7C", 0),
    ]
    assert (d["shares"], d["looed"], d["pot_next"]) == ([9.0, 0.0, 0.0], [1, 2], 18.0)


def test_r7_heading_trick_trumped_plain_follower_plays_any_card_of_suit():
    # As above, but S2 holds 2S instead of 2H. T1: S1 4H; S2 void -> trumps 2S; the trick
    # is trumped, so S0 cannot head it with a heart and may play any heart: low 3H (KH
    # would beat the 4H but is not required) -> S2.
    # T2: S2 low 6C; S0 must head with 8C; S1 9D -> S0. T3: S0 KH; S1 TD; S2 7C -> S0.
    # S0 2 tricks (6), S2 1 (3), S1 looed 9.
    deck = build_deck(3, 0, {1: "4H 9D TD", 2: "2S 6C 7C", 0: "3H KH 8C"}, miss="2D 3D 4D", indicator="5S")
    d = run("three-card", deck, policy="always/low", players=3)
    assert d["tricks"] == [
        trick(1, "1:4H 2:2S 0:3H", 2),
        trick(2, "2:6C 0:8C 1:9D", 0),
        trick(0, "0:KH 1:TD 2:7C", 0),
    ]
    assert (d["shares"], d["looed"], d["pot_next"]) == ([6.0, 0.0, 3.0], [1], 9.0)
