"""The package's layers (README, design): imports go one way only, down the stack
foundations <- game <- engine | kernel <- run <- solve <- analysis <- plots <- report <- cli,
and the import graph (module-level and function-local imports alike) has no cycle. The
library below ``cli`` never imports the CLI framework."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "loo_sim"
# package -> rank (base: the foundations); engine and kernel share a rank and may not import each other
STACK = {"base": 0, "game": 1, "engine": 2, "kernel": 2, "run": 3, "solve": 4, "analysis": 5, "plots": 6, "report": 7,
         "cli": 8, "app": 8}  # fmt: skip
# the two front ends share the top rank; the one edge between them: `loo-sim app` starts the web app (lazily)
STARTS = {("loo_sim.cli", "loo_sim.app")}
LAYERS = {f"loo_sim.{m}": rank for m, rank in STACK.items()}
FACADE = ("loo_sim", "loo_sim.__main__", "loo_sim.simulate")  # the public API, `python -m loo_sim`: on top
UI_LIBRARIES = ("typer", "click", "rich")
WEB_LIBRARIES = ("fastapi", "starlette", "uvicorn")  # the app extra: only loo_sim.app imports them


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(path: Path, name: str, known: set[str]) -> set[str]:
    """Every module of the package and every outside top-level package ``path`` imports."""
    is_pkg = path.name == "__init__.py"
    here = name.split(".") if is_pkg else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(here[: len(here) - node.level + 1] + ([base] if base else []))
            for alias in node.names:  # `from pkg import submodule` is an edge to the submodule
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in known else base)
    return found


def layer_of(module: str) -> str | None:
    for prefix in sorted(LAYERS, key=len, reverse=True):
        if module == prefix or module.startswith(prefix + "."):
            return prefix
    return None


def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imports_of(path, name, known) for name, path in mods.items()}


def violations(edges: dict[str, set[str]]) -> list[str]:
    """Upward or sideways imports between layers, facade imports, and UI imports below cli."""
    problems = []
    for src, targets in sorted(edges.items()):
        if src in FACADE:
            continue
        src_layer = layer_of(src)
        if src_layer is None:
            problems.append(f"{src} is in no layer (add it to LAYERS)")
            continue
        for dst in sorted(targets):
            top = dst.split(".")[0]
            if top in UI_LIBRARIES and src_layer != "loo_sim.cli":
                problems.append(f"{src} imports {dst}: only loo_sim.cli may use the CLI framework")
            if top in WEB_LIBRARIES and src_layer != "loo_sim.app":
                problems.append(f"{src} imports {dst}: only loo_sim.app may use the web framework (the app extra)")
            if top != "loo_sim":
                continue
            if dst in FACADE:
                problems.append(f"{src} imports {dst}, the package root: import the module that defines the name")
                continue
            dst_layer = layer_of(dst)
            if dst_layer is None or dst_layer == src_layer or (src_layer, dst_layer) in STARTS:
                continue
            if LAYERS[dst_layer] > LAYERS[src_layer] or (LAYERS[dst_layer] == LAYERS[src_layer] and LAYERS[src_layer]):
                problems.append(f"{src} imports {dst}: {dst_layer} is not below {src_layer}")
    return problems


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in edges:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_every_import_goes_down_the_layers():
    assert violations(graph()) == []


def test_the_import_graph_has_no_cycle():
    assert cycles(graph()) == []


def test_every_layer_folder_exists_and_holds_modules():
    mods = modules()
    for layer in LAYERS:
        assert any(m == layer or m.startswith(layer + ".") for m in mods), layer


@pytest.mark.parametrize(
    "src, dst",
    [
        ("loo_sim.game.rules", "loo_sim.kernel.deal"),  # game -> kernel: upward
        ("loo_sim.kernel.deal", "loo_sim.engine.deal"),  # kernel -> engine: sideways
        ("loo_sim.run.simulate", "loo_sim.cli.app"),  # library -> CLI
        ("loo_sim.report.kinds.base", "loo_sim"),  # the package root
        ("loo_sim.analysis.miss", "typer"),  # the CLI framework below cli
        ("loo_sim.app.server", "loo_sim.cli.app"),  # the web app -> the CLI: sideways
        ("loo_sim.cli.commands.advise", "fastapi"),  # the web framework outside the app
    ],
)
def test_a_deliberate_bad_import_is_caught(src, dst):
    edges = graph()
    edges[src] = edges[src] | {dst}
    assert any(p.startswith(f"{src} imports {dst}") for p in violations(edges))


def test_a_deliberate_cycle_is_caught():
    edges = graph()
    edges["loo_sim.base.errors"] = edges["loo_sim.base.errors"] | {"loo_sim.base.checks"}
    assert ["loo_sim.base.checks", "loo_sim.base.errors"] in cycles(edges)
