"""R6: trumps set by the first card led (first_lead, the irish preset); golden deals."""

from __future__ import annotations

from tests.deckbuild import build_deck
from tests.rules.golden import run, trick

# --------------------------------------------------------------------------------------
# R6 first_lead (irish)
# --------------------------------------------------------------------------------------


def test_r6_first_lead_trumps_irish():
    # irish, 3 players, dealer S0: no indicator. S1 (basic) holds an ace -> play; S2, S0
    # "always". T1: S1 leads AD (highest rank, trumps unknown) -> diamonds are trumps;
    # S2 4D (lowest, cannot head), S0 6D -> S1.
    # T2: S1 leads 3H (1 > 2C 0); S2 void in hearts -> must trump with 5D; S0 QH -> S2.
    # T3: S2 KC; S0 void, no diamond left -> KS; S1 2C -> S2.
    # Pot 9, share 3: S1 3, S2 6; S0 looed, unlimited 9.
    deck = build_deck(3, 0, {1: "AD 2C 3H", 2: "4D 5D KC", 0: "6D QH KS"})
    d = run("irish", deck, players=3, policy=["always", "basic", "always"])
    assert (d["trump"], d["indicator"]) == ("D", None)
    assert d["declarations"] == ["play"] * 3
    assert d["tricks"] == [
        trick(1, "1:AD 2:4D 0:6D", 1),
        trick(1, "1:3H 2:5D 0:QH", 2),
        trick(2, "2:KC 0:KS 1:2C", 2),
    ]
    assert (d["shares"], d["penalties"], d["looed"], d["pot_next"]) == (
        [0.0, 3.0, 6.0],
        [9.0, 0.0, 0.0],
        [0],
        9.0,
    )
