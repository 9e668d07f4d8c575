"""The perfect-information solver (loo_sim/engine/solver.py, docs/policies.md P7) against
an independent brute force (tests/bruteforce.py: the reference engine plays out every
line, then backward induction), on positions taken from real reference deals, and on
hand-made golden positions whose answer is argued in the test.

Sizes: a brute force of a five-seat deal from the first lead of a five-card deal runs
to millions of lines, so five-card positions start with two or three tricks left (and
from the first lead only where two seats are in the deal); three-card positions start
from the first lead (about one in six), after 1-4 cards, or later.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from loo_sim.engine.deal import play_deal_reference, reference_positions
from loo_sim.engine.solver import Position, best_card, card_values, solve
from loo_sim.game.cards import parse_card
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules, Trump
from tests.bruteforce import brute_force
from tests.solver_positions import (
    PER_FIVE_CARD,
    PER_THREE_CARD,
    THREE_CARD,
    five_card_pick,
    sample_positions,
    three_card_pick,
)


def _agree(cases, tally: Counter) -> None:
    for (rules, deck, dealer, pot, policies), prefix, pos in cases:
        expected = brute_force(rules, deck, dealer, pot, policies, prefix)
        where = f"{rules.to_dict()} deck={deck} dealer={dealer} carried={pot} prefix={prefix}"
        assert solve(pos) == expected.tricks, where
        assert card_values(pos) == expected.card_payoffs, where
        tally["positions"] += 1
        tally["first lead"] += not prefix
        tally["mid-trick"] += bool(pos.trick)
        tally["trumps unknown"] += pos.trump is None
        tally["single pot"] += pos.single_pot
        tally["defender"] += pos.defender is not None
        tally["first_lead mode"] += pos.mode is Trump.FIRST_LEAD
        tally["civil"] += pos.civil


@pytest.mark.parametrize("entry", THREE_CARD, ids=[e[0] for e in THREE_CARD])
def test_three_card_solver_matches_brute_force(entry):
    name, preset, overrides, carried, families = entry
    tally: Counter = Counter()
    _agree(sample_positions(len(name) * 101 + 7, preset, overrides, carried, families, PER_THREE_CARD, three_card_pick),
           tally)  # fmt: skip
    assert tally["positions"] == PER_THREE_CARD
    assert tally["first lead"] >= 20 and tally["mid-trick"] >= 50, tally
    if preset in ("irish",) or name == "classic-limited single":
        assert tally["trumps unknown"] >= 20, tally  # first_lead before the lead, first_renounce before the reveal
    if name == "classic-limited single":
        assert tally["single pot"] == PER_THREE_CARD, tally
    if name == "classic-limited double":
        assert tally["defender"] >= 5 and tally["single pot"] == 0, tally


FIVE_CARD = [
    ("five-card", {}, PER_FIVE_CARD - 120),
    ("five-card 3 players", {"players": 3}, 120),  # more deals of two seats: some from the first lead
]


@pytest.mark.parametrize("entry", FIVE_CARD, ids=[e[0] for e in FIVE_CARD])
def test_five_card_solver_matches_brute_force(entry):
    name, overrides, count = entry
    tally: Counter = Counter()
    families = ["basic", "cautious", "always"]
    _agree(sample_positions(len(name) * 13 + 5, "five-card", overrides, [0.0, 5.0], families, count, five_card_pick),
           tally)  # fmt: skip
    assert tally["positions"] == count
    assert tally["mid-trick"] >= count // 3, tally
    if overrides:
        assert tally["first lead"] >= 10, tally


def test_engine_playing_the_solver_reaches_the_solved_tricks():
    """Subgame perfection: a deal played with best_card at every decision (the engine's
    card_hook) ends with the trick counts solve gives at the start of play."""
    rng = random.Random(3)
    for preset in ("three-card", "irish", "classic-limited", "five-card"):
        rules = Rules.preset(preset)
        done = 0
        while done < (3 if preset == "five-card" else 20):
            deck = list(range(52))
            rng.shuffle(deck)
            policies = [Policy.parse("cautious" if preset == "five-card" else "always")] * rules.players
            positions, _ = reference_positions(rules, deck, 0, 0.0, policies)
            if not positions or (preset == "five-card" and len(positions[0].seats) > 3):
                continue
            rec = play_deal_reference(rules, deck, 0, 0.0, policies, card_hook=best_card)
            assert solve(positions[0]) == {s: rec.tricks_won[s] for s in positions[0].seats}
            done += 1


def test_positions_mirror_the_engine():
    rules = Rules.preset("three-card")
    deck = list(range(52))
    random.Random(9).shuffle(deck)
    policies = [Policy.parse("always")] * 5
    positions, rec = reference_positions(rules, deck, 2, 0.0, policies)
    assert len(positions) == 15 and positions[0].seats == (3, 4, 0, 1, 2)  # the dealer's left first
    played = [(seat, card) for trick in rec.tricks for seat, card in trick.cards]
    for k, pos in enumerate(positions):
        assert pos.to_move == played[k][0]
        assert pos.trick_index == k // 5 and pos.trick == tuple(played[k - k % 5 : k])
        assert sum(len(h) for h in pos.hands.values()) == 15 - k
    assert play_deal_reference(rules, deck, 2, 0.0, policies) == rec  # the hook changes nothing


# ---- golden positions -------------------------------------------------------------------
def _cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


def _pos(rules: Rules, hands: dict[int, str], **kw) -> Position:
    seats = tuple(hands)
    h = rules.hand_size
    left = max(len(c.split()) for c in hands.values())  # the cards the trick's later seats still hold
    values = dict(leader=seats[0], trick=(), trick_index=h - left, tricks_won={s: 0 for s in seats},
                  trump=parse_card("5H") // 13, mode=Trump.TURN_UP, indicator=parse_card("5H"),
                  turned_up=parse_card("5H"), civil=False, renounced=False, single_pot=False, pot_start=15.0,
                  penalty=15.0, defender=None)  # fmt: skip
    values.update(kw)
    return Position(rules=rules, seats=seats, hands={s: _cards(c) for s, c in hands.items()}, **values)


THREE = Rules.preset("three-card", players=3)


def test_golden_top_trump_alone_takes_one_trick():
    """Hearts trumps; seat 0's AH is the only trump. Whatever it leads, AH takes one
    trick (led, or trumped in on the last spade lead by must_trump) and its low spades
    lose to seat 1's, which must follow and head; seat 2 (diamonds only) takes nothing."""
    pos = _pos(THREE, {0: "AH 2S 3S", 1: "AS KS QS", 2: "AD KD QD"})
    assert solve(pos) == {0: 1, 1: 2, 2: 0}


