"""Unlimited pots said honestly (issue #31 item 8): the pots study's quantiles of pots past
10^16 against an independent count of the same sessions, made by the reference engine."""

import numpy as np
import pytest

from loo_sim import Rules
from loo_sim.analysis.pots import balances, bin_edges, pot_by_deal
from loo_sim.game import abi as L
from loo_sim.game.policy import parse_table
from loo_sim.run.api import play_session
from loo_sim.run.sessions import Arm, run_pots

QCOLS = {0.05: "q05", 0.25: "q25", 0.5: "q50", 0.75: "q75", 0.95: "q95"}


@pytest.fixture(scope="module")
def always_in():
    """Three-card, everyone always in: the pot multiplies by the looed count (2 or more) each
    deal, passing 10^16 near deal 30 and 10^25 by deal 55. The kernel's aggregates and the
    reference engine's sessions on the same decks (seed 7, sessions 0..199)."""
    rules = Rules.preset("three-card")
    sessions, deals, seed = 200, 60, 7
    res = run_pots([Arm("x", rules, parse_table("always", 5))], sessions, deals, seed)
    ref = [play_session(rules, "always", deals, seed=seed, session=i) for i in range(sessions)]
    return res, ref


def test_pot_quantiles_past_1e16_are_within_the_bin_bound_of_an_independent_count(always_in):
    # Every pot at the start of every deal, from the reference engine's records, and numpy's
    # quantile of them (the same definition: the smallest value reaching q). Bins a decade
    # wide past 10^16 printed a median of 3.19e19 where this count gives 1.43e19.
    res, ref = always_in
    table = pot_by_deal(res).set_index("deal")
    checked = 0
    for j in range(res.deals):
        pots = np.array([s.deals[j].pot_start for s in ref if len(s.deals) > j])
        for q, col in QCOLS.items():
            expected = np.quantile(pots, q, method="inverted_cdf")
            if expected > 1e16:
                checked += 1
                assert abs(table.loc[j, col] / expected - 1) < 0.075, (j, col, table.loc[j, col], expected)
    assert checked >= 100


def test_balance_quantiles_past_1e16_are_within_the_bin_bound(always_in):
    res, ref = always_in
    finals = np.array([s.balances for s in ref])
    table = balances(res).set_index("seat")
    for seat in range(5):
        for q, col in QCOLS.items():
            expected = np.quantile(finals[:, seat], q, method="inverted_cdf")
            assert abs(expected) > 1e16
            assert abs(table.loc[seat, col] / expected - 1) < 0.075, (seat, col, table.loc[seat, col], expected)


def test_bins_are_32_per_decade_at_every_size_and_the_numpy_twin_agrees():
    from loo_sim.kernel.bins import pot_bin
    from loo_sim.run.session_pots import pot_bins

    edges = bin_edges()
    ratio = edges[2:-1] / edges[1:-2]
    assert np.allclose(ratio, 10 ** (1 / 32), rtol=1e-9)  # the same width from 1 to the top
    assert edges[-2] == L.POT_TOP and edges[-1] == np.inf
    # a session stops once its pot passes OVERFLOW_LIMIT; a deal multiplies it by at most
    # 1 + MAX_PLAYERS; a balance adds at most MAX_SESSION_DEALS such pots
    from loo_sim.base.checks import MAX_SESSION_DEALS

    assert L.OVERFLOW_LIMIT * (1 + L.MAX_PLAYERS) * MAX_SESSION_DEALS < L.POT_TOP
    rng = np.random.default_rng(5)
    amounts = np.concatenate([10 ** rng.uniform(-1, 115, 4000), 10.0 ** np.arange(0, 113), [0.0, 1.0, 1e300, np.inf]])
    assert list(pot_bins(amounts)) == [pot_bin(float(x)) for x in amounts]
