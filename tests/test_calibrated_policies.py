"""Golden decisions of the calibrated declaration families (docs/policies.md P3: ``ev`` and
``threshold``), worked out by hand from a synthetic strength table, in both engines.

The differential test only shows that the two engines agree; it cannot see a mistake
made in both alike (``ev`` pricing a loo at ``penalty_amount`` under the unlimited
penalty, ``threshold`` playing only when the chance is strictly above ``play``). Here
every expected declaration comes from P3 and R3 by hand: the pot (R3: carried + 5 x 3
antes), the strength-table row of the hand's class, and what a loo costs (R3: the pot
under ``unlimited``, ``penalty_amount`` = 3 under ``limited``).

The deal (three-card, 5 players, dealer S0, hearts trumps from the 7H turn-up): S1, the
eldest hand, declares first, so nobody is in before it and the miss is on offer; it holds
KC 9D 4C, no trump and the king as best plain card: the class "no trump | K" (P5). With
4 seats after it and the table's entry rate 0.5, it expects 0 + 1 + 4 x 0.5 = 3 seats in
the deal (P3), so it reads the row (no trump | K, m = 3). Every other row of the table,
the miss row included, says "always looed", so only that row can make S1 play, and the
miss is worth minus a loo (worse than passing). The other seats play ``basic`` and each
holds a heart, so they play (P2).
"""

from __future__ import annotations

import numpy as np
import pytest

from loo_sim import Rules, play_deals
from loo_sim.engine.policies import expected_chips as engine_expected_chips
from loo_sim.game.cards import SUITS, parse_card, parse_cards, parse_deck
from loo_sim.game.classes import MISS_ROW, N_COLS, ROW_NONE, hand_class
from loo_sim.game.ranking import TrumpState
from loo_sim.kernel.classes import expected_chips as kernel_expected_chips
from loo_sim.run.strength import SHAPE, StrengthTable
from tests.deckbuild import build_deck

FOCAL = 1  # the eldest hand (dealer S0)
HAND = "KC 9D 4C"
NO_TRUMP_K = ROW_NONE * N_COLS + 3  # P5 row "no trump", column "K" (<=9, T-J, Q, K, A, none)
M = 3  # seats expected: 0 in + this one + round(4 later x 0.5)
DECK = build_deck(5, 0, {1: HAND, 2: "AH 2C 3D", 3: "8H 5C 6D", 4: "9H 7C 8D", 0: "TH 2D 3C"},
                  miss="5D 6C 7D", indicator="7H")  # fmt: skip
ENGINES = ("reference", "kernel")


def table_with(row: list[float]) -> StrengthTable:
    """Every class always looed (P(0 tricks) = 1), except (no trump | K, m = 3): ``row``."""
    probs = np.zeros(SHAPE)
    probs[:, :, 0] = 1.0
    probs[NO_TRUMP_K, M, :] = 0.0
    probs[NO_TRUMP_K, M, : len(row)] = row
    return StrengthTable(probs, np.zeros(SHAPE, dtype=np.int64), 0.5, "golden", 0, 0)


def record(preset: str, carried: float, policy: str, row: list[float], engine: str):
    """The deal with S1 playing ``policy`` from ``table_with(row)``, everyone else ``basic``."""
    table = ["basic"] * 5
    table[FOCAL] = policy
    deals = play_deals(Rules.preset(preset), [DECK], [0], [carried], table, engine=engine, strength=table_with(row))
    return deals[0]


def declarations(preset: str, carried: float, policy: str, row: list[float], engine: str) -> list[str]:
    return record(preset, carried, policy, row, engine).declarations


def expect(focal: str) -> list[str]:
    out = ["play"] * 5  # S2, S3, S4, S0 each hold a heart: basic plays (P2)
    out[FOCAL] = focal
    return out


def test_the_deal_is_as_described():
    cards = parse_deck(DECK)
    # R2: rounds of S1 S2 S3 S4, the miss, S0; then the turn-up
    assert [cards[0], cards[6], cards[12]] == parse_cards(HAND)
    assert cards[18] == parse_card("7H")
    hearts = TrumpState(trump=SUITS.index("H"))
    assert hand_class(parse_cards(HAND), hearts) == NO_TRUMP_K
    assert MISS_ROW != NO_TRUMP_K


