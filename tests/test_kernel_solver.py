"""The kernel's perfect-information solver (loo_sim/kernel/solver.py through run/solver.py)
against the reference (loo_sim/engine/solver.py, itself checked against a brute force in
tests/test_perfect_solver.py): every seat's count (``solve``), the card played
(``best_card``) and, on a share of the positions, ``card_values`` for every legal card,
on random positions of real reference deals of every preset (tests/solver_positions.py).

Three-card: the nine rule sets of test_perfect_solver (2,160 positions, from the first
lead, mid-trick and later). Five-card: five rule sets (Pam, Pam be civil, the ace /
classic / trump leads, both void options), from the first lead where the deal has up to
three seats, else with two to four tricks left (the reference's cost), and a few whole
five-seat deals from the first lead.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from loo_sim.engine import solver as reference
from loo_sim.engine.deal import play_deal_reference, reference_positions
from loo_sim.engine.solver import Position
from loo_sim.game.cards import ACE, PAM, make_card
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules, Trump
from loo_sim.run import solver as kernel
from tests.solver_positions import PER_THREE_CARD, THREE_CARD, sample_positions, three_card_pick

VALUES_EVERY = 4  # card_values is compared on every fourth position


def _agree(cases, tally: Counter) -> None:
    for _deal, prefix, pos in cases:
        where = f"{pos}"
        assert kernel.solve(pos) == reference.solve(pos), where
        assert kernel.best_card(pos) == reference.best_card(pos), where
        if tally["positions"] % VALUES_EVERY == 0:
            assert kernel.card_values(pos) == reference.card_values(pos), where
            tally["card_values"] += 1
        tally["positions"] += 1
        tally["first lead"] += not prefix
        tally["mid-trick"] += bool(pos.trick)
        tally["trumps unknown"] += pos.trump is None
        tally["first_lead unknown"] += pos.mode is Trump.FIRST_LEAD and pos.trump is None
        tally["first_renounce unknown"] += pos.mode is Trump.FIRST_RENOUNCE and pos.trump is None
        tally["renounced, reveal at the trick's end"] += pos.renounced and pos.trump is None
        tally["single pot"] += pos.single_pot
        tally["defender"] += pos.defender is not None
        tally["civil"] += pos.civil
        if pos.trump is not None and pos.rules.pam_be_civil:
            cards = {c for hand in pos.hands.values() for c in hand}
            tally["ace of trumps and Pam in play"] += make_card(ACE, pos.trump) in cards and PAM in cards


@pytest.mark.parametrize("entry", THREE_CARD, ids=[e[0] for e in THREE_CARD])
def test_three_card_kernel_matches_reference(entry):
    name, preset, overrides, carried, families = entry
    tally: Counter = Counter()
    _agree(sample_positions(len(name) * 101 + 11, preset, overrides, carried, families, PER_THREE_CARD,
                            three_card_pick), tally)  # fmt: skip
    assert tally["positions"] == PER_THREE_CARD and tally["card_values"] == PER_THREE_CARD // VALUES_EVERY
    assert tally["first lead"] >= 20 and tally["mid-trick"] >= 50, tally
    if preset == "irish":
        assert tally["first_lead unknown"] >= 20, tally
    if name == "classic-limited single":
        assert tally["single pot"] == PER_THREE_CARD and tally["first_renounce unknown"] >= 20, tally
        assert tally["renounced, reveal at the trick's end"] >= 5, tally
    if name == "classic-limited double":
        assert tally["defender"] >= 5 and tally["single pot"] == 0, tally


def _five_card_pick(rng: random.Random, positions: list[Position], seats: int) -> int:
    u = rng.random()
    if seats <= 3 and u < 0.15:
        return 0  # from the first lead
    tricks_left = 4 if u < 0.35 and seats <= 4 else 3 if u < 0.7 else 2
    return rng.randint((5 - tricks_left) * seats, len(positions) - 1)


FIVE_CARD = [
    ("five-card", {}, 130),
    ("five-card 3 players", {"players": 3}, 80),
    ("five-card lead=ace", {"lead": "ace"}, 50),
    ("five-card lead=classic void=trump_to_win", {"lead": "classic", "void": "trump_to_win"}, 50),
    ("five-card lead=trump 4 players", {"lead": "trump", "players": 4}, 40),
]


@pytest.mark.parametrize("entry", FIVE_CARD, ids=[e[0] for e in FIVE_CARD])
def test_five_card_kernel_matches_reference(entry, five_card_tally):
    name, overrides, count = entry
    tally: Counter = Counter()
    families = ["basic", "cautious", "always"]
    _agree(sample_positions(len(name) * 13 + 3, "five-card", overrides, [0.0, 5.0], families, count, _five_card_pick),
           tally)  # fmt: skip
    assert tally["positions"] == count and tally["mid-trick"] >= count // 3, tally
    five_card_tally.update(tally)


@pytest.fixture(scope="module")
def five_card_tally():
    tally: Counter = Counter()
    yield tally
    if tally["positions"] == sum(e[2] for e in FIVE_CARD):  # every entry ran: the situations were met
        assert tally["first lead"] >= 10 and tally["civil"] >= 3, tally
        assert tally["ace of trumps and Pam in play"] >= 3, tally


def test_five_card_whole_deals_from_the_first_lead():
    """Five seats in the deal, from the first lead: the whole search (the reference takes
    about half a second a position)."""
    rng = random.Random(5)
    rules = Rules.preset("five-card")
    done = 0
    while done < 3:
        deck = list(range(52))
        rng.shuffle(deck)
        positions, _ = reference_positions(rules, deck, done, 0.0, [Policy.parse("always")] * rules.players)
        if not positions or len(positions[0].seats) != rules.players:
            continue
        pos = positions[0]
        assert kernel.solve(pos) == reference.solve(pos)
        assert kernel.best_card(pos) == reference.best_card(pos)
        done += 1


def test_engine_playing_the_kernel_reaches_the_solved_tricks():
    """Subgame perfection, with the kernel's best_card as the engine's card hook."""
    rng = random.Random(8)
    for preset in ("three-card", "irish", "classic-limited", "five-card"):
        rules = Rules.preset(preset)
        for _ in range(10):
            deck = list(range(52))
            rng.shuffle(deck)
            policies = [Policy.parse("always")] * rules.players
            positions, _ = reference_positions(rules, deck, 0, 2.0, policies)
            if not positions:
                continue
            rec = play_deal_reference(rules, deck, 0, 2.0, policies, card_hook=kernel.best_card)
            assert kernel.solve(positions[0]) == {s: rec.tricks_won[s] for s in positions[0].seats}


def test_encoding_rejects_positions_without_a_card_to_play():
    rules = Rules.preset("three-card", players=3)
    pos = Position(rules=rules, seats=(0, 1), hands={0: (), 1: ()}, leader=0, trick=(), trick_index=3,
                   tricks_won={0: 2, 1: 1}, trump=0, mode=Trump.TURN_UP, indicator=1, turned_up=1, civil=False,
                   renounced=False, single_pot=False, pot_start=3.0, penalty=3.0, defender=None)  # fmt: skip
    with pytest.raises(ValueError):
        kernel.encode_position(pos)


def test_shortcuts_change_nothing():
    """Merging equivalent cards, the transposition table and the cut only save work: with
    each turned off the kernel gives the same counts and the same card, on whole five-card
    deals of five seats from the first lead and on three-card ones (where merging, with
    more seats than cards, has the most to skip)."""
    import numpy as np

    from loo_sim.kernel import solver as K
    from loo_sim.run.args import rules_arrays

    rng = random.Random(21)
    for preset, count in (("five-card", 15), ("three-card", 300), ("irish", 200), ("classic-limited", 200)):
        rules = Rules.preset(preset)
        encoded = []
        while len(encoded) < count:
            deck = list(range(52))
            rng.shuffle(deck)
            positions, _ = reference_positions(rules, deck, len(encoded) % 5, 3.0, [Policy.parse("always")] * 5)
            if positions:
                encoded.append(kernel.encode_position(positions[rng.randrange(min(len(positions), 6))]))
        pis, pfs = np.array([e[0] for e in encoded]), np.array([e[1] for e in encoded])
        ri, _ = rules_arrays(rules)
        ws = K.workspace()
        answers = []
        for flags in (0, K.NO_MERGE, K.NO_TT, K.NO_CUT, K.NO_MERGE | K.NO_TT | K.NO_CUT):
            ws[1][K.ST_FLAGS] = flags
            out = np.zeros((count, 3), dtype=np.int64)
            K.solve_many(pis, pfs, ri, *ws, out)
            answers.append(out[:, :2].copy())
        for other in answers[1:]:
            assert (other == answers[0]).all(), preset


def test_solve_many_every_card_solves_as_card_values():
    """``solve_many`` with ``every_card`` (pimc's solve of a sample, timed by
    scripts/bench_solver.py by trick): each position's legal cards are as many as the
    reference's ``card_values`` reports, and its counts are the reference's ``solve``."""
    import numpy as np

    from loo_sim.kernel import solver as K
    from loo_sim.run.args import rules_arrays

    rng = random.Random(5)
    for preset, players, first_trick in (("three-card", 5, 0), ("five-card", 4, 2)):
        rules = Rules.preset(preset, players=players)
        picked = []
        while len(picked) < 60:
            deck = list(range(52))
            rng.shuffle(deck)
            positions, _ = reference_positions(rules, deck, len(picked) % players, 3.0,
                                               [Policy.parse("basic")] * players)  # fmt: skip
            picked += [pos for pos in positions if pos.trick_index >= first_trick][:3]
        encoded = [kernel.encode_position(pos) for pos in picked]
        pis, pfs = np.array([e[0] for e in encoded]), np.array([e[1] for e in encoded])
        ri, _ = rules_arrays(rules)
        out = np.zeros((len(picked), 3), dtype=np.int64)
        K.solve_many(pis, pfs, ri, *K.workspace(), out, True)
        for j, pos in enumerate(picked):
            assert out[j, 1] == len(reference.card_values(pos)), pos
            assert dict(zip(pos.seats, K.counts(out[j, 0], len(pos.seats)), strict=True)) == reference.solve(pos), pos