def test_golden_forced_head_the_trick():
    """KS led: seat 1 holds AS and 4S, so it must head the trick with AS (R7 2.); its
    only legal card is AS even though it might rather keep it."""
    pos = _pos(THREE, {0: "2D 3D", 1: "AS 4S 5C", 2: "7C 8C 9C"}, trick=((0, parse_card("KS")),))
    assert set(card_values(pos)) == {parse_card("AS")}


def test_golden_pam_be_civil():
    """Five-card, hearts trumps, the AH led (civil). Seat 1 holds Pam (JC) and 2H: it
    must hold Pam back and follow with 2H, so AH wins; on the last trick Pam, its last
    card, may be played."""
    rules = Rules.preset("five-card", players=3)
    ah = parse_card("AH")
    pos = _pos(rules, {0: "2S", 1: "JC 2H", 2: "3D 4D"}, trick=((0, ah),), civil=True,
               tricks_won={0: 1, 1: 1, 2: 1})  # fmt: skip
    assert set(card_values(pos)) == {parse_card("2H")}
    assert solve(pos) == {0: 2, 1: 2, 2: 1}  # AH wins; then Pam takes seat 0's 2S lead
    last = _pos(rules, {0: "", 1: "JC", 2: "3D"}, trick=((0, ah),), civil=True, tricks_won={0: 2, 1: 1, 2: 1})
    assert set(card_values(last)) == {parse_card("JC")} and solve(last) == {0: 2, 1: 2, 2: 1}


def test_golden_first_renounce_reveal_changes_the_winner():
    """Single pot, trumps unknown, the hidden indicator 7D. Last trick: KS led, seat 1
    holds no spade and plays 2D, a renounce; the indicator is turned, diamonds are trumps
    and the trick is judged with them, so 2D beats KS. With the indicator 7C, KS wins."""
    rules = Rules.preset("classic-limited", players=3)
    common = dict(trump=None, mode=Trump.FIRST_RENOUNCE, turned_up=None, single_pot=True, penalty=3.0,
                  tricks_won={0: 1, 1: 0, 2: 1})  # fmt: skip
    hands = {0: "KS", 1: "2D", 2: "3S"}
    assert solve(_pos(rules, hands, indicator=parse_card("7D"), **common)) == {0: 1, 1: 1, 2: 1}
    assert solve(_pos(rules, hands, indicator=parse_card("7C"), **common)) == {0: 2, 1: 0, 2: 1}


def test_golden_tie_break_lowest_power():
    """Pot 0 and no penalty: every line pays everyone 0, so every choice is a tie and
    goes to the lowest-power legal card. Seat 0 leads 2S (not AS); seat 1 heads with
    3S, seat 2 throws 5D; seat 1 leads 4D, seat 2 heads with 6D, seat 0 throws AS: one
    trick each. Leading AS instead would have given seat 0 both tricks."""
    pos = _pos(THREE, {0: "AS 2S", 1: "3S 4D", 2: "5D 6D"}, pot_start=0.0, penalty=0.0,
               tricks_won={0: 1, 1: 0, 2: 0})  # fmt: skip
    values = card_values(pos)
    assert values == {parse_card("2S"): (0.0, 0.0, 0.0), parse_card("AS"): (0.0, 0.0, 0.0)}
    assert best_card(pos) == parse_card("2S")
    assert solve(pos) == {0: 1, 1: 1, 2: 1}


def test_golden_defender_pays_no_loo():
    """A defender (R8) with no trick pays no loo: its payoff is 0, not -penalty."""
    rules = Rules.preset("classic-limited", players=3)
    pos = _pos(rules, {0: "AH", 1: "2S", 2: "3S"}, defender=1, penalty=3.0, pot_start=9.0,
               tricks_won={0: 1, 1: 0, 2: 1})  # fmt: skip
    assert card_values(pos) == {parse_card("AH"): (6.0, 0.0, 3.0)}
