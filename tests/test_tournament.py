"""Mixed-table tournaments (R10 sessions; run/tournament.py): the balanced design, the kernel's
sessions against the reference engine's, the league and head-to-head sums recomputed from
per-session results, and the command's files and refusals."""

import json
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from loo_sim.cli import main
from loo_sim.engine.session import play_session
from loo_sim.game import abi as L
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules
from loo_sim.report.kinds.fields import split_policies
from loo_sim.run.args import stack_args
from loo_sim.run.sessions import Arm, arm_args, bankroll_of
from loo_sim.run.tasks import tournament_task
from loo_sim.run.tournament import lineups, run_tournament

RULES = Rules.preset("limited", players=5, final_pot="discard")
POLICIES = [Policy.parse(p) for p in ("basic", "cautious", "always/high")]


@pytest.mark.parametrize("heuristics, players", [(3, 5), (4, 3), (5, 5), (2, 8)])
def test_every_heuristic_sits_in_every_seat_equally_often(heuristics, players):
    seated = lineups(list(range(heuristics)), players)
    for seat in range(players):
        counts = Counter(lineup[seat] for lineup in seated)
        assert set(counts) == set(range(heuristics)) and len(set(counts.values())) == 1


def _sessions(rules, policies, sessions, deals, seed):
    seats = lineups(list(range(len(policies))), rules.players)
    arms = [Arm(f"r{r}", rules, [policies[i] for i in seats[r]]) for r in range(len(seats))]
    ri, rf, pol, polf, strength, tables, solver = stack_args([arm_args(a) for a in arms])
    h = len(seats)
    static = (ri, rf, pol, polf, strength, tables, solver, np.full(h, bankroll_of(rules)), np.zeros(h,
              dtype=np.bool_), seed, sessions, deals)  # fmt: skip
    finals, by_position = tournament_task(*static, 0, 1)
    return seats, finals[0], by_position[0]


def test_kernel_sessions_are_the_reference_engines_r10():
    seats, finals, by_position = _sessions(RULES, POLICIES, 4, 12, 7)
    n = RULES.players
    for r, lineup in enumerate(seats):
        table = [POLICIES[i] for i in lineup]
        for k in range(4):
            ref = play_session(RULES, table, deals=12, seed=7, session=k)
            np.testing.assert_allclose(finals[r, k, :n], ref.balances, atol=1e-9)
            assert finals[r, k, L.MAX_PLAYERS] == len(ref.deals)
            # every deal's net chips land at the position its seat held (the dealer rotates)
            net, count = np.zeros((n, n + 1)), np.zeros((n, n + 1))
            for rec, dealer in zip(ref.deals, ref.dealers):
                for s, chips in enumerate(rec.net()):
                    position = (s - dealer - 1) % n + 1  # 1 = the dealer's left, n = the dealer
                    net[s, position] += chips
                    count[s, position] += 1
            np.testing.assert_allclose(by_position[r, k, :n, : n + 1, 0], net, atol=1e-9)
            np.testing.assert_array_equal(by_position[r, k, :n, : n + 1, 1], count)
    assert np.isnan(finals[:, 4:, :]).all()  # rows past the sessions asked for


def test_league_and_head_to_head_are_the_per_session_means():
    res = run_tournament(RULES, POLICIES, ["basic", "cautious", "always/high"], 40, 10, 3)
    seats, finals, _ = _sessions(RULES, POLICIES, 40, 10, 3)
    h = len(POLICIES)
    x = np.zeros((40, h))
    d = np.zeros((40, h, h))
    for k in range(40):
        bal, played = np.zeros(h), np.zeros(h)
        per = np.zeros((h, h, 2))
        for r, lineup in enumerate(seats):
            for s, who in enumerate(lineup):
                bal[who] += finals[r, k, s]
                played[who] += finals[r, k, L.MAX_PLAYERS]
                per[r, who] += (finals[r, k, s], finals[r, k, L.MAX_PLAYERS])
        x[k] = bal / played
        for a in range(h):
            for b in range(h):
                both = (per[:, a, 1] > 0) & (per[:, b, 1] > 0)
                d[k, a, b] = np.mean(per[both, a, 0] / per[both, a, 1] - per[both, b, 0] / per[both, b, 1])
    np.testing.assert_allclose(res.league[:, 0], x.sum(axis=0))
    np.testing.assert_allclose(res.league[:, 1], (x**2).sum(axis=0))
    assert res.sessions == 40 and (res.league[:, 2] == 40).all()
    for a in range(h):
        for b in range(h):
            if a != b:
                assert res.head_to_head[a, b, 0] == pytest.approx(d[:, a, b].sum())
                assert res.head_to_head[a, b, 0] == pytest.approx(-res.head_to_head[b, a, 0])


