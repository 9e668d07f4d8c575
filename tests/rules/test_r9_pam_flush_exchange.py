"""R9: five-card Loo: flushes, Pam be civil, the exchange (golden deals)."""

from __future__ import annotations

from loo_sim import Rules, play_deal
from loo_sim.game.cards import card_str
from tests.deckbuild import build_deck, cards
from tests.rules.golden import MONEY, outcome, run, table, trick

# --------------------------------------------------------------------------------------
# R9: flushes (five-card preset: 5 players, ante 5 each -> pot 25, unlimited penalty,
# pam on). Flush holders play with "always/basic/none" (no exchange); the rest are
# cautious (no trump -> pass). A flush takes the pot at once; every other seat in the
# deal is looed and pays pot_start 25; passers pay nothing.
# --------------------------------------------------------------------------------------


def flush_outcome(d):
    return outcome(
        d, "declarations", "tricks", "tricks_won", "flush_winner", "looed", "shares", "penalties", "pot_next"
    )


def test_r9_pam_flush_beats_trump_flush():
    # Indicator 2S (spades trumps). S1 AS KS QS JS TS: a trump flush without Pam.
    # S2 JC AD KD QD TD: four diamonds + Pam = a Pam-flush of diamonds. A Pam-flush beats
    # one without, before trump vs plain is looked at -> S2 takes 25; S1 looed 25.
    deck = build_deck(
        5,
        0,
        {1: "AS KS QS JS TS", 2: "JC AD KD QD TD", 3: "2C 3C 4D 5H 6H", 4: "7C 8C 9D 2H 3H", 0: "4C 5C 6D 4H 7H"},
        indicator="2S",
    )
    pol = table(5, "cautious/basic/none", s1="always/basic/none", s2="always/basic/none")
    d = run("five-card", deck, policy=pol)
    assert (d["trump"], d["indicator"]) == ("S", "2S")
    assert flush_outcome(d) == {
        "declarations": ["pass", "play", "play", "pass", "pass"],
        "tricks": [],
        "tricks_won": [0] * 5,
        "flush_winner": 2,
        "looed": [1],
        "shares": [0.0, 0.0, 25.0, 0.0, 0.0],
        "penalties": [0.0, 25.0, 0.0, 0.0, 0.0],
        "pot_next": 25.0,
    }


def test_r9_trump_flush_beats_plain_flush_and_other_players_looed():
    # Indicator 2H (hearts trumps). S1 AS KS QS JS TS (plain flush, higher cards);
    # S2 3H 4H 5H 6H 7H (trump flush) -> S2 wins. S3 plays ("always") with no flush:
    # it is in the deal, so it is looed too. S4 and the dealer pass and pay nothing.
    deck = build_deck(
        5,
        0,
        {1: "AS KS QS JS TS", 2: "3H 4H 5H 6H 7H", 3: "8H AC 9D 2C 3D", 4: "4C 5C 6D 7D 8D", 0: "6C 7C 9C TD JD"},
        indicator="2H",
    )
    pol = table(5, "cautious/basic/none", s1="always/basic/none", s2="always/basic/none", s3="always/basic/none")
    d = run("five-card", deck, policy=pol)
    assert flush_outcome(d) == {
        "declarations": ["pass", "play", "play", "play", "pass"],
        "tricks": [],
        "tricks_won": [0] * 5,
        "flush_winner": 2,
        "looed": [1, 3],
        "shares": [0.0, 0.0, 25.0, 0.0, 0.0],
        "penalties": [0.0, 25.0, 0.0, 25.0, 0.0],
        "pot_next": 50.0,
    }


def test_r9_flush_exact_tie_goes_to_elder_hand():
    # Dealer S2, so the order is S3 S4 S0 S1 S2. Hearts trumps (2H), no heart in play.
    # S4 AD KD 9D 7D 5D and S0 AS KS 9S 7S 5S: two plain flushes, equal card by card ->
    # the elder hand (nearer the dealer's left) wins: S4, not S0 (not the lower seat
    # number, not the higher suit). S0 looed 25.
    deck = build_deck(
        5,
        2,
        {3: "3C 4C 5C 6D 8D", 4: "AD KD 9D 7D 5D", 0: "AS KS 9S 7S 5S", 1: "6C 7C 8C 4D 3S", 2: "9C TC QC 2D 3D"},
        indicator="2H",
    )
    pol = table(5, "cautious/basic/none", s4="always/basic/none", s0="always/basic/none")
    d = run("five-card", deck, dealer=2, policy=pol)
    assert flush_outcome(d) == {
        "declarations": ["play", "pass", "pass", "pass", "play"],
        "tricks": [],
        "tricks_won": [0] * 5,
        "flush_winner": 4,
        "looed": [0],
        "shares": [0.0, 0.0, 0.0, 0.0, 25.0],
        "penalties": [25.0, 0.0, 0.0, 0.0, 0.0],
        "pot_next": 25.0,
    }


