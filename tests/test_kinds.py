"""Every kind of study against one protocol (``report/kinds/``, issue #29 item 8): a study
spells its own command line and the CLI parses that line back into the same study; its
kernel drivers are registered with their compile seconds; its deal estimate is positive;
and a tiny run of it writes summary.md and a run.json that names the command and every file
written. A new kind that misses one of these fails here, not in a user's hands."""

from __future__ import annotations

import importlib
import json
import shlex

import pytest

from loo_sim.cli import main
from loo_sim.report.kinds import KINDS, STUDIES
from loo_sim.report.running import run_study, write_study

# one study of each kind, with values off the defaults so the round trip means something (rule
# options as --set gives them: strings)
EXAMPLES = {
    "simulate": dict(rules={"penalty": "limited"}, policy="cautious/basic/basic", deals=3000, seed=7, carried=6.0,
                     dealer=2, by_class=True),
    "miss": dict(rules={"lead": "classic"}, seat_policy={1: "cautious"}, deals=4096, seed=3, players=[4, 5],
                 carried=[0.0, 12.0], precision=0.5, focal=1, chart_seat=2, chart_scale=9.0),
    "pots": dict(preset="limited", policy="ev", compare=["ante=2,3"], sessions=64, session_deals=4, seed=5,
                 bankroll=40.0),
    "variants": dict(rows=[{"name": "limited", "preset": "limited"}, {"name": "a2", "preset": "three-card",
                                                                       "rules": {"ante": "2"}}],
                     baseline="a2", deals=4096, seed=2, carried=3.0),
    "solve": dict(rules={"players": "4"}, policy="high", deals=8192, iterations=1, starts=["basic", "always"],
                  averaging="uniform", carried=[0.0], eval_deals=8192, seed=4),
    "tournament": dict(preset="limited", policies=["basic", "cautious"], sessions=64, session_deals=3, seed=1,
                       bankroll=30.0),
    "risk": dict(preset="limited", focal_policy="cautious", focal=1, sessions=64, session_deals=5, seed=2),
    "cardplay": dict(rules={"players": "4"}, entrants=["basic", "low"], table_policy="basic", whole_table="high",
                     carried=3.0, deals=300, seed=6),
}  # fmt: skip


def example(kind: str):
    return STUDIES[kind](**EXAMPLES[kind])


def test_every_kind_has_an_example():
    assert set(EXAMPLES) == set(KINDS)


@pytest.mark.parametrize("kind", KINDS)
def test_the_command_line_a_study_spells_gives_the_same_study(kind, monkeypatch, tmp_path):
    study = example(kind)
    assert study.problems() == []
    built = []

    class Built(Exception):
        pass

    def capture(s, *args, **kwargs):
        built.append(s)
        raise Built

    monkeypatch.setattr(importlib.import_module(f"loo_sim.cli.commands.{kind}"), "run_and_write", capture)
    argv = [kind, *study.cli_args(), "--out", str(tmp_path / "o")]
    with pytest.raises(Built):
        main(argv)
    assert len(built) == 1, argv
    assert built[0].to_dict() == study.to_dict()


@pytest.mark.parametrize("kind", KINDS)
def test_drivers_compile_seconds_and_estimate(kind):
    from loo_sim.kernel import COMPILE_SECONDS, DRIVERS

    study = example(kind)
    assert study.drivers() and all(d in DRIVERS and COMPILE_SECONDS[d] > 0 for d in study.drivers())
    assert study.deals_estimate() > 0


@pytest.mark.parametrize("kind", KINDS)
def test_a_tiny_run_writes_its_summary_and_a_run_json_naming_every_file(kind, tmp_path):
    study = example(kind)
    output = run_study(study, str(tmp_path / kind))
    (tmp_path / kind).mkdir()
    names = write_study(tmp_path / kind, output)
    assert {"summary.md", "run.json"} <= set(names)
    info = json.loads((tmp_path / kind / "run.json").read_text())
    assert info["kind"] == kind and info["files"] == names
    assert sorted(p.name for p in (tmp_path / kind).iterdir()) == sorted(names)
    assert info["command"].split(" --out ")[0] == shlex.join(["loo-sim", kind, *study.cli_args()])


@pytest.mark.parametrize("kind", KINDS)
def test_a_folder_holding_another_run_keeps_none_of_its_files(kind, tmp_path):
    """Issue #31 item 2: a command writing into a folder that holds another run's outputs
    leaves none of them beside its own (they were mixed: a solve with one start kept a
    former solve's strategy-always.csv); a file no run of loo-sim wrote stays."""
    folder = tmp_path / "out"
    folder.mkdir()
    other = "risk" if kind == "simulate" else "simulate"
    earlier = write_study(folder, run_study(example(other), str(folder)))
    (folder / "notes.txt").write_text("mine")
    names = write_study(folder, run_study(example(kind), str(folder)))
    assert sorted(p.name for p in folder.iterdir()) == sorted([*names, "notes.txt"]), earlier
    assert (folder / "notes.txt").read_text() == "mine"


def test_a_solve_with_fewer_starts_removes_the_tables_of_the_others(tmp_path):
    """The issue's case, through the command line: three starts, then one, into one folder."""
    out = tmp_path / "solve"
    small = ["--iterations", "1", "--deals", "8192", "--eval-deals", "8192", "--seed", "1"]
    assert main(["solve", *small, "--start", "basic", "--start", "always", "--out", str(out)]) == 0
    assert (out / "strategy-always.csv").exists() and (out / "distances.csv").exists()
    assert main(["solve", *small, "--start", "basic", "--seed", "3", "--out", str(out)]) == 0
    assert not (out / "strategy-always.csv").exists() and not (out / "distances.csv").exists()
    assert sorted(p.name for p in out.iterdir()) == sorted(json.loads((out / "run.json").read_text())["files"])


@pytest.mark.parametrize("argv, written", [
    (["calibrate", "--preset", "three-card", "--players", "4"], ["strength.csv", "run.json"]),
])  # fmt: skip
def test_commands_outside_the_kinds_also_replace_an_earlier_run(argv, written, tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    write_study(folder, run_study(example("simulate"), str(folder)))
    assert main([*argv, "--out", str(folder)]) == 0
    assert sorted(p.name for p in folder.iterdir()) == sorted(written)


@pytest.mark.parametrize(
    ("kind", "change", "searches"),
    [
        ("cardplay", {"entrants": ["basic", "pimc:4"]}, True),
        ("cardplay", {"whole_table": "perfect"}, True),
        ("tournament", {"policies": ["basic", "cautious/pimc:8:infer"]}, True),
        ("tournament", {"policies": ["basic", "table:perfect.csv"]}, False),  # a file's name, not a family
        ("cardplay", {}, False),
    ],
)
def test_a_searching_policy_adds_the_solver_to_the_drivers(kind, change, searches):
    """A perfect or pimc card play compiles the card-play solver besides the kind's driver
    (kernel.COMPILE_SECONDS["search"]: the notice on a cold cache says so)."""
    from loo_sim.kernel import COMPILE_SECONDS

    study = STUDIES[kind](**{**EXAMPLES[kind], **change})
    assert ("search" in study.drivers()) is searches
    # the search's cold compile, measured, is several times a kind's (docs/performance.md: 59-65 s against 9-11)
    assert study.drivers()[0] == kind and COMPILE_SECONDS["search"] > 5 * COMPILE_SECONDS[kind]
