"""Start-up of the command line without the kernel (issue #29: ``--help``, ``COMMAND --help``,
``rules`` and usage errors in at most 0.3 s of CPU, numba not imported).

Measured in fresh processes: the CPU seconds (user + system, from the children's rusage)
of each command, the best of ``repeat`` runs, and the import of ``loo_sim.cli`` as
``python -X importtime`` reports it (microseconds, cumulative), with the heavy packages it
pulls in. Run on its own: ``.venv/bin/python scripts/bench_startup.py``; ``bench.py``
includes it."""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys

TARGET_CPU_S = 0.3
HEAVY = ("numba", "llvmlite", "numpy", "pandas", "matplotlib", "rich")
COMMANDS = {
    "loo-sim --help": ["--help"],
    "loo-sim simulate --help": ["simulate", "--help"],
    "loo-sim solve --help": ["solve", "--help"],
    "loo-sim rules": ["rules"],
    "loo-sim rules five-card": ["rules", "five-card"],
    "usage error (simulate --deals x)": ["simulate", "--deals", "x"],
    "usage error (miss --policy nope)": ["miss", "--policy", "nope"],
    "no command": [],
}


def cpu_seconds(argv: list[str], repeat: int = 5) -> float:
    """The least CPU time (user + system) of ``repeat`` fresh processes running ``argv``."""
    best = float("inf")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return best


def import_time_us(module: str = "loo_sim.cli") -> tuple[int, list[str]]:
    """Cumulative import time of ``module`` (``-X importtime``, microseconds) and which heavy
    packages the import loaded."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    code = f"import sys, {module}; print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", code], capture_output=True, text=True,
                          env=env, check=True)  # fmt: skip
    total = 0
    for line in done.stderr.splitlines():
        match = re.match(r"import time:\s+\d+ \|\s+(\d+) \| (\s*)(\S+)$", line)
        if match and match.group(3) == module and not match.group(2):
            total = int(match.group(1))
    return total, [m for m in done.stdout.strip().split(",") if m]


def startup_report(repeat: int = 5) -> dict:
    cli = [sys.executable, "-m", "loo_sim"]
    figures = {name: cpu_seconds(cli + argv, repeat) for name, argv in COMMANDS.items()}
    bare = cpu_seconds([sys.executable, "-c", "pass"], repeat)
    micros, heavy = import_time_us()
    print(f"start-up without the kernel, CPU seconds (best of {repeat}; target <= {TARGET_CPU_S} s):")
    for name, seconds in figures.items():
        print(f"  {name:36s} {seconds:5.2f} s  {'ok' if seconds <= TARGET_CPU_S else 'OVER'}")
    print(f"  (a bare `python -c pass`: {bare:.2f} s)")
    print(f"  import loo_sim.cli: {micros / 1e3:.0f} ms (-X importtime); heavy packages loaded: {heavy or 'none'}")
    return {"cpu_s": figures, "python_bare_cpu_s": bare, "import_loo_sim_cli_ms": micros / 1e3,
            "heavy_packages_imported": heavy, "target_cpu_s": TARGET_CPU_S}  # fmt: skip


if __name__ == "__main__":
    report = startup_report()
    if "--json" in sys.argv:
        print(json.dumps(report, indent=2))
