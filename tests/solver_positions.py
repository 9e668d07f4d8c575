"""Random positions of trick play for the perfect-information solvers' tests
(tests/test_perfect_solver.py against the brute force, tests/test_kernel_solver.py the
kernel against the reference): positions taken from real reference deals of every preset
(``engine.deal.reference_positions``, the engine's card hook), so they hold every
situation the engine reaches: trumps unknown, single pots, Pam be civil, first_lead,
first_renounce, defenders."""

from __future__ import annotations

import random

from loo_sim.engine.deal import reference_positions
from loo_sim.engine.solver import Position
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules

# (name, preset, overrides, carried pots, declaration families to draw from)
THREE_CARD = [
    ("three-card", "three-card", {}, [0.0, 3.0], ["always", "basic", "cautious"]),
    ("three-card lead=ace void=trump_to_win", "three-card", {"lead": "ace", "void": "trump_to_win"}, [0.0], ["always"]),
    ("three-card lead=classic", "three-card", {"lead": "classic"}, [6.0], ["always", "basic"]),
    ("irish", "irish", {}, [0.0, 6.0], ["always", "basic"]),
    ("irish-classic", "irish-classic", {}, [0.0, 3.0], ["always", "basic"]),
    ("classic-limited single", "classic-limited", {}, [0.0], ["always", "basic", "cautious"]),
    ("classic-limited double", "classic-limited", {}, [3.0, 6.0], ["cautious", "basic", "always"]),
    ("limited", "limited", {}, [0.0, 9.0], ["always", "basic"]),
    ("bold-stand", "bold-stand", {}, [0.0], ["basic", "cautious"]),
]
PER_THREE_CARD = 240  # positions per entry: 9 * 240 = 2160
PER_FIVE_CARD = 320


def policies_for(rng: random.Random, families: list[str], players: int) -> list[Policy]:
    return [Policy.parse(f"{rng.choice(families)}/{rng.choice(['basic', 'high', 'low'])}") for _ in range(players)]


def sample_positions(seed: int, preset: str, overrides: dict, carried: list[float], families: list[str], count: int,
               pick):  # fmt: skip
    """``count`` (deal, prefix, position) from random reference deals; ``pick(rng, positions,
    seats)`` chooses how many cards into the deal (None: skip that deal)."""
    rng = random.Random(seed)
    rules = Rules.preset(preset, **overrides)
    out = []
    while len(out) < count:
        deck = list(range(52))
        rng.shuffle(deck)
        dealer, pot = rng.randrange(rules.players), rng.choice(carried)
        policies = policies_for(rng, families, rules.players)
        positions, rec = reference_positions(rules, deck, dealer, pot, policies)
        if not positions:
            continue
        k = pick(rng, positions, len(positions[0].seats))
        if k is None:
            continue
        prefix = [card for trick in rec.tricks for _, card in trick.cards][:k]
        out.append(((rules, deck, dealer, pot, policies), prefix, positions[k]))
    return out


def three_card_pick(rng: random.Random, positions: list[Position], seats: int) -> int:
    u = rng.random()
    if u < 0.17:
        return 0  # from the first lead
    if u < 0.6:
        return rng.randint(1, min(4, len(positions) - 1))  # mid-deal, the first trick or two
    return rng.randint(5, len(positions) - 1) if len(positions) > 5 else len(positions) - 1


def five_card_pick(rng: random.Random, positions: list[Position], seats: int) -> int | None:
    if seats == 2 and rng.random() < 0.6:
        return 0  # two seats: the whole deal is small enough for the brute force
    u = rng.random()
    tricks_left = 4 if seats <= 3 and u < 0.2 else 3 if u < 0.4 else 2
    start = (5 - tricks_left) * seats
    return rng.randint(start, len(positions) - 1)
