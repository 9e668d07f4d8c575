"""Risk over sessions (R10; run/risk.py): the kernel's running balance, lowest balance and
first passage below each bankroll against the reference engine's session paths; the
tables recomputed from their definitions; the command's files and refusals."""

import json

import numpy as np
import pandas as pd
import pytest

from loo_sim.analysis.risk import bankroll_for_risk, n0_table, risk_curve
from loo_sim.cli import main
from loo_sim.engine.session import play_session
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules
from loo_sim.run.args import stack_args
from loo_sim.run.risk import RiskResult, bankroll_levels
from loo_sim.run.sessions import Arm, arm_args
from loo_sim.run.tasks import risk_task

RULES = Rules.preset("limited", players=4, final_pot="discard")


def test_first_passage_and_lowest_balance_are_the_reference_engines_paths():
    table = [Policy.parse(p) for p in ("cautious", "basic", "always", "basic")]
    args = stack_args([arm_args(Arm("a", RULES, table))])
    levels = np.array([3.0, 10.0, 25.0, 60.0])
    out = risk_task(*args, np.zeros(1, dtype=np.bool_), 9, 5, 40, 0, levels, 0, 1)[0]
    for k in range(5):
        ref = play_session(RULES, table, deals=40, seed=9, session=k)
        path = np.array([h[0] for h in ref.history])  # seat 0's balance after each deal
        assert out[0, k, 0] == pytest.approx(min(0.0, path.min()))
        assert out[0, k, 1] == pytest.approx(ref.balances[0])
        assert out[0, k, 2] == len(ref.deals)
        for x, level in enumerate(levels):
            below = np.flatnonzero(path < -level)
            assert out[0, k, 3 + x] == (below[0] + 1 if len(below) else 0), (k, level)


def _result(sessions=1000, deals=10):
    levels = np.array([10.0, 20.0, 40.0])
    ruined = np.array([[500.0, 40.0, 5.0], [700.0, 200.0, 30.0]])
    lead = np.array([2.0 * sessions, sessions * (400.0 + 2.0**2)])  # mean 2, population variance 400
    return RiskResult(RULES, [], 0, Policy.parse("ev"), sessions, deals, 1, levels, ruined,
                      np.zeros((2, 3, deals + 1)), np.zeros((2, 2)), lead)  # fmt: skip


def test_risk_and_bankroll_tables_follow_their_definitions():
    res = _result()
    curve = risk_curve(res)
    assert list(curve[curve.arm == "policy"]["risk"]) == [0.5, 0.04, 0.005]
    need = bankroll_for_risk(res).set_index(["arm", "risk"])
    assert need.loc[("policy", 0.05), "bankroll"] == 20.0 and need.loc[("policy", 0.01), "bankroll"] == 40.0
    assert np.isnan(need.loc[("basic", 0.01), "bankroll"])  # no grid level is that safe


def test_n0_is_the_variance_over_the_squared_lead_per_deal():
    # sessions of 10 deals, a lead of 2 chips per session (0.2 per deal), session variance 400
    # (population), so the per-deal variance is 400 * 1000/999 / 10 and N0 = that / 0.2^2
    n0 = n0_table(_result()).iloc[0]
    assert n0.lead_per_deal == pytest.approx(0.2)
    assert n0.n0 == pytest.approx(400 * 1000 / 999 / 10 / 0.04)
    assert n0.n0_low < n0.n0 < n0.n0_high


def test_levels_run_from_one_ante_to_ten_thousand():
    levels = bankroll_levels(RULES)
    assert levels[0] == pytest.approx(RULES.ante) and levels[-1] == pytest.approx(1e4 * RULES.ante)


def test_risk_command_writes_its_tables(tmp_path):
    out = tmp_path / "r"
    assert main(["risk", "--preset", "limited", "--focal-policy", "cautious", "--sessions", "80", "--session-deals",
                 "30", "--seed", "3", "--out", str(out)]) == 0  # fmt: skip
    curve = pd.read_csv(out / "risk_curve.csv")
    for _, rows in curve.groupby("arm"):
        assert (np.diff(rows["risk"]) <= 0).all()  # a larger bankroll is never riskier
    assert json.loads((out / "run.json").read_text())["sessions_done"] == 80
    assert (out / "risk_curve.png").exists() and "N0" in (out / "summary.md").read_text()


@pytest.mark.parametrize("args, says", [
    (["--focal-policy", "bold"], "unknown declaration family 'bold'"),
    (["--focal", "7"], "--focal"),
    (["--sessions", "0"], "--sessions"),
])  # fmt: skip
def test_risk_refuses_bad_input_in_one_line(tmp_path, capsys, args, says):
    rc = main(["risk", *args, "--out", str(tmp_path / "x")])
    err = capsys.readouterr().err
    assert rc == 2 and says in err and "Traceback" not in err
    assert not (tmp_path / "x").exists()


def test_a_risk_run_whose_amounts_pass_2_to_the_53_says_so_r3(tmp_path, capsys):
    out = tmp_path / "u"
    # a table of `always` players loos often enough to pass 2**53 within 45 deals
    assert main(["risk", "--preset", "three-card", "--focal-policy", "always", "--policy", "always", "--sessions",
                 "16", "--session-deals", "45", "--seed", "1", "--out", str(out)]) == 0  # fmt: skip
    assert "passed 2**53 chips" in capsys.readouterr().err
    assert json.loads((out / "run.json").read_text())["inexact_sessions"] > 0
