"""Batch reports: a config end to end, resume after a kill, every config error at once,
a failing experiment that does not lose the others."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from loo_sim.cli import main
from loo_sim.game.rules import OPTION_NAMES
from loo_sim.report.batch import run_report
from loo_sim.report.config import ConfigError, load_config

CONFIG = """
title = "A small study"
description = "Four kinds on few deals."

[defaults]
preset = "three-card"
deals = 20000
seed = 5
policy = "basic"

[[experiments]]
name = "sim"
kind = "simulate"

[[experiments]]
name = "pots"
kind = "pots"
compare = ["penalty=limited,unlimited"]
sessions = {sessions}
session_deals = 40

[[experiments]]
name = "variants"
kind = "variants"
deals = 8192
rows = [{{name = "three-card", preset = "three-card"}}, {{name = "limited", preset = "limited"}}]

[[experiments]]
name = "miss"
kind = "miss"
deals = 8192
players = [4, 5]
carried = [0, 12]
"""


def _config(tmp_path: Path, sessions: int = 300) -> Path:
    path = tmp_path / "study.toml"
    path.write_text(CONFIG.format(sessions=sessions))
    return path


def _csvs(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.glob("*/*.csv"))}


def test_a_small_config_end_to_end(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["report", str(_config(tmp_path)), "--out", str(out)]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert {k: v["status"] for k, v in manifest["experiments"].items()} == dict.fromkeys(
        ["sim", "pots", "variants", "miss"], "done"
    )
    for name, entry in manifest["experiments"].items():
        assert len(entry["digest"]) == 16 and all((out / name / f).exists() for f in entry["files"])
    html = (out / "index.html").read_text()
    csvs = sum(len([f for f in e["files"] if f.endswith(".csv")]) for e in manifest["experiments"].values())
    assert html.count('class="dataframe"') == csvs and html.count("data:image/png;base64,") >= 7
    assert "<table>\n<thead>" in html  # the pots summary's markdown tables are rendered as tables
    assert "http://" not in html and "https://" not in html and "<script" not in html  # self-contained
    md = (out / "index.md").read_text()
    for name in ("sim", "pots", "variants", "miss"):
        assert f"loo-sim report ../study.toml --only {name} --out ." in md  # relative to the report's folder
        run = json.loads((out / name / "run.json").read_text())
        assert run["seed"] == 5 and run["loo_sim_version"] and run["digest"] == manifest["experiments"][name]["digest"]
    variants = (out / "variants" / "variants.csv").read_text().splitlines()
    assert variants[0].startswith("row,metric,value,se,ci_low,ci_high")
    # `loo-sim simulate` runs the same study as the report's simulate experiment: the same files
    cli_out = tmp_path / "cli-sim"
    assert main(["simulate", "--deals", "20000", "--seed", "5", "--policy", "basic", "--out", str(cli_out)]) == 0
    files = manifest["experiments"]["sim"]["files"]
    assert (
        sorted(files)
        == sorted(p.name for p in cli_out.iterdir())
        == sorted(["summary.csv", "positions.csv", "summary.md", "run.json"])
    )
    for name in ("summary.csv", "positions.csv"):
        assert (cli_out / name).read_bytes() == (out / "sim" / name).read_bytes()
    by_cli, by_report = (json.loads((d / "run.json").read_text()) for d in (cli_out, out / "sim"))
    assert set(by_report) - set(by_cli) == {"report_command"} and set(by_cli) <= set(by_report)
    assert by_cli["study"] == by_report["study"] and by_cli["digest"] == by_report["digest"]


def test_resume_after_a_kill_gives_the_same_csvs_as_an_uninterrupted_run(tmp_path):
    config = _config(tmp_path, sessions=6000)
    whole = tmp_path / "whole"
    assert main(["report", str(config), "--out", str(whole)]) == 0
    killed = tmp_path / "killed"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    proc = subprocess.Popen([sys.executable, "-m", "loo_sim", "report", str(config), "--out", str(killed)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)  # fmt: skip
    manifest = killed / "manifest.json"
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:
        if manifest.exists() and "sim" in json.loads(manifest.read_text() or "{}").get("experiments", {}):
            proc.send_signal(signal.SIGKILL)  # after the first experiment, while the next one runs
            break
        time.sleep(0.02)
    proc.wait()
    done = json.loads(manifest.read_text())["experiments"]
    assert done["sim"]["status"] == "done" and len(done) < 4, "the kill must land before the last experiment"
    resumed = subprocess.run([sys.executable, "-m", "loo_sim", "report", str(config), "--out", str(killed), "--resume"],
                             capture_output=True, text=True, env=env)  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    assert "sim: unchanged since the last run, skipped" in resumed.stdout
    assert _csvs(killed) == _csvs(whole)


def test_resume_redoes_only_what_changed(tmp_path, capsys):
    out = tmp_path / "out"
    config = _config(tmp_path)
    assert main(["report", str(config), "--out", str(out), "--only", "sim", "--only", "variants"]) == 0
    config.write_text(config.read_text().replace("deals = 8192\nrows", "deals = 4096\nrows"))
    capsys.readouterr()
    assert main(["report", str(config), "--out", str(out), "--resume", "--only", "sim", "--only", "variants"]) == 0
    text = capsys.readouterr().out
    assert "sim: unchanged since the last run, skipped" in text and "variants (variants) ..." in text


def test_a_config_with_several_errors_reports_all_of_them_and_runs_nothing(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("""
[defaults]
deals = 0
colour = "red"
[[experiments]]
name = "a"
kind = "simulate"
rules = {penalty = "unlimted", players = 9}
[[experiments]]
name = "a"
kind = "pots"
compare = ["pentalty=1,2"]
[[experiments]]
name = "c"
kind = "nonsense"
[[experiments]]
name = "d"
kind = "simulate"
sessions = 5
[[experiments]]
name = "e"
kind = "miss"
seat_policy = {"9" = "basic"}
[[experiments]]
name = "f"
kind = "pots"
rules = "limited"
""")
    out = tmp_path / "out"
    assert main(["report", str(bad), "--out", str(out)]) == 2
    err = capsys.readouterr().err.splitlines()
    expected = [
        "error: defaults.colour: unknown key",
        "error: experiments[0].rules.penalty: 'unlimted' is not one of unlimited, limited, capped",
        "error: experiments[0].rules: players: 9 is not allowed",
        "error: defaults.deals: 0 is not allowed",  # set in [defaults]: said there, once
        "error: experiments[1].name: 'a' is used twice",
        "error: experiments[1].compare[0]: 'pentalty=1,2': unknown option 'pentalty'",
        "error: experiments[2].kind: 'nonsense' is not one of simulate, miss, pots, variants",
        "error: experiments[3].sessions: unknown key; allowed ",  # a key of another kind
        "error: experiments[4].seat_policy[9]: '9=basic': seat 9 is not a seat; allowed 0..4",
        "error: experiments[5].rules: expected a table",
    ]
    for fragment in expected:
        assert any(line.startswith(fragment) for line in err), fragment
    assert all(line.startswith("error: ") for line in err)
    assert not out.exists()
    with pytest.raises(ConfigError) as info:
        load_config(bad)
    assert len(info.value.problems) >= 10


def test_one_failing_experiment_does_not_lose_the_others(tmp_path, monkeypatch):
    import loo_sim.report.batch as report

    real = report.run_study

    def flaky(study, out=None, progress=None, backend=None, checked=False):
        if study.kind == "pots":
            raise RuntimeError("the disk caught fire")
        return real(study, out, progress, backend, checked)

    monkeypatch.setattr(report, "run_study", flaky)
    config = load_config(_config(tmp_path))
    out = tmp_path / "out"
    lines = []
    manifest = run_report(config, out, echo=lines.append)
    status = {k: v["status"] for k, v in manifest["experiments"].items()}
    assert status == {"sim": "done", "pots": "failed", "variants": "done", "miss": "done"}
    assert "the disk caught fire" in manifest["experiments"]["pots"]["error"]
    assert "error: pots failed: RuntimeError: the disk caught fire" in lines
    report.build_index(config, out)
    assert "the disk caught fire" in (out / "index.html").read_text()


def test_index_html_renders_summaries_as_markdown_and_escapes_raw_html(tmp_path):
    """summary.md goes through a markdown parser with raw HTML off: bullets become list
    items, bold and code render, and a tag written into a summary arrives as text."""
    from loo_sim.report.html import render_html

    out = tmp_path / "out"
    assert main(["report", str(_config(tmp_path)), "--out", str(out), "--only", "sim"]) == 0
    config = load_config(_config(tmp_path))
    summary = out / "sim" / "summary.md"
    summary.write_text("# Title\n\n- one **bold** and `code`\n- two <script>alert(1)</script>\n")
    manifest = json.loads((out / "manifest.json").read_text())
    page = render_html(config, out, manifest)
    assert "<h3>Title</h3>" in page  # headings pushed two levels below the experiment's h2
    assert "<li>one <strong>bold</strong> and <code>code</code></li>" in page
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_each_kind_has_its_own_fields_and_checks():
    from loo_sim.report.kinds import (
        KINDS,
        MissStudy,
        PotsStudy,
        SimulateStudy,
        SolveStudy,
        VariantsStudy,
        study_fields,
    )

    assert KINDS == ("simulate", "miss", "pots", "variants", "solve", "tournament", "risk", "cardplay")
    assert "iterations" in study_fields("solve") and "iterations" not in study_fields("miss")
    assert SolveStudy(iterations=0).problems() == [("iterations", "iterations: 0 is not allowed; allowed 1..100000")]
    assert "compare" not in study_fields("simulate") and "dealer" not in study_fields("pots")
    assert SimulateStudy().to_dict()["kind"] == "simulate" and list(MissStudy().to_dict())[0] == "kind"
    assert SimulateStudy(dealer=5).problems() == [("dealer", "dealer: seat 5 does not exist; allowed 0..4")]
    assert MissStudy(players=[4], focal=4).problems() == [("focal", "focal: seat 4 does not exist; allowed 0..3")]
    assert PotsStudy(compare=["colour=red"]).problems() == [
        ("compare[0]", "'colour=red': unknown option 'colour'; allowed policy, " + ", ".join(OPTION_NAMES))
    ]
    assert VariantsStudy().problems()[0][0] == "rows"
    assert PotsStudy().session_deals == 50 and MissStudy().deals == 200_000  # the CLI's defaults


def test_a_study_command_checks_its_study_once(tmp_path, monkeypatch):
    from loo_sim.report.kinds import PotsStudy

    calls = []
    real = PotsStudy.problems
    monkeypatch.setattr(PotsStudy, "problems", lambda self: calls.append(1) or real(self))
    out = tmp_path / "pots"
    assert main(["pots", "--sessions", "20", "--session-deals", "5", "--out", str(out)]) == 0
    assert len(calls) == 1


def test_only_keeps_the_other_finished_experiments_and_resume_then_skips_them(tmp_path, capsys, monkeypatch):
    """`--only sim` reruns sim alone: variants stays "done" in manifest.json and in the index
    (with its plot and table), and a later `--resume` recomputes neither."""
    import loo_sim.report.batch as report

    config = tmp_path / "two.toml"
    sim_only = CONFIG.format(sessions=300).split('[[experiments]]\nname = "pots"')[0]
    variants = """
