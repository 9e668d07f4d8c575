"""``loo-sim variants`` (issue 17 item 1): the command runs the study a report's
``kind = "variants"`` experiment runs, so both write the same CSVs for the same
parameters, from a clean pot and in sessions; the command it records repeats it; bad
input is one ``error:`` line naming the flag, exit status 2, nothing written; Ctrl-C
stamps what finished PARTIAL."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from loo_sim.base.errors import LooError
from loo_sim.cli import main
from loo_sim.report.kinds.variants import parse_row, row_text

CLEAN = """
[defaults]
seed = 5
policy = "basic"
players = 4

[[experiments]]
name = "v"
kind = "variants"
deals = 3000
carried = 6
baseline = "limited"
rows = [
  {name = "three-card", preset = "three-card"},
  {name = "limited", preset = "limited"},
  {name = "lim-ante2", preset = "limited", rules = {ante = 2, ante_payer = "dealer"}},
]
"""
CLEAN_ARGS = ["--seed", "5", "--policy", "basic", "--players", "4", "--deals", "3000", "--carried", "6",
              "--baseline", "limited", "--row", "three-card", "--row", "limited",
              "--row", "lim-ante2=limited,ante=2,ante_payer=dealer"]  # fmt: skip

SESSIONS = """
[[experiments]]
name = "s"
kind = "variants"
seed = 3
policy = "basic"
sessions = 70
session_deals = 16
burn_in = 4
rows = [{name = "limited", preset = "limited"}, {name = "three-card", preset = "three-card"}]
"""
SESSION_ARGS = ["--seed", "3", "--policy", "basic", "--sessions", "70", "--session-deals", "16", "--burn-in", "4",
                "--row", "limited", "--row", "three-card"]  # fmt: skip


def _report(tmp_path: Path, text: str, name: str) -> Path:
    config = tmp_path / f"{name}.toml"
    config.write_text(text, encoding="utf-8")
    out = tmp_path / "report"
    assert main(["report", str(config), "--out", str(out), "--only", name]) == 0
    return out / name


def _csvs(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.csv"))}


def test_the_command_writes_the_csvs_of_the_report_kind(tmp_path, capsys):
    by_report = _report(tmp_path, CLEAN, "v")
    out = tmp_path / "cli"
    assert main(["variants", *CLEAN_ARGS, "--threads", "1", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "# Rule variants against limited" in printed and "wrote variants.csv" in printed
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in by_report.iterdir())
    assert _csvs(out) == _csvs(by_report) and list(_csvs(out)) == ["variants.csv"]
    run = json.loads((out / "run.json").read_text())
    assert json.loads((by_report / "run.json").read_text())["study"]["rows"][2]["rules"] == {
        "ante": 2,
        "ante_payer": "dealer",
    }
    # the command recorded repeats the run (a row written back as --row NAME=PRESET,KEY=VALUE)
    words = shlex.split(run["command"])
    assert words[:2] == ["loo-sim", "variants"] and "lim-ante2=limited,ante=2,ante_payer=dealer" in words
    again = tmp_path / "again"
    assert main([*words[1:-2], "--out", str(again)]) == 0
    capsys.readouterr()
    assert _csvs(again) == _csvs(out)


def test_sessions_through_the_command_match_the_report_and_say_the_burn_in(tmp_path, capsys):
    by_report = _report(tmp_path, SESSIONS, "s")
    out = tmp_path / "cli"
    assert main(["variants", *SESSION_ARGS, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    names = ["session_pots.csv", "session_windows.csv", "sessions.csv", "variants.csv"]
    assert list(_csvs(out)) == names and _csvs(out) == _csvs(by_report)
    for name in ("sessions.png", "session_pots.png", "variants.png", "summary.md", "run.json"):
        assert (out / name).exists(), name
    text = (out / "summary.md").read_text()
    assert "The first 4 deals of each session are a burn-in" in text and "deals 5-16 of each session" in text
    assert "First deal of a session" in text and "burn-in" in printed
    run = json.loads((out / "run.json").read_text())
    assert run["burn_in"] == 4 and run["sessions_done"] == 70 and run["deals_per_session"] == 16
    assert "--sessions 70 --session-deals 16 --burn-in 4" in run["command"]
    assert f"Produced by `{shlex.join(shlex.split(run['command'])[:-2])}`" in text


def test_deals_default_to_a_session_of_40_with_sessions(tmp_path, capsys):
    out = tmp_path / "o"
    assert main(["variants", "--row", "limited", "--sessions", "5", "--out", str(out)]) == 0
    capsys.readouterr()
    run = json.loads((out / "run.json").read_text())
    assert run["deals_per_session"] == 40 and run["burn_in"] == 10


@pytest.mark.parametrize(
    "text, row",
    [
        ("limited", {"name": "limited", "preset": "limited"}),
        ("LIMITED", {"name": "LIMITED", "preset": "limited"}),
        ("cheap = Limited , ante = 1", {"name": "cheap", "preset": "limited", "rules": {"ante": "1"}}),
        (
            "x=five-card,hand-size=5,flush=true",
            {"name": "x", "preset": "five-card", "rules": {"hand_size": "5", "flush": "true"}},
        ),
    ],
)
def test_a_row_is_read_and_written_back(text, row):
    assert parse_row(text, "rows[0]") == row
    assert parse_row(row_text(row, "three-card"), "rows[0]") == row
    assert row_text({"name": "a,b", "preset": "limited"}, "three-card") is None  # no --row spells it
    assert row_text({"name": "x", "rules": {"ante": 2, "flush": False}}, "limited") == "x=limited,ante=2,flush=false"


def test_a_row_error_carries_its_key():
    with pytest.raises(LooError) as e:
        parse_row("x=nope", "rows[3]")
    assert e.value.key == "rows[3]" and e.value.detail.startswith("'x=nope': 'nope' is not a preset")


BAD = [
    # (arguments, the start of the one line after "error: ")
    pytest.param([], "--row: none given; give each rule set as NAME=PRESET", id="no_rows"),
    pytest.param(["--row", "=limited"], "--row '=limited': no name", id="row_no_name"),
    pytest.param(["--row", "x="], "--row 'x=': no preset", id="row_no_preset"),
    pytest.param(["--row", "x=bogus"], "--row 'x=bogus': 'bogus' is not a preset; allowed three-card", id="preset"),
    pytest.param(["--row", "x=limited,ante"], "--row 'x=limited,ante': 'ante': expected key=value", id="no_value"),
    pytest.param(
        ["--row", "x=limited,colour=red"],
        "--row 'x=limited,colour=red': 'colour=red': unknown option",
        id="unknown_option",
    ),
    pytest.param(
        ["--row", "x=limited,ante=1,ante=2"], "--row 'x=limited,ante=1,ante=2': ante is given twice", id="option_twice"
    ),
    pytest.param(
        ["--row", "limited", "--row", "limited"],
        "--row 'limited': the name 'limited' is taken by row 1",
        id="name_twice",
    ),
    pytest.param(
        ["--row", "limited", "--row", "x=limited,penalty=bogus"],
        "--row 'x=limited,penalty=bogus': penalty: 'bogus' is not one of",
        id="bad_value",
    ),
    pytest.param(["--row", "x=three-card,hand_size=5"], "--row 'x=three-card,hand_size=5': miss:", id="combination"),
    pytest.param(
        ["--row", "limited", "--baseline", "nope"],
        "--baseline 'nope' is not a row name; allowed limited",
        id="baseline",
    ),
    pytest.param(["--row", "limited", "--burn-in", "2"], "--burn-in goes with --sessions", id="burn_in_alone"),
    pytest.param(
        ["--row", "limited", "--sessions", "10", "--carried", "5"],
        "--carried goes without --sessions",
        id="carried_in_sessions",
    ),
    pytest.param(
        ["--row", "limited", "--sessions", "10", "--session-deals", "10", "--burn-in", "10"],
        "--burn-in: 10 is not allowed; allowed 0..9",
        id="burn_in_too_long",
    ),
    pytest.param(
        ["--row", "limited", "--sessions", "10", "--session-deals", "200000"],
        "--session-deals: 200000 is not allowed; allowed 1..100000",
        id="session_deals",
    ),
    pytest.param(["--row", "limited", "--sessions", "0"], "--sessions: 0 is not allowed", id="sessions_0"),
    pytest.param(["--row", "limited", "--deals", "0"], "--deals: 0 is not allowed", id="deals_0"),
    pytest.param(["--row", "limited", "--carried", "-1"], "--carried", id="carried_negative"),
    pytest.param(["--row", "limited", "--players", "9"], "--players: 9 is not allowed; allowed 3..8", id="players"),
    pytest.param(["--row", "limited", "--seat-policy", "9=basic"], "--seat-policy '9=basic'", id="seat_policy"),
    pytest.param(["--row", "limited", "--preset", "nope"], "--preset 'nope' is not one of", id="base_preset"),
    pytest.param(["--row", "limited", "--workers", "2"], "--workers goes with --backend dask", id="workers_local"),
    pytest.param(["--row", "limited", "--seed", "1.5"], "--seed", id="seed_fraction"),
]


@pytest.mark.parametrize("argv, start", BAD)
def test_bad_input_is_one_error_line_naming_the_flag(capsys, tmp_path, argv, start):
    out = tmp_path / "o"
    rc = main(["variants", *argv, "--out", str(out)])
    captured = capsys.readouterr()
    assert rc == 2, captured.err
    assert "Traceback" not in captured.err + captured.out
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {start}"), captured.err
    assert not out.exists()


def test_ctrl_c_stamps_the_deals_that_finished(tmp_path):
    from tests.test_interrupts import _interrupt, _popen, _warm

    _warm(tmp_path, "variants", "--row", "limited", "--row", "three-card", "--deals", "2000")
    out = tmp_path / "v"
    proc = _popen("variants", "--row", "limited", "--row", "three-card", "--deals", "1e12", "--out", str(out))
    stdout, stderr, seconds = _interrupt(proc, out.exists, 3.0)
    assert proc.returncode == 130, stderr
    assert seconds < 10
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and re.fullmatch(
        rf"interrupted: [\d,]+ of 1,000,000,000,000 deals done; partial results in {re.escape(str(out))}", lines[0]
    ), stderr
    assert sorted(p.name for p in out.iterdir()) == ["run.json", "summary.md", "variants.csv", "variants.png"]
    assert (out / "summary.md").read_text().startswith("**PARTIAL**")
    assert json.loads((out / "run.json").read_text())["partial"] is True
