"""Malformed report configs (issue #12, group 6): each is one ``error:`` line a problem
with its TOML path, exit status 2, no traceback and nothing written, before any work."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from loo_sim.cli import main
from loo_sim.report.config import ConfigError, load_config

EXP = '[[experiments]]\nname = "a"\nkind = "{kind}"\n'


def exp(kind: str, body: str = "") -> str:
    return EXP.format(kind=kind) + body + "\n"


# (config text, the path the message must name, a fragment of what is allowed)
BAD_CONFIGS = [
    pytest.param('[defaults]\nrules = "abc"\n' + exp("simulate"), "defaults.rules", "table", id="rules_str_defaults"),
    pytest.param("[defaults]\nrules = 5\n" + exp("simulate"), "defaults.rules", "table", id="rules_int_defaults"),
    pytest.param(exp("simulate", 'rules = "abc"'), "experiments[0].rules", "table", id="rules_str_experiment"),
    pytest.param(exp("simulate", "rules = 5"), "experiments[0].rules", "table", id="rules_int_experiment"),
    pytest.param(
        exp("variants", 'rows = [{name = "x", rules = "abc"}]'),
        "experiments[0].rows[0].rules",
        "table",
        id="rules_str_row",
    ),  # fmt: skip
    pytest.param(
        exp("variants", 'rows = [{name = "x", rules = 5}]'), "experiments[0].rows[0].rules", "table", id="rules_int_row"
    ),  # fmt: skip
    pytest.param(
        exp("variants", 'rows = [{name = "x", rules = {penalty = [1]}}]'),
        "experiments[0].rows[0].rules.penalty",
        "string",
        id="rules_array_value_row",
    ),  # fmt: skip
    pytest.param(
        exp("simulate", "rules = {penalty = {a = 1}}"), "experiments[0].rules.penalty", "string", id="rules_table_value"
    ),  # fmt: skip
    pytest.param(exp("simulate", 'preset = ["three-card"]'), "experiments[0].preset", "string", id="preset_array"),
    pytest.param(
        exp("variants", 'rows = [{name = "x", preset = 5}]'),
        "experiments[0].rows[0]",
        "three-card",
        id="preset_int_row",
    ),  # fmt: skip
    pytest.param(exp("simulate", "policy = 5"), "experiments[0].policy", "string", id="policy_int"),
    pytest.param(exp("simulate", 'policy = ""'), "experiments[0].policy", "e.g.", id="policy_empty"),
    pytest.param(
        exp("simulate", 'seat_policy = ["cautious"]'), "experiments[0].seat_policy", "table", id="seat_policy_array"
    ),  # fmt: skip
    pytest.param(
        exp("simulate", 'seat_policy = {0 = "cautious", x = "basic"}'),
        "experiments[0].seat_policy[x]",
        "seat number",
        id="seat_policy_mixed_keys",
    ),  # fmt: skip
    pytest.param(
        exp("simulate", "seat_policy = {0 = 5}"), "experiments[0].seat_policy[0]", "string", id="seat_policy_int_value"
    ),  # fmt: skip
    pytest.param(
        exp("simulate", 'seat_policy = {0 = "cautious", "00" = "basic"}'),
        "experiments[0].seat_policy[00]",
        "once",
        id="seat_policy_same_seat_twice",
    ),  # fmt: skip
    pytest.param(exp("pots", "compare = [5]"), "experiments[0].compare[0]", "string", id="compare_int"),
    pytest.param(
        exp("pots", 'compare = "penalty=limited,unlimited"'), "experiments[0].compare", "array", id="compare_str"
    ),  # fmt: skip
    pytest.param(exp("variants", 'rows = ["x"]'), "experiments[0].rows[0]", "table", id="rows_str"),
    pytest.param("x = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply", "16", id="nested_5000"),
    pytest.param(
        exp("simulate", "rules = " + "{a = " * 30 + "1" + "}" * 30), "nested too deeply", "16", id="nested_tables_30"
    ),  # fmt: skip
    pytest.param(
        EXP.replace('"a"', '"' + "a" * 300 + '"').format(kind="simulate"), "experiments[0].name", "64", id="name_300"
    ),  # fmt: skip
    pytest.param(EXP.replace('"a"', '"a/b"').format(kind="simulate"), "experiments[0].name", "ASCII", id="name_slash"),
    pytest.param(EXP.replace('"a"', '".."').format(kind="simulate"), "experiments[0].name", "ASCII", id="name_dotdot"),
    pytest.param(
        EXP.replace('"a"', '"café"').format(kind="simulate"), "experiments[0].name", "ASCII", id="name_unicode"
    ),  # fmt: skip
    pytest.param(EXP.replace('"a"', "5").format(kind="simulate"), "experiments[0].name", "ASCII", id="name_int"),
    pytest.param(
        exp("simulate", 'by_class = "yes please"'), "experiments[0].by_class", "true or false", id="by_class_str"
    ),  # fmt: skip
    pytest.param(exp("simulate", "by_class = 1"), "experiments[0].by_class", "true or false", id="by_class_int"),
    pytest.param(exp("miss", "precision = true"), "experiments[0].precision", "finite number", id="precision_bool"),
    pytest.param(exp("miss", "precision = inf"), "experiments[0].precision", "finite number", id="precision_inf"),
    pytest.param(exp("miss", "precision = nan"), "experiments[0].precision", "finite number", id="precision_nan"),
    pytest.param(exp("miss", 'precision = "0.1"'), "experiments[0].precision", "finite number", id="precision_str"),
    pytest.param(exp("pots", "sessions = 100.5"), "experiments[0].sessions", "whole number", id="sessions_100_5"),
    pytest.param(exp("pots", "sessions = true"), "experiments[0].sessions", "whole number", id="sessions_bool"),
    pytest.param(exp("simulate", 'deals = "1e6"'), "experiments[0].deals", "whole number", id="deals_str"),
    pytest.param(exp("simulate", "seed = 1e300"), "experiments[0].seed", "digits", id="seed_1e300"),
    pytest.param(exp("simulate", "deals = 1e30"), "experiments[0].deals", "digits", id="deals_1e30"),
    pytest.param(exp("simulate", "seed = 9007199254740993.0"), "experiments[0].seed", "2**53", id="seed_inexact"),
    pytest.param(exp("simulate", "carried = true"), "experiments[0].carried", "finite number", id="carried_bool"),
    pytest.param(exp("simulate", "carried = inf"), "experiments[0].carried", "finite number", id="carried_inf"),
    pytest.param(exp("simulate", "dealer = 1.5"), "experiments[0].dealer", "whole number", id="dealer_float"),
    pytest.param(exp("miss", 'players = ["x"]'), "experiments[0].players[0]", "whole number", id="players_str"),
    pytest.param(exp("miss", "carried = [true]"), "experiments[0].carried[0]", "finite number", id="carried_list_bool"),
    pytest.param(exp("miss", "focal = 0.5"), "experiments[0].focal", "whole number", id="focal_float"),
    pytest.param(exp("pots", "bankroll = inf"), "experiments[0].bankroll", "finite number", id="bankroll_inf"),
    pytest.param(
        exp("variants", "rows = [{name = 5}]"), "experiments[0].rows[0].name", "string", id="row_name_int"
    ),  # fmt: skip
    pytest.param(
        exp("variants", 'rows = [{name = "x"}]\nbaseline = 5'), "experiments[0].baseline", "string", id="baseline_int"
    ),  # fmt: skip
    pytest.param(
        "[defaults]\nprecision = true\n" + exp("miss"),
        "defaults.precision",
        "finite number",
        id="defaults_precision_bool",
    ),  # fmt: skip
    pytest.param("title = 5\n" + exp("simulate"), "title", "string", id="title_int"),
    pytest.param(exp("simulate", "title = [1]"), "experiments[0].title", "string", id="experiment_title_array"),
]


def run_report(config: str, tmp_path: Path, *extra: str) -> tuple[int, str, Path]:
    path = tmp_path / "bad.toml"
    path.write_text(config, encoding="utf-8")
    out = tmp_path / "out"
    rc = main(["report", str(path), "--out", str(out), *extra])
    return rc, str(path), out


@pytest.mark.parametrize("config, where, allowed", BAD_CONFIGS)
def test_malformed_config_is_one_error_line(capsys, tmp_path, config, where, allowed):
    rc, _, out = run_report(config, tmp_path)
    captured = capsys.readouterr()
    assert rc == 2, captured.err
    assert "Traceback" not in captured.err + captured.out
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("error: ") and where in lines[0] and allowed in lines[0], lines[0]
    assert len(lines[0]) < 250, lines[0]
    assert not out.exists()  # nothing written, no manifest


def test_every_problem_is_one_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(exp("pots", 'compare = [5]\nsessions = 1.5\npolicy = 5\nby_class = "x"'), encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert len(info.value.problems) == 4, info.value.problems
    text = "\n".join(info.value.problems)
    for fragment in ("experiments[0].by_class: unknown key", "experiments[0].policy:", "experiments[0].sessions:",
                     "experiments[0].compare[0]:"):  # fmt: skip
        assert fragment in text, text


def test_a_default_problem_is_said_once(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("[defaults]\nseed = 0.5\n" + exp("simulate") + exp("simulate").replace('"a"', '"b"'))
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert info.value.problems == ["defaults.seed: 0.5 is a number; expected a whole number"]


def test_whole_floats_become_ints(tmp_path):
    """``deals = 1e6`` is a whole number: the study holds an int (no TypeError at run time)."""
    path = tmp_path / "ok.toml"
    path.write_text(exp("pots", "sessions = 100.0\nsession_deals = 1e2\nseed = 7.0"))
    study = load_config(path).experiments[0].study
    assert (study.sessions, study.session_deals, study.seed) == (100, 100, 7)
    assert all(type(v) is int for v in (study.sessions, study.session_deals, study.seed))


@pytest.mark.parametrize("spelling", ["Three-Card", "THREE-CARD", " three-card "])
def test_preset_names_in_any_case_alike_in_toml_and_cli(tmp_path, spelling):
    path = tmp_path / "ok.toml"
    path.write_text(exp("simulate", f'preset = "{spelling}"\ndeals = 10'))
    study = load_config(path).experiments[0].study
    assert study.preset == "three-card"
    from loo_sim.report.kinds import SimulateStudy

    cli_study = SimulateStudy(preset=spelling, deals=10)
    assert cli_study.problems() == [] and cli_study.preset == "three-card"
    assert cli_study.digest() == study.digest()


def test_rule_overrides_alike_in_toml_and_cli(tmp_path):
    """``--players 5 --set ante=2 --set pam=off`` gives texts, a config's ``rules`` numbers and
    booleans: the same study, so the same digest (a report resumes on it); another value,
    another digest. In a variants row too."""
    from loo_sim.cli.options import rules_with_players
    from loo_sim.report.kinds import SimulateStudy, VariantsStudy

    path = tmp_path / "ok.toml"
    path.write_text(exp("simulate", "deals = 10\nrules = {players = 5, ante = 2.0, pam = false}"))
    study = load_config(path).experiments[0].study
    by_cli = SimulateStudy(deals=10, rules=rules_with_players(["ante=2", "pam=off"], 5))
    assert by_cli.problems() == [] and by_cli.rules["players"] == "5"
    assert by_cli.digest() == study.digest()
    assert SimulateStudy(deals=10, rules=rules_with_players(["ante=2", "pam=off"], 6)).digest() != study.digest()
    path.write_text(exp("variants", 'deals = 10\nrows = [{name = "x", rules = {players = 4, trump = "FIRST_LEAD"}}]'))
    row_study = load_config(path).experiments[0].study
    texts = VariantsStudy(deals=10, rows=[{"name": "x", "rules": {"players": "4", "trump": "first_lead"}}])
    assert texts.problems() == [] and texts.digest() == row_study.digest()


def test_preset_case_in_a_variants_row(tmp_path):
    path = tmp_path / "ok.toml"
    path.write_text(exp("variants", 'deals = 10\nrows = [{name = "x", preset = "LIMITED"}]'))
    study = load_config(path).experiments[0].study
    assert study.row_rules(study.rows[0]).penalty.value == "limited"


def test_report_bad_config_subprocess_is_one_line_per_problem(tmp_path):
    """The guard: ``loo-sim report BAD.toml`` run as a program exits 2 with one ``error:``
    line a problem and no traceback (a config that raised would fail here)."""
    path = tmp_path / "bad.toml"
    path.write_text(exp("simulate", 'rules = "abc"\npolicy = 5') + exp("pots", "compare = [5]").replace('"a"', '"b"'))
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    proc = subprocess.run([sys.executable, "-m", "loo_sim", "report", str(path), "--out", str(out)],
                          capture_output=True, text=True, timeout=120, env=env)  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = proc.stderr.splitlines()
    assert lines == [
        "error: experiments[0].rules: expected a table",
        "error: experiments[1].compare[0]: 5 is an integer; expected a string",
    ] or (len(lines) >= 2 and all(line.startswith("error: ") for line in lines)), proc.stderr
    assert any("experiments[0].rules" in line for line in lines)
    assert any("experiments[1].compare[0]" in line for line in lines)
    assert not out.exists()


def test_every_bad_field_of_every_experiment_is_one_line(tmp_path, capsys):
    """Issue #29: a config with mistakes of type and of value in several experiments reports
    each one (a mistyped field no longer hides the others, and a bad rule set does not hide a
    bad policy), one line each, exit 2, nothing written."""
    path = tmp_path / "many.toml"
    path.write_text('title = "t"\n'
                    '[[experiments]]\nname = "a"\nkind = "simulate"\ndeals = 0\nseed = -1\n'
                    'rules = { penalty = "unlimted" }\npolicy = "nope"\n'
                    '[[experiments]]\nname = "b"\nkind = "pots"\nsessions = "x"\nsession_deals = 0\nbankroll = -5\n'
                    '[[experiments]]\nname = "c"\nkind = "miss"\nplayers = 9\ncarried = -1\n'
                    'precision = 0\n')  # fmt: skip
    out = tmp_path / "out"
    assert main(["report", str(path), "--out", str(out)]) == 2
    err = capsys.readouterr().err.splitlines()
    planted = ["experiments[0].rules.penalty", "experiments[0].deals", "experiments[0].seed", "experiments[0].policy",
               "experiments[1].sessions", "experiments[1].session_deals", "experiments[1].bankroll",
               "experiments[2].players[0]", "experiments[2].carried[0]", "experiments[2].precision"]  # fmt: skip
    assert len(err) == len(planted)
    for where in planted:
        assert sum(line.startswith(f"error: {where}: ") for line in err) == 1, where
    assert not out.exists()
