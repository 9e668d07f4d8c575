"""Where the compiled kernel spends its time, line by line: ``perf record`` samples a run of
the solver or of ``simulate``, and each sample is put on the source line it came from.

    .venv/bin/python scripts/profile_kernel.py solver --preset five-card --seconds 10
    .venv/bin/python scripts/profile_kernel.py simulate --preset three-card --policy basic
    .venv/bin/python scripts/profile_kernel.py ladder --preset five-card --players 4 --play pimc:32

How: numba's line tables (``NUMBA_DEBUGINFO=1``, kept to directives so that inlining is
what it always is) give a line inlined at numba's level (``inline="always"``) the file of
the function it went into. So the child profiles a copy of ``loo_sim/`` (``out/profile/src``)
in which the i-th module's lines are numbered from ``i * SPAN`` (blank lines put in front):
a line's number alone then names its module. The child compiles that copy into a fresh cache,
writes each compiled library's object code and where its functions were loaded, and runs
the work under ``perf record -e cpu-clock`` (no hardware counters needed). The parent reads
each object's line table (``objdump --dwarf=decodedline``: the object numba's cache keeps
is the one the JIT loaded) and sums the samples by source function and by line;
``--instructions N`` lists the most sampled instructions themselves.

Reading it: a sample lands on the instruction after the one that stalled (skid), so a slow
load shows on the compare that uses it. Line 0 is code no source line owns (spills, moves
between blocks). The lines of optimized code are approximate: where LLVM merged the same
instructions from two places it keeps one line, so a rare line can carry its twin's share;
the instructions are exact. Needs Linux, ``perf`` and ``objdump``."""

from __future__ import annotations

import argparse
import bisect
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "out" / "profile"
SPAN = 10_000  # the lines of module i are numbered from i * SPAN in the profiled copy
DISASSEMBLY = re.compile(r"^\s+([0-9a-f]+):\t(.*)$")  # an instruction of objdump -d --no-show-raw-insn
ROW = re.compile(r"^(\S+)\s+(\d+|-)\s+(0x[0-9a-f]+|0)\b")  # a row of objdump --dwarf=decodedline


def spread_copy(src: Path, dest: Path) -> list[str]:
    """Copy the package ``src`` to ``dest`` with module i's lines numbered from ``i * SPAN``
    (module 0 unmoved; a file already so left as it is); returns the modules' paths
    relative to ``src``, in that order."""
    modules = sorted(str(p.relative_to(src)) for p in src.rglob("*.py"))
    for i, rel in enumerate(modules):
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        text = (src / rel).read_text()
        if text.count("\n") >= SPAN:
            raise SystemExit(f"profile_kernel: {rel} has {SPAN} lines or more; raise SPAN")
        spread = "\n" * (i * SPAN) + text
        if not target.exists() or target.read_text() != spread:
            target.write_text(spread)
    for stale in set(dest.rglob("*.py")) - {dest / rel for rel in modules}:
        stale.unlink()
    return modules


def parse_symbols(text: str) -> dict[str, tuple[int, int]]:
    """``objdump -t`` of an object file: each function symbol's (offset in its section, size)."""
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 6 and parts[2] == "F":
            out[parts[-1]] = (int(parts[0], 16), int(parts[-2], 16))
    return out


def parse_lines(text: str) -> list[tuple[int, int, str, int]]:
    """``objdump --dwarf=decodedline`` of an object file: the line table's rows as (offset, 1,
    file, line), sorted; a row covers the code up to the next one's offset (line 0: code no
    line owns). A sequence's end is (offset, 0, file, -1): before a row that starts there."""
    rows = []
    for line in text.splitlines():
        m = ROW.match(line)
        if m:
            file, number, offset = m.group(1), m.group(2), int(m.group(3), 16)
            rows.append((offset, 0, file, -1) if number == "-" else (offset, 1, file, int(number)))
    return sorted(rows)


def line_at(rows: list[tuple[int, int, str, int]], offset: int) -> tuple[str, int]:
    """The (file, line) of the code at ``offset`` from the sorted line-table rows."""
    k = bisect.bisect_right(rows, (offset, 2)) - 1
    if k < 0 or rows[k][3] < 0:
        return "?", 0
    return rows[k][2], rows[k][3]


