"""The card-play ladder (run/ladder.py, ``loo-sim cardplay``) and the comparison of two
decision charts: the kernel's sums against the reference engine deal by deal, the same
deals for every entrant, the focal seat in every position, thread independence, the
summary's sentences against the CSV, bad input, and which verdicts change."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pandas as pd
import pytest

from loo_sim.analysis.cardplay import compare_charts, judgement, ladder_sentences, ladder_table, read_chart
from loo_sim.analysis.miss import chart_table
from loo_sim.base.rng import seat_streams, shuffled_deck
from loo_sim.cli import main
from loo_sim.engine.deal import play_deal_reference
from loo_sim.game import abi as L
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules
from loo_sim.report.outputs import write_csv
from loo_sim.run.decisions import decisions
from loo_sim.run.ladder import run_ladder, with_play
from loo_sim.run.simulate import simulate

BASIC = Policy.parse("basic")


def _entrants(*texts: str) -> list[Policy]:
    return [with_play(BASIC, t) for t in texts]


def _reference_sums(rules: Rules, table: list[Policy], entrants: list[Policy], deals: int, seed: int,
                    carried: float = 0.0) -> tuple[np.ndarray, list[dict]]:  # fmt: skip
    """The ladder's sums recomputed with the reference engine, in the kernel's order, and
    each (deal, entrant, position)'s values (for the per-deal checks)."""
    n = rules.players
    sums = np.zeros((len(entrants), n + 1, L.LD_LEN))
    per_deal = []
    for k in range(deals):
        deck = shuffled_deck(seed, k)
        dealer = k % n
        vals = np.zeros((len(entrants), n + 1, L.LD_VALUES))
        for e, policy in enumerate(entrants):
            for p in range(1, n + 1):
                s = (dealer + p) % n
                seats = list(table)
                seats[s] = policy
                rec = play_deal_reference(rules, deck, dealer, carried, seats, seat_streams(seed, k, seats))
                played = rec.declarations[s] != "pass" and len(rec.tricks) > 0
                v = vals[e, p]
                v[L.LD_NET] = rec.net()[s]
                v[L.LD_LOOED] = float(s in rec.looed)
                v[L.LD_TRICKS] = rec.tricks_won[s] if played else 0.0
                v[L.LD_PLAYED] = float(played)
                for j in range(3):
                    v[L.LD_DNET + j] = v[j] - vals[0, p, j]
                v[L.LD_DPLAYED] = abs(v[L.LD_PLAYED] - vals[0, p, L.LD_PLAYED])
                vals[e, 0] += v / n
                per_deal.append(dict(deal=k, entrant=e, position=p, seat=s, played=played, net=v[L.LD_NET],
                                     diff=v[L.LD_DNET]))  # fmt: skip
        for e in range(len(entrants)):
            for p in range(n + 1):
                v = vals[e, p]
                sums[e, p, L.LD_SUM : L.LD_SUM + L.LD_VALUES] += v
                sums[e, p, L.LD_SQ : L.LD_SQ + L.LD_VALUES] += v * v
                sums[e, p, L.LD_TP] += v[L.LD_TRICKS] * v[L.LD_PLAYED]
                sums[e, p, L.LD_DTP] += v[L.LD_DTRICKS] * v[L.LD_PLAYED]
    return sums, per_deal


@pytest.mark.parametrize("preset, players", [("three-card", 4), ("limited", 5)])
def test_kernel_sums_are_the_reference_engines_deal_by_deal(preset, players):
    rules = Rules.preset(preset, players=players)
    table = [BASIC] * players
    entrants = _entrants("basic", "high", "low", "random", "always/basic")
    res = run_ladder(rules, table, entrants, deals=150, seed=7, carried=3.0)
    ref, per_deal = _reference_sums(rules, table, entrants, 150, 7, 3.0)
    assert res.deals_done == 150 and not res.partial
    np.testing.assert_allclose(res.sums, ref, rtol=1e-12, atol=1e-9)
    # card play changes nothing in a deal where the focal seat plays no tricks: high, low and
    # random differ from basic only where it played tricks (same declarations)
    for row in per_deal:
        if row["entrant"] in (1, 2, 3) and not row["played"]:
            assert row["diff"] == 0.0, row
    assert any(r["diff"] != 0.0 for r in per_deal if r["entrant"] == 1)


