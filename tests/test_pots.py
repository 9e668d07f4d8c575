"""Sessions and pot dynamics (RULES.md R10, R3): kernel sessions agree with the
reference engine's, and the aggregates obey identities with independent reasons."""

import math

import numpy as np
import pytest

from loo_sim import Rules
from loo_sim.analysis.pots import arm_stats, parse_compare, pot_by_deal
from loo_sim.game.policy import parse_table
from loo_sim.kernel import abi as L
from loo_sim.run.api import play_session
from loo_sim.run.sessions import Arm, make_arms, run_pots

from .sessions_kernel import record_sessions

CASES = [
    ("three-card", {}, "basic", 12),
    ("limited", {"bankroll": 20}, ["basic", "cautious", "always/random", "nothing-takes-miss", "ev"], 40),
    ("classic-limited", {"players": 6, "final_pot": "discard"}, "basic", 25),
    (
        "five-card",
        {"bankroll": 60},
        ["basic", "always", "cautious/high/flush-chase", "threshold:play=0.5,miss=0.3", "basic/low"],
        20,
    ),  # fmt: skip
    ("three-card", {}, "always", 230),  # unlimited and everyone in: overflow stop
    ("irish", {"players": 4, "bankroll": 30}, "basic/random", 30),
]


@pytest.mark.parametrize("preset, overrides, policy, deals", CASES)
def test_r10_kernel_sessions_agree_with_the_reference_deal_by_deal(preset, overrides, policy, deals):
    rules = Rules.preset(preset, **overrides)
    arm = Arm("x", rules, parse_table(policy, rules.players))
    sessions = range(0, 200, 4)  # 50 sessions a case, 300 in all
    kernel = record_sessions(arm, 11, sessions, deals)
    for i, ker in zip(sessions, kernel):
        ref = play_session(rules, arm.policies, deals, seed=11, session=i)
        assert len(ker["records"]) == len(ref.deals), (preset, i)
        for j, (k, r) in enumerate(zip(ker["records"], ref.deals)):
            assert k.to_dict() == r.to_dict(), (preset, i, j)
        assert np.allclose(ker["balances"], ref.balances, rtol=1e-12, atol=1e-9)
        assert (ker["ruined"], ker["inexact_from"], ker["overflow_at"]) == (ref.ruined, ref.inexact_from,
                                                                             ref.overflow_at)  # fmt: skip
        assert math.isclose(ker["final_pot"], ref.final_pot, rel_tol=1e-12, abs_tol=1e-9)


def test_overflow_and_ruin_paths_are_reached():
    rules = Rules.preset("three-card")
    big = record_sessions(Arm("x", rules, parse_table("always", 5)), 11, [0], 230)[0]
    assert big["overflow_at"] is not None and big["inexact_from"] is not None
    poor = record_sessions(Arm("x", rules.replace(bankroll=20, penalty="limited"), parse_table("basic", 5)), 11,
                           range(10), 40)  # fmt: skip
    assert any(s["ruined"] is not None for s in poor)


@pytest.mark.parametrize("preset, overrides", [("limited", {}), ("classic-limited", {"final_pot": "discard"}),
                                               ("five-card", {"bankroll": 40})])  # fmt: skip
def test_r3_chips_conserved_over_whole_sessions(preset, overrides):
    rules = Rules.preset(preset, **overrides)
    res = run_pots([Arm("x", rules, parse_table("basic", rules.players))], 500, 40, seed=2)
    balances = sum(res.scal[0, L.S_BAL + s] for s in range(rules.players))
    left = res.scal[0, L.S_FINAL_POT] if overrides.get("final_pot") == "discard" else 0.0
    scale = sum(abs(res.scal[0, L.S_BAL_SQ + s]) ** 0.5 for s in range(rules.players))
    assert abs(balances + left) <= 1e-9 * max(scale, 1.0)


def test_limited_pot_growth_is_antes_plus_penalties_minus_shares():
    # An accounting identity from the same run's aggregates: each deal's pot grows by the
    # antes and the loo payments and shrinks by the shares paid out.
    rules = Rules.preset("limited")
    res = run_pots([Arm("x", rules, parse_table(["basic", "cautious", "always", "basic", "ev"], 5))], 400, 50, seed=3)
    stats = arm_stats(res).set_index("metric")["value"]
    growth = stats["pot_growth_per_deal"]
    predicted = stats["antes_per_deal"] + rules.penalty_amount * stats["looed_per_deal"] - stats["shares_paid_per_deal"]
    assert math.isclose(growth, predicted, rel_tol=1e-9, abs_tol=1e-9)


def test_unlimited_always_pot_grows_geometrically_as_the_looed_counts_say():
    # Everyone plays three tricks at five: at least two seats are looed every deal, and
    # each pays the whole pot, so pot_next = looed * pot_start and log10(pot) grows by
    # log10(looed) per deal (plus the antes, worth at most log10(1 + 2**-j) at deal j).
    rules = Rules.preset("three-card")
    deals = 40
    res = run_pots([Arm("x", rules, parse_table("always", 5))], 600, deals, seed=4)
    hist = res.scal[0, L.S_LOOED_HIST : L.S_LOOED_HIST + L.MAX_PLAYERS + 1]
    assert hist[0] == 0 and hist[1] == 0 and hist.sum() == 600 * deals
    mean_log_looed = (hist[2:] * np.log10(np.arange(2, L.MAX_PLAYERS + 1))).sum() / hist.sum()
    stats = arm_stats(res).set_index("metric")
    largest = stats.loc["log10_largest_pot"]
    predicted = math.log10(15) + (deals - 1) * mean_log_looed
    ante_effect = sum(math.log10(1 + 2.0**-j) for j in range(1, deals))
    assert predicted - 4 * largest.se <= largest.value <= predicted + ante_effect + 4 * largest.se
    medians = pot_by_deal(res).q50.to_numpy()
    fine = medians < 1e15  # bins are 16 per decade there (one per decade beyond)
    assert (medians[1:][fine[1:]] >= 2 * medians[:-1][fine[1:]]).all()


