"""simulate (kernel blocks + streaming aggregates): reproducibility, agreement with the
reference engine, uniform dealing, an exact flush probability, bad input, Ctrl-C."""

import json
import math

import numpy as np
import pytest
from numba import njit
from scipy.stats import chi2

from loo_sim import Rules
from loo_sim.analysis.simulate import summary_table
from loo_sim.base.rng import NO_SESSION, seat_streams, shuffled_deck
from loo_sim.cli import main
from loo_sim.engine.deal import play_deal_reference
from loo_sim.game import abi as L
from loo_sim.game.policy import parse_table
from loo_sim.kernel.krng import shuffle_prefix, stream_key
from loo_sim.run.simulate import simulate


def test_same_seed_same_aggregates_whatever_threads_and_chunks():
    rules = Rules.preset("three-card", players=6)
    policy = ["basic", "cautious/high", "always/random", "nothing-takes-miss/low", "basic/random", "basic"]
    runs = [
        simulate(rules, policy, 50_000, seed=7, threads=1, blocks_per_call=1),
        simulate(rules, policy, 50_000, seed=7, threads=2, blocks_per_call=1),
        simulate(rules, policy, 50_000, seed=7, threads=2, blocks_per_call=5),
        simulate(rules, policy, 50_000, seed=7, threads=1, blocks_per_call=13),
    ]
    for r in runs[1:]:
        assert np.array_equal(r.totals, runs[0].totals)
    other = simulate(rules, policy, 50_000, seed=8, threads=2)
    assert not np.array_equal(other.totals, runs[0].totals)


@pytest.mark.parametrize(
    "preset, overrides, policy",
    [
        ("three-card", {}, "basic"),
        ("classic-limited", {"players": 6}, ["basic", "cautious", "always/random", "basic", "cautious/low", "basic"]),
        ("five-card", {}, ["basic", "basic/basic/flush-chase", "always", "cautious", "basic/high/keep-trumps"]),
        ("irish", {"players": 4}, "always/random"),
    ],
)
def test_aggregates_match_the_reference_engine_deal_by_deal(preset, overrides, policy):
    # Deal k of a run: deck from the stream (seed, k), dealer k mod players; the
    # aggregates of simulate must equal those recomputed from reference-engine records.
    rules = Rules.preset(preset, **overrides)
    n, deals, seed, carried = rules.players, 1500, 11, 6.0 if preset == "classic-limited" else 0.0
    table = parse_table(policy, n)
    res = simulate(rules, table, deals, seed=seed, carried=carried, threads=2)
    decl = np.zeros((n, 4))
    looed = np.zeros(n)
    net = np.zeros(n)
    net_sq = np.zeros(n)
    tricks = np.zeros((n, rules.hand_size + 1))
    outcomes = np.zeros(4)
    by_position = np.zeros((L.MAX_PLAYERS + 1, 3))  # net, looed, in the deal
    for k in range(deals):
        draws = seat_streams(seed, k, table)
        rec = play_deal_reference(rules, shuffled_deck(seed, k), k % n, carried, table, draws)
        outcomes[L.OUTCOME_NAMES.index(rec.trace.outcome)] += 1
        for s in range(n):
            d = L.DECL_NAMES.index(rec.declarations[s])
            decl[s, d] += 1
            looed[s] += s in rec.looed
            x = rec.net()[s]
            net[s] += x
            net_sq[s] += x * x
            if d != L.DECL_PASS and rec.tricks:
                tricks[s, rec.tricks_won[s]] += 1
            position = (s - k % n - 1) % n + 1
            by_position[position] += (x, s in rec.looed, d != L.DECL_PASS)
    assert res.deals_done == deals
    assert np.array_equal(res.totals[L.A_OUTCOME : L.A_OUTCOME + 4], outcomes)
    for s in range(n):
        assert np.array_equal(res.seat(s, L.S_DECL, 4), decl[s])
        assert res.seat(s, L.S_LOOED)[0] == looed[s]
        assert np.array_equal(res.seat(s, L.S_TRICKS, rules.hand_size + 1), tricks[s])
        assert math.isclose(res.seat(s, L.S_NET)[0], net[s], rel_tol=1e-9, abs_tol=1e-6)
        assert math.isclose(res.seat(s, L.S_NET_SQ)[0], net_sq[s], rel_tol=1e-9, abs_tol=1e-6)
    for position in range(1, n + 1):
        got = res.totals[L.A_POS + position * L.POS_LEN : L.A_POS + (position + 1) * L.POS_LEN]
        assert math.isclose(got[L.POS_NET], by_position[position, 0], rel_tol=1e-9, abs_tol=1e-6)
        assert (got[L.POS_LOOED], got[L.POS_IN]) == tuple(by_position[position, 1:])


