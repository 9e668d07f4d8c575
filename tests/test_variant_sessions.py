"""Variants in sessions (issue 17 item 1, R10): every rule set plays the same sessions
(the pots study's decks, session by session), the burn-in drops exactly the first deals,
the per-deal metrics agree with the pots study deal for deal and with the steady state
that R3 / R8 predict from independent deals, results do not depend on threads, and bad
input is one ``error:`` line."""

from __future__ import annotations

import math

import numpy as np
import pytest

from loo_sim.analysis.variants import session_pots, session_rows, session_windows
from loo_sim.cli import main
from loo_sim.game import abi as L
from loo_sim.game.policy import parse_table
from loo_sim.game.rules import Rules
from loo_sim.run.api import play_deals
from loo_sim.run.records import shuffled_decks
from loo_sim.run.sessions import Arm, run_pots
from loo_sim.run.variants import VariantRow, default_burn_in, run_variant_sessions

SEED = 23
SESSIONS = 150  # two whole kernel blocks (SESSION_BLOCK = 64) and part of a third
DEALS = 24


def _row(name: str, preset: str, policy: str = "basic", **options) -> VariantRow:
    rules = Rules.preset(preset, **options)
    return VariantRow(name, rules, parse_table(policy, rules.players))


def _by(table, row: str, metric: str):
    hit = table[(table.row == row) & (table.metric == metric)]
    assert len(hit) == 1, (row, metric)
    return hit.iloc[0]


ROWS = [
    _row("limited", "limited"),
    _row("limited-again", "limited"),
    _row("three-card", "three-card"),
    _row("classic-limited", "classic-limited"),
    _row("five-card", "five-card"),
]


@pytest.fixture(scope="module")
def run():
    return run_variant_sessions(ROWS, sessions=SESSIONS, deals=DEALS, burn_in=6, seed=SEED, threads=2)


def test_identical_rule_sets_differ_by_exactly_zero(run):
    table = session_rows(run)
    again = table[table.row == "limited-again"]
    assert len(again) > 10
    assert (again.diff_vs_baseline == 0).all() and (again.diff_se == 0).all()
    assert again.diff_method.str.contains("exactly 0").all()
    base = table[table.row == "limited"].set_index("metric")
    assert np.array_equal(again.set_index("metric").value, base.value)  # the same sessions, the same numbers
    # a real difference is not: five-card loos fewer seats, on the same sessions
    d = _by(table, "five-card", "loo_rate")
    assert d.diff_se > 0 and d.diff_ci_high < 0
    # basic never reads the pot (P2), so unlimited and limited loo the same seats in every session
    assert _by(table, "three-card", "loo_rate").diff_vs_baseline == 0
    assert _by(table, "three-card", "loo_rate").diff_se == 0
    assert _by(table, "three-card", "mean_pot").diff_vs_baseline > 0


def test_paired_streams_and_burn_in_agree_with_the_pots_study_deal_for_deal(run):
    # The pots study plays session i, deal j on the stream (seed, i, j) with the same first
    # dealer: the variants' sums over deals burn_in.. must be its per-deal counts over
    # exactly those deals (one deal more or less dropped gives other numbers).
    b = run.burn_in
    for r, row in enumerate(ROWS):
        if row.name == "limited-again":
            continue
        pots = run_pots([Arm(row.name, row.rules, row.policies)], SESSIONS, DEALS, seed=SEED)
        ds = pots.deal_stats[0]
        s1 = run.s1[r * L.VS_LEN : (r + 1) * L.VS_LEN]
        assert s1[L.VS_DEALS] == SESSIONS * (DEALS - b)
        assert s1[L.VS_LOOED] == ds[b:, L.DS_LOOED].sum()
        assert s1[L.VS_SINGLE] == ds[b:, L.DS_SINGLE].sum()
        assert s1[L.VS_LOOED] != ds[b - 1 :, L.DS_LOOED].sum() and s1[L.VS_LOOED] != ds[b + 1 :, L.DS_LOOED].sum()
        exact = pots.pot_exact[0, b:].sum(axis=0)
        if pots.pot_hist[0].sum() == 0:  # every pot whole and below the bound: the exact counts agree
            assert np.array_equal(run.pot_n[r, : exact.shape[0]], exact)
        else:
            assert run.pot_n[r].sum() == SESSIONS * (DEALS - b)
        if row.rules.single_pot:
            assert ds[:b, L.DS_SINGLE].sum() > 0 and s1[L.VS_SINGLE] > 0  # deal 0 (dropped) is always single