# --------------------------------------------------------------------------------------
# R9: Pam be civil (five-card, 3 players, dealer S0 passes; pot 15, fifths of 3)
# --------------------------------------------------------------------------------------

# Indicator 3H. S1 (always/basic) AH KS QS JS 9D; S2 (always/basic) JC 2H 4C 5C 6D.
CIVIL_DECK = build_deck(3, 0, {1: "AH KS QS JS 9D", 2: "JC 2H 4C 5C 6D", 0: "2C 3C 7D 8D 2S"}, indicator="3H")
CIVIL_POLICY = ["cautious/basic/none", "always/basic/none", "always/basic/none"]


def test_r9_pam_be_civil_holder_cannot_play_pam_to_trump_ace():
    # T1: S1 leads AH (highest power) and invokes civility: S2 plays as if Pam were not in
    # the hand: follows hearts with 2H -> S1.
    # T2: S1 leads KS; S2 void in spades, must_trump: its only trump is Pam (civility
    # covered only the ace's trick) -> JC -> S2.
    # T3: S2 leads 6D (highest of 4C 5C 6D); S1 must head with 9D -> S1.
    # T4: S1 QS; S2 void, no trump -> 4C. T5: S1 JS; S2 5C.
    # S1 4 tricks = 12, S2 1 = 3; nobody looed.
    d = run("five-card", CIVIL_DECK, policy=CIVIL_POLICY, players=3)
    assert d["declarations"] == ["pass", "play", "play"]
    assert d["tricks"] == [
        trick(1, "1:AH 2:2H", 1),
        trick(1, "1:KS 2:JC", 2),
        trick(2, "2:6D 1:9D", 1),
        trick(1, "1:QS 2:4C", 1),
        trick(1, "1:JS 2:5C", 1),
    ]
    assert (d["shares"], d["looed"], d["pot_next"]) == ([0.0, 12.0, 3.0], [], 0.0)


def test_r9_pam_not_civil_holder_must_head_trump_ace_with_pam():
    # Same deal, pam_be_civil off. T1: S2 must follow trumps and head AH: only Pam can ->
    # JC -> S2. T2: S2 leads 2H (power 52); S1 void in trumps, none held -> lowest 9D.
    # T3: S2 6D; S1 (no diamond left) lowest JS. T4: 5C; QS. T5: 4C; KS. S2 takes all
    # 15; S1 looed, unlimited 15.
    d = run("five-card", CIVIL_DECK, policy=CIVIL_POLICY, players=3, pam_be_civil=False)
    assert d["tricks"] == [
        trick(1, "1:AH 2:JC", 2),
        trick(2, "2:2H 1:9D", 2),
        trick(2, "2:6D 1:JS", 2),
        trick(2, "2:5C 1:QS", 2),
        trick(2, "2:4C 1:KS", 2),
    ]
    assert (d["shares"], d["penalties"], d["looed"], d["pot_next"]) == (
        [0.0, 0.0, 15.0],
        [0.0, 15.0, 0.0],
        [1],
        15.0,
    )


def test_r9_pam_be_civil_pam_as_last_card_must_be_played():
    # Indicator 2H. S1 ("always/low") 6S 7S 8D 9D AH leads its lowest card every time and
    # wins T1-T4 (S2 follows each time below: 2S 3S 4D 5D); S1 leads AH last and invokes
    # civility, but Pam is S2's last card, so S2 must play it, and Pam wins.
    # S1 4 tricks = 12, S2 1 = 3.
    deck = build_deck(3, 0, {1: "6S 7S 8D 9D AH", 2: "2S 3S 4D 5D JC", 0: "2C 3C 6D 7D 3H"}, indicator="2H")
    pol = ["cautious/basic/none", "always/low/none", "always/basic/none"]
    d = run("five-card", deck, policy=pol, players=3)
    assert d["tricks"] == [
        trick(1, "1:6S 2:2S", 1),
        trick(1, "1:7S 2:3S", 1),
        trick(1, "1:8D 2:4D", 1),
        trick(1, "1:9D 2:5D", 1),
        trick(1, "1:AH 2:JC", 2),
    ]
    assert (d["shares"], d["looed"], d["pot_next"]) == ([0.0, 12.0, 3.0], [], 0.0)