def test_same_deals_for_every_entrant_and_every_position():
    rules = Rules.preset("three-card", players=5)
    entrants = _entrants("basic", "high", "basic/basic/basic")  # the third is the first, written in full
    res = run_ladder(rules, [BASIC] * 5, entrants, names=["basic", "high", "basic again"], deals=5000, seed=3)
    s = res.sums
    np.testing.assert_array_equal(s[2, :, : L.LD_VALUES], s[0, :, : L.LD_VALUES])  # identical entrants: same sums
    assert (s[2, :, L.LD_SUM + L.LD_DNET : L.LD_SUM + L.LD_VALUES] == 0).all()  # and zero paired differences
    assert (s[2, :, L.LD_SQ + L.LD_DNET : L.LD_SQ + L.LD_VALUES] == 0).all()
    assert s[1, :, L.LD_SUM + L.LD_DPLAYED].sum() == 0  # high declares as basic: it plays tricks in the same deals
    table = ladder_table(res)
    assert (table.deals == 5000).all()  # every entrant measured on every deal at every position
    assert set(table.position) == {"all", 1, 2, 3, 4, 5} and len(table) == 3 * 6
    assert (table[table.entrant == "basic again"].diff_vs_baseline == 0).all()
    # the focal seat really rotates: with basic everywhere, the focal seat at position p is the
    # seat at position p of simulate's run of the same deals
    sim = simulate(rules, [BASIC] * 5, 5000, 3)
    for p in range(1, 6):
        base = L.A_POS + p * L.POS_LEN
        assert s[0, p, L.LD_SUM + L.LD_NET] == pytest.approx(sim.totals[base + L.POS_NET], abs=1e-6)
        assert s[0, p, L.LD_SUM + L.LD_LOOED] == sim.totals[base + L.POS_LOOED]
    # the all row is the mean over the positions
    assert s[1, 0, L.LD_SUM + L.LD_NET] == pytest.approx(s[1, 1:, L.LD_SUM + L.LD_NET].sum() / 5)


def test_a_different_declaration_has_no_tricks_difference():
    rules = Rules.preset("three-card", players=4)
    names = ["basic", "always/basic", "high"]
    res = run_ladder(rules, [BASIC] * 4, _entrants(*names), names, deals=3000, seed=2)
    table = ladder_table(res).set_index(["entrant", "position"])
    assert math.isnan(table.loc[("always/basic", "all"), "tricks_diff"])  # plays tricks in other deals than basic
    assert math.isfinite(table.loc[("high", "all"), "tricks_diff"])
    assert table.loc[("always/basic", "all"), "played_share"] > table.loc[("basic", "all"), "played_share"]


def test_results_do_not_depend_on_threads():
    from numba import set_num_threads

    rules = Rules.preset("three-card", players=3)
    entrants = _entrants("basic", "random", "low")
    try:
        set_num_threads(1)
        one = run_ladder(rules, [BASIC] * 3, entrants, deals=3 * 4096 + 17, seed=11)
        set_num_threads(2)
        two = run_ladder(rules, [BASIC] * 3, entrants, deals=3 * 4096 + 17, seed=11)
    finally:
        set_num_threads(2)
    np.testing.assert_array_equal(one.sums, two.sums)


def test_with_play_keeps_the_tables_declarations():
    assert str(with_play(Policy.parse("cautious/basic/none"), "high")) == "cautious/high/none"
    assert str(with_play(Policy.parse("threshold:play=0.6,miss=0.3"), "low")) == "threshold:play=0.6,miss=0.3/low/basic"
    assert str(with_play(BASIC, "always/random")) == "always/random/basic"  # a whole policy as it is


# ---- the command, its files and its sentences ---------------------------------------------------
def _sentences_agree(summary: str, csv: pd.DataFrame) -> int:
    """Check every judging sentence of the summary against the CSV; how many were checked."""
    checked = 0
    for ladder in csv.ladder.unique():
        part = csv[csv.ladder == ladder]
        overall = part[part.position == "all"].set_index("entrant")
        base = overall.index[0]
        top = re.search(r"`([^`]+)` has the highest mean, ([-+]\d+\.\d+)", summary)
        assert top and top.group(1) == overall.chips_per_deal.idxmax()
        assert float(top.group(2)) == pytest.approx(overall.chips_per_deal.max(), abs=5e-4)
        for name, r in overall.iloc[1:].iterrows():
            q = re.escape(f"`{name}`")
            b = re.escape(f"`{base}`")
            if re.search(rf"{q} beats {b} by", summary):
                assert r.diff_ci_low > 0, name
            elif re.search(rf"{q} loses to {b} by", summary):
                assert r.diff_ci_high < 0, name
            elif re.search(rf"{q} and {b} are not told apart", summary):
                assert r.diff_ci_low <= 0 <= r.diff_ci_high, name
            else:
                assert re.search(rf"{q} plays exactly as {b}", summary), name
                assert r.diff_vs_baseline == 0 and r.diff_se == 0
            checked += 1
            by_pos = part[(part.entrant == name) & (part.position != "all")]
            m = re.search(rf"By position, {q} is (.*?)(?:; at the other|\.\n|\.$)", summary, re.M)
            said_ahead, said_behind = set(), set()
            if m:
                a = re.search(r"ahead of `[^`]+` at positions? ([\d, ]+)", m.group(1))
                w = re.search(r"behind (?:it|`[^`]+`) at positions? ([\d, ]+)", m.group(1))
                said_ahead = {x.strip() for x in a.group(1).split(",")} if a else set()
                said_behind = {x.strip() for x in w.group(1).split(",")} if w else set()
            assert said_ahead == set(by_pos[by_pos.diff_ci_low > 0].position), name
            assert said_behind == set(by_pos[by_pos.diff_ci_high < 0].position), name
    return checked


