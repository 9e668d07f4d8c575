"""``loo-sim solve`` end to end on a tiny solve (docs/policies.md P6): the files it writes,
strategy.csv read back as a table, exploitability and convergence, bad input as one line,
the help's example, and the report's ``kind = "solve"`` experiment writing the same files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from loo_sim.base.errors import LooError
from loo_sim.cli import main
from loo_sim.game.rules import Rules
from loo_sim.run.tables import read_table

SIZES = ("--iterations", "2", "--deals", "8192", "--eval-deals", "8192", "--seed", "1")
FILES = {
    "strategy.csv", "strategy.png", "convergence.csv", "convergence.png", "exploitability.csv",
    "exploitability.png", "heuristics.csv", "summary.md", "run.json",
}  # fmt: skip


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("solve") / "out"
    assert main(["solve", "--preset", "three-card", *SIZES, "--out", str(out)]) == 0
    return out


def test_a_tiny_solve_writes_its_files(solved):
    assert {p.name for p in solved.iterdir()} == FILES
    for name in FILES:
        assert (solved / name).stat().st_size > 0, name
    for name in ("strategy.png", "convergence.png", "exploitability.png"):
        assert (solved / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
    run = json.loads((solved / "run.json").read_text())
    assert run["kind"] == "solve" and run["card_play"] == "basic/basic"
    assert run["solves"][0]["start"] == "basic" and run["solves"][0]["iterations_done"] == 2


def test_strategy_csv_reads_back_for_the_same_rules_only(solved):
    rules = Rules.preset("three-card")
    table = read_table(solved / "strategy.csv", rules)
    known = ~np.isnan(table[:, 0])
    frame = pd.read_csv(solved / "strategy.csv", skiprows=1)
    assert known.sum() == len(frame) > 100
    np.testing.assert_allclose(table[known].sum(axis=1), 1.0, atol=1e-12)
    run = json.loads((solved / "run.json").read_text())
    assert run["solves"][0]["information_sets"] == len(frame)
    with pytest.raises(LooError, match="a strategy table for other rules"):
        read_table(solved / "strategy.csv", Rules.preset("three-card", penalty="limited"))


def test_exploitability_basic_far_above_the_equilibrium(solved):
    ex = pd.read_csv(solved / "exploitability.csv")
    assert list(ex.columns[:5]) == ["profile", "seat", "nashconv", "lo", "hi"]
    total = ex[ex["seat"].astype(str) == "all"].set_index("profile")
    eq, basic = total.loc["equilibrium (from basic)"], total.loc["basic"]
    assert basic["lo"] > eq["hi"], (basic.to_dict(), eq.to_dict())  # ~20 chips per deal against ~2
    assert basic["nashconv"] > 10
    assert (ex.groupby("profile")["seat"].count() == 6).all()  # five seats and "all"
    for profile in ("always", "cautious", "ev"):
        assert profile in total.index


def test_convergence_has_each_iteration(solved):
    conv = pd.read_csv(solved / "convergence.csv")
    assert list(conv["iteration"]) == [0, 1, 2] and set(conv["start"]) == {"basic"}
    # each iteration: its 8192 deals and its exploring deals (a quarter, at least one block of 4096)
    assert list(conv["deals"]) == [12288, 24576, 36864]
    assert (conv["nashconv_lo"] <= conv["nashconv"]).all() and (conv["nashconv"] <= conv["nashconv_hi"]).all()


def test_summary_says_the_card_play_it_is_given(solved):
    summary = (solved / "summary.md").read_text()
    assert summary.startswith("# Equilibrium of the declaration game: three-card, 5 players")
    assert "given card play `basic` and exchange `basic`" in summary
    assert "table:PATH" in summary and "| equilibrium (from basic) |" in summary and "| basic |" in summary


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--iterations", "0"], "error: --iterations: 0 is not allowed; allowed 1..100000"),
        (["--deals", "100"], "error: --deals: 100 is not allowed; allowed 8192.."),
        (["--eval-deals", "10"], "error: --eval-deals: 10 is not allowed; allowed 8192.."),
        (["--start", "foo"], "error: --start 'foo' is not allowed; allowed basic, always, cautious"),
        (["--start", "basic", "--start", "basic"], "error: --start: each start policy once"),
        (["--averaging", "bogus"], "error: --averaging: unknown averaging scheme 'bogus'"),
        (["--policy", "foo"], "error: policy 'foo': solve takes the table's card play, PLAY[/EXCHANGE]"),
        (["--policy", "cautious"], "error: policy 'cautious': solve takes the table's card play"),
        (["--preset", "four-card"], "error: --preset 'four-card' is not one of three-card, five-card"),
        (["--players", "9"], "error: --players: 9 is not allowed; allowed 3..8"),
    ],
)
def test_bad_input_is_one_line_and_a_non_zero_exit(tmp_path, capsys, argv, message):
    out = tmp_path / "out"
    rc = main(["solve", *argv, "--out", str(out)])
    captured = capsys.readouterr()
    assert rc != 0
    assert captured.err.startswith(message), captured.err
    assert len(captured.err.splitlines()) == 1 and "Traceback" not in captured.err
    assert not out.exists()  # nothing run, nothing written


def test_help_shows_an_example(capsys):
    assert main(["solve", "--help"]) == 0
    text = capsys.readouterr().out
    assert "Examples:" in text and "loo-sim solve --preset three-card" in text
    assert "table:OUT/strategy.csv" in text


CONFIG = """
title = "A solve"

[defaults]
preset = "three-card"
seed = 1

[[experiments]]
name = "eq"
kind = "solve"
deals = 8192
iterations = 2
eval_deals = 8192
"""


def test_a_report_solve_experiment_writes_the_same_files(tmp_path, solved):
    config = tmp_path / "study.toml"
    config.write_text(CONFIG)
    out = tmp_path / "report"
    assert main(["report", str(config), "--out", str(out)]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    entry = manifest["experiments"]["eq"]
    assert entry["status"] == "done"
    assert {p.name for p in (out / "eq").iterdir()} == FILES == {p.name for p in solved.iterdir()}
    assert set(entry["files"]) == FILES
    # the same study as the CLI's: the same tables, byte for byte
    for name in ("strategy.csv", "convergence.csv", "exploitability.csv", "heuristics.csv"):
        assert (out / "eq" / name).read_bytes() == (solved / name).read_bytes(), name
    by_cli, by_report = (json.loads((d / "run.json").read_text()) for d in (solved, out / "eq"))
    assert by_cli["study"] == by_report["study"] and by_cli["digest"] == by_report["digest"]
    index = (out / "index.md").read_text()
    assert "same as: `loo-sim solve --preset three-card" in index and "given card play `basic`" in index


def test_the_committed_strategy_tables_read_for_their_own_rules():
    # a table is keyed by its rules' hash: a change to how rule sets are hashed must not
    # orphan the tables the reports and the README point at (reports/solve/*/strategy.csv)
    root = Path(__file__).resolve().parent.parent / "reports" / "solve"
    found = sorted(root.glob("*/strategy.csv"))
    assert found
    for path in found:
        options = json.loads((path.parent / "run.json").read_text())["rules"]
        table = read_table(path, Rules(**options))
        assert (~np.isnan(table[:, 0])).sum() > 100, path
