"""The solver's oracle (kernel/equilibrium.py) against the reference engine (P4, P6): on the
same deals, every seat's payoff under every declaration on offer, keyed by the
information set it declared at, must be what full replays of the readable engine give
with that declaration forced; and a response's gain, deal by deal, likewise. Tables with
strategy-table seats (mixed rows draw from the seats' streams), random card play, a
carried pot under the limited penalty (pot buckets) and the dealer's defence."""

from collections import defaultdict

import numpy as np
import pytest

from loo_sim.base.rng import seat_streams, shuffled_deck
from loo_sim.engine.deal import play_deal_reference
from loo_sim.game import abi as L
from loo_sim.game.cards import suit_of
from loo_sim.game.classes import hand_class
from loo_sim.game.decl import DECL_NAMES
from loo_sim.game.infosets import N_INFOSETS, seat_infoset
from loo_sim.game.policy import Policy
from loo_sim.game.ranking import TrumpState
from loo_sim.game.rules import Penalty, Rules, Trump
from loo_sim.kernel.equilibrium import E_DEALS, E_GAIN, E_GAIN_SQ, E_VALUE
from loo_sim.run.equilibrium import E_TABLE, infoset_cells, response_gains
from tests.dealgen import SYNTHETIC_TABLE, TABLES

SEED, SESSION, DEALS = 11, 2**61 + 2**40 + 5, 120
CASES = {
    "three-card": (Rules.preset("three-card"), 0.0),
    "classic-limited, carried 6": (Rules.preset("classic-limited", players=4), 6.0),
    "limited, carried 30": (Rules.preset("limited", players=6), 30.0),
    "five-card": (Rules.preset("five-card", players=4), 0.0),
}


def _table(rules: Rules) -> list[Policy]:
    kinds = [Policy("table", "basic", "basic", table=SYNTHETIC_TABLE), Policy("basic", "random"),
             Policy("table", "random", "basic", table=SYNTHETIC_TABLE), Policy("cautious")]  # fmt: skip
    return [kinds[s % len(kinds)] for s in range(rules.players)]


def _play(rules, table, k, carried, forced=None):
    deck = shuffled_deck(SEED, k, SESSION)
    draws = seat_streams(SEED, k, table, SESSION)
    return play_deal_reference(rules, deck, k % rules.players, carried, table, draws, forced=forced, tables=TABLES)


def _key(rules: Rules, rec, seat: int, order: list[int]) -> int:
    """The information set of ``seat`` in the reference record, from what it could see."""
    turned = rules.trump is Trump.TURN_UP and not rec.single_pot
    ts = TrumpState(suit_of(rec.indicator) if turned else None, rules.pam)
    position = order.index(seat) + 1
    already_in = sum(rec.declarations[s] != "pass" for s in order[: position - 1])
    mask = sum(1 << DECL_NAMES.index(a) for a in rec.trace.options[seat])
    penalty = rec.pot_start if rules.penalty is Penalty.UNLIMITED else rules.penalty_amount
    return seat_infoset(hand_class(rec.trace.hands[seat], ts), position, already_in, mask, rec.pot_start, penalty)


def _reference_pays(rules, table, carried):
    """Per deal: [(seat, key, chosen, {action: payoff})] for every seat with a real choice."""
    n = rules.players
    out = []
    for k in range(DEALS):
        base = _play(rules, table, k, carried)
        order = [(k % n + 1 + i) % n for i in range(n)]
        decisions = []
        for seat in order:
            offered = base.trace.options.get(seat, [])
            if len(offered) < 2:
                continue
            chosen = base.declarations[seat]
            pays = {}
            for action in offered:
                rec = base if action == chosen else _play(rules, table, k, carried, forced=(seat, action))
                pays[action] = rec.shares[seat] - rec.antes[seat] - rec.penalties[seat]
            decisions.append((seat, _key(rules, base, seat, order), chosen, pays))
        out.append(decisions)
    return out


@pytest.fixture(scope="module", params=list(CASES))
def case(request):
    rules, carried = CASES[request.param]
    table = _table(rules)
    return rules, carried, table, _reference_pays(rules, table, carried)


def test_infoset_cells_are_the_reference_engines_replays_p6(case):
    rules, carried, table, reference = case
    cells = infoset_cells(rules, table, DEALS, SEED, SESSION, carried, TABLES).pooled
    want = np.zeros((N_INFOSETS, L.CF_LEN))
    for decisions in reference:
        for _, key, chosen, pays in decisions:
            cell = want[key]
            cell[L.CF_CHOSEN + DECL_NAMES.index(chosen)] += 1
            for action, pay in pays.items():
                a = DECL_NAMES.index(action)
                cell[L.CF_N + a] += 1
                cell[L.CF_SUM + a] += pay
                cell[L.CF_SQ + a] += pay * pay
    cols = [*range(L.CF_N, L.CF_N + 4), *range(L.CF_SUM, L.CF_SUM + 4), *range(L.CF_SQ, L.CF_SQ + 4),
            *range(L.CF_CHOSEN, L.CF_CHOSEN + 4)]  # fmt: skip
    assert want[:, L.CF_CHOSEN :].sum() > DEALS  # the spread has decisions to compare
    met = np.flatnonzero(want[:, L.CF_N : L.CF_N + 4].sum(axis=1))
    assert np.array_equal(met, np.flatnonzero(cells[:, L.CF_N : L.CF_N + 4].sum(axis=1))), "keys differ"
    np.testing.assert_allclose(cells[:, cols], want[:, cols], rtol=1e-12, atol=1e-9)


def test_response_gains_are_the_reference_engines_deal_by_deal_p6(case):
    rules, carried, table, reference = case
    gen = np.random.default_rng(3)
    response = gen.integers(-1, 4, size=N_INFOSETS)  # an arbitrary response; actions not on offer are ignored
    sums = response_gains(rules, table, response, DEALS, SEED, SESSION, carried, TABLES)
    n = rules.players
    gain_pos, value_pos = defaultdict(float), defaultdict(float)
    total, total_sq = 0.0, 0.0
    for k, decisions in enumerate(reference):
        order = [(k % n + 1 + i) % n for i in range(n)]
        base = _play(rules, table, k, carried)
        deal_gain = 0.0
        for seat in range(n):
            value_pos[order.index(seat) + 1] += base.shares[seat] - base.antes[seat] - base.penalties[seat]
        for seat, key, chosen, pays in decisions:
            a = int(response[key])
            action = DECL_NAMES[a] if a >= 0 else None
            gain = pays[action] - pays[chosen] if action in pays and action != chosen else 0.0
            gain_pos[order.index(seat) + 1] += gain
            deal_gain += gain
        total += deal_gain
        total_sq += deal_gain * deal_gain
    assert sums[E_TABLE, E_DEALS] == DEALS
    assert sums[E_TABLE, E_GAIN] == pytest.approx(total, abs=1e-9)
    assert sums[E_TABLE, E_GAIN_SQ] == pytest.approx(total_sq, abs=1e-6)
    for p in range(1, n + 1):
        assert sums[p, E_GAIN] == pytest.approx(gain_pos[p], abs=1e-9), f"position {p}"
        assert sums[p, E_VALUE] == pytest.approx(value_pos[p], abs=1e-9), f"position {p}"
    assert any(g != 0.0 for g in gain_pos.values())  # the response differs somewhere
