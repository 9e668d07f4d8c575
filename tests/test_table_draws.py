"""A mixed strategy-table row with three actions is drawn at its own probabilities, in each
engine on its own (docs/policies.md P6, "Mixed rows"): one uniform u from the seat's
stream, and the first action, in the order pass, play, miss, defend, whose running sum of
probabilities exceeds u.

A row of two actions cannot tell the running sum from the bare probability (the second
action is also the last), so the rows here have three: pass 0.2, play 0.5, miss 0.3. Read
u < p instead of u < p_pass + ... + p, the draw would give pass 0.2, play 0.3 (u in
[0.2, 0.5)) and miss 0.5 (the last action takes the rest).

The seat at the dealer's left (position 1) always has play, pass and the miss on offer in
three-card Loo (nobody before it took the miss; bold stand binds only the last two), so
every deal gives one draw; the counts are judged by Pearson's chi-square with 2 degrees
of freedom, whose tail is exactly exp(-x/2): the bound below is exceeded by chance once in
a thousand runs (the seed is fixed, so the test is deterministic; with the bug the
statistic is near 60 at 300 draws).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from loo_sim import play_deals
from loo_sim.game.infosets import N_INFOSETS, SITUATION_LABELS, infoset_parts
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules
from loo_sim.run.records import shuffled_decks

RULES = Rules.preset("three-card")  # 5 players, the miss
ROW = {"pass": 0.2, "play": 0.5, "miss": 0.3}  # in table column order: pass, play, miss, defend
BOUND = -2 * math.log(1e-3)  # chi-square, 2 degrees of freedom: P(X > BOUND) = 1e-3
PATH = "three-actions.csv"
DEALS = {"kernel": 1200, "reference": 300}


def three_action_table() -> np.ndarray:
    """Every information set at position 1 with play/pass/miss on offer: ROW; nothing else."""
    table = np.full((N_INFOSETS, 4), np.nan)
    situation = SITUATION_LABELS.index("play/pass/miss")
    for k in range(N_INFOSETS):
        _, position, _, sit, _ = infoset_parts(k)
        if position == 1 and sit == situation:
            table[k] = [ROW["pass"], ROW["play"], ROW["miss"], 0.0]
    return table


def chi_square(counts: dict[str, int], probs: dict[str, float]) -> float:
    n = sum(counts.values())
    return sum((counts[a] - n * p) ** 2 / (n * p) for a, p in probs.items())


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_three_action_rows_are_drawn_at_their_probabilities(engine):
    n = DEALS[engine]
    decks = shuffled_decks(21, n)
    dealers = np.full(n, RULES.players - 1)  # seat 0 is at the dealer's left in every deal
    policy = [Policy("table", table=PATH)] + ["basic"] * (RULES.players - 1)
    records = play_deals(RULES, decks, dealers, None, policy, engine=engine, seed=21,
                         tables={PATH: three_action_table()})  # fmt: skip
    chose = [r.declarations[0] for r in records]
    counts = {a: chose.count(a) for a in ROW}
    assert sum(counts.values()) == n, f"seat 0 declared {set(chose)}: not only pass, play and miss"
    stat = chi_square(counts, ROW)
    shares = {a: round(c / n, 3) for a, c in counts.items()}
    assert stat < BOUND, f"{engine}: shares {shares} over {n} draws, not {ROW} (chi-square {stat:.1f})"
