"""Files a command reads (issue #31, items 3, 6 and 7): an empty deal file, a deal with
nothing to check, /dev/zero or a file of gigabytes are one ``error:`` line and exit 2 (each
read with a size bound, never whole); a missing strategy table in a deal file names the
file and the deal."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from loo_sim.base.checks import MAX_CONFIG_BYTES, MAX_DEAL_FILE_BYTES, MAX_TABLE_BYTES
from loo_sim.cli import main


def one_error(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), captured.err
    assert "Traceback" not in captured.err + captured.out and "all legal" not in captured.out
    return lines[0]


def test_an_empty_deal_file_is_an_error_not_all_legal(tmp_path, capsys):
    path = tmp_path / "empty.toml"
    path.write_text("")
    assert "no deals" in one_error(capsys, ["check", str(path)])


def test_a_deal_with_nothing_to_check_is_an_error(tmp_path, capsys):
    path = tmp_path / "nothing.toml"
    path.write_text('preset = "three-card"\nhands = { 1 = "AH 7H KC" }\n')
    line = one_error(capsys, ["check", str(path)])
    assert "deal 1: nothing to check" in line and str(path) in line


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("argv", [["check", "/dev/zero"], ["report", "/dev/zero"]])
def test_an_endless_file_is_refused_by_its_size(capsys, argv):
    assert "larger than" in one_error(capsys, argv)


@pytest.mark.parametrize("command, limit", [("check", MAX_DEAL_FILE_BYTES), ("report", MAX_CONFIG_BYTES)])
def test_a_file_past_the_bound_is_refused_unread(tmp_path, capsys, command, limit):
    path = tmp_path / "big.toml"
    with path.open("wb") as f:  # sparse: no disk used
        f.truncate(limit + 1)
    assert f"larger than {limit:,} bytes" in one_error(capsys, [command, str(path)])


def test_a_strategy_table_of_gigabytes_is_refused_unread(tmp_path, capsys):
    path = tmp_path / "huge.csv"
    with path.open("wb") as f:
        f.truncate(3 * 2**30)  # 3 GB, sparse: read whole it was a MemoryError
    line = one_error(capsys, ["simulate", "--deals", "100", "--policy", f"table:{path}"])
    assert f"larger than {MAX_TABLE_BYTES:,} bytes" in line and "table:" in line


def test_a_missing_table_in_a_deal_file_names_the_file_and_the_deal(tmp_path, capsys):
    path = tmp_path / "evening.toml"
    path.write_text('preset = "classic-limited"\n[[deal]]\ndeclare = "1=play"\n'
                    '[[deal]]\nname = "second"\ndeclare = "1=play"\nseat_policy = { 2 = "table:nope.csv" }\n')
    line = one_error(capsys, ["check", str(path)])
    assert line == f"error: {path}: deal 2 (second): table:nope.csv: no such file"


def test_a_deal_file_that_is_not_text_is_one_line(tmp_path, capsys):
    path = tmp_path / "bin.toml"
    path.write_bytes(os.urandom(64) + b"\xff\xfe")
    assert "not UTF-8 text" in one_error(capsys, ["check", str(path)])
