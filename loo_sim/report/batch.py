"""Batch reports: one TOML file (``report.config``), many experiments (simulate, miss,
pots, variants).

The config is validated in full before anything runs. Each experiment writes into
``OUT/NAME/`` (atomic writes), and ``OUT/manifest.json`` records, after each one, its
status and a hash of its resolved config; ``--resume`` skips the experiments whose hash
is unchanged and whose files are all there, and ``--only NAME`` reruns NAME and keeps
the other experiments' entries. ``index.md`` and a self-contained ``index.html`` (plots
embedded) are rebuilt from what is on disk at the end.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from loo_sim.errors import LooError
from loo_sim.report.config import Config
from loo_sim.report.outputs import atomic_write_text, write_json
from loo_sim.report.runners import ProgressFactory, run_study, write_study


# ---- running -------------------------------------------------------------------------------
def _manifest_path(out: Path) -> Path:
    return out / "manifest.json"


def read_manifest(out: Path) -> dict[str, Any]:
    try:
        return json.loads(_manifest_path(out).read_text())
    except (OSError, ValueError):
        return {"experiments": {}}


def run_report(config: Config, out: Path, resume: bool = False, only: Sequence[str] | None = None,
               echo: Callable[[str], None] = print, progress: ProgressFactory | None = None,
               backend=None) -> dict[str, Any]:  # fmt: skip
    """Run the experiments (all, or ``only`` these names); returns the manifest. ``progress``
    makes each long loop's progress callback; ``backend``: where the kernel runs."""
    from loo_sim.version import __version__

    names = [e.name for e in config.experiments]
    for name in only or ():
        if name not in names:
            raise LooError(f"{name!r}: no such experiment; allowed {', '.join(names)}", key="only")
    # --only redoes some experiments and keeps the others' entries (what is on disk stays theirs)
    manifest = read_manifest(out) if resume or only else {"experiments": {}}
    manifest.update(config=str(config.path), title=config.title, loo_sim_version=__version__)
    chosen = [e for e in config.experiments if not only or e.name in only]
    for i, exp in enumerate(chosen, start=1):
        digest = exp.study.digest()
        entry = manifest["experiments"].get(exp.name, {})
        files_there = all((out / exp.name / f).exists() for f in entry.get("files", []))
        if resume and entry.get("status") == "done" and entry.get("digest") == digest and files_there:
            echo(f"[{i}/{len(chosen)}] {exp.name}: unchanged since the last run, skipped")
            continue
        echo(f"[{i}/{len(chosen)}] {exp.name} ({exp.study.kind}) ...")
        start = time.perf_counter()
        target = out / exp.name
        command = f"loo-sim report {config.path} --only {exp.name} --out {out}"
        try:
            output = run_study(exp.study, str(target), progress=progress, backend=backend, checked=True)
            output.info["report_command"] = command
            files = write_study(target, output, folder=True)  # complete on disk or absent
            entry = dict(status="partial" if output.partial else "done", digest=digest, files=files,
                         seconds=round(time.perf_counter() - start, 1), warnings=output.warnings)  # fmt: skip
            for warning in output.warnings:
                echo(f"    warning: {warning}")
        except KeyboardInterrupt:
            manifest["experiments"][exp.name] = dict(status="interrupted", digest=digest)
            write_json(_manifest_path(out), manifest)
            raise
        except Exception as e:  # one failing experiment must not lose the others
            from loo_sim.atomic import describe_write_error

            if isinstance(e, OSError) and describe_write_error(e) is not None:
                raise  # but a full disk or an unwritable --out stops the report: the CLI says it in one line
            entry = dict(status="failed", digest=digest, error=f"{type(e).__name__}: {e}")
            echo(f"    FAILED: {entry['error']}")
        manifest["experiments"][exp.name] = entry
        write_json(_manifest_path(out), manifest)  # after each experiment: a kill loses at most the current one
    return manifest


# ---- the index -----------------------------------------------------------------------------
def build_index(config: Config, out: Path) -> tuple[str, str]:
    """index.md and index.html from the config and what is on disk."""
    from loo_sim.report.html import render_html, render_markdown

    manifest = read_manifest(out)
    md = render_markdown(config, out, manifest)
    html = render_html(config, out, manifest)
    atomic_write_text(out / "index.md", md)
    atomic_write_text(out / "index.html", html)
    return md, html
