"""Counts and sizes (issue #12 group 4): chunks planned lazily, counts above the documented
ceilings (``checks.MAX_DEALS``, ``MAX_SESSIONS``, ``MAX_SESSION_DEALS``) refused in one line
before any work."""

import tracemalloc

import pytest

from loo_sim.base import checks
from loo_sim.base.errors import LooError
from loo_sim.cli import main
from loo_sim.run.backend import chunk_ranges


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    captured = capsys.readouterr()
    return rc, captured.out, captured.err


def test_chunk_plan_is_lazy_and_exact():
    assert list(chunk_ranges(10, 4)) == [(0, 4), (4, 4), (8, 2)]
    assert len(chunk_ranges(10, 4)) == 3 and chunk_ranges(10, 4)[-1] == (8, 2)
    assert list(chunk_ranges(0, 4)) == []
    tracemalloc.start()
    plan = chunk_ranges(checks.MAX_DEALS // 4096 + 1, 2)  # the most a run may ask for
    first = next(iter(plan))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert first == (0, 2) and len(plan) > 10**11
    assert peak < 1_000_000  # a list of the chunks would take terabytes


def test_counts_have_ceilings():
    assert checks.deals(checks.MAX_DEALS) == checks.MAX_DEALS
    for check, ceiling in ((checks.deals, checks.MAX_DEALS), (checks.sessions, checks.MAX_SESSIONS),
                           (checks.session_deals, checks.MAX_SESSION_DEALS)):  # fmt: skip
        with pytest.raises(LooError, match="allowed 1.."):
            check(ceiling + 1)
        with pytest.raises(LooError):
            check("1e30")


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--deals", "1e30"],
        ["simulate", "--deals", "1e16"],
        ["miss", "--deals", "1e30"],
        ["calibrate", "--deals", "1e30", "--force"],
        ["pots", "--sessions", "1e30"],
    ],
)
def test_huge_counts_are_one_error_line(capsys, tmp_path, argv):
    rc, out, err = cli(capsys, *argv, *(["--out", str(tmp_path / "o")] if argv[0] != "calibrate" else []))
    assert rc == 2, err
    assert err.startswith("error:") and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err and not (tmp_path / "o").exists()


def test_study_huge_counts_are_problems_before_any_work():
    from loo_sim.report.kinds import MissStudy, PotsStudy, SimulateStudy

    assert any(path == "deals" for path, _ in SimulateStudy(deals=1e30).problems())
    assert any(path == "deals" for path, _ in MissStudy(deals=10**16).problems())
    assert any(path == "sessions" for path, _ in PotsStudy(sessions=1e30).problems())


# ---- overflow (issue #12 group 5) -------------------------------------------------------
@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--carried", "1e300"],
        ["simulate", "--carried", "1e308"],
        ["simulate", "--set", "ante=1e308"],
        ["simulate", "--set", "penalty_amount=1e308"],
        ["miss", "--carried", "1e200"],
        ["pots", "--set", "ante=1e307"],
        ["pots", "--bankroll", "1e300"],
    ],
)
def test_chip_amounts_past_the_bound_are_one_error_line(capsys, tmp_path, argv):
    count = ["--session-deals", "10"] if argv[0] == "pots" else ["--deals", "10"]
    rc, out, err = cli(capsys, *argv, *count, "--out", str(tmp_path / "o"))
    assert rc == 2, (out, err)
    assert err.startswith("error:") and len(err.strip().splitlines()) == 1, err
    assert "1e100" in err and not (tmp_path / "o").exists()


def test_replay_json_past_the_bound_is_refused_and_below_it_is_strict_json(capsys):
    import json

    rc, out, err = cli(capsys, "replay", "--seed", "1", "--carried", "1e308", "--json")
    assert rc == 2 and err.startswith("error:") and "Infinity" not in out
    rc, out, err = cli(capsys, "replay", "--seed", "1", "--carried", "1e100", "--json")
    assert rc == 0 and "2**53" in err
    json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))


def test_chip_bound_in_checks_and_rules():
    from loo_sim.game.rules import Rules

    assert checks.chips("carried", checks.MAX_CHIPS) == 1e100
    for bad in (1e101, float("inf"), float("nan"), -1, "1e400", True):
        with pytest.raises(LooError):
            checks.chips("carried", bad)
    for option in ("ante", "penalty_amount", "bankroll"):
        with pytest.raises(LooError, match=option):
            Rules.preset("three-card", **{option: 1e101})


@pytest.mark.parametrize("command", ["simulate", "miss"])
def test_amounts_past_2_53_warn_in_every_command(capsys, tmp_path, command):
    rc, out, err = cli(capsys, command, "--carried", "1e16", "--deals", "4096", "--out", str(tmp_path / "o"))
    assert rc == 0, err
    assert "2**53" in err
    for csv in (tmp_path / "o").glob("*.csv"):
        text = csv.read_text().lower()
        assert "nan" not in text and "inf" not in text, csv.name
    rc, out, err = cli(capsys, command, "--carried", "1000", "--deals", "4096", "--out", str(tmp_path / "p"))
    assert rc == 0 and "2**53" not in err