# --------------------------------------------------------------------------------------
# R9 exchange with a short stock (five-card, 8 players)
# --------------------------------------------------------------------------------------


def test_r9_exchange_short_stock_lowest_power_first_then_stock_runs_out():
    # 8 x 5 = 40 cards dealt, indicator 2H (hearts trumps), stock 11 cards. Dealer S0;
    # S1-S4 play ("always/basic/basic"), S5-S7 and S0 cautious pass (at most one heart
    # below the queen each). Exchanges in declaration order, basic family (throw every
    # card neither a trump nor an ace):
    # - S1 AH 2C 3C 4D 5D throws 4, draws AS AD 3H 4H (7 left);
    # - S2 KH 6C 7C 6D 7D throws 4, draws JC 5H KS QS (3 left);
    # - S3 QH 8C 9C 8D 9S has 4 candidates, the stock 3: throws the lowest-power three,
    #   8C 8D (rank 6, C < D) and 9C (rank 7, C < S), keeps 9S, draws 6H 7H KD (0 left);
    # - S4 JH TC TD TS 2S: the stock is empty, no exchange.
    # Hands in play: S1 AH AS AD 3H 4H; S2 KH JC 5H KS QS; S3 QH 9S 6H 7H KD;
    # S4 JH TC TD TS 2S (no flush anywhere).
    # T1: S1 leads AH (62), civility invoked: S2 plays without Pam -> lowest heart 5H;
    #     S3 6H; S4 JH -> S1.
    # T2: S1 leads 4H (52 > AS 12); S2 lowest winner KH (61 < Pam 100); S3 cannot beat
    #     KH -> lowest 7H; S4 void, no trump -> 2S -> S2.
    # T3: S2 leads Pam; S3 QH; S4 void, no trump, TC TD TS tie on rank -> TC; S1 3H -> S2.
    # T4: S2 KS; S3 9S; S4 TS; S1 must head with AS -> S1.
    # T5: S1 AD; S2 QS; S3 KD; S4 TD -> S1.
    # Pot 40, fifths of 8: S1 3 tricks = 24, S2 2 = 16; S3, S4 looed, 40 each.
    hands = {
        1: "AH 2C 3C 4D 5D",
        2: "KH 6C 7C 6D 7D",
        3: "QH 8C 9C 8D 9S",
        4: "JH TC TD TS 2S",
        5: "8H 4C 5C 2D 3S",
        6: "9H QC KC 3D 4S",
        7: "TH AC 9D 5S 6S",
        0: "JD QD 7S 8S JS",
    }
    stock = "AS AD 3H 4H JC 5H KS QS 6H 7H KD"
    deck = build_deck(8, 0, hands, indicator="2H", stock=stock)
    pol = table(8, "cautious/basic/basic", s1="always", s2="always", s3="always", s4="always")
    rec = play_deal(Rules.preset("five-card", players=8), deck, dealer=0, policy=pol)
    d = rec.to_dict()
    assert d["declarations"] == ["pass", "play", "play", "play", "play", "pass", "pass", "pass"]
    exchanges = [(s, sorted(map(card_str, out)), [card_str(c) for c in got]) for s, out, got in rec.trace.exchanges]
    assert [e for e in exchanges if e[1] or e[2]] == [
        (1, sorted(cards("2C 3C 4D 5D")), cards("AS AD 3H 4H")),
        (2, sorted(cards("6C 7C 6D 7D")), cards("JC 5H KS QS")),
        (3, sorted(cards("8C 8D 9C")), cards("6H 7H KD")),
    ]
    assert d["flush_winner"] is None
    assert d["tricks"] == [
        trick(1, "1:AH 2:5H 3:6H 4:JH", 1),
        trick(1, "1:4H 2:KH 3:7H 4:2S", 2),
        trick(2, "2:JC 3:QH 4:TC 1:3H", 2),
        trick(2, "2:KS 3:9S 4:TS 1:AS", 1),
        trick(1, "1:AD 2:QS 3:KD 4:TD", 1),
    ]
    assert outcome(d, *MONEY) == {
        "shares": [0.0, 24.0, 16.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        "penalties": [0.0, 0.0, 0.0, 40.0, 40.0, 0.0, 0.0, 0.0],
        "looed": [3, 4],
        "antes": [5.0] * 8,
        "pot_start": 40.0,
        "pot_next": 80.0,
    }
