"""R2: the deal (golden deals, built by hand; see tests/rules/golden.py)."""

from __future__ import annotations

from loo_sim import Rules, play_deal
from loo_sim.game.cards import card_str
from tests.deckbuild import build_deck

# --------------------------------------------------------------------------------------
# R2: the helper's canonical deal order agrees with the engine's dealing
# --------------------------------------------------------------------------------------


def test_r2_canonical_deal_order_with_miss_and_indicator():
    # 5 players, dealer 3: the round goes S4, S0, S1, S2, miss, S3 (dealer last, the miss
    # just before). So the deck starts S4[0] S0[0] S1[0] S2[0] miss[0] S3[0] S4[1] ...,
    # and after 18 cards comes the indicator.
    hands = {0: "2C 3C 4C", 1: "5C 6C 7C", 2: "8C 9C TC", 3: "JC QC KC", 4: "AC 2D 3D"}
    deck = build_deck(5, 3, hands, miss="4D 5D 6D", indicator="7H")
    assert deck[:6] == ["AC", "2C", "5C", "8C", "4D", "JC"]
    assert deck[6:12] == ["2D", "3C", "6C", "9C", "5D", "QC"]
    assert deck[18] == "7H"
    rec = play_deal(Rules.preset("three-card"), deck, dealer=3, policy="always")
    assert [[card_str(c) for c in h] for h in rec.trace.hands] == [hands[s].split() for s in range(5)]
    assert [card_str(c) for c in rec.trace.miss] == ["4D", "5D", "6D"]
    assert rec.to_dict()["indicator"] == "7H"
    assert rec.to_dict()["trump"] == "H"