def test_the_windows_are_the_first_and_last_measured_deals(run):
    w = run.window
    assert w == (DEALS - run.burn_in) // 2
    s1 = run.s1[: L.VS_LEN]
    assert s1[L.VS_EARLY + L.VW_DEALS] == s1[L.VS_LATE + L.VW_DEALS] == SESSIONS * w
    pots = run_pots([Arm("limited", ROWS[0].rules, ROWS[0].policies)], SESSIONS, DEALS, seed=SEED).deal_stats[0]
    b = run.burn_in
    assert s1[L.VS_EARLY + L.VW_LOOED] == pots[b : b + w, L.DS_LOOED].sum()
    assert s1[L.VS_LATE + L.VW_LOOED] == pots[DEALS - w :, L.DS_LOOED].sum()
    windows = session_windows(run)
    grow = windows[(windows.row == "three-card") & (windows.metric == "mean_pot")].iloc[0]
    assert grow.late > grow.early  # unlimited, basic: the pot keeps growing (no steady state)


def test_threads_do_not_change_a_bit():
    one = run_variant_sessions(ROWS[2:4], sessions=130, deals=12, seed=5, threads=1)
    two = run_variant_sessions(ROWS[2:4], sessions=130, deals=12, seed=5, threads=2)
    for k in ("s1", "s2", "pot_n", "pot_sq", "pot_nm", "pot_sum"):
        assert np.array_equal(getattr(one, k), getattr(two, k)), k
    assert one.burn_in == default_burn_in(12) == 6


def _independent(rules, count, seed, carried, policy="basic"):
    """Independent deals (simulate's streams, not the sessions'): per deal, the looed count
    and whether it left nothing in the pot (R3 events: no loo, no defender's share, somebody in)."""
    decks = shuffled_decks(seed, count)
    frame = play_deals(rules, decks, np.arange(count) % rules.players, np.full(count, float(carried)), policy).frame()
    n = rules.players
    looed = frame["looed"].to_numpy().reshape(-1, n)
    decl = frame["declaration"].to_numpy().reshape(-1, n)
    won = frame["tricks_won"].to_numpy().reshape(-1, n)
    defended = ((decl == "defend") & (won > 0)).any(axis=1)
    nobody = (decl == "pass").all(axis=1)
    return looed.sum(axis=1), ~(looed.any(axis=1) | defended | nobody)


