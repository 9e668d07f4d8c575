"""The solver's estimators against values worked out by hand (docs/policies.md P6).

- ``cell_gains``: what declaring by a response instead of the played strategy gains per
  deal, and its standard error, from small fixed cells (the variance is E[x^2] - mean^2);
- the convergence estimate (``_convergence_row``): the response picked on one half of the
  iteration's deals is judged on the other half, both ways, each half of ``deals / 2``;
- the first average update of ``solve``: the start policy stays in the average with the
  weight the averaging gives it (uniform: the plain mean of the start and the best
  responses; linear: the start counts once, the first best response twice);
- ``nash_conv``: the response is judged on fresh deals, not on the deals that picked it
  (on those, its gain is the in-sample gain, which the pick's own cells give exactly).

The cells are built here from per-decision payoffs, by the layout ``game/abi.py``
documents (``CF_*``), not by the kernel.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from loo_sim.base.config import BLOCK
from loo_sim.base.stats import Z95
from loo_sim.game import abi as L
from loo_sim.game.infosets import N_INFOSETS, SITUATION_LABELS, infoset_index, infoset_parts
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules
from loo_sim.solve.declarations import MIN_DEALS, _convergence_row, cell_gains, nash_conv, solve
from tests.test_strategy_table import basic_action

PASS, PLAY, MISS = 0, 1, 2
PLAY_PASS = SITUATION_LABELS.index("play/pass")
PLAY_PASS_MISS = SITUATION_LABELS.index("play/pass/miss")
# two information sets: class 3 at position 1, class 7 at position 2 (nobody in before, first pot bucket)
AT_1 = infoset_index(3, 1, 0, PLAY_PASS, 0)
AT_2 = infoset_index(7, 2, 0, PLAY_PASS_MISS, 0)


def cells_of(payoffs: dict[int, dict[int, list[float]]]) -> np.ndarray:
    """[N_INFOSETS, CF_LEN] sums from ``payoffs[infoset][action]`` = the payoff of that action
    at each decision (every action on offer is measured on every decision, as the
    solver's replays do): counts, sums, squares, and for each pair (a, b) of actions the
    sum and square of payoff(a) - payoff(b)."""
    cells = np.zeros((N_INFOSETS, L.CF_LEN))
    for key, by_action in payoffs.items():
        pay = {a: np.asarray(v, dtype=float) for a, v in by_action.items()}
        for a, v in pay.items():
            cells[key, L.CF_N + a] = len(v)
            cells[key, L.CF_SUM + a] = v.sum()
            cells[key, L.CF_SQ + a] = (v * v).sum()
        for p, (a, b) in enumerate(L.PAIRS):
            if a in pay and b in pay:
                diff = pay[a] - pay[b]
                cells[key, L.CF_PAIR_N + p] = len(diff)
                cells[key, L.CF_PAIR_SUM + p] = diff.sum()
                cells[key, L.CF_PAIR_SQ + p] = (diff * diff).sum()
    return cells


def strategy(rows: dict[int, list[float]]) -> np.ndarray:
    """[N_INFOSETS, 4]: the given rows, NaN (never met) elsewhere."""
    out = np.full((N_INFOSETS, 4), np.nan)
    for key, row in rows.items():
        out[key] = row
    return out


# ---- cell_gains ---------------------------------------------------------------------------------
def test_cell_gains_of_fixed_cells_worked_by_hand():
    """4 deals, 3 players.

    Position 1 (AT_1, play/pass): the table passes; the response plays. Decisions:
    pass pays 1, 0, -1, 0 and play 3, -1, 2, 0, so the gains x = play - pass are
    2, -1, 3, 0: mean 4/4 = 1, E[x^2] = 14/4, variance 14/4 - 1 = 5/2, se sqrt(5/2 / 4).

    Position 2 (AT_2, play/pass/miss): the table mixes pass and play half and half; the
    response takes the miss. Two decisions: pass 0, 0; play 4, -2; miss 1, 1, so
    x = miss - (pass + play) / 2 = 1 - 2, 1 + 1 = -1, 2 over 4 deals (on the other two
    the position never decided: gain 0): mean 1/4, E[x^2] = 5/4, variance
    5/4 - 1/16 = 19/16, se sqrt(19/16 / 4).

    Position 3 never decided: 0 and 0. Without the -mean^2 term the errors would be
    sqrt(14/16) and sqrt(5/16): too wide.
    """
    cells = cells_of({AT_1: {PASS: [1, 0, -1, 0], PLAY: [3, -1, 2, 0]},
                      AT_2: {PASS: [0, 0], PLAY: [4, -2], MISS: [1, 1]}})  # fmt: skip
    played = strategy({AT_1: [1, 0, 0, 0], AT_2: [0.5, 0.5, 0, 0]})
    response = np.full(N_INFOSETS, -1)
    response[AT_1], response[AT_2] = PLAY, MISS
    means, ses = cell_gains(cells, response, played, 4, 3)
    np.testing.assert_allclose(means, [1.0, 0.25, 0.0], atol=1e-12, err_msg="mean gain per deal by position")
    np.testing.assert_allclose(ses, [math.sqrt(5 / 2 / 4), math.sqrt(19 / 16 / 4), 0.0], atol=1e-12,
                               err_msg="standard error by position: sqrt((E[x^2] - mean^2) / deals)")  # fmt: skip


def test_cell_gains_of_a_response_that_is_the_table_is_zero():
    cells = cells_of({AT_1: {PASS: [1, 0, -1, 0], PLAY: [3, -1, 2, 0]}})
    response = np.full(N_INFOSETS, -1)
    response[AT_1] = PASS
    means, ses = cell_gains(cells, response, strategy({AT_1: [1, 0, 0, 0]}), 4, 3)
    assert list(means) == [0.0, 0.0, 0.0] and list(ses) == [0.0, 0.0, 0.0]


# ---- the convergence estimate -------------------------------------------------------------------
def test_convergence_row_picks_on_one_half_and_judges_on_the_other():
    """8 deals, two halves of 4; the table passes at both information sets.

    Position 1 (AT_1): pass pays 0 throughout; play pays 3, -1, 2, 0 in half 0 (mean 1:
    half 0 picks play) and -1, -2, 1, 0 in half 1 (mean -1/2: half 1 picks pass).
    - picked on half 0 (play), judged on half 1: x = -1, -2, 1, 0 over 4 deals: mean
      -1/2, variance 6/4 - 1/4 = 5/4, se sqrt(5/16);
    - picked on half 1 (pass, the table's own action), judged on half 0: 0, se 0.
    Position 1: (-1/2 + 0) / 2 = -1/4, se sqrt(5/16) / 2.

    Position 2 (AT_2, the miss on offer but never better): pass 0; play 4, 0 in half 0
    and 1, 1 in half 1 (both halves pick play); the miss pays -5 throughout.
    - half 0's pick judged on half 1: x = 1, 1 over 4 deals: mean 1/2, variance
      2/4 - 1/4 = 1/4, se 1/4;
    - half 1's pick judged on half 0: x = 4, 0: mean 1, variance 16/4 - 1 = 3, se
      sqrt(3/4).
    Position 2: (1/2 + 1) / 2 = 3/4, se (1/4 + sqrt(3)/2) / 2.

    NashConv 1/2; its interval adds the positions' half-widths. Judged on the half that
    picked, it would be 1/2 + 3/4 = 5/4; divided by all 8 deals, 1/4.
    """
    half0 = cells_of({AT_1: {PASS: [0, 0, 0, 0], PLAY: [3, -1, 2, 0]},
                      AT_2: {PASS: [0, 0], PLAY: [4, 0], MISS: [-5, -5]}})  # fmt: skip
    half1 = cells_of({AT_1: {PASS: [0, 0, 0, 0], PLAY: [-1, -2, 1, 0]},
                      AT_2: {PASS: [0, 0], PLAY: [1, 1], MISS: [-5, -5]}})  # fmt: skip
    played = strategy({AT_1: [1, 0, 0, 0], AT_2: [1, 0, 0, 0]})
    row = _convergence_row(5, np.stack([half0, half1]), played, 8, 3)
    se = math.sqrt(5 / 16) / 2 + (1 / 4 + math.sqrt(3) / 2) / 2
    assert row["iteration"] == 5
    assert row["nashconv"] == pytest.approx(0.5, abs=1e-12), "picked on one half, judged on the other, of 4 deals"
    assert row["nashconv_lo"] == pytest.approx(0.5 - Z95 * se, abs=1e-12)
    assert row["nashconv_hi"] == pytest.approx(0.5 + Z95 * se, abs=1e-12)


# ---- the first average update -------------------------------------------------------------------
RULES = Rules.preset("three-card")


def stopped_after_the_first_update(averaging: str) -> np.ndarray:
    res = solve(RULES, Policy.parse("basic"), 3, MIN_DEALS, 7, averaging=averaging, stop=lambda row: True)
    assert len(res.convergence) == 1  # the start's iteration only
    return res.strategy


@pytest.mark.parametrize(("averaging", "start_weight"), [("uniform", 1 / 2), ("linear", 1 / 3)])
def test_the_start_policy_survives_the_first_update(averaging, start_weight):
    """P6: with uniform averaging the average is the plain mean of the start and the best
    responses, so after the first best response the start weighs 1/2; with linear
    averaging iteration t counts t times, the start once and the first response twice:
    1/3. ``basic`` (the start) is pure at every information set, so every row the start
    met is start_weight on basic's action plus the rest on the best response: where the
    two differ, a mixed row with exactly start_weight on basic's action. Rows the start
    never met (from the exploring deals only) are the best response alone."""
    table = stopped_after_the_first_update(averaging)
    rows = np.flatnonzero(~np.isnan(table[:, 0]))
    assert len(rows) > 100
    np.testing.assert_allclose(table[rows].sum(axis=1), 1.0, atol=1e-12)
    mixed = [k for k in rows if table[k].max() < 1.0]
    assert len(mixed) >= 20, f"{len(mixed)} mixed rows: the start left no trace in the average ({averaging})"
    for k in mixed:
        cls, _, _, situation, _ = infoset_parts(k)
        start = basic_action(cls, situation)
        assert table[k, start] == pytest.approx(start_weight, abs=1e-12), (k, table[k], start)
        others = np.delete(table[k], start)
        assert sorted(others) == pytest.approx([0, 0, 1 - start_weight], abs=1e-12), (k, table[k])


# ---- nash_conv judges on fresh deals --------------------------------------------------------------
def test_nash_conv_judges_the_response_on_deals_that_did_not_pick_it():
    """The response is the best action of each information set on the picking deals
    (``values``, decisions ``met``). Judged on those same deals, ``basic`` (pure) would
    lose at each information set exactly its value there against the best:
    sum over information sets of met * (max_a q_a - q_basic) / deals, by position, which
    is at least 0 everywhere and biased upwards by the pick. Judged on fresh deals (the
    docstring's "a second set") it is another figure: equal to the in-sample one at
    every position only if the deals were the same."""
    deals = 2 * BLOCK
    table = [Policy.parse("basic")] * RULES.players
    e = nash_conv(RULES, table, deals, 11, "basic")
    q = e.values
    allowed = ~np.isnan(q)
    in_sample = np.zeros(RULES.players)
    for k in np.flatnonzero(e.met > 0):
        cls, position, _, situation, _ = infoset_parts(k)
        best = q[k][allowed[k]].max()
        in_sample[position - 1] += e.met[k] * (best - q[k, basic_action(cls, situation)]) / deals
    assert (in_sample >= 0).all() and in_sample.sum() > 0
    assert e.deals == deals
    assert not np.allclose(e.gain, in_sample, rtol=1e-6, atol=1e-9), (
        f"the gain by position {e.gain} is the in-sample gain {in_sample}: judged on the deals that picked it"
    )