def test_no_nan_or_infinity_in_written_json_or_csv(tmp_path):
    import json

    import pandas as pd

    from loo_sim.report.outputs import write_csv, write_json

    write_json(tmp_path / "a.json", {"se": float("nan"), "rows": [1.0, float("nan")]})
    assert json.loads((tmp_path / "a.json").read_text()) == {"se": None, "rows": [1.0, None]}
    with pytest.raises(LooError, match="finite"):
        write_json(tmp_path / "b.json", {"x": float("inf")})
    assert not (tmp_path / "b.json").exists()
    write_csv(tmp_path / "a.csv", pd.DataFrame({"n": [1, 2], "se": [float("nan"), 0.5]}))
    assert (tmp_path / "a.csv").read_text().splitlines() == ["n,se", "1,", "2,0.5"]
    with pytest.raises(LooError, match="se"):
        write_csv(tmp_path / "b.csv", pd.DataFrame({"n": [1], "se": [float("-inf")]}))
    assert not (tmp_path / "b.csv").exists()


# ---- strength tables keyed by what made them (issue #12 group 3) -----------------------
def test_a_calibration_with_other_settings_does_not_change_a_later_run(tmp_path, monkeypatch, capsys):
    import dataclasses
    import json

    from loo_sim.base.config import DEFAULT_DEALS, DEFAULT_SEED
    from loo_sim.game.rules import Rules
    from loo_sim.run.strength import cache_dir, load, save, strength_for, table_key

    monkeypatch.setenv("LOO_SIM_CACHE", str(tmp_path / "cache"))
    rules = Rules.preset("three-card", lead="ace", players=4)  # not shipped
    # Stand-in for the table of the default settings (calibrating it takes minutes): a small
    # calibration saved under the default key.
    small = strength_for(rules, deals=4096, seed=3)
    default = dataclasses.replace(small, key=table_key(rules), deals=DEFAULT_DEALS, seed=DEFAULT_SEED)
    save(default, cache_dir() / f"{default.key}.npz")
    argv = ["--preset", "three-card", "--set", "lead=ace", "--set", "players=4"]

    def simulate(name):
        out = tmp_path / name
        assert main(["simulate", *argv, "--policy", "ev", "--deals", "4096", "--seed", "1", "--out", str(out)]) == 0
        return (out / "summary.csv").read_text(), json.loads((out / "run.json").read_text())

    before, info = simulate("a")
    made = info["strength_table"]
    assert made == {"key": table_key(rules), "deals": DEFAULT_DEALS, "seed": DEFAULT_SEED, "source": "cache"}
    assert main(["calibrate", *argv, "--deals", "1000", "--seed", "9", "--force"]) == 0
    assert load(rules, deals=1000, seed=9).key == table_key(rules, 1000, 9) != table_key(rules)
    after, info = simulate("b")
    assert after == before and info["strength_table"] == made
    capsys.readouterr()


def test_a_cache_file_of_other_settings_is_not_trusted(tmp_path, monkeypatch):
    import dataclasses

    from loo_sim.game.rules import Rules
    from loo_sim.run.strength import cache_dir, load, save, strength_for, table_key

    monkeypatch.setenv("LOO_SIM_CACHE", str(tmp_path))
    rules = Rules.preset("three-card", lead="ace", players=4)
    table = strength_for(rules, deals=4096, seed=3)
    save(dataclasses.replace(table, key=table_key(rules)), cache_dir() / f"{table_key(rules)}.npz")  # mislabelled
    assert load(rules) is None


# ---- the run-time estimate of long runs (issue #12 group 4) ----------------------------
def test_long_runs_get_an_estimate_and_short_ones_none():
    from loo_sim.report.kinds import PotsStudy, SimulateStudy
    from loo_sim.run.estimate import duration_text, estimate_seconds, long_run_notice

    assert estimate_seconds(4e6, 2, rate=1e6) == 2.0
    assert duration_text(30) == "30 s" and duration_text(3600 * 5) == "5.0 h" and "years" in duration_text(1e10)
    assert long_run_notice(1e5, 1) is None
    notice = long_run_notice(checks.MAX_DEALS, 16, "this simulate run")
    assert notice.startswith("note: this simulate run") and "years" in notice and "\n" not in notice
    assert SimulateStudy(deals=1000).deals_estimate() == 1000
    assert PotsStudy(sessions=10, session_deals=50).deals_estimate() == 500


def test_the_estimate_is_printed_on_a_terminal_only(tmp_path, monkeypatch, capsys):
    import sys

    from loo_sim.run import estimate

    monkeypatch.setattr(estimate, "NOMINAL_RATE", 0.01)  # every run is long
    rc, out, err = cli(capsys, "simulate", "--deals", "1000", "--out", str(tmp_path / "a"))
    assert rc == 0 and "roughly" not in err  # not a terminal (pytest captures stderr)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    rc, out, err = cli(capsys, "simulate", "--deals", "1000", "--out", str(tmp_path / "b"))
    assert rc == 0 and "note: this simulate run plays about 1e+03 deals: roughly" in err