@njit(cache=True)
def _position_counts(seed, deals):
    counts = np.zeros((52, 52), dtype=np.int64)
    deck = np.zeros(52, dtype=np.int64)
    cards = np.arange(52, dtype=np.int64)
    for k in range(deals):
        shuffle_prefix(stream_key(seed, np.uint64(NO_SESSION), np.uint64(k), np.uint64(0)), deck, 52, cards)
        for pos in range(52):
            counts[pos, deck[pos]] += 1
    return counts


def test_uniform_dealing_chi_square_card_by_position():
    # Every card equally likely at every deck position (so in every hand slot, the miss
    # and the indicator): chi-square over 52 x 52 cells from 10^6 shuffles of the kernel.
    deals = 1_000_000
    counts = _position_counts(np.uint64(2026), deals)
    assert (counts.sum(axis=1) == deals).all()
    expected = deals / 52
    stat = ((counts - expected) ** 2 / expected).sum()
    dof = 51 * 51  # rows and columns both sum to `deals`
    p = chi2.sf(stat, dof)
    assert p > 1e-4, (stat, dof, p)
    # and per position (the first cards dealt matter most): none wildly off
    per_pos = ((counts - expected) ** 2 / expected).sum(axis=1)
    assert chi2.sf(per_pos.max(), 51) > 1e-6


def test_exact_flush_probability_five_card_no_exchange():
    # Independent reason: 5-card hands from 52 cards with the jack of clubs wild for
    # four of a suit: natural flushes without Pam C(12,5) + 3 C(13,5) = 4653, Pam-flushes
    # C(12,4) + 3 C(13,4) = 2640; together 7293 of C(52,5) = 2598960 hands.
    p = 7293 / 2598960
    rules = Rules.preset("five-card", exchange=False)
    res = simulate(rules, "always", 1_000_000, seed=3, threads=2)
    for s in range(rules.players):
        shown = res.seat(s, L.S_FLUSH_SHOWN)[0]
        held = res.seat(s, L.S_FLUSH_HELD)[0]
        assert shown == res.deals_done  # "always": everyone is at every show
        se = math.sqrt(p * (1 - p) / shown)
        assert abs(held / shown - p) < 4 * se, (s, held / shown, p, se)


def test_summary_has_intervals_and_rates_sum_to_one():
    res = simulate(Rules.preset("three-card"), "basic", 20_000, seed=5)
    df = summary_table(res)
    for seat in ["0", "all"]:
        rates = df[(df.seat == seat) & df.metric.isin(["play_rate", "pass_rate", "miss_rate", "defend_rate"])]
        assert math.isclose(rates.value.sum(), 1.0, rel_tol=1e-12)
        loo = df[(df.seat == seat) & (df.metric == "loo_rate")].iloc[0]
        assert loo.ci_low < loo.value < loo.ci_high
    assert df.se.notna().sum() > 0.8 * len(df)


def test_ctrl_c_stops_cleanly_and_marks_partial():
    calls = []

    def interrupt(done, total):
        calls.append(done)
        raise KeyboardInterrupt

    res = simulate(Rules.preset("three-card"), "basic", 500_000, seed=1, blocks_per_call=2, progress=interrupt)
    assert res.partial
    assert 0 < res.deals_done < 500_000 and res.deals_done == calls[0]
    whole = simulate(Rules.preset("three-card"), "basic", res.deals_done, seed=1)
    assert np.array_equal(whole.totals, res.totals)  # what finished is a true prefix of the run