def test_command_writes_its_files_and_the_sentences_agree_with_the_csv(tmp_path, capsys):
    out = tmp_path / "ladder"
    args = ["--players", "4", "--entrants", "basic,high,low,random,basic/basic/none", "--whole-table", "low"]
    code = main(["cardplay", *args, "--deals", "6000", "--seed", "5", "--threads", "2", "--out", str(out)])
    assert code == 0
    assert sorted(p.name for p in out.iterdir()) == ["ladder.csv", "ladder.png", "run.json", "summary.md"]
    csv = pd.read_csv(out / "ladder.csv", dtype={"position": str})
    assert list(csv.ladder.unique()) == ["A", "B"]
    assert set(csv[csv.ladder == "B"].table) == {"basic/low/basic"}
    assert len(csv) == 2 * 5 * 5
    summary = (out / "summary.md").read_text()
    for ladder in ("A", "B"):  # each ladder's sentences come after its heading
        section = summary.split(f"## Ladder {ladder}")[1].split("## Ladder")[0]
        assert _sentences_agree(section, csv[csv.ladder == ladder]) == 4
    assert "`basic/basic/none` plays exactly as `basic`" in summary  # no exchange in three-card
    # the table's rows are the CSV's numbers
    row = csv[(csv.ladder == "A") & (csv.entrant == "high") & (csv.position == "all")].iloc[0]
    assert f"| high | basic/high/basic | {row.chips_per_deal:+.3f} [{row.chips_ci_low:+.3f}," in summary
    run = json.loads((out / "run.json").read_text())
    assert run["kind"] == "cardplay" and [x["ladder"] for x in run["ladders"]] == ["A", "B"]
    assert "--entrants basic,high,low,random,basic/basic/none --table basic --whole-table low" in run["command"]
    # the command in run.json repeats the run
    again = tmp_path / "again"
    args = run["command"].split()[1:]
    args[args.index("--out") + 1] = str(again)
    assert main(args) == 0
    assert (again / "ladder.csv").read_bytes() == (out / "ladder.csv").read_bytes()


def _table(rows):
    cols = dict(ladder="A", table="basic/basic/basic", policy="p", deals=1000, chips_se=0.1, chips_ci_low=-1.0,
                chips_ci_high=1.0, baseline="basic")  # fmt: skip
    return pd.DataFrame([{**cols, **r} for r in rows])


def test_sentences_say_only_what_the_intervals_allow():
    def row(entrant, position, d, lo, hi, se=0.1, chips=0.0):
        return dict(entrant=entrant, position=position, chips_per_deal=chips, diff_vs_baseline=d, diff_se=se,
                    diff_ci_low=lo, diff_ci_high=hi)  # fmt: skip

    rows = [row("basic", "all", 0, 0, 0, se=0.0), row("basic", 1, 0, 0, 0, se=0.0), row("basic", 2, 0, 0, 0, se=0.0)]
    rows += [row("x", "all", 0.05, -0.01, 0.11, chips=0.5), row("x", 1, 0.3, 0.1, 0.5), row("x", 2, -0.2, -0.4, 0.0)]
    rows += [row("y", "all", -0.3, -0.5, -0.1), row("y", 1, -0.3, -0.5, -0.1), row("y", 2, -0.1, -0.3, 0.1)]
    rows += [row("z", "all", 0.0, 0.0, 0.0, se=0.0), row("z", 1, 0, 0, 0, se=0.0), row("z", 2, 0, 0, 0, se=0.0)]
    table = _table(rows)
    text = "\n".join(ladder_sentences(table))
    assert "`x` and `basic` are not told apart" in text and "`x` beats" not in text
    assert "By position, `x` is ahead of `basic` at position 1; at the other 1 the interval includes 0." in text
    assert "`y` loses to `basic` by -0.300" in text
    assert "By position, `y` is behind `basic` at position 1; at the other 1 the interval includes 0." in text
    assert "`z` plays exactly as `basic`" in text
    assert text.startswith("`x` has the highest mean")
    assert [judgement(r) for r in table.itertuples()][3:5] == ["unclear", "ahead"]


