"""Running a study from a command (simulate, miss, pots, variants, ...): validate it, set
the threads, check the output directory, open the backend, run it with progress bars,
write its files. The study runner is the library's (``report.running``), the same as a report's."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from loo_sim.base import checks
from loo_sim.base.errors import Interrupted
from loo_sim.cli.app import warn_profile
from loo_sim.cli.backend import check_scheduler, open_backend
from loo_sim.cli.progress import TerminalProgress, compile_notice

if TYPE_CHECKING:  # the runners import the kernel: loaded when a study runs, not for --help
    from loo_sim.report.kinds import Study
    from loo_sim.report.running import StudyOutput

def set_threads(threads: int | None) -> int:
    """Numba's worker threads for this process (None: all cores); the count."""
    from numba import set_num_threads

    count = checks.threads(threads)
    set_num_threads(count)
    return count


def run_and_write(study: Study, out: str | None, threads: int | None, backend: str, scheduler: str | None,
                  workers: int | None, min_total: int = 0) -> tuple[StudyOutput, Path | None, list[str]]:  # fmt: skip
    """Run ``study`` and write its files into ``out`` (when given): the output, the
    directory and the names written. Warnings go to stderr; progress bars show for loops
    of at least ``min_total``."""
    study.check()  # every problem of the input, before anything heavy is imported
    warn_profile(study.preset, study.base_rules())
    from loo_sim.report.outputs import prepare_out_dir
    from loo_sim.report.running import run_study, write_study

    count = set_threads(threads)
    check_scheduler(backend, scheduler)  # a refused option leaves no --out folder behind
    out_dir = prepare_out_dir(out) if out is not None else None
    if scheduler is None and workers is None and sys.stderr.isatty():  # a cluster's speed is not known here
        from loo_sim.run.estimate import long_run_notice

        notice = long_run_notice(study.deals_estimate(), count, f"this {study.kind} run")
        if notice:
            print(notice, file=sys.stderr)
    with open_backend(backend, scheduler, workers) as runner, TerminalProgress(min_total) as progress:
        if scheduler is None:  # the kernel compiles on this machine (here, or in a LocalCluster's workers)
            compile_notice(*study.drivers())
        output = run_study(study, out, progress=progress, backend=runner, checked=True)
    if output.partial and not output.tables:  # nothing finished: no table of empty cells
        raise Interrupted(output.interrupted_line(out_dir))
    names = write_study(out_dir, output) if out_dir is not None else []
    for warning in output.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if output.partial:  # written, stamped PARTIAL; the command stops here (exit 130)
        if out_dir is None:  # simulate without --out: what finished goes to stdout
            typer.echo(output.text)
        raise Interrupted(output.interrupted_line(out_dir))
    return output, out_dir, names


def print_written(output: StudyOutput, out_dir: Path | None, names: list[str]) -> None:
    """Print a study's summary and what was written (miss, pots, variants, ...)."""
    typer.echo(output.text)
    typer.echo(f"wrote {', '.join(names)} in {out_dir}")
