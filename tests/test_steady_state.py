"""The steady state of sessions (docs/rules.md R3, R4, R8, R10; issue 17): the pots a
session run reports after its first deal follow from the outcome distribution of single
deals, measured apart from the sessions (other decks, each deal on its own, by
``play_deals`` with a chosen carried pot) and from the R3 events themselves (who was
looed, what a defender won, whether anybody contested the pot), not from the sessions'
pot amounts.

Standard errors. A session's deals are not independent of one another (each deal's
``carried`` is the last deal's ``pot_next``), so the session is the unit: the sessions
are played as ``BATCHES`` runs of ``run_pots`` on different seeds (their decks come from
disjoint streams, so the runs are independent), and the SE of a session share is the
spread of the runs' shares (batch means; each run holds the same number of whole
sessions). The independent deals are independent of one another (deal i from the stream
(seed, i)), so their shares have binomial SEs. Each comparison allows 4 combined SEs
(sqrt(se_session**2 + se_deals**2)). A correct tool fails one of the seven comparisons
below (five pots, two single-pot shares) with a probability of about 2e-3 at most: a
normal statistic passes 4 SE with probability 6e-5, and the batch SE, from 40 runs, gives
at worst a t tail with 39 degrees of freedom, 3e-4. Measured (seeds as below; session
share +- SE, deals' share +- SE): limited pots 15, 18, 21, 24, 27: 0.03326 +- 0.00028 /
0.03273 +- 0.00032, 0.20562 +- 0.00059 / 0.20550 +- 0.00074, 0.41440 +- 0.00071 /
0.41578 +- 0.00090, 0.29060 +- 0.00066 / 0.28984 +- 0.00083, 0.05612 +- 0.00039 /
0.05614 +- 0.00042 (|z| <= 1.23); classic-limited single pots among deals 1..24: basic
0.03136 +- 0.00024 / 0.03134 +- 0.00030 (z = 0.06), cautious 0.40659 +- 0.00034 /
0.40646 +- 0.00028 (z = 0.31).
"""

import math

import numpy as np
import pytest

from loo_sim import Rules
from loo_sim.game import abi as L
from loo_sim.game.policy import parse_table
from loo_sim.run.api import play_deals
from loo_sim.run.records import shuffled_decks
from loo_sim.run.sessions import Arm, run_pots

BATCHES = 40  # runs of run_pots, each on its own seed (the unit of the session SE)


def session_runs(rules, sessions, deals, first_seed, policy="basic"):
    """``BATCHES`` independent session runs of ``policy`` at every seat."""
    arm = Arm(policy, rules, parse_table(policy, rules.players))
    return [run_pots([arm], sessions, deals, seed=first_seed + b) for b in range(BATCHES)]


def batch_mean(values):
    """The mean of equal-sized batches' shares and its SE from their spread."""
    v = np.asarray(values, dtype=np.float64)
    return v.mean(), v.std(ddof=1) / math.sqrt(len(v))


def independent_deals(rules, count, seed, carried, policy="basic"):
    """``count`` independent deals (decks of ``simulate``'s streams for ``seed``, not the
    sessions' (seed, session, deal) streams), the dealer rotating, each with ``carried``
    chips carried in: one row per deal and seat (``records_frame``)."""
    decks = shuffled_decks(seed, count)
    dealers = np.arange(count) % rules.players
    return play_deals(rules, decks, dealers, np.full(count, float(carried)), policy).frame()


def per_deal(frame, players):
    """[deal, seat] arrays of the frame's per-seat columns, and its per-deal columns."""
    seat = {c: frame[c].to_numpy().reshape(-1, players) for c in ("declaration", "tricks_won", "looed")}
    deal = {c: frame[c].to_numpy()[::players] for c in ("pot_start", "pot_next", "single_pot")}
    return seat, deal