def locate(file: str, line: int, modules: list[str]) -> tuple[str, int]:
    """A line of the profiled copy -> (module, line in it): numbered from SPAN on, its number
    names the module; below that (line 0, module 0's lines, numba's own files) the file's
    name does, when one module has it."""
    if line >= SPAN and file.endswith(".py"):
        return modules[line // SPAN], line % SPAN
    named = [m for m in modules if Path(m).name == file]
    return (named[0], line) if len(named) == 1 else (file, line)


def enclosing_def(source: list[str], line: int) -> str:
    """The function a source line is in (the nearest ``def`` above it), or the module level."""
    for k in range(min(line, len(source)) - 1, -1, -1):
        m = re.match(r"\s*def (\w+)", source[k])
        if m:
            return m.group(1)
    return "<module>"


def attribute(hits: list, modules: list[str], package: Path) -> dict:
    """The samples' (file, line, ...) (None: outside the kernel) by source function and by
    line (counts), and how many fell in the kernel."""
    cache: dict[str, list[str]] = {}
    by_def: collections.Counter = collections.Counter()
    by_line: collections.Counter = collections.Counter()
    inside = 0
    for hit in hits:
        if hit is None:
            continue
        inside += 1
        module, line = locate(hit[0], hit[1], modules)
        path = package / module
        if module not in cache:
            cache[module] = path.read_text().splitlines() if path.exists() else []
        text = cache[module][line - 1].strip() if 0 < line <= len(cache[module]) else ""
        name = enclosing_def(cache[module], line) if line else "(no line)"
        by_def[(module, name)] += 1
        by_line[(module, line, text)] += 1
    return {"samples": len(hits), "inside": inside, "by_def": by_def, "by_line": by_line}


def _symbols(obj: bytes) -> list[str]:
    """The function symbols an object file defines (``objdump -t``)."""
    with tempfile.NamedTemporaryFile(suffix=".o") as f:
        f.write(obj)
        f.flush()
        return list(parse_symbols(_objdump(Path(f.name), "-t")))


def dump_libraries(path: Path) -> None:
    """(child) Each compiled library of loo_sim: the object code the JIT loaded (with its line
    table) and where each of its functions was loaded, as JSON."""
    libs, seen = [], set()
    for name, module in list(sys.modules.items()):
        if not name.startswith("loo_sim"):
            continue
        for obj in list(vars(module).values()):
            overloads = getattr(obj, "overloads", None)
            if not overloads or getattr(obj, "__module__", "") != name:
                continue
            for cres in overloads.values():
                library = cres.library
                if id(library) in seen:
                    continue
                seen.add(id(library))
                code = library._get_compiled_object()  # numba's object cache: the very object the JIT loaded
                funcs = {}
                for symbol in _symbols(code):
                    try:
                        funcs[symbol] = library.get_pointer_to_function(symbol)
                    except Exception:  # a symbol the engine did not export
                        continue
                libs.append({"object": code.hex(), "funcs": funcs})
    path.write_text(json.dumps({"libs": libs}))


def _objdump(obj: Path, *options: str) -> str:
    return subprocess.run(["objdump", *options, str(obj)], capture_output=True, text=True, check=True).stdout


def sample_lines(dump: dict, ips: list[int]) -> list[tuple[str, int, int, int] | None]:
    """Each sampled address's (file, line, library, offset in the library's code section),
    from the line table of the object it was loaded from; None: not the compiled kernel's."""
    spans, tables = [], []  # spans: (loaded start, loaded end, table, offset of the start in the section)
    with tempfile.TemporaryDirectory() as tmp:
        for k, lib in enumerate(dump["libs"]):
            obj = Path(tmp) / f"lib{k}.o"
            obj.write_bytes(bytes.fromhex(lib["object"]))
            symbols = parse_symbols(_objdump(obj, "-t"))
            tables.append(parse_lines(_objdump(obj, "--dwarf=decodedline")))
            # the engine may resolve a symbol this object also defines to another library's copy:
            # keep those loaded with this object's section (where most of its symbols are)
            found = [(a, *symbols[sym]) for sym, a in lib["funcs"].items() if sym in symbols and a]
            bases = collections.Counter(address - offset for address, offset, _ in found)
            if bases:
                base = bases.most_common(1)[0][0]
                spans += [(a, a + size, k, off) for a, off, size in found if a - off == base]
    spans.sort()
    starts = [span[0] for span in spans]
    out: list[tuple[str, int, int, int] | None] = []
    for ip in ips:
        j = bisect.bisect_right(starts, ip) - 1
        if j < 0 or ip >= spans[j][1]:
            out.append(None)
            continue
        start, _, k, offset = spans[j]
        at = offset + ip - start
        out.append((*line_at(tables[k], at), k, at))
    return out


def hot_instructions(dump: dict, hits: list, modules: list[str], count: int) -> list[str]:
    """The ``count`` most sampled instructions: share, module:line and the instruction
    (``objdump -d`` of its object), to tell a stalled load from spilled registers."""
    inside = max(sum(1 for h in hits if h is not None), 1)
    top = collections.Counter((h[0], h[1], h[2], h[3]) for h in hits if h is not None).most_common(count)
    text: dict[int, dict[int, str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for k in sorted({key[2] for key, _ in top}):
            obj = Path(tmp) / f"lib{k}.o"
            obj.write_bytes(bytes.fromhex(dump["libs"][k]["object"]))
            found = (DISASSEMBLY.match(line) for line in _objdump(obj, "-d", "--no-show-raw-insn").splitlines())
            text[k] = {int(m.group(1), 16): m.group(2).strip() for m in found if m}
    rows = []
    for (file, line, k, at), c in top:
        module, number = locate(file, line, modules)
        rows.append(f"{100 * c / inside:6.1f}%  {module}:{number}  {text[k].get(at, '?')[:70]}")
    return rows


def child(args: argparse.Namespace) -> None:
    """(child) Compile the copy, write its libraries, say so, and once perf is attached (the
    parent makes ``out/profile/go``) run the work."""
    import warnings

    from numba import set_num_threads
    from numba.core import compiler
    from numba.core.errors import NumbaDebugInfoWarning

    warnings.simplefilter("ignore", NumbaDebugInfoWarning)  # a lambda's source: no lines, which is fine

    for cls in compiler.Flags.__mro__:  # line tables only: the inlining unchanged
        option = getattr(cls, "options", {}).get("dbg_directives_only")
        if option is not None:
            option._default = True
    set_num_threads(1)
    work = _work(args)
    work()  # compile
    dump_libraries(OUT / "libraries.json")
    print("ready", flush=True)  # the parent attaches perf, then makes GO
    wait_until = time.perf_counter() + 60
    while not (OUT / "go").exists() and time.perf_counter() < wait_until:
        time.sleep(0.05)
    end = time.perf_counter() + args.seconds
    while time.perf_counter() < end:
        work()


def _work(args: argparse.Namespace):
    """One turn of the work to profile: a batch of first-lead solves, a simulate run, or 20
    deals of a ladder with one entrant."""
    import numpy as np

    from loo_sim import Rules

    rules = Rules.preset(args.preset) if args.players is None else Rules.preset(args.preset, players=args.players)
    if args.what == "simulate":
        from loo_sim.run.simulate import simulate

        return lambda: simulate(rules, args.policy, 200_000, seed=1, threads=1)
    if args.what == "ladder":
        from loo_sim.game.policy import Policy
        from loo_sim.run.ladder import run_ladder, with_play

        table = [Policy.parse(args.policy)] * rules.players
        entrant = with_play(table[0], args.play)
        return lambda: run_ladder(rules, table, [entrant], deals=20, seed=1)
    sys.path.insert(0, str(ROOT / "scripts"))
    from bench_solver import solver_first_leads  # scripts/bench_solver.py

    from loo_sim.kernel import solver as K
    from loo_sim.run.args import rules_arrays
    from loo_sim.run.solver import encode_position

    positions = solver_first_leads(args.preset, 300 if rules.hand_size > 3 else 4000, players=args.players)
    ri, _ = rules_arrays(rules)
    encoded = [encode_position(p) for p in positions]
    pis, pfs = np.array([e[0] for e in encoded]), np.array([e[1] for e in encoded])
    ws = K.workspace()
    out = np.zeros((len(pis), 3), dtype=np.int64)
    return lambda: K.solve_many(pis, pfs, ri, *ws, out)


def report(result: dict, top: int) -> str:
    """The profile as text: the source functions, then the lines, by share of the kernel's samples."""
    inside, total = max(result["inside"], 1), max(result["samples"], 1)
    rows = [f"{result['samples']} samples, {result['inside']} in the compiled kernel ({100 * inside / total:.0f}%)"]
    rows += ["", "by source function (module:function):"]
    rows += [f"{100 * c / inside:6.1f}%  {m}:{name}" for (m, name), c in result["by_def"].most_common(top)]
    rows += ["", "by line (module:line):"]
    lines = result["by_line"].most_common(top)
    rows += [f"{100 * c / inside:6.1f}%  {m}:{ln}  {text[:90]}" for (m, ln, text), c in lines]
    return "\n".join(rows) + "\n"


def check(args: argparse.Namespace) -> None:
    """Stop with one line on an argument the child would fail on."""
    from loo_sim import LooError, Rules
    from loo_sim.game.policy import Policy
    from loo_sim.run.ladder import with_play

    if args.seconds <= 0:
        sys.exit(f"profile_kernel: --seconds {args.seconds:g}: must be above 0")
    for name in ("top", "instructions"):
        if getattr(args, name) < 0:
            sys.exit(f"profile_kernel: --{name} {getattr(args, name)}: must be at least 0")
    try:
        Rules.preset(args.preset) if args.players is None else Rules.preset(args.preset, players=args.players)
        if args.what != "solver":
            table = Policy.parse(args.policy)
            if args.what == "ladder":
                with_play(table, args.play)
    except LooError as e:
        sys.exit(f"profile_kernel: {e}")


def sample(args: argparse.Namespace, data: Path) -> None:
    """Run the child, and ``perf record`` it from the moment it has compiled."""
    env = dict(os.environ, PYTHONPATH=str(OUT / "src"), NUMBA_DEBUGINFO="1", NUMBA_CACHE_DIR=str(OUT / "cache"))
    shutil.rmtree(OUT / "cache", ignore_errors=True)  # compiled afresh: a library loaded from the cache has no object
    (OUT / "go").unlink(missing_ok=True)
    child_run = subprocess.Popen([sys.executable, __file__, *sys.argv[1:], "--child"], env=env, stdout=subprocess.PIPE,
                                 text=True)  # fmt: skip
    assert child_run.stdout is not None
    if child_run.stdout.readline().strip() != "ready":
        sys.exit(f"profile_kernel: the profiled run failed (exit {child_run.wait()}); its output is above")
    perf = subprocess.Popen(["perf", "record", "-q", "-e", "cpu-clock", "-o", str(data), "-p", str(child_run.pid)])
    time.sleep(1.0)
    (OUT / "go").touch()
    code = child_run.wait()
    perf.wait()
    (OUT / "go").unlink(missing_ok=True)
    if code != 0 or perf.returncode != 0:
        sys.exit(f"profile_kernel: the profiled run failed (exit {code}, perf {perf.returncode}); its output is above")


def main() -> None:
    examples = "examples:\n" + "\n".join(line.strip() for line in __doc__.split("\n\n")[1].splitlines())
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=examples,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("what", choices=("solver", "simulate", "ladder"),
                        help="first-lead solves, simulate's deals, or a ladder's (one entrant)")  # fmt: skip
    parser.add_argument("--preset", default="five-card", help="a rules preset (default five-card)")
    parser.add_argument("--players", type=int, default=None, help="players (default: the preset's)")
    parser.add_argument("--policy", default="basic", help="simulate's policy, the ladder's table (default basic)")
    parser.add_argument("--play", default="pimc:32", help="the ladder entrant's card play (default pimc:32)")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long to sample the work (default 10)")
    parser.add_argument("--top", type=int, default=40, help="rows of each table (default 40)")
    parser.add_argument("--instructions", type=int, default=0, help="also list the N most sampled instructions")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args)
    for tool in ("perf", "objdump"):
        if shutil.which(tool) is None:
            sys.exit(f"profile_kernel: needs {tool} on PATH (perf: linux-tools; objdump: binutils)")
    check(args)
    OUT.mkdir(parents=True, exist_ok=True)
    modules = spread_copy(ROOT / "loo_sim", OUT / "src" / "loo_sim")
    data = OUT / "perf.data"
    print(f"compiling a copy of loo_sim with line tables (about a minute), then sampling {args.what} for "
          f"{args.seconds:g} s ...", file=sys.stderr)  # fmt: skip
    sample(args, data)
    ips = subprocess.run(["perf", "script", "-i", str(data), "-F", "ip"], capture_output=True, text=True,
                         check=True).stdout.split()  # fmt: skip
    dump = json.loads((OUT / "libraries.json").read_text())
    hits = sample_lines(dump, [int(ip, 16) for ip in ips])
    text = report(attribute(hits, modules, ROOT / "loo_sim"), args.top)
    if args.instructions > 0:
        text += "\nby instruction (module:line  instruction):\n"
        text += "\n".join(hot_instructions(dump, hits, modules, args.instructions)) + "\n"
    name = OUT / f"{args.what}-{args.preset}.txt"
    name.write_text(text)
    print(text + f"\n(written to {name.relative_to(ROOT)})")


if __name__ == "__main__":
    main()
