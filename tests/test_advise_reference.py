"""Issue #25, "an independent check of the exact-hand answer": for 22 hands across
three-card, five-card and classic-limited (pot carried in), the reference engine (not the
kernel) estimates each declaration's value by brute force from the same knowledge: the
unseen cards filled by ``build_deck`` from a plain shuffle (not advise's swap), every
seat declaring by its policy, a deal kept only when the earlier seats declared as given,
then replayed once per declaration with the seat's forced. ``advise`` (the kernel, its own
sampler and rejection) must agree with it within 4 combined standard errors, action by
action."""

from __future__ import annotations

import math

import numpy as np
import pytest

from loo_sim.base.errors import IllegalAction
from loo_sim.base.rng import shuffled_deck
from loo_sim.engine.deal import play_deal_reference
from loo_sim.game.deal_input import DealInput, build_deck, parse_card_list
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules
from loo_sim.run.advise import DeclarationQuestion, check_question, declaration_advice

# (preset, players, position, hand, indicator, earlier, carried, table). Under basic a seat
# with nothing worth playing takes the miss while it is on offer (P2), so it passes only
# once the miss is taken; a `cautious` table never takes it (R8 case 2 is reached).
CASES = [
    ("three-card", 5, 1, "KH 7S 3D", "4H", "", 0, "basic"),
    ("three-card", 5, 2, "KH 7S 3D", "4H", "play", 0, "basic"),
    ("three-card", 5, 3, "AS 2C 9D", "4H", "miss,play", 0, "basic"),
    ("three-card", 5, 4, "9H 8H 2C", "4H", "play,miss,pass", 0, "basic"),
    ("three-card", 5, 5, "QC JC 5D", "4H", "play,play,play,miss", 0, "basic"),
    ("three-card", 5, 2, "2S 3S 4D", "4H", "miss", 0, "basic"),
    ("three-card", 5, 3, "TH 5C 6C", "4H", "play,play", 0, "basic"),
    ("three-card", 4, 1, "AH 2S 3D", "KC", "", 0, "basic"),
    ("three-card", 5, 3, "KH 5C 6C", "4H", "pass,play", 0, "cautious"),
    ("five-card", 4, 1, "JC AS 2D 5H 9S", "7C", "", 0, "basic"),
    ("five-card", 4, 2, "KD QD 3S 4S 8H", "7C", "play", 0, "basic"),
    ("five-card", 4, 3, "2C 3C 9H TH 4D", "7C", "pass,play", 0, "basic"),
    ("five-card", 4, 4, "AH KH 6S 7S 8D", "7C", "play,play,pass", 0, "basic"),
    ("five-card", 4, 2, "AC 4D 6H 8S TD", "7C", "pass", 0, "basic"),
    ("classic-limited", 5, 1, "KH 7S 3D", "4H", "", 6, "basic"),
    ("classic-limited", 5, 2, "AD 5C 4S", "4H", "play", 6, "basic"),
    ("classic-limited", 5, 5, "9H 2S 3D", "4H", "play,pass,pass,pass", 6, "cautious"),
    ("classic-limited", 5, 3, "QH JS 2D", "4H", "miss,pass", 12, "basic"),
    ("classic-limited", 5, 4, "7H 8H 2C", "4H", "miss,pass,play", 6, "basic"),
    ("classic-limited", 5, 5, "5C 6D 7S", "4H", "play,miss,pass,play", 6, "basic"),
    ("classic-limited", 5, 2, "KS 9C 3H", None, "play", 0, "basic"),
    ("limited", 5, 3, "AH 3C 4C", "8H", "play,play", 0, "basic"),
]


def question(preset, players, position, hand, indicator, earlier, carried, table="basic") -> DeclarationQuestion:
    rules = Rules.preset(preset, players=players)
    ind = None if indicator is None else parse_card_list(indicator, "indicator")[0]
    words = tuple(w for w in earlier.split(",") if w)
    seats = [Policy.parse(table)] * players
    return DeclarationQuestion(rules, position, parse_card_list(hand, "hand"), seats, ind, words, float(carried))


def brute_force(q: DeclarationQuestion, options: list[str], kept: int, seed: int = 7) -> np.ndarray:
    """[kept deals, actions]: the seat's net chips by the reference engine, deals drawn by
    build_deck around the known cards and kept by rejection on the earlier declarations."""
    n, seat = q.rules.players, q.position % q.rules.players
    inp = DealInput(hands={seat: list(q.hand)}, indicator=q.indicator)
    earlier_seats = [i % n for i in range(1, q.position)]
    rows, i = [], 0
    while len(rows) < kept:
        i += 1
        deck = build_deck(q.rules, 0, q.carried, inp, shuffled_deck(seed, i)).deck
        row = []
        for action in options:
            try:
                rec = play_deal_reference(q.rules, deck, 0, q.carried, q.table, [None] * n, forced={seat: action})
            except IllegalAction:  # not on offer: the earlier seats declared otherwise (bold stand, R8 cases)
                break
            if [rec.declarations[s] for s in earlier_seats] != list(q.earlier):
                break
            row.append(rec.shares[seat] - rec.antes[seat] - rec.penalties[seat])
        else:
            rows.append(row)
        assert i < 200 * kept, "the earlier declarations almost never happen"
    return np.array(rows)


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-p{c[2]}-{c[3].replace(' ', '')}" for c in CASES])
def test_advise_agrees_with_the_reference_engine_by_brute_force(case):
    q = question(*case)
    options = check_question(q).options
    kept = 300 if q.rules.hand_size == 5 else 500
    ref = brute_force(q, options, kept)
    got = declaration_advice(q, precision=0.1, max_deals=60_000, seed=3)
    assert got.actions == options
    for a, name in enumerate(options):
        mine, theirs = got.pay[:, a], ref[:, a]
        se = math.sqrt(mine.var(ddof=1) / len(mine) + theirs.var(ddof=1) / len(theirs))
        gap = abs(mine.mean() - theirs.mean())
        assert gap <= 4 * se + 1e-9, f"{name}: advise {mine.mean():.3f}, reference {theirs.mean():.3f}, se {se:.3f}"


def test_a_constant_payoff_is_the_same_number_in_both():
    """Passing costs exactly the ante in three-card (R3, R4): the same in both engines."""
    q = question("three-card", 5, 2, "2S 3S 4D", "4H", "miss", 0)
    got = declaration_advice(q, precision=0.5, max_deals=2_000)
    assert np.all(got.pay[:, got.actions.index("pass")] == -3.0)
