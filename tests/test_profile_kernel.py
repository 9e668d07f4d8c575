"""scripts/profile_kernel.py: the copy with each module's lines numbered apart, the parsing of
objdump's symbol and line tables, and the sums by source function and line (the perf run
itself needs perf and a minute's compile, so it is not run here)."""

import collections
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("profile_kernel", ROOT / "scripts" / "profile_kernel.py")
P = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(P)


def _package(tmp_path: Path) -> Path:
    src = tmp_path / "pkg"
    (src / "sub").mkdir(parents=True)
    (src / "__init__.py").write_text('"""top."""\n')
    (src / "a.py").write_text("def f(x):\n    y = x + 1\n    return y\n")
    (src / "sub" / "b.py").write_text("import os\n\n\ndef g():\n    return os.sep\n")
    return src


def test_the_copy_numbers_each_module_from_its_own_span_and_keeps_its_code(tmp_path):
    src = _package(tmp_path)
    dest = tmp_path / "copy"
    modules = P.spread_copy(src, dest)
    assert modules == ["__init__.py", "a.py", "sub/b.py"]
    for i, rel in enumerate(modules):
        lines = (dest / rel).read_text().splitlines()
        original = (src / rel).read_text().splitlines()
        assert lines[i * P.SPAN :] == original  # line L of module i is line i * SPAN + L of the copy
        assert not any(lines[: i * P.SPAN])
        assert P.locate(Path(rel).name, i * P.SPAN + 2, modules) == (rel, 2)
    compile((dest / "sub" / "b.py").read_text(), "b.py", "exec")  # still Python


def test_an_unchanged_module_is_not_rewritten_and_a_removed_one_goes(tmp_path):
    src = _package(tmp_path)
    dest = tmp_path / "copy"
    P.spread_copy(src, dest)
    stamp = (dest / "a.py").stat().st_mtime_ns
    (src / "sub" / "b.py").unlink()
    assert P.spread_copy(src, dest) == ["__init__.py", "a.py"]
    assert (dest / "a.py").stat().st_mtime_ns == stamp
    assert not (dest / "sub" / "b.py").exists()


def test_a_line_number_names_its_module_and_line_zero_its_file():
    modules = ["__init__.py", "kernel/bits.py", "kernel/solver.py"]
    assert P.locate("solver.py", 2 * P.SPAN + 377, modules) == ("kernel/solver.py", 377)
    assert P.locate("solver.py", 1 * P.SPAN + 84, modules) == ("kernel/bits.py", 84)  # inlined: the number decides
    assert P.locate("solver.py", 0, modules) == ("kernel/solver.py", 0)
    assert P.locate("builtins.py", 631, modules) == ("builtins.py", 631)  # numba's own file, as it is


SYMBOLS = """
lib0.o:     file format elf64-x86-64

SYMBOL TABLE:
0000000000000000 l    df *ABS*	0000000000000000 solver.py
0000000000000000 g     F .ltext	0000000000000050 _ZN8loo_sim1fB2v1
0000000000000050 g     F .ltext	0000000000000105 _ZN7cpython8loo_sim1fB2v1
0000000000000000 l     O .rodata	0000000000000008 .const.x
"""

LINES = """
lib0.o:     file format elf64-x86-64

Contents of the .debug_line section:

CU: solver.py:
File name                            Line number    Starting address    View    Stmt
solver.py                                1200373                   0               x
solver.py                                1200374                0x37               x
solver.py                                      0                0x40
solver.py                                1200377                0x4a               x
solver.py                                      -                0x50

CU: bits.py:
File name                            Line number    Starting address    View    Stmt
bits.py                                   600084                0x50               x
bits.py                                        -                0x60
"""


def test_objdump_symbol_table_gives_each_function_offset_and_size():
    assert P.parse_symbols(SYMBOLS) == {"_ZN8loo_sim1fB2v1": (0, 0x50), "_ZN7cpython8loo_sim1fB2v1": (0x50, 0x105)}


def test_a_line_table_row_covers_the_code_up_to_the_next_row():
    rows = P.parse_lines(LINES)
    assert P.line_at(rows, 0) == ("solver.py", 1200373)
    assert P.line_at(rows, 0x36) == ("solver.py", 1200373)
    assert P.line_at(rows, 0x37) == ("solver.py", 1200374)
    assert P.line_at(rows, 0x41) == ("solver.py", 0)  # no line owns it
    assert P.line_at(rows, 0x4f) == ("solver.py", 1200377)
    assert P.line_at(rows, 0x55) == ("bits.py", 600084)  # the next sequence starts where the first ended
    assert P.line_at(rows, 0x60) == ("?", 0)  # past the end of every sequence


def test_samples_are_summed_by_source_function_and_line(tmp_path):
    src = _package(tmp_path)
    modules = P.spread_copy(src, tmp_path / "copy")
    a = 1 * P.SPAN  # a.py is module 1
    hits = [("a.py", a + 2), ("a.py", a + 2), ("a.py", a + 3), None, ("a.py", 0), (".py", 2 * P.SPAN + 5)]
    result = P.attribute(hits, modules, src)
    assert (result["samples"], result["inside"]) == (6, 5)
    assert result["by_def"] == collections.Counter({("a.py", "f"): 3, ("a.py", "(no line)"): 1, ("sub/b.py", "g"): 1})
    assert result["by_line"][("a.py", 2, "y = x + 1")] == 2
    assert result["by_line"][("sub/b.py", 5, "return os.sep")] == 1
    text = P.report(result, top=10)
    assert "60.0%  a.py:f" in text and "40.0%  a.py:2  y = x + 1" in text


def test_without_perf_it_says_so_in_one_line(monkeypatch, capsys):
    monkeypatch.setattr(P.shutil, "which", lambda tool: None)
    monkeypatch.setattr(P.sys, "argv", ["profile_kernel.py", "solver"])
    with pytest.raises(SystemExit) as stop:
        P.main()
    assert str(stop.value) == "profile_kernel: needs perf on PATH (perf: linux-tools; objdump: binutils)"


def test_an_unknown_preset_is_one_line_before_anything_runs(monkeypatch):
    monkeypatch.setattr(P.shutil, "which", lambda tool: "/usr/bin/" + tool)
    monkeypatch.setattr(P.sys, "argv", ["profile_kernel.py", "solver", "--preset", "nine-card"])
    monkeypatch.setattr(P, "sample", lambda *a: pytest.fail("ran"))
    with pytest.raises(SystemExit) as stop:
        P.main()
    assert str(stop.value).startswith("profile_kernel: ") and "nine-card" in str(stop.value)
    assert "\n" not in str(stop.value)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["solver", "--seconds", "0"], "--seconds 0: must be above 0"),
        (["solver", "--top", "-1"], "--top -1: must be at least 0"),
        (["ladder", "--play", "pimc:zz"], "'pimc:zz' is not a card-play family"),
        (["simulate", "--policy", "nonsense"], "unknown declaration family 'nonsense'"),
    ],
)
def test_bad_arguments_are_one_line_before_anything_runs(monkeypatch, argv, says):
    monkeypatch.setattr(P.shutil, "which", lambda tool: "/usr/bin/" + tool)
    monkeypatch.setattr(P.sys, "argv", ["profile_kernel.py", *argv])
    monkeypatch.setattr(P, "sample", lambda *a: pytest.fail("ran"))
    with pytest.raises(SystemExit) as stop:
        P.main()
    assert str(stop.value).startswith("profile_kernel: ") and says in str(stop.value) and "\n" not in str(stop.value)
