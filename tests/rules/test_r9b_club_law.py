"""R9b: club law (golden deals)."""

from __future__ import annotations

from tests.deckbuild import build_deck
from tests.rules.golden import run, trick

# --------------------------------------------------------------------------------------
# R9b club law
# --------------------------------------------------------------------------------------


CLUB_HANDS = {1: "2D 3D 4S", 2: "5D 6H 8S", 0: "9D TH 2C"}
CLUB_POLICY = ["cautious", "basic", "cautious"]


def test_r9b_club_law_nobody_passes_miss_not_offered():
    # three-card + club_law, 3 players, carried 6 (not clean: no bold stand) -> pot 15.
    # Indicator 7C: clubs. S1 (basic) has no club and no ace and would take the miss, but
    # it is not offered -> play; S2, S0 (cautious) may not pass -> play.
    # T1: S1 leads 4S; S2 heads 8S; S0 void -> must trump 2C -> S0.
    # T2: S0 TH; S1 void, no club -> 2D; S2 6H -> S0. T3: S0 9D; 3D; 5D -> S0.
    # S0 takes 15; S1, S2 looed, unlimited 15 each -> pot_next 30.
    deck = build_deck(3, 0, CLUB_HANDS, miss="AC KC QC", indicator="7C")
    d = run("three-card", deck, players=3, carried=6, club_law=True, policy=CLUB_POLICY)
    assert d["declarations"] == ["play", "play", "play"]
    assert d["tricks"] == [
        trick(1, "1:4S 2:8S 0:2C", 0),
        trick(0, "0:TH 1:2D 2:6H", 0),
        trick(0, "0:9D 1:3D 2:5D", 0),
    ]
    assert (d["shares"], d["penalties"], d["looed"], d["pot_next"]) == (
        [15.0, 0.0, 0.0],
        [0.0, 15.0, 15.0],
        [1, 2],
        30.0,
    )


def test_r9b_club_law_not_with_other_indicator():
    # Same hands, indicator 7H: club law does not bite. S1 takes the miss (no heart, no
    # ace); S2 (6H) and S0 (TH) hold one trump below the queen -> cautious pass. S1 is
    # the lone player (with the miss) and takes 15.
    deck = build_deck(3, 0, CLUB_HANDS, miss="AC KC QC", indicator="7H")
    d = run("three-card", deck, players=3, carried=6, club_law=True, policy=CLUB_POLICY)
    assert d["declarations"] == ["pass", "miss", "pass"]
    assert d["tricks"] == []
    assert (d["shares"], d["pot_next"]) == ([0.0, 15.0, 0.0], 0.0)
