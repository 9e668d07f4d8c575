"""A decision replayed from where it was taken (P4, kernel/counterfactual.py) must give the
deal a full replay with the same forced declaration gives: every field of the record.
Checked on many deals of every preset, for every seat and every declaration on offer."""

import numpy as np
import pytest
from numba import njit

from loo_sim.base.rng import MASK64, MISS_SESSION
from loo_sim.game import abi as L
from loo_sim.game.policy import parse_table
from loo_sim.game.rules import PRESETS, Rules
from loo_sim.kernel.cardplay import workspace_for
from loo_sim.kernel.deal import begin_deal, finish_deal, play_deal, rewind_deal
from loo_sim.kernel.scratch import deal_scratch, deck_cards_needed, position_of, prepare_deal
from loo_sim.run.args import kernel_args


@njit(cache=True)
def _played_slot(x, oi):
    """Whether slot x of a record holds something of this deal (trick slots past the
    tricks played, or past the seats in the deal, keep an earlier deal's values)."""
    if x >= L.O_SEATS:
        trick, k = divmod((x - L.O_SEATS) % (L.MAX_TRICKS * L.MAX_PLAYERS), L.MAX_PLAYERS)
        return trick < oi[L.O_NTRICKS] and k < oi[L.O_NIN]
    if x >= L.O_LEADER:
        return (x - L.O_LEADER) % L.MAX_TRICKS < oi[L.O_NTRICKS]
    return True


@njit(cache=True)
def _replay_mismatches(ri, rf, pol, polf, strength, tables, solver, seed, deals, carried):
    """(replays compared, the first deal/seat/action whose records differ, or -1s). Per deal:
    every (seat, declaration on offer) played in full with that declaration forced, then
    the same replayed from the decision, one after another after one baseline, as
    decision_block does."""
    n = ri[L.R_PLAYERS]
    deck, sc, seat_keys, oi, of = deal_scratch()
    ws = workspace_for(solver)
    need = deck_cards_needed(ri)
    full_i = np.zeros((n, L.ACTIONS, L.O_LEN), dtype=np.int64)
    full_f = np.zeros((n, L.ACTIONS, L.F_LEN), dtype=np.float64)
    options = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    decls = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    compared = 0
    for k in range(deals):
        dealer = k % n
        prepare_deal(seed, np.uint64(MISS_SESSION), k, deck, need, n, seat_keys, True, sc)
        for seat in range(n):
            for action in range(L.ACTIONS):
                play_deal(ri, rf, pol, polf, strength, tables, ws, deck, dealer, carried, seat_keys, sc, oi, of, seat,
                          action)  # fmt: skip
                full_i[seat, action] = oi
                full_f[seat, action] = of
        begin_deal(ri, rf, deck, dealer, carried, sc, oi, of)
        finish_deal(ri, rf, pol, polf, strength, tables, ws, deck, dealer, carried, seat_keys, sc, oi, of, 0,
                    L.NO_FORCING, L.NO_ACTION)  # fmt: skip
        for s in range(n):
            options[s] = oi[L.O_OPTIONS + s]
            decls[s] = oi[L.O_DECL + s]
        for seat in range(n):
            for action in range(L.ACTIONS):
                if not (options[seat] >> action) & 1:
                    continue  # not on offer: never replayed
                first_i = position_of(seat, dealer, n) - 1
                rewind_deal(ri, first_i, decls, options, sc, oi, of)
                finish_deal(ri, rf, pol, polf, strength, tables, ws, deck, dealer, carried, seat_keys, sc, oi, of,
                            first_i, seat, action)  # fmt: skip
                compared += 1
                for x in range(L.O_LEN):
                    if oi[x] != full_i[seat, action, x] and _played_slot(x, oi):
                        return compared, k, seat, action, x
                for x in range(L.F_LEN):
                    if of[x] != full_f[seat, action, x]:
                        return compared, k, seat, action, 1000 + x
    return compared, -1, -1, -1, -1


AT_TURN = {"exchange_timing": "at_turn"}  # R9c: the earlier seats' exchanges are redone in a replay
CASES = [(p, "basic", 0.0, {}) for p in PRESETS] + [
    ("three-card", "basic/random", 0.0, {}),
    ("five-card", "cautious/random/keep-trumps", 0.0, {}),
    ("classic-limited", "basic", 9.0, {}),  # a carried pot: a double pot with the dealer's defence
    ("irish-classic", "always/random", 4.0, {}),
    ("five-card", "cautious/random/keep-trumps", 0.0, AT_TURN),
    ("five-card", "basic", 0.0, AT_TURN | {"players": 8}),  # a short stock: later seats draw what is left
    ("irish-classic", "basic/random", 4.0, AT_TURN),
    ("irish-classic", "cautious/basic/flush-chase", 0.0, AT_TURN | {"players": 3}),
    ("three-card", "basic/pimc:2", 0.0, {}),  # P8: a replay restarts the seats' streams as a fresh deal does
    ("limited", "always/perfect", 15.0, {}),
]


@pytest.mark.parametrize("preset, policy, carried, overrides", CASES)
def test_replay_from_the_decision_equals_a_full_replay(preset, policy, carried, overrides):
    rules = Rules.preset(preset, **overrides)
    a = kernel_args(rules, parse_table(policy, rules.players))
    compared, *where = _replay_mismatches(a.ri, a.rf, a.pol, a.polf, a.strength, a.tables, a.solver,
                                          np.uint64(7 & MASK64), 400, carried)  # fmt: skip
    assert where == [-1, -1, -1, -1], f"deal, seat, action, slot: {where}"
    assert compared > 400  # every seat has at least one declaration on offer
