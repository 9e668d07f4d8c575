"""``loo-sim report``: every experiment of a TOML config, into one report (index.md,
index.html, manifest.json and a folder per experiment)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from loo_sim.base.errors import LooError
from loo_sim.cli.app import check_workers
from loo_sim.cli.backend import check_scheduler, open_backend
from loo_sim.cli.options import SchedulerOpt, ThreadsOpt, WorkersOpt, shared
from loo_sim.cli.progress import TerminalProgress, compile_notice
from loo_sim.cli.study import set_threads


def report_cmd(
    config: Annotated[str, typer.Argument(help="The TOML config of the experiments.")],
    out: Annotated[str, shared("--out", ": the report (index.md, index.html, one folder each).")] = "out/report",
    resume: Annotated[bool, typer.Option("--resume", help="Skip experiments already done with the same config.")] = (
        False
    ),
    only: Annotated[list[str] | None, typer.Option(help="Run only this experiment (repeatable).")] = None,
    threads: ThreadsOpt = None,
    backend: Annotated[
        str | None, shared("--backend", " [default: the config's, else local]", metavar="local|dask")
    ] = None,
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Run every experiment of a TOML config (kinds simulate, miss, pots, variants, solve,
    tournament, risk, cardplay) and write a report a person reads (index.md, index.html) and a
    program loads (CSV, manifest.json).

    Examples: `loo-sim report reports/miss.toml --out out/miss`,
    `loo-sim report my.toml --out out/my --resume`, `loo-sim report my.toml --only limited-vs-unlimited`.
    """
    from loo_sim.report.batch import build_index, run_report
    from loo_sim.report.config import load_config
    from loo_sim.report.lock import report_lock
    from loo_sim.report.outputs import prepare_out_dir

    cfg = load_config(config, out)
    check_workers(backend or cfg.backend, workers)
    where = "--scheduler" if scheduler else f"scheduler (in {config})"
    check_scheduler(backend or cfg.backend, scheduler or cfg.scheduler, where)  # before --out is made
    set_threads(threads)
    out_dir = prepare_out_dir(out)
    runner = open_backend(backend or cfg.backend, scheduler or cfg.scheduler, workers, scheduler_flag=where)
    with report_lock(Path(out_dir)), runner as kernel_backend, TerminalProgress() as progress:
        if not (scheduler or cfg.scheduler):  # the kernel compiles on this machine
            chosen = [e.study for e in cfg.experiments if not only or e.name in only]
            compile_notice(*sorted({driver for s in chosen for driver in s.drivers()}))
        manifest = run_report(cfg, Path(out_dir), resume=resume, only=only, echo=typer.echo, progress=progress,
                              alert=lambda line: typer.echo(line, err=True),
                              backend=kernel_backend)  # fmt: skip
        build_index(cfg, Path(out_dir))
    typer.echo(f"wrote {out_dir / 'index.md'}, {out_dir / 'index.html'} and {out_dir / 'manifest.json'}")
    failed = [name for name, e in manifest["experiments"].items() if e.get("status") == "failed"]
    if failed:
        raise LooError(f"{len(failed)} experiment(s) failed: {', '.join(failed)} (see manifest.json)")
