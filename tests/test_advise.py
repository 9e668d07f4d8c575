"""``loo-sim advise`` (issue #25): its answer agrees with the decision charts when averaged
over a class, it stops where it says, the shipped results are the committed reports', and
bad input is one line. (The exact-hand answer against the reference engine by brute
force: tests/test_advise_reference.py.)"""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import numpy as np
import pytest

from loo_sim.cli import main
from loo_sim.game import abi as L
from loo_sim.game.cards import suit_of
from loo_sim.game.classes import hand_class
from loo_sim.game.deal_input import deal_slots
from loo_sim.game.policy import Policy
from loo_sim.game.ranking import TrumpState
from loo_sim.game.rules import Rules
from loo_sim.run.advice import half_widths
from loo_sim.run.advise import DeclarationQuestion, declaration_advice

ROOT = Path(__file__).resolve().parent.parent
PLAY, PASS = 1, 0


def chart_cell(rules, position, offer, earlier, deals=200_000):
    """The miss study's cells (run.decisions, every seat focal, the dealer rotating)."""
    from loo_sim.run.decisions import decisions

    return decisions(rules, [Policy()] * rules.players, deals, seed=11).totals[:, position, offer, earlier]


def pair_diff(cell, a, b):
    """The cell's paired difference a - b, with its SE, from the kernel's sums (P4)."""
    p = L.PAIRS.index((min(a, b), max(a, b)))
    sign = 1.0 if a < b else -1.0
    n, s, sq = cell[L.CF_PAIR_N + p], cell[L.CF_PAIR_SUM + p], cell[L.CF_PAIR_SQ + p]
    mean = s / n
    return sign * mean, math.sqrt((sq / n - mean * mean) / (n - 1))


def hands_in_cell(rules, position, offer, earlier, cls, count):
    """(hand, indicator, earlier declarations) of seats met in the cell, drawn as the chart
    meets them: random deals played by basic (dealer seat 0, so position p is seat p)."""
    from loo_sim.run.api import play_deals, shuffled_decks

    decks = shuffled_decks(5, 40_000)
    recs = play_deals(rules, decks, policy="basic")
    oi = recs._oi  # the kernel's record rows: declarations and options by seat
    slots = deal_slots(rules, 0, 0.0)
    seat = position % rules.players
    places = [i for i, s in enumerate(slots) if s == seat]
    at = slots.index("indicator")
    found = []
    for k in range(len(decks)):
        options = oi[k, L.O_OPTIONS + seat]
        on_offer = (options >> L.DECL_MISS) & 1 or (options >> L.DECL_DEFEND) & 1
        before = [int(oi[k, L.O_DECL + i]) for i in range(1, position)]
        if on_offer != offer or min(sum(d != L.DECL_PASS for d in before), 3) != earlier:
            continue
        hand, indicator = [int(decks[k, i]) for i in places], int(decks[k, at])
        if hand_class(hand, TrumpState(suit_of(indicator), False)) != cls:
            continue
        words = tuple(("pass", "play", "miss", "defend")[d] for d in before)
        found.append((hand, indicator, words))
        if len(found) == count:
            break
    return found


@pytest.mark.parametrize("players, position, offer, earlier", [(4, 3, 0, 2), (5, 2, 1, 1), (4, 4, 0, 2)])
def test_advise_averaged_over_the_hands_of_a_cell_gives_the_charts_paired_difference(players, position, offer,
                                                                                     earlier):  # fmt: skip
    """Hands drawn as the chart meets them (so weighted by how often each meets the cell),
    each asked about with its own earlier declarations: the mean of advise's play - pass
    equals the chart's within 4 SE. At position 3 of 4 with the miss taken and both earlier
    seats in, the chart pools 'play,miss' with 'miss,play': advise conditions on each."""
    rules = Rules.preset("three-card", players=players)
    cells = chart_cell(rules, position, offer, earlier)
    counts = cells[:, L.CF_PAIR_N + L.PAIRS.index((PASS, PLAY))]
    cls = int(np.argmax(counts))  # the class met most often in this cell
    want, want_se = pair_diff(cells[cls], PLAY, PASS)
    per_hand = []
    for hand, indicator, words in hands_in_cell(rules, position, offer, earlier, cls, 60):
        q = DeclarationQuestion(rules, position, hand, [Policy()] * players, indicator, words)
        got = declaration_advice(q, precision=1e-9, max_deals=3_000, seed=len(per_hand))
        per_hand.append(got.pay[:, got.actions.index("play")].mean() - got.pay[:, got.actions.index("pass")].mean())
    assert len(per_hand) == 60
    mean, se = float(np.mean(per_hand)), float(np.std(per_hand, ddof=1) / math.sqrt(len(per_hand)))
    assert abs(mean - want) <= 4 * math.sqrt(se**2 + want_se**2), (mean, se, want, want_se)


