"""Running a study and writing what it made: :func:`run_study` asks the study's kind
(``report.kinds``) to run it and adds what every kind records (run.json's command, version
and digest; the PARTIAL stamp after Ctrl-C); :func:`write_study` writes every file, all or
nothing. Below them, the helpers the kinds' runners share.

The CLI commands (``loo-sim simulate``, ``miss``, ...) and batch reports both run their
studies here, so they write the same files with the same content. Numba's thread count is
the caller's; ``progress`` makes the ``progress(done, total)`` callback of each long loop
(or none), so this layer draws nothing on the terminal.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from loo_sim.report.command import run_info

if TYPE_CHECKING:
    import pandas as pd

    from loo_sim.game.rules import Rules

ProgressFn = Callable[[int, int], None]
ProgressFactory = Callable[[str], ProgressFn | None]  # a label ("chart deals", "sessions") -> a callback, or None
RUN_FILE = "run.json"  # every study writes it; it lists the files of its run (``files``)


@dataclass
class StudyOutput:
    study: Any
    tables: dict[str, pd.DataFrame]  # name -> long-form table (name.csv)
    figures: dict[str, Any]  # name -> matplotlib Figure (name.png)
    summary: str  # summary.md
    info: dict[str, Any]  # run.json
    warnings: list[str] = field(default_factory=list)
    partial: bool = False
    text: str = ""  # what a command prints (default: the summary)
    files: dict[str, bytes] = field(default_factory=dict)  # name -> contents written as they are (solve's strategy.csv)
    done: int = 0  # items (deals, sessions) of the stage Ctrl-C stopped that finished (when partial)
    total: int = 0  # items that stage asked for
    unit: str = "deals"  # what those items are ("chart deals", "sessions")

    def interrupted_line(self, where: Path | str | None) -> str:
        """The one line a command prints after Ctrl-C (exit 130)."""
        if not self.tables:
            return "interrupted: nothing written"
        place = f"partial results in {where}" if where is not None else "PARTIAL results printed above (no --out)"
        return f"interrupted: {self.done:,} of {self.total:,} {self.unit} done; {place}"

    def file_names(self) -> list[str]:
        """The names of the files :func:`write_study` writes, in its order."""
        return [*(f"{n}.csv" for n in self.tables), *self.files, *(f"{n}.png" for n in self.figures), "summary.md",
                RUN_FILE]  # fmt: skip


def run_study(study: Any, out: str | None = None, progress: ProgressFactory | None = None, backend: Any = None,
              checked: bool = False) -> StudyOutput:  # fmt: skip
    """Run one study (validated first unless the caller has: ``checked``); ``out`` is the
    directory named in the recorded command, ``backend`` where the kernel runs (this
    process by default)."""
    if not checked:
        study.check()
    output = study.run(out, progress, backend)
    output.info = run_info(study, out, output.partial, output.info)
    output.info["files"] = output.file_names()
    if output.partial:  # Ctrl-C: what finished, stamped, and nothing of the stages after it
        output.info["interrupted"] = {"done": output.done, "total": output.total, "unit": output.unit}
        stamp = (f"**PARTIAL**: interrupted after {output.done:,} of {output.total:,} {output.unit}; "
                 "these results cover only what finished (`--resume` in a report redoes it).\n\n")  # fmt: skip
        output.summary = stamp + output.summary
    output.text = output.text or output.summary
    return output


def write_study(out_dir: Path, output: StudyOutput, folder: bool = False) -> list[str]:
    """Write every table, figure, summary.md and run.json; the file names. All are
    rendered first, then written all-or-nothing: into ``out_dir`` under temp names renamed
    at the end, or with ``folder`` as the whole folder ``out_dir`` (a staging folder
    renamed into place, replacing an older one: a report's experiment is complete on disk
    or absent). A full disk halfway leaves what was there before (``loo_sim.base.atomic``).

    A folder that holds another run (its ``run.json``) keeps none of that run's files: those
    this run does not write again are removed once the new ones are in place, so a folder
    never mixes two runs. Files no run of loo-sim wrote are left alone."""
    from loo_sim.base.atomic import replace_folder
    from loo_sim.report.outputs import csv_bytes, json_bytes, png_bytes

    files = [(f"{name}.csv", csv_bytes(df)) for name, df in output.tables.items()]
    files += list(output.files.items())
    files += [(f"{name}.png", png_bytes(fig)) for name, fig in output.figures.items()]
    files += [("summary.md", output.summary.encode("utf-8")), (RUN_FILE, json_bytes(output.info))]
    if folder:
        replace_folder(out_dir, files)
        return [name for name, _ in files]
    return write_run_files(out_dir, files)


def write_run_files(out_dir: Path, files: list[tuple[str, bytes]], info: dict[str, Any] | None = None) -> list[str]:
    """Write ``files`` into ``out_dir`` all or nothing (with a run.json of ``info`` and the
    file list when ``info`` is given; a study's is among ``files``), then remove the files
    of the run that was there before that this one did not write again."""
    from loo_sim.base.atomic import ctrl_c_held, write_files
    from loo_sim.report.outputs import json_bytes

    if info is not None:
        files = [*files, (RUN_FILE, json_bytes({**info, "files": [n for n, _ in files] + [RUN_FILE]}))]
    stale = earlier_run_files(out_dir)
    with ctrl_c_held():  # Ctrl-C after the new files are in: the old ones go too (a folder never mixes runs)
        write_files(out_dir, files)
        for name in stale - {n for n, _ in files}:
            (out_dir / name).unlink(missing_ok=True)
    return [name for name, _ in files]


def earlier_run_files(out_dir: Path) -> set[str]:
    """The files the run already in ``out_dir`` wrote, as its run.json lists them (none for a
    run.json that does not: nothing is removed that no run of loo-sim said it wrote)."""
    try:
        info = json.loads((out_dir / RUN_FILE).read_text())
    except (OSError, ValueError):
        return set()
    names = info.get("files") if isinstance(info, dict) else None
    if not isinstance(names, list):
        return set()
    return {n for n in names if isinstance(n, str) and n and "/" not in n and "\\" not in n and n not in (".", "..")}


# ---- what the kinds' runners share -----------------------------------------------------------
def threads() -> int:
    """Numba's worker threads in this process."""
    from numba import get_num_threads

    return get_num_threads()


def progress_of(factory: ProgressFactory | None, label: str = "deals") -> ProgressFn | None:
    return factory(label) if factory else None


def where_ran(backend: Any, count: int) -> str:
    """Where a run's kernel calls ran: ``2 thread(s)`` here, or a Dask cluster's workers."""
    from loo_sim.run.backend import LocalBackend

    return (backend or LocalBackend()).describe(count)


def figure(size: tuple[float, float]) -> Any:
    """A new matplotlib Figure of ``size`` inches with the constrained layout (the object API:
    no backend, no pyplot state); the plots of ``loo_sim.plots`` draw on its Axes."""
    from matplotlib.figure import Figure

    return Figure(figsize=size, layout="constrained")


def chip_warnings(rules: Rules, carried: list[float]) -> list[str]:
    """A warning when a deal's pot (carried plus the antes) or a penalty may pass 2**53 chips,
    where float64 chips are no longer exact (R3)."""
    from loo_sim.base.checks import inexact_chips

    antes = rules.ante * (rules.players if rules.ante_payer == "each" else 1)
    if not inexact_chips(max(carried, default=0.0) + antes, rules.penalty_amount):
        return []
    return ["chip amounts pass 2**53 (carried plus antes, or the penalty); float64 chips are no longer exact, "
            "results are approximate (R3)"]  # fmt: skip


def strength_table(rules: Rules, policies: Any) -> dict | None:
    """The key, deals, seed and source of the strength table a run of ``policies`` reads."""
    from loo_sim.run.strength import resolve_strength, table_info

    return table_info(resolve_strength(rules, policies))


def session_study_output(study: Any, tables: dict, figures: dict, lines: list[str], info: dict, res: Any,
                         scope: str = "") -> StudyOutput:  # fmt: skip
    """The output of a study of sessions (tournament, risk): a session whose amounts passed
    2**53 (no longer exact, R3) is said in the summary, in run.json and as a warning, never
    silently."""
    warnings = []
    if res.inexact:
        warnings.append(f"{res.inexact:,} of {res.sessions:,} sessions passed 2**53 chips{scope}: amounts past that "
                        "are not exact (R3), so these figures are not either")  # fmt: skip
        lines[2:2] = [f"**Not exact**: {warnings[0]}.", ""]
    info["inexact_sessions"] = res.inexact
    return StudyOutput(study, tables, figures, "\n".join(lines) + "\n", info, warnings, partial=res.partial,
                       done=res.sessions, total=study.sessions, unit="sessions")  # fmt: skip