def test_batches_interleave_the_blocks_and_add_up_to_the_totals():
    from loo_sim.base.config import BLOCK

    res = simulate(Rules.preset("three-card"), "basic", 7 * BLOCK + 5, seed=2, batches=3, by_class=True)
    assert res.by_class and res.batches is not None and res.batches.shape == (3, L.A_LEN)
    assert np.allclose(res.batches.sum(axis=0), res.totals, rtol=0, atol=1e-6)
    # blocks 0, 3, 6 / 1, 4, 7 (the short one) / 2, 5
    assert [int(b[L.A_DEALS]) for b in res.batches] == [3 * BLOCK, 2 * BLOCK + 5, 2 * BLOCK]
    plain = simulate(Rules.preset("three-card"), "basic", 1000, seed=2)
    assert not plain.by_class and plain.batches is None


def test_a_chart_seat_needs_a_chart():
    from loo_sim.base.errors import LooError

    with pytest.raises(LooError, match="chart family needs a decision chart"):
        simulate(Rules.preset("three-card"), ["basic", "chart", "basic", "basic", "basic"], 1000)


def test_simulate_cli_writes_csv_and_run_json(tmp_path, capsys):
    out = tmp_path / "run"
    rc = main(["simulate", "--preset", "classic-limited", "--deals", "20000", "--seed", "4", "--out", str(out)])
    assert rc == 0
    text = capsys.readouterr().out
    assert "loo rate" in text and "±" in text
    run = json.loads((out / "run.json").read_text())
    assert run["seed"] == 4 and run["deals_done"] == 20000 and not run["partial"]
    assert run["rules"]["penalty"] == "limited"
    csv = (out / "summary.csv").read_text().splitlines()
    assert csv[0] == "seat,metric,value,se,ci_low,ci_high,n,method"
    assert {p.name for p in out.iterdir()} == {"summary.csv", "positions.csv", "summary.md", "run.json"}
    assert run["kind"] == "simulate" and run["deals_requested"] == 20000 and run["study"]["preset"] == "classic-limited"
    # the recorded command repeats the run exactly
    capsys.readouterr()
    rc = main(run["command"].split()[1:] + ["--json"])
    again = json.loads(capsys.readouterr().out)
    first = [r for r in again["summary"] if r["metric"] == "net_per_deal"]
    import pandas as pd

    df = pd.read_csv(out / "summary.csv")
    assert np.allclose(df[df.metric == "net_per_deal"].value.to_numpy(), [r["value"] for r in first])


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--deals", "0"], "deals"),
        (["--deals", "-5"], "deals"),
        (["--deals", "many"], "deals"),
        (["--seed", "-1"], "seed"),
        (["--seed", "x"], "seed"),
        (["--threads", "0"], "threads"),
        (["--threads", "999"], "threads"),
        (["--threads", "two"], "threads"),
        (["--carried", "-3"], "carried"),
        (["--dealer", "5"], "dealer"),
    ],
)
def test_simulate_bad_input_is_one_line(args, fragment, capsys, tmp_path):
    out = tmp_path / "o"
    rc = main(["simulate", "--deals", "1000", *args, "--out", str(out)])
    err = capsys.readouterr().err
    assert rc != 0 and err.count("\n") == 1 and err.startswith("error:") and fragment in err
    assert not out.exists() or not any(out.iterdir())


def test_simulate_unwritable_out_is_one_line(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    rc = main(["simulate", "--deals", "1000", "--out", str(blocker / "sub")])
    err = capsys.readouterr().err
    assert rc != 0 and err.startswith("error:") and err.count("\n") == 1 and "--out" in err
    assert blocker.read_text() == "not a directory"


@pytest.mark.parametrize("preset, carried", [("three-card", 0.0), ("classic-limited", 0.0), ("five-card", 12.0)])
def test_r3_chips_conserved_in_the_aggregates(preset, carried):
    # R3: every deal's nets sum to carried - pot_next, so over a run the seats' summed
    # net equals deals * carried - (sum of pot_next): an identity of the aggregates.
    rules = Rules.preset(preset)
    res = simulate(rules, ["basic", "cautious", "always", "nothing-takes-miss", "basic/high"], 100_000, seed=9,
                   carried=carried)  # fmt: skip
    net = sum(res.seat(s, L.S_NET)[0] for s in range(rules.players))
    expected = res.deals_done * carried - res.totals[L.A_POT_NEXT]
    assert math.isclose(net, expected, rel_tol=1e-9, abs_tol=1e-6)
