"""Options that were silently reinterpreted (issue #12, group 9): each is now one
``error:`` line naming the flag and what is allowed, exit status 2, nothing written."""

from __future__ import annotations

import json
import os
import shlex

import pytest

from loo_sim.cli import main

BAD_OPTIONS = [
    # (argv, a fragment of the one line)
    pytest.param(["simulate", "--seed", "9007199254740993.0"], "--seed", id="seed_inexact_float"),
    pytest.param(["simulate", "--seed", "1e17"], "2**53", id="seed_1e17"),
    pytest.param(["simulate", "--seed", "1.5"], "--seed", id="seed_fraction"),
    pytest.param(["replay", "--seed", "9007199254740993.0"], "--seed", id="replay_seed_inexact"),
    pytest.param(["replay", "--seed", "1", "--deal", "1e30"], "--deal", id="deal_1e30"),
    pytest.param(["replay", "--seed", "1", "--deal", "18446744073709551616"], "--deal", id="deal_2_64"),
    pytest.param(["replay", "--seed", "1", "--deal", "9223372036854775808"], "0..9223372036854775807", id="deal_2_63"),
    pytest.param(
        ["pots", "--compare", "penalty=limited", "--compare", "penalty=unlimited"],
        "compared already",
        id="compare_key_twice",
    ),  # fmt: skip
    pytest.param(["pots", "--compare", "penalty=limited,limited"], "once", id="compare_value_twice"),
    pytest.param(["pots", "--compare", "penalty=limited,Limited"], "once", id="compare_value_twice_case"),
    pytest.param(["pots", "--compare", "policy=basic,basic"], "once", id="compare_policy_twice"),
    pytest.param(["replay", "--seed", "1", "--policy", ""], "--policy", id="policy_empty_replay"),
    pytest.param(["simulate", "--policy", "  "], "--policy", id="policy_blank_simulate"),
    pytest.param(["simulate", "--workers", "2"], "--workers goes with --backend dask", id="workers_local_simulate"),
    pytest.param(["miss", "--workers", "2"], "--workers goes with --backend dask", id="workers_local_miss"),
    pytest.param(["pots", "--workers", "2"], "--workers goes with --backend dask", id="workers_local_pots"),
    pytest.param(["simulate", "--deals", "١٢٣"], "ASCII", id="deals_arabic_indic"),
    pytest.param(["simulate", "--deals", "１２"], "ASCII", id="deals_fullwidth"),
    pytest.param(["simulate", "--seed", "١"], "ASCII", id="seed_arabic_indic"),
    pytest.param(["replay", "--seed", "1", "--deal", "１"], "ASCII", id="deal_fullwidth"),
    pytest.param(["replay", "--seed", "1", "--dealer", "１"], "--dealer", id="dealer_fullwidth"),
    pytest.param(["replay", "--seed", "1", "--carried", "１２"], "carried", id="carried_fullwidth"),
    pytest.param(["miss", "--focal", "١"], "--focal", id="focal_arabic_indic"),
    pytest.param(["simulate", "--threads", "１"], "ASCII", id="threads_fullwidth"),
    pytest.param(["pots", "--sessions", "１０"], "ASCII", id="sessions_fullwidth"),
]


@pytest.mark.parametrize("argv, fragment", BAD_OPTIONS)
def test_a_reinterpreted_option_is_refused_in_one_line(capsys, tmp_path, argv, fragment):
    out = tmp_path / "o"
    extra = ["--out", str(out)] if argv[0] in ("simulate", "miss", "pots") else []
    rc = main([*argv, *extra])
    captured = capsys.readouterr()
    assert rc == 2, captured.err
    assert "Traceback" not in captured.err + captured.out
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], captured.err
    assert not out.exists()


def test_report_refuses_workers_with_the_local_backend(capsys, tmp_path):
    config = tmp_path / "c.toml"
    config.write_text('[[experiments]]\nname = "a"\nkind = "simulate"\ndeals = 10\n')
    out = tmp_path / "o"
    assert main(["report", str(config), "--out", str(out), "--workers", "2"]) == 2
    assert capsys.readouterr().err.startswith("error: --workers goes with --backend dask")
    assert not out.exists()


@pytest.mark.parametrize("text, number", [("9007199254740992.0", 2**53), ("1e6", 10**6), ("1_000", 1000),
                                          ("9007199254740993", 2**53 + 1)])  # fmt: skip
def test_exact_numbers_are_still_accepted(text, number):
    from loo_sim.base import checks

    assert checks.whole_number("seed", text, 0, checks.MAX_SEED) == number


def test_the_largest_deal_replays(capsys):
    assert main(["replay", "--seed", "1", "--deal", str(2**63 - 1), "--json"]) == 0
    capsys.readouterr()


def test_the_command_recorded_is_shell_quoted(capsys, tmp_path):
    out = tmp_path / "with space" / "o"
    assert main(["simulate", "--deals", "20", "--seed", "3", "--out", str(out)]) == 0
    capsys.readouterr()
    command = json.loads((out / "run.json").read_text())["command"]
    words = shlex.split(command)
    shown = os.path.relpath(out)  # never absolute (report/command.py shown_path)
    assert words[:2] == ["loo-sim", "simulate"] and words[-2:] == ["--out", shown], command
    assert shlex.join(words) in (out / "summary.md").read_text()


def test_threads_1_sets_numbas_threads_for_the_run(capsys, tmp_path, monkeypatch):
    """The guard: ``--threads`` validated but ignored would pass every other test."""
    import numba

    calls = []
    real = numba.set_num_threads
    monkeypatch.setattr(numba, "set_num_threads", lambda n: (calls.append(n), real(n))[1])
    try:
        out = tmp_path / "o"
        assert main(["simulate", "--deals", "20", "--threads", "1", "--out", str(out)]) == 0
        capsys.readouterr()
        assert calls and calls[-1] == 1
        assert json.loads((out / "run.json").read_text())["threads"] == 1
    finally:
        real(numba.config.NUMBA_NUM_THREADS)


def test_preset_in_any_case_on_the_command_line(capsys, tmp_path):
    out = tmp_path / "o"
    assert main(["simulate", "--preset", "THREE-CARD", "--deals", "10", "--out", str(out)]) == 0
    capsys.readouterr()
    info = json.loads((out / "run.json").read_text())
    assert info["preset"] == "three-card" and "--preset three-card" in info["command"]