[[experiments]]
name = "variants"
kind = "variants"
deals = 4096
rows = [{name = "three-card", preset = "three-card"}, {name = "limited", preset = "limited"}]
"""
    config.write_text(sim_only + variants)
    out = tmp_path / "out"
    assert main(["report", str(config), "--out", str(out)]) == 0
    csv = out / "variants" / "variants.csv"
    before = csv.stat().st_mtime_ns
    assert main(["report", str(config), "--out", str(out), "--only", "sim"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert {k: v["status"] for k, v in manifest["experiments"].items()} == {"sim": "done", "variants": "done"}
    md = (out / "index.md").read_text()
    section = md[md.index("(`variants`)") :]
    assert "- status: done" in section and "not run" not in md
    assert "variants/variants.png" in section and "**variants.csv**" in section
    calls = []
    real = report.run_study

    def counting(study, *args, **kwargs):
        calls.append(study.kind)
        return real(study, *args, **kwargs)

    monkeypatch.setattr(report, "run_study", counting)
    capsys.readouterr()
    assert main(["report", str(config), "--out", str(out), "--resume"]) == 0
    text = capsys.readouterr().out
    assert calls == [] and "variants: unchanged since the last run, skipped" in text
    assert csv.stat().st_mtime_ns == before
    # a kept entry whose config has since changed is marked in the index, and --resume redoes it
    config.write_text(config.read_text().replace("deals = 4096", "deals = 2048"))
    assert main(["report", str(config), "--out", str(out), "--only", "sim"]) == 0
    assert "with an earlier version of this config" in (out / "index.md").read_text()
    assert main(["report", str(config), "--out", str(out), "--resume"]) == 0
    assert calls == ["simulate", "variants"]


def test_report_pages_show_no_absolute_path(tmp_path, monkeypatch):
    """Issue #29: a report made from an absolute config path into an absolute --out prints
    neither on its pages: they are shown relative to the working folder."""
    work = tmp_path / "work"
    (work / "configs").mkdir(parents=True)
    config = work / "configs" / "small.toml"
    config.write_text('title = "t"\n[[experiments]]\nname = "sim"\nkind = "simulate"\ndeals = 4096\n')
    monkeypatch.chdir(work)
    out = work / "out" / "rep"
    assert main(["report", str(config), "--out", str(out)]) == 0
    for page in [out / "index.md", out / "index.html", out / "manifest.json", out / "sim" / "summary.md",
                 out / "sim" / "run.json"]:  # fmt: skip
        text = page.read_text()
        assert str(tmp_path) not in text, page.name
    index = (out / "index.md").read_text()
    assert "from `configs/small.toml`" in index
    assert "loo-sim report configs/small.toml --only sim --out out/rep" in index


def _table_file(path: Path, action: int) -> None:
    """A strategy table for three-card, 5 players: ``action`` wherever it is on offer, else play."""
    import numpy as np

    from loo_sim.game.infosets import N_INFOSETS, SITUATION_MASKS, infoset_parts
    from loo_sim.game.rules import Rules
    from loo_sim.game.strategy import empty_table, table_frame
    from loo_sim.run.tables import table_text

    table = empty_table()
    rows = []
    for key in range(N_INFOSETS):
        _, position, _, situation, _ = infoset_parts(key)
        if 1 <= position <= 5:
            table[key] = 0.0
            table[key, action if (SITUATION_MASKS[situation] >> action) & 1 else 1] = 1.0
            rows.append(key)
    path.write_text(table_text(table_frame(table, np.array(rows)), Rules.preset("three-card")))


def test_resume_redoes_an_experiment_whose_strategy_table_changed(tmp_path, monkeypatch, capsys):
    """Issue #31 item 1: a report whose experiment reads a table was skipped as "unchanged
    since the last run" after the table changed, and kept the old results. The resume digest
    covers the content of every file an experiment reads."""
    monkeypatch.chdir(tmp_path)
    _table_file(tmp_path / "t.csv", action=1)  # play everywhere
    config = tmp_path / "c.toml"
    config.write_text('[[experiments]]\nname = "sim"\nkind = "simulate"\ndeals = 4096\npolicy = "table:t.csv"\n')
    assert main(["report", str(config), "--out", "out"]) == 0
    before = (tmp_path / "out" / "sim" / "summary.csv").read_bytes()
    assert main(["report", str(config), "--out", "out", "--resume"]) == 0
    assert "sim: unchanged since the last run, skipped" in capsys.readouterr().out  # same table: skipped
    _table_file(tmp_path / "t.csv", action=0)  # pass wherever it may
    assert main(["report", str(config), "--out", "out", "--resume"]) == 0
    text = capsys.readouterr().out
    assert "unchanged" not in text and "sim (simulate) ..." in text
    assert (tmp_path / "out" / "sim" / "summary.csv").read_bytes() != before


def test_resume_drops_the_entry_of_an_experiment_taken_out_of_the_config(tmp_path):
    """The manifest describes the report the config makes: an experiment removed from the
    config (say one stopped halfway and dropped) leaves no entry behind."""
    out = tmp_path / "out"
    config = _config(tmp_path)
    assert main(["report", str(config), "--out", str(out), "--only", "sim", "--only", "variants"]) == 0
    config.write_text(config.read_text().replace('name = "variants"', 'name = "variants-2"'))
    assert main(["report", str(config), "--out", str(out), "--resume", "--only", "sim"]) == 0
    entries = json.loads((out / "manifest.json").read_text())["experiments"]
    assert set(entries) == {"sim"}