@pytest.mark.parametrize(
    "args, flag",
    [
        (["--entrants", "basic,bogus"], "--entrants"),
        (["--entrants", "basic,high,basic"], "--entrants"),
        (["--table", "chart"], "--table"),
        (["--table", "nope/high"], "--table"),
        (["--whole-table", "nope"], "--whole-table"),
        (["--deals", "0"], "--deals"),
        (["--carried", "-1"], "--carried"),
        (["--players", "9"], "--players"),
        (["--set", "nosuch=1"], ""),
    ],
)
def test_bad_input_is_one_error_line_and_nothing_written(tmp_path, capsys, args, flag):
    out = tmp_path / "o"
    assert main(["cardplay", "--deals", "10", *args, "--out", str(out)]) == 2  # the last --deals counts
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: {flag}"), err
    assert "allowed" in err[0] or "each entrant once" in err[0] or "unknown" in err[0], err
    assert not out.exists()


# ---- which verdicts change ------------------------------------------------------------------
@pytest.fixture(scope="module")
def charts(tmp_path_factory):
    """Two decision charts of the same deals, one with every seat on basic, one on basic/low,
    written as a miss study writes its chart.csv (with a run.json beside one)."""
    rules = Rules.preset("three-card", players=4)
    folders = {}
    for name, policy in (("basic", "basic"), ("low", "basic/low")):
        res = decisions(rules, [Policy.parse(policy)] * 4, 6000, 1)
        folder = tmp_path_factory.mktemp(name)
        write_csv(folder / "chart.csv", chart_table(res))
        folders[name] = folder
    (folders["basic"] / "run.json").write_text(json.dumps({"command": "loo-sim miss --deals 6000"}))
    return folders


def _best(folder) -> pd.Series:
    chart = pd.read_csv(folder / "chart.csv", dtype=str, keep_default_na=False)
    best = chart[chart.best == "True"]
    return best.set_index(["hand_class", "position", "miss_on_offer", "earlier_in"]).action


def test_the_same_chart_twice_changes_nothing(charts, tmp_path, capsys):
    out = tmp_path / "same"
    assert main(["cardplay", "--compare-charts", str(charts["basic"]), str(charts["basic"]), "--out", str(out)]) == 0
    changes = pd.read_csv(out / "verdict_changes.csv")
    assert len(changes) == 0
    text = (out / "verdict_changes.md").read_text()
    assert f"{len(_best(charts['basic'])):,} cells have a verdict in both charts" in text
    assert "0 of them change their best action, 0 where" in text
    assert "A was made by `loo-sim miss --deals 6000`." in text


def test_listed_changes_are_exactly_the_cells_whose_best_actions_differ(charts, tmp_path, capsys):
    out = tmp_path / "diff"
    assert main(["cardplay", "--compare-charts", str(charts["basic"]), str(charts["low"] / "chart.csv"),
                 "--out", str(out)]) == 0  # fmt: skip
    changes = pd.read_csv(out / "verdict_changes.csv", dtype={"position": str, "earlier_in": str, "hand_class": str})
    a, b = _best(charts["basic"]), _best(charts["low"])
    both = a.index.intersection(b.index)
    expected = {cell for cell in both if a[cell] != b[cell]}
    got = {(r.hand_class, r.position, str(r.miss_on_offer), r.earlier_in) for r in changes.itertuples()}
    assert got == expected and len(expected) > 0
    assert (changes.flagged == (changes.a_significant | changes.b_significant)).all()
    chart_a = pd.read_csv(charts["basic"] / "chart.csv", dtype=str, keep_default_na=False)
    best_a = chart_a[chart_a.best == "True"].set_index(["hand_class", "position", "miss_on_offer", "earlier_in"])
    for r in changes.itertuples():
        cell = (r.hand_class, r.position, str(r.miss_on_offer), r.earlier_in)
        assert (r.a_best, r.b_best) == (a[cell], b[cell])
        verdict = best_a.loc[cell]  # A's verdict: its margin over the runner-up and that margin's interval
        assert r.a_diff == pytest.approx(float(verdict.diff_vs_runner_up))
        assert r.a_ci_high - r.a_diff == pytest.approx(1.959963984540054 * float(verdict.diff_se))
        assert r.a_significant == (verdict.significant == "True")
    text = (out / "verdict_changes.md").read_text()
    assert f"{len(both):,} cells have a verdict in both charts" in text
    assert f"{len(expected):,} of them change their best action, {int(changes.flagged.sum()):,} where" in text
    assert text.count("\n| ") - 1 == int(changes.flagged.sum())  # one table row per flagged change