def test_steady_state_limited_pot_and_classic_limited_single_share_follow_from_single_deals():
    # R3, limited penalty, 5 players, antes 3 each: after the first deal the pot is
    # 15 + 3 x (players looed last deal) (tests/test_steady_state.py gives the reasons with
    # basic: nobody never happens, the pot changes no declaration), so the measured pots'
    # distribution is the looed count's on independent deals. R8, classic-limited: a deal is
    # a single pot exactly when the last one left nothing; a single pot always leaves
    # something (a = 0), a double pot nothing with probability p, so from the clean deal 0
    # P(single at deal j) follows the chain s_j = p (1 - s_{j-1}).
    limited, classic = Rules.preset("limited"), Rules.preset("classic-limited")
    rows = [VariantRow("limited", limited, parse_table("basic", 5)), VariantRow("cl", classic, parse_table("basic", 5))]
    sessions, deals, burn = 1500, 20, 8
    res = run_variant_sessions(rows, sessions=sessions, deals=deals, burn_in=burn, seed=77, threads=2)
    count = 60_000
    looed, _ = _independent(limited, count, 1801, 6.0)
    predicted = np.bincount(looed, minlength=6) / count
    pots = session_pots(res)
    lim = pots[pots.row == "limited"]
    assert lim.exact.all() and set(lim.pot) <= {15.0, 18.0, 21.0, 24.0, 27.0, 30.0}
    for r in lim.itertuples(index=False):
        k = int((r.pot - 15) // 3)
        se = math.hypot(r.se, math.sqrt(predicted[k] * (1 - predicted[k]) / count))
        assert abs(r.share - predicted[k]) <= 4 * se, (r.pot, r.share, predicted[k], se)
    _, nothing = _independent(classic, count, 1802, 3.0)
    p = nothing.mean()

    def measured_share(p):  # the chain from the clean deal 0, averaged over deals burn..deals-1
        s, chain = 1.0, []
        for _ in range(1, deals):
            s = p * (1 - s)
            chain.append(s)
        return np.mean(chain[burn - 1 :])

    expected = measured_share(p)
    slope = (measured_share(p + 1e-6) - measured_share(p - 1e-6)) / 2e-6  # the prediction's SE, delta method
    got = _by(session_rows(res), "cl", "single_share")
    se = math.hypot(got.se, slope * math.sqrt(p * (1 - p) / count))
    assert got.value > 0.01
    assert abs(got.value - expected) <= 4 * se, (got.value, got.se, expected, p)


EXP = '[[experiments]]\nname = "a"\nkind = "variants"\nrows = [{name = "x", preset = "limited"}]\n'


@pytest.mark.parametrize(
    "body, where, allowed",
    [
        ("sessions = 0\nsession_deals = 10", "sessions", "1.."),
        ("sessions = 10\nsession_deals = 0", "session_deals", "1.."),
        ("sessions = 10\nsession_deals = 200000", "session_deals", "1..100000"),
        ("sessions = 10\nsession_deals = 10\nburn_in = 10", "burn_in", "0..9"),
        ("sessions = 10\nsession_deals = 10\nburn_in = -1", "burn_in", "0 or more"),
        ("sessions = 10\nsession_deals = 10\nburn_in = 2.5", "burn_in", "whole number"),
        ("deals = 10\nburn_in = 2", "burn_in", "goes with sessions"),
        ("sessions = 10\nsession_deals = 10\ncarried = 5", "carried", "clean pot"),
        ("sessions = 10\ndeals = 10", "deals", "session_deals"),
        ("session_deals = 10", "session_deals", "goes with sessions"),
    ],
)
def test_bad_session_options_are_one_error_line(capsys, tmp_path, body, where, allowed):
    path = tmp_path / "bad.toml"
    path.write_text(EXP + body + "\n", encoding="utf-8")
    out = tmp_path / "out"
    rc = main(["report", str(path), "--out", str(out)])
    captured = capsys.readouterr()
    assert rc == 2, captured.err
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), captured.err
    assert where in lines[0] and allowed in lines[0], lines[0]
    assert "Traceback" not in captured.err + captured.out
    assert not out.exists()


def test_report_in_sessions_writes_the_session_and_first_deal_tables(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('[[experiments]]\nname = "s"\nkind = "variants"\npolicy = "basic"\nsessions = 70\n'
                    'session_deals = 16\n'
                    'rows = [{name = "limited", preset = "limited"}, {name = "three-card", preset = "three-card"}]\n',
                    encoding="utf-8")  # fmt: skip
    out = tmp_path / "out"
    assert main(["report", str(path), "--out", str(out)]) == 0
    d = out / "s"
    for name in ("sessions.csv", "session_windows.csv", "session_pots.csv", "variants.csv", "sessions.png",
                 "session_pots.png", "variants.png", "summary.md"):  # fmt: skip
        assert (d / name).exists(), name
    text = (d / "summary.md").read_text()
    assert "First deal of a session" in text and "burn-in" in text
    assert "deals 9-16 of each session" in text  # the default burn-in: min(10, half the deals) = 8