def test_r3_limited_stationary_pot_is_15_plus_3_times_the_looed_count_distribution():
    # Limited penalty (R3), five players, antes of 3 each: pot_start = carried + 15. What a
    # deal leaves for the next (R3's pot_next) is 3 per looed player + the shares nobody
    # took (none: the limited preset has no dealer's defence, R8, so every trick's share
    # goes to its winner) + a pot nobody contested (R4: all passed; then the whole
    # pot_start carries over). A lone player (R4) takes the pot, nobody is looed: 0 left.
    # With `basic` (P2) at every seat the "nobody" case cannot occur: the first seat whose
    # hand is not worth playing takes the miss (R5) and must play it, so the eldest hand
    # is always in. So pot_next = 3 * looed, deal for deal (asserted below on the
    # independent deals, from the looed flags and the declarations).
    # `basic` never reads the pot, and the only rule of the limited preset that looks at
    # the pot, bold stand (R4, last_and_dealer, on a clean pot), never binds with it: it
    # needs every seat before the dealer's right-hand neighbour to have passed, and the
    # eldest hand is always in. So a deal plays the same whatever is carried in (asserted:
    # the same decks with 0, 6 and 60 chips carried give the same declarations and looed
    # players), and the looed counts of a session's deals are i.i.d.: from deal 1 on,
    # pot_start = 15 + 3 K with K distributed as the looed count of one deal; deal 0 is
    # the burn-in (always 15, clean). The prediction is K's distribution on independent
    # deals with a pot carried in (carried > 0, as every session deal after a loo plays).
    rules = Rules.preset("limited", final_pot="discard")
    n = rules.players
    assert (rules.ante, rules.penalty_amount, n) == (3, 3, 5)

    count = 300_000
    seat, deal = per_deal(independent_deals(rules, count, seed=1701, carried=6.0), n)
    looed = seat["looed"].sum(axis=1)
    nobody = (seat["declaration"] == "pass").all(axis=1)
    assert not nobody.any()  # basic with a miss: the eldest hand is always in
    assert np.array_equal(deal["pot_next"], 3.0 * looed + np.where(nobody, deal["pot_start"], 0.0))  # R3
    probe = 20_000  # the carried pot changes nothing: the same decks with 0, 6 and 60 carried in
    same = [per_deal(independent_deals(rules, probe, seed=1701, carried=c), n)[0] for c in (0.0, 6.0, 60.0)]
    for other in same[1:]:
        assert np.array_equal(other["declaration"], same[0]["declaration"])
        assert np.array_equal(other["looed"], same[0]["looed"])
    predicted = np.bincount(looed, minlength=n + 1) / count
    se_predicted = np.sqrt(predicted * (1 - predicted) / count)

    sessions, deals = 500, 25
    runs = session_runs(rules, sessions, deals, first_seed=300)
    values = 15 + 3 * np.arange(n + 1)  # the only pots the reason allows
    shares = []
    for res in runs:
        exact = res.pot_exact[0]
        assert res.sessions == sessions and res.pot_hist[0].sum() == 0  # every pot whole and counted exactly
        assert exact[0, 15] == sessions and exact[0].sum() == sessions  # deal 0: the antes alone
        after = exact[1:].sum(axis=0)  # deals 1..D-1 of every session
        assert after.sum() == sessions * (deals - 1)
        assert after[values].sum() == after.sum(), "a pot that is not 15 + 3 k after deal 0"
        shares.append(after[values] / after.sum())
    shares = np.array(shares)
    observed = shares.mean(axis=0)
    se_observed = shares.std(axis=0, ddof=1) / math.sqrt(BATCHES)
    for k, v in enumerate(values):
        se = math.hypot(se_observed[k], se_predicted[k])
        if predicted[k] == 0:  # k = 5 of 5: three tricks are won by someone
            assert observed[k] == 0, v
            continue
        z = (observed[k] - predicted[k]) / se
        assert abs(z) <= 4, f"pot {v}: sessions {observed[k]:.5f} +- {se_observed[k]:.5f}, deals " \
                            f"{predicted[k]:.5f} +- {se_predicted[k]:.5f}, z = {z:.2f}"  # fmt: skip
    assert (predicted[1:4] > 0.15).all()  # a real spread: the comparison is not of point masses


def single_share_by_recursion(a, b, deals):
    """The expected share of single pots among deals 1..deals-1 of a session whose deal 0
    is clean (R10: carried starts at 0): deal j is a single pot exactly when deal j-1
    left nothing (R8), which a single pot does with probability ``a`` and a double pot
    with probability ``b``, so P(single at j) = a P(single at j-1) + b (1 - P(single at j-1))."""
    p, total = 1.0, 0.0
    for _ in range(1, deals):
        p = a * p + b * (1 - p)
        total += p
    return total / (deals - 1)


def left_nothing(seat):
    """R3's events, read from the declarations, tricks and looed flags (not from the
    deal's pot_next): no looed player, no defender that won a trick (its shares stay in
    the pot, R8), and not everyone passed (the pot would carry over, R4)."""
    looed = seat["looed"].any(axis=1)
    defender_won = ((seat["declaration"] == "defend") & (seat["tricks_won"] > 0)).any(axis=1)
    nobody = (seat["declaration"] == "pass").all(axis=1)
    return ~(looed | defender_won | nobody)