def test_a_best_in_b_is_the_paired_difference_in_chart_b(charts):
    a, b = read_chart(charts["basic"]), read_chart(charts["low"])
    changes, counts = compare_charts(a, b)
    assert counts["changed"] == len(changes)
    for r in changes.head(20).itertuples():
        row = b[(b.hand_class == r.hand_class) & (b.position == r.position) & (b.miss_on_offer == r.miss_on_offer)
                & (b.earlier_in == r.earlier_in) & (b.action == r.a_best)]  # fmt: skip
        if len(row):
            assert r.a_best_in_b == pytest.approx(row.diff_vs_best.iloc[0])
            assert r.a_best_in_b <= 0  # B's best is at least as good as any other in B's cell
        else:
            assert math.isnan(r.a_best_in_b)


def test_compare_charts_refuses_what_is_not_a_chart(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    (tmp_path / "bad.csv").write_text("a,b\n1,2\n")
    for a in (tmp_path / "empty", tmp_path / "bad.csv", tmp_path / "nowhere"):
        assert main(["cardplay", "--compare-charts", str(a), str(a), "--out", str(tmp_path / "o")]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("error: --compare-charts"), err
        assert not (tmp_path / "o").exists()


def test_a_report_runs_the_cardplay_kind(tmp_path):
    config = tmp_path / "ladder.toml"
    config.write_text('title = "Ladder"\n\n[[experiments]]\nname = "ladder-4"\nkind = "cardplay"\npreset = '
                      '"three-card"\nplayers = 4\nentrants = ["basic", "high"]\ntable_policy = "basic"\n'
                      'deals = 2000\nseed = 4\n')  # fmt: skip
    assert main(["report", str(config), "--out", str(tmp_path / "report")]) == 0
    folder = tmp_path / "report" / "ladder-4"
    csv = pd.read_csv(folder / "ladder.csv", dtype={"position": str})
    assert list(csv.entrant.unique()) == ["basic", "high"] and (csv.deals == 2000).all()
    direct = tmp_path / "direct"  # the command a report's experiment records gives the same table
    cmd = json.loads((folder / "run.json").read_text())["command"].split()[1:]
    cmd[cmd.index("--out") + 1] = str(direct)
    assert main(cmd) == 0
    assert (direct / "ladder.csv").read_bytes() == (folder / "ladder.csv").read_bytes()


def test_ctrl_c_writes_what_finished_stamped_partial(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    # the same ladders as below, so the kernel the subprocess runs is compiled and cached already (under load a
    # cold compile held the Ctrl-C past the timeouts below: issue #31)
    assert main(["cardplay", "--deals", "200", "--players", "4", "--whole-table", "low",
                 "--out", str(tmp_path / "warm")]) == 0  # fmt: skip
    out = tmp_path / "ladder"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    proc = subprocess.Popen([sys.executable, "-m", "loo_sim", "cardplay", "--players", "4", "--deals", "1e9",
                             "--whole-table", "low", "--out", str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)  # fmt: skip
    deadline = time.time() + 120
    while not out.exists():
        assert proc.poll() is None and time.time() < deadline, proc.communicate()
        time.sleep(0.05)
    time.sleep(4.0)
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=300)  # a generous bound: the suite may share the machine
    assert proc.returncode == 130, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and re.fullmatch(rf"interrupted: [\d,]+ of 1,000,000,000 deals done; partial results "
                                            rf"in {re.escape(str(out))}", lines[0]), stderr  # fmt: skip
    assert sorted(p.name for p in out.iterdir()) == ["ladder.csv", "ladder.png", "run.json", "summary.md"]
    assert (out / "summary.md").read_text().startswith("**PARTIAL**")
    csv = pd.read_csv(out / "ladder.csv")
    assert list(csv.ladder.unique()) == ["A"] and csv.deals.iloc[0] > 0  # ladder B never started
    run = json.loads((out / "run.json").read_text())
    assert run["partial"] is True and run["interrupted"]["unit"] == "deals"
