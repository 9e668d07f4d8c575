"""Hand-built golden deals: one deal per situation of RULES.md / POLICIES.md.

Every expected value below is worked out by hand from the spec (the comment above each
assertion block shows the working); nothing is copied from the engine's output.

Reading aids used in the comments:
- seats are numbered 0..n-1; "S1" is seat 1; the dealer is given per deal;
- P1 power: trump = 50 + rank, Pam = 100, other cards = rank (2 = 0 ... A = 12),
  ties broken by suit C < D < H < S; "basic" lead = highest-power legal card, "basic"
  follow = lowest-power legal card that wins as things stand, else lowest-power legal
  card (P2); "low"/"high" = lowest/highest-power legal card (P3).
"""

from __future__ import annotations

import pytest

from loo_sim import Rules, play_deal
from loo_sim.game.cards import card_str
from tests.deckbuild import build_deck, cards


def run(preset, deck, *, dealer=0, carried=0.0, policy="basic", **options):
    rules = Rules.preset(preset, **options)
    return play_deal(rules, deck, dealer=dealer, carried=carried, policy=policy).to_dict()


def table(players, default, **seats):
    """One policy per seat: ``table(5, "cautious", s1="basic")``."""
    out = [default] * players
    for key, pol in seats.items():
        out[int(key[1:])] = pol
    return out


def trick(leader, plays, winner):
    """``trick(1, "1:AH 2:9H 3:2H", 1)`` -> the record's trick dict."""
    played = [[int(s), c] for s, c in (p.split(":") for p in plays.split())]
    return {"leader": leader, "cards": played, "winner": winner}


def outcome(d, *keys):
    return {k: d[k] for k in keys}


MONEY = ("shares", "penalties", "looed", "antes", "pot_start", "pot_next")


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


# --------------------------------------------------------------------------------------
# R12: the worked example (seed 001 §08), and R3 limited vs unlimited on the same deal
# --------------------------------------------------------------------------------------

# classic-limited, 5 players, dealer S0; A = S1, B = S2, C = S3; S4 and the dealer pass.
R12_DECK = build_deck(
    5,
    0,
    {1: "AH 7H KC", 2: "9H AC 3D", 3: "2H 4D 5S", 4: "2C 3C 5D", 0: "6C 7C 8D"},
    miss="2S 3S 4S",
    indicator="4H",
)
R12_POLICY = table(5, "cautious", s1="basic", s2="basic", s3="basic")
R12_TRICKS = [
    # A must lead AH (lead = trump, first lead of a double pot, ace of trumps held);
    # B's and C's only hearts are 9H and 2H (follow suit, cannot head AH).
    trick(1, "1:AH 2:9H 3:2H", 1),
    # A still holds a trump (7H) so must lead it (lead = trump). B and C are void with no
    # trump (void = trump_to_win -> any card): B lowest 3D (rank 1 < AC), C 4D (2 < 5S 3).
    trick(1, "1:7H 2:3D 3:4D", 1),
    # A leads KC; B must follow clubs and head it with AC; C discards 5S.
    trick(1, "1:KC 2:AC 3:5S", 2),
]


def test_r12_worked_example_classic_limited_double_pot():
    # carried 9 + the dealer's ante 3 (ante_payer = dealer) = pot 12, not clean ->
    # double pot: miss dealt, indicator 4H -> hearts trumps. Declarations: A, B, C hold a
    # trump -> basic plays; S4 and the dealer (cautious, no trump) pass; with three
    # others in, the dealer declares as R4 (R8 case 4), and cautious never takes the miss.
    # Shares 12/3 = 4: A 2 tricks = 8, B 1 = 4, C 0 -> looed, limited loo 3 (not 12).
    # pot_next = 3, so the next dealer's ante of 3 makes 6. Passers pay nothing.
    d = run("classic-limited", R12_DECK, dealer=0, carried=9, policy=R12_POLICY)
    assert d == {
        "trump": "H",
        "indicator": "4H",
        "single_pot": False,
        "declarations": ["pass", "play", "play", "play", "pass"],
        "tricks": R12_TRICKS,
        "tricks_won": [0, 2, 1, 0, 0],
        "flush_winner": None,
        "looed": [3],
        "shares": [0.0, 8.0, 4.0, 0.0, 0.0],
        "penalties": [0.0, 0.0, 0.0, 3.0, 0.0],
        "antes": [3.0, 0.0, 0.0, 0.0, 0.0],
        "pot_start": 12.0,
        "pot_next": 3.0,
    }
    assert d["pot_next"] + 3 == 6


@pytest.mark.parametrize(("penalty", "loo"), [("limited", 3.0), ("unlimited", 12.0)])
def test_r3_limited_vs_unlimited_penalty_same_deal(penalty, loo):
    # The R12 deal again: C is looed. limited -> penalty_amount 3; unlimited -> pot_start
    # 12 (the whole pot as it stood when play began). Play itself is unchanged.
    d = run("classic-limited", R12_DECK, dealer=0, carried=9, policy=R12_POLICY, penalty=penalty)
    assert d["tricks"] == R12_TRICKS
    assert outcome(d, *MONEY) == {
        "shares": [0.0, 8.0, 4.0, 0.0, 0.0],
        "penalties": [0.0, 0.0, 0.0, loo, 0.0],
        "looed": [3],
        "antes": [3.0, 0.0, 0.0, 0.0, 0.0],
        "pot_start": 12.0,
        "pot_next": loo,
    }


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
# R6 first_lead (irish) and R9b club law
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