def test_r3_the_2_53_flag_fires_and_aggregates_stay_finite():
    rules = Rules.preset("three-card")
    res = run_pots([Arm("x", rules, parse_table("always", 5))], 128, 400, seed=5)
    stats = arm_stats(res).set_index("metric")["value"]
    assert stats["inexact_past_2_53_probability"] == 1.0 and stats["overflow_stop_probability"] == 1.0
    first = np.nonzero(res.deal_stats[0, :, L.DS_INEXACT_FIRST])[0]
    assert 20 <= first[0] <= 40  # 15 * 3**j passes 2**53 near deal 30
    for arr in (res.scal, res.deal_stats, res.pot_hist, res.pot_sum, res.max_sum, res.bal_sum):
        assert np.isfinite(arr).all()


def test_same_seed_same_aggregates_with_one_or_two_threads():
    import numba

    arms = make_arms(Rules.preset("three-card"), lambda n: parse_table("basic", n),
                     parse_compare(["penalty=limited,unlimited", "policy=basic,cautious"]))  # fmt: skip
    numba.set_num_threads(1)
    one = run_pots(arms, 300, 30, seed=6)
    numba.set_num_threads(2)
    two = run_pots(arms, 300, 30, seed=6)
    assert np.array_equal(one.scal, two.scal) and np.array_equal(one.pot_hist, two.pot_hist)
    assert len(arms) == 4 and arms[0].name == "penalty=limited, policy=basic"


def test_arms_share_decks_so_the_comparison_is_paired():
    # Deal j of session i is shuffled from (seed, i, j) in every arm: with the same
    # players, the same hands are dealt whatever the penalty.
    a = play_session(Rules.preset("limited"), "basic", 5, seed=9, session=4)
    b = play_session(Rules.preset("unlimited"), "cautious", 5, seed=9, session=4)
    assert [d.trace.hands for d in a.deals] == [d.trace.hands for d in b.deals]


def test_compare_values_keep_threshold_commas():
    parsed = parse_compare(["policy=basic,threshold:play=0.6,miss=0.3,ev", "penalty=limited,unlimited"])
    assert parsed == [("policy", ["basic", "threshold:play=0.6,miss=0.3", "ev"]), ("penalty", ["limited", "unlimited"])]


def test_pots_cli_writes_every_output_and_warns_past_2_53(tmp_path, capsys):
    import json

    import pandas as pd

    from loo_sim.cli import main

    out = tmp_path / "pots"
    rc = main(["pots", "--preset", "three-card", "--policy", "always", "--compare", "penalty=limited,unlimited",
               "--sessions", "100", "--deals", "40", "--seed", "2", "--out", str(out)])  # fmt: skip
    captured = capsys.readouterr()
    assert rc == 0
    assert "warning: penalty=unlimited" in captured.err and "2**53" in captured.err and "deal" in captured.err
    names = {"pot_by_deal.csv", "max_pot.csv", "balances.csv", "balance_histogram.csv", "arms.csv", "paired.csv",
             "fan.png", "max_pot.png", "balances.png", "summary.md", "run.json"}  # fmt: skip
    assert names <= {p.name for p in out.iterdir()}
    arms = pd.read_csv(out / "arms.csv")
    assert set(arms.arm) == {"penalty=limited", "penalty=unlimited"}
    summary = (out / "summary.md").read_text()
    looed = arms[(arms.arm == "penalty=limited") & (arms.metric == "looed_per_deal")].iloc[0]
    row = next(line for line in summary.splitlines() if line.startswith("| looed players per deal |"))
    assert f"{looed.value:.3f} [" in row or f"{looed.value:.4f} [" in row
    run = json.loads((out / "run.json").read_text())
    assert run["command"].startswith("loo-sim pots") and len(run["arms"]) == 2


@pytest.mark.parametrize(
    "args, fragment",
    [(["--compare", "penalty"], "--compare"), (["--compare", "colour=red,blue"], "colour"),
     (["--compare", "penalty=limited,unlimted"], "penalty"), (["--sessions", "0"], "sessions"),
     (["--deals", "-2"], "deals"), (["--bankroll", "-5"], "bankroll"), (["--seed", "x"], "seed")],
)  # fmt: skip
def test_pots_cli_bad_input_is_one_line(args, fragment, tmp_path, capsys):
    from loo_sim.cli import main

    out = tmp_path / "o"
    rc = main(["pots", *args, "--out", str(out)])
    err = capsys.readouterr().err
    assert rc != 0 and err.startswith("error:") and err.count("\n") == 1 and fragment in err
    assert not out.exists() or not any(out.iterdir())


def test_pot_by_deal_carries_the_inexact_flag_column():
    res = run_pots([Arm("x", Rules.preset("three-card"), parse_table("always", 5))], 64, 60, seed=8)
    fan = pot_by_deal(res)
    flags = fan.inexact_sessions.to_numpy()
    assert flags[0] == 0 and flags[-1] == 64 and (np.diff(flags) >= 0).all()
    # the flag rises exactly when the pots pass 2**53 (pots are the largest amounts here)
    passed = fan[fan.q95 > 2.0**53].deal.min()
    assert fan[fan.deal == passed - 1].inexact_sessions.iloc[0] < 64
