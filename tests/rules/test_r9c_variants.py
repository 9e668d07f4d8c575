"""R9c: the rule books' variants, one option at a time (golden deals)."""

from __future__ import annotations

import pytest

from tests.deckbuild import build_deck
from tests.rules.golden import MONEY, outcome, run, table
from tests.rules.test_r3_r12_worked_example import R12_DECK, R12_POLICY, R12_TRICKS

# --------------------------------------------------------------------------------------
# R9c penalty = capped: each looed player pays min(pot_start, penalty_amount)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("amount", "loo"), [(3, 3.0), (20, 12.0), (12, 12.0)])
def test_r9c_capped_penalty_is_the_smaller_of_pot_and_amount(amount, loo):
    # The R12 deal (pot 12, C = S3 looed): capped pays the fixed amount while it is below
    # the pot (3), and the pot where the amount is above it (20 -> 12); equal: 12.
    d = run("classic-limited", R12_DECK, dealer=0, carried=9, policy=R12_POLICY, penalty="capped",
            penalty_amount=amount)  # fmt: skip
    assert d["tricks"] == R12_TRICKS
    assert outcome(d, *MONEY) == {
        "shares": [0.0, 8.0, 4.0, 0.0, 0.0],
        "penalties": [0.0, 0.0, 0.0, loo, 0.0],
        "looed": [3],
        "antes": [3.0, 0.0, 0.0, 0.0, 0.0],
        "pot_start": 12.0,
        "pot_next": loo,
    }


def test_r9c_capped_penalty_applies_to_flush_loos():
    # five-card, pot 25 (5 antes of 5). S2's trump flush (hearts, 2H turned) takes the pot;
    # S1 and S3 are in the deal and looed by the flush: capped at 25 with penalty_amount
    # 40 (the pot, not 40), and 5 with penalty_amount 5 (the preset's amount).
    deck = build_deck(
        5,
        0,
        {1: "AS KS QS JS TS", 2: "3H 4H 5H 6H 7H", 3: "8H AC 9D 2C 3D", 4: "4C 5C 6D 7D 8D", 0: "6C 7C 9C TD JD"},
        indicator="2H",
    )
    pol = table(5, "cautious/basic/none", s1="always/basic/none", s2="always/basic/none", s3="always/basic/none")
    for amount, loo in ((40, 25.0), (5, 5.0)):
        d = run("five-card", deck, policy=pol, penalty="capped", penalty_amount=amount)
        assert d["flush_winner"] == 2
        assert outcome(d, "looed", "shares", "penalties", "pot_next") == {
            "looed": [1, 3],
            "shares": [0.0, 0.0, 25.0, 0.0, 0.0],
            "penalties": [0.0, loo, 0.0, loo, 0.0],
            "pot_next": 2 * loo,
        }
