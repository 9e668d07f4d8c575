"""``loo-sim solve --compare-with``: the solved table beside another of the same rules (issue
#27 item 3: the equilibrium under strong card play beside the one under ``basic``). The
counts and weights are checked on small tables worked by hand, then end to end: a table set
beside itself changes nothing, and a table of other rules is refused in one line."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from loo_sim.analysis.equilibrium_compare import comparison_sentences, table_changes
from loo_sim.cli import main

KEYS = dict(position=1, earlier_in=0, options="play/pass/miss", pot="pot <= 1 penalty")


def _table(rows: list[tuple[int, float, float, float, float]]) -> pd.DataFrame:
    """(class, p_pass, p_play, p_miss, reach) rows at one position and offer."""
    return pd.DataFrame([dict(**KEYS, **{"class": c, "hand": f"hand {c}"}, p_pass=a, p_play=b, p_miss=m, p_defend=0.0,
                              reach=r) for c, a, b, m, r in rows])  # fmt: skip


def test_changes_counted_and_weighted_by_mean_reach():
    this = _table([(0, 0.9, 0.1, 0.0, 0.30), (1, 0.2, 0.8, 0.0, 0.10), (2, 0.0, 0.0, 1.0, 0.20)])
    other = _table([(0, 0.9, 0.1, 0.0, 0.10), (1, 0.7, 0.3, 0.0, 0.30), (3, 1.0, 0.0, 0.0, 0.5)])
    changes = table_changes(this, other)
    # shared: class 0 (mean reach 0.2, pass in both) and class 1 (mean reach 0.2, play vs pass)
    assert list(changes["class"]) == [0, 1]
    assert changes["weight"].tolist() == pytest.approx([0.5, 0.5])
    assert changes["changes"].tolist() == [False, True]
    assert changes.loc[1, "action_this"] == "play" and changes.loc[1, "action_other"] == "pass"
    assert changes["total_variation"].tolist() == pytest.approx([0.0, 0.5])  # 0.5 * (|0.2-0.7| + |0.8-0.3|)
    text = comparison_sentences("A", "B", this, other, players=5)
    assert text[0].startswith("Of the 2 information sets both tables list, 1 change their most likely declaration")
    assert "50% of the information-set mass" in text[0]
    assert "1 information set(s) are only in A and 1 only in B" in text[0]
    assert "hand 1 at position 1, no earlier seat in" in text[1] and "pass 70% under B, play 80% under A" in text[1]


def test_identical_tables_change_nothing():
    table = _table([(0, 0.5, 0.5, 0.0, 0.3), (5, 0.0, 1.0, 0.0, 0.7)])
    assert not table_changes(table, table.copy())["changes"].any()
    text = comparison_sentences("A", "B", table, table.copy(), players=5)
    assert len(text) == 1 and ", 0 change their most likely declaration" in text[0]


SIZES = ("--iterations", "1", "--deals", "8192", "--eval-deals", "8192", "--seed", "3")


@pytest.fixture(scope="module")
def first(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("cmp") / "first"
    assert main(["solve", "--preset", "three-card", "--players", "4", *SIZES, "--out", str(out)]) == 0
    return out


def test_the_same_solve_beside_its_own_table_changes_nothing(first, tmp_path):
    out = tmp_path / "second"
    argv = ["solve", "--preset", "three-card", "--players", "4", *SIZES, "--compare-with",
            str(first / "strategy.csv"), "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    changes = pd.read_csv(out / "comparison.csv")
    own = pd.read_csv(first / "strategy.csv", skiprows=1)
    assert len(changes) == len(own) and not changes["changes"].any()
    assert changes["weight"].sum() == pytest.approx(1.0)
    summary = (out / "summary.md").read_text()
    assert "## Beside `" in summary and ", 0 change their most likely declaration" in summary


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--players", "5"], "a strategy table for 4 players; these rules have 5"),
        (["--players", "4", "--set", "penalty=limited"], "a strategy table for other rules"),
    ],
)
def test_a_table_of_other_rules_is_refused_before_the_solve(first, tmp_path, capsys, extra, message):
    out = tmp_path / "out"
    rc = main(["solve", "--preset", "three-card", *extra, *SIZES, "--compare-with", str(first / "strategy.csv"),
               "--out", str(out)])  # fmt: skip
    err = capsys.readouterr().err
    assert rc != 0 and message in err, err
    assert len(err.strip().splitlines()) == 1 and not out.exists()


def test_a_missing_table_is_one_line(tmp_path, capsys):
    rc = main(["solve", "--compare-with", str(tmp_path / "nope.csv"), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert rc != 0 and "no such file" in err and len(err.strip().splitlines()) == 1


def test_the_compared_table_is_part_of_the_digest(first, tmp_path):
    """A report resumes on the digest: set beside a changed table, the solve must run again."""
    from loo_sim.report.kinds.solve import SolveStudy

    table = tmp_path / "other.csv"
    table.write_bytes((first / "strategy.csv").read_bytes())
    study = SolveStudy(preset="three-card", compare_with=str(table))
    before = study.digest()
    assert study.files_read() == [str(table)]
    assert SolveStudy(preset="three-card").files_read() == []
    table.write_bytes(table.read_bytes() + b"\n")
    assert study.digest() != before


def _chained_config(tmp_path: Path, out: Path, compared: str) -> Path:
    """A report of two solves of the same rules and seed, the second set beside ``compared``."""
    cfg = tmp_path / "chain.toml"
    cfg.write_text(f"""
[defaults]
preset = "three-card"
players = 4
iterations = 1
deals = 8192
eval_deals = 8192
seed = 3

[[experiments]]
name = "first"
kind = "solve"

[[experiments]]
name = "second"
kind = "solve"
compare_with = "{compared}"
""")
    return cfg


def test_a_report_compares_with_the_table_an_earlier_experiment_solves(tmp_path):
    """The table is not there when the config is checked; the report solves it first. The two
    solves are the same solve (same rules, sizes and seed), so nothing changes."""
    from loo_sim.report.config import ConfigError, load_config

    out = tmp_path / "report"
    cfg = _chained_config(tmp_path, out, str(out / "first" / "strategy.csv"))
    with pytest.raises(ConfigError, match="compare_with"):
        load_config(cfg)  # no report folder named: the file must exist now
    assert main(["report", str(cfg), "--out", str(out)]) == 0
    changes = pd.read_csv(out / "second" / "comparison.csv")
    assert len(changes) > 0 and not changes["changes"].any()


def test_a_table_a_later_experiment_solves_is_still_refused(tmp_path, capsys):
    out = tmp_path / "report"
    cfg = _chained_config(tmp_path, out, str(out / "second" / "strategy.csv"))
    rc = main(["report", str(cfg), "--out", str(out)])
    err = capsys.readouterr().err
    assert rc != 0 and "compare_with" in err and "no such file" in err, err
    assert not (out / "first").exists()
