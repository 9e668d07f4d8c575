"""Sizes a reader can hold (issue #29 item 8; docs/design.md): no module of the package or of
scripts/ over 400 lines, no function over 80 lines but the kernel's numba steps (an explicit-stack search
or a deal step reads best whole), and at most 13 entries at the top of ``loo_sim/``. The
checks are plain AST walks, so a module that grows past the line fails here in the commit
that grew it."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "loo_sim"
SCRIPTS = PACKAGE.parent / "scripts"  # the benchmarks and report helpers are held to the same sizes
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 80
MAX_TOP_ENTRIES = 13  # 12, and app/ (issue #30: the web app beside cli)
NUMBA_DECORATORS = ("njit", "jit", "generated_jit", "vectorize", "overload", "intrinsic")


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py")) + sorted(SCRIPTS.glob("*.py"))


def is_kernel_step(path: Path, node: ast.AST) -> bool:
    """A numba-compiled function of the kernel (``@njit(...)``, ``@jit``, ...)."""
    if path.parent.name != "kernel":
        return False
    for deco in node.decorator_list:
        target = deco.func if isinstance(deco, ast.Call) else deco
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in NUMBA_DECORATORS:
            return True
    return False


def long_functions(path: Path, limit: int = MAX_FUNCTION_LINES) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not is_kernel_step(path, node):
            lines = node.end_lineno - node.lineno + 1
            if lines > limit:
                found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {node.name} ({lines} lines)")
    return found


def test_no_module_is_over_400_lines():
    over = [f"{p.relative_to(PACKAGE.parent)} ({n})" for p in modules() if (n := len(p.read_text().splitlines()))
            > MAX_MODULE_LINES]  # fmt: skip
    assert over == [], "split along a real seam (docs/design.md)"


def test_no_function_is_over_80_lines_but_kernel_steps():
    assert sum((long_functions(p) for p in modules()), []) == []


def test_the_top_of_the_package_holds_at_most_13_entries():
    skip = ("__init__.py", "__main__.py", "__pycache__")
    entries = sorted(p.name for p in PACKAGE.iterdir() if p.name not in skip and not p.name.startswith("."))
    assert len(entries) <= MAX_TOP_ENTRIES, entries


def test_the_checks_catch_what_they_look_for(tmp_path):
    kernel = tmp_path / "kernel"
    kernel.mkdir()
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    (kernel / "step.py").write_text(f"@njit(cache=True)\ndef step():\n{body}\n\ndef plain():\n{body}\n")
    global PACKAGE
    saved, PACKAGE = PACKAGE, tmp_path
    try:
        assert [line.split(" ")[1] for line in long_functions(kernel / "step.py")] == ["plain"]
    finally:
        PACKAGE = saved
