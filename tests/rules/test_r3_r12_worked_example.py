"""R12: the worked example of seed 001, and R3's limited and unlimited loo on the same
deal (golden deals)."""

from __future__ import annotations

import pytest

from tests.deckbuild import build_deck
from tests.rules.golden import MONEY, outcome, run, table, trick

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