def test_it_stops_at_the_precision_asked_for_or_says_the_cap_came_first():
    rules = Rules.preset("three-card", players=5)
    q = DeclarationQuestion(rules, 1, [51, 20, 1], [Policy()] * 5, None, ())
    done = declaration_advice(q, precision=0.3, max_deals=500_000)
    assert done.stopped == "precision" and np.all(half_widths(done.pay) < 0.3)
    capped = declaration_advice(q, precision=0.001, max_deals=3_000)
    assert capped.stopped == "cap" and capped.accepted == 3_000 and np.max(half_widths(capped.pay)) > 0.001


def advise(capsys, *argv):
    code = main(["advise", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


QUESTION = ["--players", "5", "--position", "2", "--hand", "KH 7S 3D", "--indicator", "4H", "--earlier", "play"]


def test_the_answer_names_the_verdict_the_run_and_the_same_question(capsys):
    code, out, err = advise(capsys, *QUESTION, "--precision", "0.2")
    assert code == 0, err
    assert "Verdict: " in out and "every paired half-width below 0.2 chips" in out
    assert 'Same question: loo-sim advise --players 5 --position 2 --hand "KH 7S 3D" --indicator 4H' in out
    assert "Decision chart (reports/miss/miss-5)" in out and "equilibrium table (reports/solve/three-card-5)" in out


def test_json_holds_the_table_and_the_canned_answers(capsys):
    code, out, err = advise(capsys, *QUESTION, "--precision", "0.2", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert [r["action"] for r in data["actions"]][0] == next(r["action"] for r in data["actions"] if r["best"])
    assert {r["action"] for r in data["actions"]} == {"pass", "play", "miss"}
    assert {c["kind"] for c in data["canned"]} == {"chart", "table"}


@pytest.mark.parametrize("argv, says", [
    (["--position", "1", "--hand", "KH KH 3D", "--indicator", "4H"], "--hand: KH is given twice"),
    (["--position", "1", "--hand", "KH 7S 3D", "--indicator", "KH"], "--indicator KH is also in --hand"),
    (["--position", "6", "--hand", "KH 7S 3D"], "--position 6: there is no position 6 at a table of 5"),
    (["--position", "2", "--hand", "KH 7S 3D", "--earlier", "play,play"], "before position 2 positions 1..1"),
    (["--position", "3", "--hand", "KH 7S 3D", "--earlier", "miss,miss"], "position 1 has already taken the miss"),
    (["--position", "2", "--hand", "KH 7S", "--indicator", "4H"], "a hand holds 3"),
    (["--position", "2", "--hand", "KH 7S ZZ"], "--hand"),
    (["--position", "2", "--hand", "KH 7S 3D", "--earlier", "defend"], "not a declaration an earlier seat makes"),
    (["--position", "2", "--hand", "KH 7S 3D", "--precision", "0"], "--precision"),
])  # fmt: skip
def test_bad_input_is_one_error_line(capsys, argv, says):
    code, out, err = advise(capsys, "--players", "5", *argv)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], err


def test_declarations_that_never_happen_under_the_table_are_said_so(capsys):
    """Under basic a seat takes the miss rather than pass while it is on offer (P2)."""
    code, out, err = advise(capsys, "--players", "4", "--position", "2", "--hand", "KH 7S 3D", "--earlier", "pass")
    assert code == 2 and "never happen" in err and len(err.strip().splitlines()) == 1


def test_the_shipped_charts_and_tables_are_the_committed_reports(tmp_path):
    spec = importlib.util.spec_from_file_location("package_canned", ROOT / "scripts" / "package_canned.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(tmp_path)
    shipped = ROOT / "loo_sim" / "data" / "canned"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in shipped.iterdir())
    for p in tmp_path.iterdir():
        assert p.read_bytes() == (shipped / p.name).read_bytes(), p.name


def test_the_chart_cell_is_the_reports_row_for_the_hands_class():
    """KH 7S 3D with hearts trumps is one trump K, best plain 7 (P5): the row of that label."""
    import pandas as pd

    from loo_sim.analysis.advise_canned import canned_answers
    from loo_sim.run.advise import check_question

    rules = Rules.preset("three-card", players=5)
    q = DeclarationQuestion(rules, 2, [37, 44, 14], [Policy()] * 5, 28, ("play",))  # KH 7S 3D, indicator 4H
    chart = next(c for c in canned_answers(q, check_question(q)) if c.kind == "chart")
    rows = pd.read_csv(ROOT / "reports/miss/miss-5/chart.csv", dtype={"position": str, "earlier_in": str})
    rows = rows[(rows.label == "one trump K | best plain <=9") & (rows.position == "2") & rows.miss_on_offer
                & (rows.earlier_in == "1")]  # fmt: skip
    assert chart.best == rows[rows.best].action.iloc[0]
    assert chart.values == pytest.approx(dict(zip(rows.action, rows.diff_vs_best)))


CARD = ["--players", "5", "--position", "4", "--hand", "KH 7H 2S", "--indicator", "5H", "--declare",
        "1=play,2=miss,3=pass,4=play,5=play"]  # fmt: skip


@pytest.mark.parametrize("argv, says", [
    (["--play", "1:AH 5:9H"], "position 5 is not to play: it is position 2's turn"),
    (["--play", "1:AH 2:9H 4:2S"], "must"),  # position 4 holds hearts, so 2S is a revoke (R7)
    (["--play", "1:AH 2:9H 4:7H 5:QH | 1:KS 2:TD 4:KH 5:3S | 1:2C"], "the winner of trick 2 leads, R7"),
    (["--play", "1:AH", "--earlier", "play"], "--earlier goes with a declaration question"),
])  # fmt: skip
def test_a_card_question_with_a_bad_script_is_one_error_line(capsys, argv, says):
    code, out, err = advise(capsys, *CARD, *argv)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], err


def test_play_without_declare_is_refused(capsys):
    code, out, err = advise(capsys, "--players", "5", "--position", "4", "--hand", "KH 7H 2S", "--play", "1:AH")
    assert code == 2 and "needs both --declare" in err


def test_a_card_question_answers_for_each_legal_card(capsys):
    """After AH led (hearts trumps), position 4 must follow with a heart (R7): KH or 7H."""
    code, out, err = advise(capsys, *CARD, "--play", "1:AH 2:9H", "--precision", "0.3", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["kind"] == "card" and {r["action"] for r in data["actions"]} == {"KH", "7H"}
    assert "--play \"1:AH 2:9H\"" in data["command"]


def test_the_readmes_python_example_runs():
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if "loo_sim.advise(" in b)
    scope: dict = {}
    exec(compile(block, "README.md", "exec"), scope)
    frame = scope["frame"]
    assert list(frame.action) == ["pass", "play", "miss"] and frame.attrs["verdict"].startswith("Pass")


def test_ctrl_c_in_a_run_keeps_the_deals_so_far_and_says_so():
    rules = Rules.preset("three-card", players=5)
    q = DeclarationQuestion(rules, 1, [37, 44, 14], [Policy()] * 5, 28, ())

    def stop(done, total):
        raise KeyboardInterrupt

    got = declaration_advice(q, precision=0.001, progress=stop)
    assert got.stopped == "interrupted" and got.accepted > 0


def test_ctrl_c_on_the_command_line_is_one_line_and_exit_130():
    """SIGINT while advise runs: exit 130, one line on stderr; the answer so far is printed
    and said to be cut short, or, before the first batch, nothing is."""
    import os
    import signal
    import subprocess
    import sys
    import time

    argv = [sys.executable, "-m", "loo_sim", "advise", *QUESTION, "--precision", "0.0001"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ.copy())
    time.sleep(4.0)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    lines = err.strip().splitlines()
    assert proc.returncode == 130 and len(lines) == 1, err
    if out.strip():
        assert "stopped by Ctrl-C" in out and lines[0].startswith("interrupted: the answer above covers")
    else:
        assert lines[0] == "interrupted: nothing written"


@pytest.mark.parametrize(("then", "kinds"), [
    ("perfect", ("play_deals", "search")),
    ("pimc:4", ("play_deals", "search")),
    ("basic", ("play_deals",)),
])  # fmt: skip
def test_the_cold_cache_notice_counts_the_solver_when_the_rest_is_searched(monkeypatch, then, kinds):
    """A card question played on by perfect or pimc compiles the card-play solver too: the
    notice on a cold cache is asked about both (kernel.COMPILE_SECONDS)."""
    import loo_sim.cli.progress as progress

    asked = []

    class Asked(Exception):
        pass

    def notice(*kinds, **_):
        asked.append(kinds)
        raise Asked

    monkeypatch.setattr(progress, "compile_notice", notice)
    with pytest.raises(Asked):
        main(["advise", *CARD, "--play", "1:AH 2:9H", "--then", then])
    assert asked == [kinds]