@pytest.mark.parametrize("policy, first_seed", [("basic", 400), ("cautious", 500)])
def test_r8_classic_limited_single_pot_share_is_the_chance_the_last_deal_left_nothing(policy, first_seed):
    # Classic-limited (R8): a deal is a single pot exactly when its pot is clean, i.e. when
    # the deal before it left nothing in the pot: R3's pot_next = 3 per looed player + a
    # defender's shares + a pot nobody contested, so nothing is left exactly when nobody
    # was looed, the defender (if any) won no trick and somebody contested the pot.
    # (a) The session run: the share of single pots among deals 1..D-1 (DS_SINGLE).
    # (b) The deals: the chance of "left nothing", counted from those events on
    # independent deals (other decks), for a single pot (carried = 0: a; it is 0, since
    # nobody may pass and five players share three tricks, so two are looed) and for a
    # double pot (carried > 0: b). Neither policy reads the pot (P2, P3: `basic` plays a
    # trump or an ace, `cautious` a trump of queen or higher or two trumps), and the
    # preset has no bold stand, so a double pot plays the same whatever is carried in
    # (asserted: the same decks with 3 and 30 carried give the same declarations and
    # looed players), and b holds for every double pot of a session. The chain clean /
    # not clean from a clean deal 0 then gives the expected share exactly
    # (single_share_by_recursion), which (a) must match.
    # `basic` is the brief's policy; with it the first weak hand always takes the miss, so
    # R8 case 2 never arises and no seat defends. `cautious` never takes the miss and
    # defends in case 2, so its runs exercise the defender's clause (a defender that wins
    # a trick leaves its share in the pot: the next deal is a double pot).
    rules = Rules.preset("classic-limited", final_pot="discard")
    n = rules.players
    assert n == 5 and rules.single_pot and rules.dealer_defends and rules.ante_payer.value == "dealer"

    count = 300_000
    single_seat, single_deal = per_deal(independent_deals(rules, count, 1702, 0.0, policy), n)
    double_seat, double_deal = per_deal(independent_deals(rules, count, 1703, 3.0, policy), n)
    assert single_deal["single_pot"].all() and not double_deal["single_pot"].any()  # R8: clean <=> single
    nothing_single, nothing_double = left_nothing(single_seat), left_nothing(double_seat)
    # R3, deal for deal: the events say "nothing left" exactly when the engine's pot_next is 0
    assert np.array_equal(nothing_single, single_deal["pot_next"] == 0)
    assert np.array_equal(nothing_double, double_deal["pot_next"] == 0)
    defended = ((double_seat["declaration"] == "defend") & (double_seat["tricks_won"] > 0)).any(axis=1)
    if policy == "cautious":  # the defender's clause is exercised: a deal nobody is looed in, yet not clean
        assert (defended & ~double_seat["looed"].any(axis=1)).sum() > 100
    else:
        assert not (double_seat["declaration"] == "defend").any()
    probe = 20_000
    same = [per_deal(independent_deals(rules, probe, 1703, c, policy), n)[0] for c in (3.0, 30.0)]
    assert np.array_equal(same[0]["declaration"], same[1]["declaration"])
    assert np.array_equal(same[0]["looed"], same[1]["looed"])
    a, b = nothing_single.mean(), nothing_double.mean()
    assert a == 0  # a single pot always loos at least two of the five
    se_b = math.sqrt(b * (1 - b) / count)

    sessions, deals = 500, 25
    predicted = single_share_by_recursion(a, b, deals)
    step = 1e-6  # the prediction's SE by the delta method (a is exactly 0, no error)
    slope = (single_share_by_recursion(a, b + step, deals) - single_share_by_recursion(a, b - step, deals)) / (2 * step)
    se_predicted = abs(slope) * se_b

    runs = session_runs(rules, sessions, deals, first_seed, policy)
    shares = []
    for res in runs:
        ds = res.deal_stats[0]
        assert ds[0, L.DS_SINGLE] == sessions  # deal 0 is clean: always a single pot
        assert (ds[:, L.DS_RUNNING] == sessions).all()
        shares.append(ds[1:, L.DS_SINGLE].sum() / (sessions * (deals - 1)))
    observed, se_observed = batch_mean(shares)
    assert observed > 0.01  # single pots do recur after deal 0
    se = math.hypot(se_observed, se_predicted)
    z = (observed - predicted) / se
    assert abs(z) <= 4, f"sessions {observed:.5f} +- {se_observed:.5f}, deals {predicted:.5f} +- " \
                        f"{se_predicted:.5f} (b = {b:.5f}), z = {z:.2f}"  # fmt: skip
