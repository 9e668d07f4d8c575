"""A ``rule:`` policy (docs/policies.md P3b) everywhere a policy goes: simulate, miss (a rule
compared beside the shipped heuristics, ``--heuristic [NAME=]POLICY``), solve (its NashConv,
``--exploitability-of``), tournament, risk, cardplay, pots' ``--compare policy=``, report
configs, and the commands a run records. The P3 families' rule forms give exactly the
families' numbers, which is the check of every wire in between."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from loo_sim.cli import main
from loo_sim.game.policy import Policy
from loo_sim.report.command import command
from loo_sim.report.config import load_config
from loo_sim.report.kinds import MissStudy, SolveStudy
from loo_sim.report.kinds.fields import named_heuristic, split_policies
from loo_sim.report.kinds.pots import parse_compare
from loo_sim.run.ladder import with_play

BASIC = "rule:play if trumps >= 1 or aces >= 1; defend; miss; pass; play"
CAUTIOUS = "rule:play if trumps >= 2 or highest_trump >= Q or (not trumps_known and aces >= 1); defend; pass; play"


def test_simulate_with_a_rule_gives_basics_numbers(tmp_path, capsys):
    for policy, out in (("basic", "a"), (BASIC, "b")):
        args = ["simulate", "--deals", "3000", "--seed", "4", "--policy", policy, "--out", str(tmp_path / out)]
        assert main(args) == 0
    capsys.readouterr()
    a, b = (pd.read_csv(tmp_path / x / "summary.csv") for x in "ab")
    pd.testing.assert_frame_equal(a, b)


def test_a_bad_rule_is_one_error_line_with_a_caret(capsys):
    assert main(["simulate", "--deals", "10", "--policy", "rule:play if trumps >= Q; pass; play"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ")
    assert "'play if trumps >= ^Q; pass; play' (column 19): a rank where a count is wanted" in err[0]


# ---- miss: the user's heuristics beside the shipped ones --------------------------------------------
def test_named_heuristics():
    assert named_heuristic("tip=" + BASIC) == ("tip", BASIC)
    assert named_heuristic(BASIC) == (BASIC, BASIC)  # the only '=' of a rule come after its ':'
    assert named_heuristic("threshold:play=0.6,miss=0.3") == ("threshold:play=0.6,miss=0.3",) * 2


def test_miss_study_checks_its_extra_heuristics():
    def problems(*heuristics):
        return dict(MissStudy(deals=1000, heuristics=list(heuristics)).problems())

    assert problems("tip=" + BASIC, CAUTIOUS) == {}
    assert "a rank where a count is wanted" in problems("rule:play if aces >= K; play")["heuristics[0]"]
    assert "is compared already (as 'cautious')" in problems("careful=cautious")["heuristics[0]"]
    assert "the name 'ev' is taken" in problems("ev=" + BASIC)["heuristics[0]"]
    assert "is compared already" in problems("a=" + BASIC, "b=" + BASIC)["heuristics[1]"]
    assert "needs a decision chart" in problems("chart")["heuristics[0]"]
    # a study without extra heuristics keeps the dict (and digest) it had before they existed
    assert "heuristics" not in MissStudy().to_dict() and "heuristics" in MissStudy(heuristics=["x=" + BASIC]).to_dict()


def test_miss_compares_a_rule_and_the_basic_rule_ties_with_basic(tmp_path, capsys):
    out = tmp_path / "miss"
    args = ["miss", "--deals", "4000", "--seed", "2", "--heuristic", f"basic as a rule={BASIC}", "--heuristic",
            f"cautious as a rule={CAUTIOUS}", "--out", str(out)]  # fmt: skip
    assert main(args) == 0
    capsys.readouterr()
    h = pd.read_csv(out / "heuristics.csv").set_index("heuristic")
    assert h.loc["basic as a rule", "diff_vs_baseline"] == 0.0  # the same deals as basic, paired: exactly 0
    assert h.loc["basic as a rule", "net_mean"] == h.loc["basic", "net_mean"]
    assert h.loc["cautious as a rule", "net_mean"] == h.loc["cautious", "net_mean"]
    run = json.loads((out / "run.json").read_text())
    assert f"--heuristic 'basic as a rule={BASIC}'" in run["command"]


# ---- solve: a rule's NashConv ---------------------------------------------------------------------------
def test_solve_reports_the_nashconv_of_rules_beside_the_heuristics(tmp_path, capsys):
    out = tmp_path / "solve"
    sizes = ["--iterations", "1", "--deals", "8192", "--eval-deals", "8192", "--seed", "3"]
    args = ["solve", *sizes, "--exploitability-of", f"basic as a rule={BASIC}", "--exploitability-of", CAUTIOUS]
    args += ["--out", str(out)]
    assert main(args) == 0
    capsys.readouterr()
    ex = pd.read_csv(out / "exploitability.csv")
    total = ex[ex["seat"].astype(str) == "all"].set_index("profile")["nashconv"]
    assert total["basic as a rule"] == total["basic"] and total[CAUTIOUS] == total["cautious"]
    assert "--exploitability-of 'basic as a rule=" in json.loads((out / "run.json").read_text())["command"]


def test_solve_study_profiles_and_dict():
    study = SolveStudy(exploitability_of=["mine=" + BASIC])
    labels = [label for label, _ in study.profiles(study.base_rules())]
    assert labels[0] == "basic" and labels[-1] == "mine"
    assert "exploitability_of" not in SolveStudy().to_dict()
    assert (
        "is compared already (as 'basic')"
        in dict(SolveStudy(exploitability_of=["b=basic"]).problems())["exploitability_of[0]"]
    )


# ---- lists of policies, entrants, configs ---------------------------------------------------------------
def test_a_rule_in_comma_separated_lists():
    # a rule holds no comma, so lists of policies split around it as around any policy
    assert split_policies(f"basic,{BASIC},threshold:play=0.6,miss=0.3") == [
        "basic", BASIC, "threshold:play=0.6,miss=0.3"]  # fmt: skip
    assert parse_compare([f"policy=basic,{CAUTIOUS}"]) == [("policy", ["basic", CAUTIOUS])]


def test_a_rule_entrant_of_the_card_play_ladder():
    table = Policy.parse(BASIC)
    assert with_play(table, "high") == Policy.parse(BASIC + "/high")
    assert with_play(Policy.parse("basic"), CAUTIOUS) == Policy.parse(CAUTIOUS)


def test_tournament_risk_and_cardplay_take_rules(tmp_path, capsys):
    short = "rule:pass if aces == 0; play"  # a short name keeps the league's plot readable
    assert main(["tournament", "--policies", f"basic,{short}", "--sessions", "60", "--session-deals", "10",
                 "--out", str(tmp_path / "t")]) == 0  # fmt: skip
    league = pd.read_csv(tmp_path / "t" / "league.csv")
    assert any(short in str(x) for x in league.iloc[:, 0])
    args = ["risk", "--focal-policy", BASIC, "--sessions", "60", "--session-deals", "10", "--out", str(tmp_path / "r")]
    assert main(args) == 0
    assert main(["cardplay", "--entrants", "basic,low", "--table", CAUTIOUS, "--deals", "600",
                 "--out", str(tmp_path / "c")]) == 0  # fmt: skip
    capsys.readouterr()


def test_a_report_config_takes_rules(tmp_path: Path):
    config = tmp_path / "rules.toml"
    config.write_text(
        'title = "t"\n[[experiments]]\nname = "a"\nkind = "simulate"\ndeals = 100\n'
        f'policy = "{BASIC}"\n[[experiments]]\nname = "b"\nkind = "miss"\ndeals = 100\n'
        f'heuristics = ["careful={CAUTIOUS}"]\n[[experiments]]\nname = "c"\nkind = "solve"\n'
        f'exploitability_of = ["{BASIC}"]\n',
        encoding="utf-8",
    )
    studies = [e.study for e in load_config(config).experiments]
    assert [s.kind for s in studies] == ["simulate", "miss", "solve"]
    assert all(s.problems() == [] for s in studies)
    assert "--heuristic 'careful=rule:play if trumps >= 2" in command(studies[1])