# ---- ev: play = pot x E[tricks] / 3 - P(0 tricks) x (what a loo costs); pass = 0 ----------------
EV_CASES = [
    # unlimited, carried 9: pot 24; row P(0) = P(1) = 1/2: shares 24 x 0.5 / 3 = 4, a loo costs
    # the pot: 4 - 0.5 x 24 = -8 < 0 -> pass. (Priced at penalty_amount 3 it would be
    # 4 - 1.5 = +2.5 -> play.)
    pytest.param("three-card", 9.0, [0.5, 0.5], "pass", -8.0, id="unlimited-loo-costs-the-pot"),
    # the same under limited: a loo costs 3: 4 - 0.5 x 3 = +2.5 -> play
    pytest.param("limited", 9.0, [0.5, 0.5], "play", 2.5, id="limited-loo-costs-penalty_amount"),
    # unlimited, a strong row: P(0) 1/10, P(1) 3/5, P(2) 3/10; carried 0: pot 15;
    # E[tricks] = 0.6 + 0.6 = 1.2: 15 x 1.2 / 3 = 6, minus 0.1 x 15 = 1.5 -> +4.5 -> play
    pytest.param("three-card", 0.0, [0.1, 0.6, 0.3], "play", 4.5, id="unlimited-strong-hand-plays"),
    # limited, a weak row P(0) 4/5, P(1) 1/5: pot/15 - 2.4; carried 9 (pot 24): 1.6 - 2.4 =
    # -0.8 -> pass; carried 30 (pot 45): 3 - 2.4 = +0.6 -> play (P3: a growing pot against a
    # fixed penalty keeps ev in with weaker hands)
    pytest.param("limited", 9.0, [0.8, 0.2], "pass", -0.8, id="limited-weak-hand-small-pot"),
    pytest.param("limited", 30.0, [0.8, 0.2], "play", 0.6, id="limited-weak-hand-big-pot"),
    # limited, clean pot 15, P(0) 5/8, P(1) 3/8: 15 x 0.375 / 3 = 1.875 = 0.625 x 3: worth
    # exactly 0 -> a tie of play and pass goes to play (P3)
    pytest.param("limited", 0.0, [0.625, 0.375], "play", 0.0, id="tie-goes-to-play"),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("preset, carried, row, focal, value", EV_CASES)
def test_ev_declares_the_best_expected_chips(preset, carried, row, focal, value, engine):
    assert declarations(preset, carried, "ev", row, engine) == expect(focal)


@pytest.mark.parametrize("preset, carried, row, focal, value", EV_CASES)
def test_ev_values_are_the_hand_computed_ones(preset, carried, row, focal, value):
    rules = Rules.preset(preset)
    pot = carried + 15
    loo = pot if rules.penalty == "unlimited" else rules.penalty_amount  # R3
    probs = np.zeros(SHAPE[2])
    probs[: len(row)] = row
    assert engine_expected_chips(probs, pot, 3, loo) == pytest.approx(value, abs=1e-12)
    assert kernel_expected_chips(probs, pot, 3, loo) == pytest.approx(value, abs=1e-12)


# ---- threshold:play=P,miss=M: play if q = 1 - P(0 tricks) >= P; else miss if q < M (on offer);
# ---- else pass ------------------------------------------------------------------------------------
THRESHOLD_CASES = [
    # P(0) = 1/4: q = 0.75 exactly, equal to play=0.75 -> at least P -> play
    pytest.param("threshold:play=0.75,miss=0.5", "play", id="q-equal-to-play-plays"),
    # q = 0.75 just short of play=0.76 -> not play; not below miss=0.5 -> pass
    pytest.param("threshold:play=0.76,miss=0.5", "pass", id="q-below-play-passes"),
    # q = 0.75 equal to miss=0.75: not below it -> pass, not the miss
    pytest.param("threshold:play=0.9,miss=0.75", "pass", id="q-equal-to-miss-passes"),
    # q = 0.75 below miss=0.76, the miss on offer -> miss
    pytest.param("threshold:play=0.9,miss=0.76", "miss", id="q-below-miss-takes-it"),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("policy, focal", THRESHOLD_CASES)
def test_threshold_compares_the_chance_of_a_trick_as_p3_says(policy, focal, engine):
    assert declarations("three-card", 0.0, policy, [0.25, 0.75], engine) == expect(focal)


@pytest.mark.parametrize("preset, carried, row, policy", [
    ("three-card", 9.0, [0.5, 0.5], "ev"), ("limited", 9.0, [0.5, 0.5], "ev"),
    ("three-card", 0.0, [0.25, 0.75], "threshold:play=0.75,miss=0.5"),
])  # fmt: skip
def test_the_engines_agree_on_the_whole_golden_deals(preset, carried, row, policy):
    ref, ker = (record(preset, carried, policy, row, e) for e in ENGINES)
    assert ref.to_dict() == ker.to_dict()
