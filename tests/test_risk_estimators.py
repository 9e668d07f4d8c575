"""The risk study's estimators from their definitions (R10; analysis/risk.py, run/risk.py).

- ``bankroll_for_risk``: the smallest bankroll of the grid whose risk is at most the
  target, and the smallest whose *upper* 95% bound (Wilson) is: worked by hand from fixed
  ruin counts;
- the N0 of the lead over ``basic`` from a real run: the lead is paired (the same decks
  for the policy and for basic at the focal seat, session by session), so its variance is
  the variance of the per-session differences; recomputed here from the sessions played
  one by one by the reference engine, not from the run's sums.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from loo_sim.analysis.risk import bankroll_for_risk, n0_table
from loo_sim.engine.session import play_session
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules
from loo_sim.run.risk import RiskResult, run_risk

RULES = Rules.preset("limited", players=4, final_pot="discard")
Z = 1.959963984540054  # the 97.5% normal quantile


def wilson_high(k: int, n: int) -> float:
    """The upper end of the Wilson score interval for k successes in n trials."""
    p = k / n
    centre = p + Z * Z / (2 * n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return (centre + half) / (1 + Z * Z / n)


def test_bankroll_for_a_risk_and_its_upper_bound_worked_by_hand():
    """1000 sessions; the policy's arm is ruined 500, 40, 20 and 3 times at bankrolls 10, 20,
    40 and 80. Risks 0.5, 0.04, 0.02, 0.003; the Wilson upper bounds are about 0.531,
    0.0540, 0.0307 and 0.0088.

    - 5%: the risk is at most 5% from 20 on; the upper bound only from 40 on (at 20 it is
      0.054 > 0.05), so bankroll 20, bankroll_upper_bound 40;
    - 1%: the risk is at most 1% at 80 only, and so is the upper bound: 80 and 80.
    The basic arm (ruined 900, 500, 300, 100 times) never gets below 5%: NaN throughout.
    """
    assert [round(wilson_high(k, 1000), 4) for k in (500, 40, 20, 3)] == [0.5309, 0.054, 0.0307, 0.0088]
    levels = np.array([10.0, 20.0, 40.0, 80.0])
    ruined = np.array([[500.0, 40.0, 20.0, 3.0], [900.0, 500.0, 300.0, 100.0]])
    res = RiskResult(RULES, [], 0, Policy.parse("cautious"), 1000, 10, 1, levels, ruined,
                     np.zeros((2, 4, 11)), np.zeros((2, 2)), np.zeros(2))  # fmt: skip
    table = bankroll_for_risk(res).set_index(["arm", "risk"])
    assert table.loc[("policy", 0.05), "bankroll"] == 20.0
    assert table.loc[("policy", 0.05), "bankroll_upper_bound"] == 40.0, "the upper bound comes from ci_high"
    assert table.loc[("policy", 0.01), "bankroll"] == 80.0
    assert table.loc[("policy", 0.01), "bankroll_upper_bound"] == 80.0
    assert table.loc["basic"].isna().all().all()


SESSIONS, DEALS, SEED, FOCAL = 40, 25, 5, 1


def test_n0_and_the_sd_per_deal_are_those_of_the_paired_lead_of_a_real_run():
    """The policy (``cautious``) and ``basic`` at seat 1 of a table of ``basic``, 40 sessions
    of 25 deals. Session k of each arm is played again by the reference engine; the lead
    of session k is the difference of seat 1's final balances, d_k = a_k - b_k. Then the
    lead per deal is mean(d) / 25, its variance per deal var(d) / 25 (var with n - 1),
    sd_per_deal its root and N0 = var per deal / lead per deal^2. Unpaired (the squares
    a_k^2 + b_k^2 in place of d_k^2) the variance would be larger by 2 mean(a b) / 25:
    the balances of the two arms on the same decks go together."""
    table = [Policy.parse("basic")] * RULES.players
    res = run_risk(RULES, table, FOCAL, Policy.parse("cautious"), SESSIONS, DEALS, SEED)
    assert res.sessions == SESSIONS and not res.partial
    arms = [list(table), list(table)]
    arms[0][FOCAL] = Policy.parse("cautious")
    finals = np.array([[play_session(RULES, arm, deals=DEALS, seed=SEED, session=k).balances[FOCAL]
                        for k in range(SESSIONS)] for arm in arms])  # fmt: skip
    d = finals[0] - finals[1]
    lead = d.mean() / DEALS
    var = d.var(ddof=1) / DEALS
    unpaired = ((finals**2).sum(axis=0).mean() - d.mean() ** 2) * SESSIONS / (SESSIONS - 1) / DEALS
    assert unpaired > 1.5 * var, "this run tells the paired variance from the unpaired one"
    row = n0_table(res).iloc[0]
    assert row.lead_per_deal == pytest.approx(lead, rel=1e-9)
    assert row.sd_per_deal == pytest.approx(math.sqrt(var), rel=1e-9), "the variance of the paired differences"
    assert row.n0 == pytest.approx(var / lead**2, rel=1e-9)
    assert row.sessions == SESSIONS and row.deals_per_session == DEALS