def test_policies_split_on_commas_but_keep_threshold_parameters():
    assert split_policies("basic, cautious,threshold:play=0.6,miss=0.3,ev") == [
        "basic", "cautious", "threshold:play=0.6,miss=0.3", "ev"
    ]  # fmt: skip


def test_tournament_command_writes_its_tables(tmp_path):
    out = tmp_path / "t"
    rc = main(["tournament", "--preset", "limited", "--policies", "basic,cautious,ev", "--sessions", "60",
               "--session-deals", "8", "--seed", "2", "--out", str(out)])  # fmt: skip
    assert rc == 0
    league = pd.read_csv(out / "league.csv")
    assert set(league["heuristic"]) == {"basic", "cautious", "ev"} and (league["sessions"] == 60).all()
    low, mean, high = league["ci_low"], league["chips_per_deal"], league["ci_high"]
    assert (low <= mean).all() and (mean <= high).all()
    h2h = pd.read_csv(out / "head_to_head.csv")
    assert len(h2h) == 6
    design = pd.read_csv(out / "design.csv")
    assert len(design) == 3 * 5
    assert json.loads((out / "run.json").read_text())["sessions_done"] == 60
    assert (out / "league.png").stat().st_size > 0 and "paired head-to-head" in (out / "summary.md").read_text()


@pytest.mark.parametrize("args, says", [
    (["--policies", "basic"], "two heuristics or more"),
    (["--policies", "basic,basic"], "each heuristic once"),
    (["--policies", "basic,bold"], "unknown declaration family 'bold'"),
    (["--sessions", "0"], "--sessions"),
])  # fmt: skip
def test_tournament_refuses_bad_input_in_one_line(tmp_path, capsys, args, says):
    rc = main(["tournament", *args, "--out", str(tmp_path / "x")])
    err = capsys.readouterr().err
    assert rc == 2 and says in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_a_report_runs_the_tournament_kind_as_the_command_does(tmp_path):
    config = tmp_path / "t.toml"
    config.write_text(
        'title = "t"\ndescription = "t"\n[[experiments]]\nname = "league"\ntitle = "league"\nkind = "tournament"\n'
        'preset = "limited"\npolicies = ["basic", "cautious"]\nsessions = 30\nsession_deals = 6\nseed = 4\n'
    )
    assert main(["report", str(config), "--out", str(tmp_path / "rep")]) == 0
    assert main(["tournament", "--preset", "limited", "--policies", "basic,cautious", "--sessions", "30",
                 "--session-deals", "6", "--seed", "4", "--out", str(tmp_path / "cli")]) == 0  # fmt: skip
    for name in ("league.csv", "head_to_head.csv", "by_position.csv"):
        assert (tmp_path / "rep" / "league" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes()


def test_a_tournament_whose_pots_pass_2_to_the_53_says_so_r3(tmp_path, capsys):
    # under the unlimited penalty each looed player pays the whole pot (R3): within 45 deals
    # amounts pass 2**53, where float64 chips stop being exact (R3 asks to say so plainly)
    out = tmp_path / "u"
    assert main(["tournament", "--preset", "three-card", "--policies", "basic,always", "--sessions", "16",
                 "--session-deals", "45", "--seed", "1", "--out", str(out)]) == 0  # fmt: skip
    assert "passed 2**53 chips" in capsys.readouterr().err
    assert "**Not exact**" in (out / "summary.md").read_text()
    assert json.loads((out / "run.json").read_text())["inexact_sessions"] > 0
