"""Batch reports: one TOML file (``report.config``), many experiments (simulate, miss,
pots, variants).

The config is validated in full before anything runs. Each experiment writes into
``OUT/NAME/`` (atomic writes), and ``OUT/manifest.json`` records, after each one, its
status, a hash of its resolved config and the sha256 of each file it wrote; ``--resume``
skips the experiments whose hash is unchanged and whose files are all there with those
bytes (anything else is redone), and ``--only NAME`` reruns NAME and keeps
the other experiments' entries. ``index.md`` and a self-contained ``index.html`` (plots
embedded) are rebuilt from what is on disk at the end. A report holds OUT's lock while it
runs (``report.lock``), and cleans the temp files a killed run left at its start.
"""

from __future__ import annotations

import hashlib
import json
import shlex
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from loo_sim.base.errors import Interrupted, LooError
from loo_sim.base.hooks import caused_by_ctrl_c
from loo_sim.report.command import shown_path
from loo_sim.report.config import Config
from loo_sim.report.outputs import atomic_write_text, write_json
from loo_sim.report.running import ProgressFactory, run_study, write_study


# ---- running -------------------------------------------------------------------------------
def _manifest_path(out: Path) -> Path:
    return out / "manifest.json"


def read_manifest(out: Path) -> dict[str, Any]:
    """OUT/manifest.json (none there: an empty one); a file that is not a loo-sim manifest
    is refused, never taken for an empty one."""
    path = _manifest_path(out)
    try:
        text = path.read_text()
    except FileNotFoundError:
        return {"experiments": {}}
    except OSError as e:
        raise LooError(f"{path} cannot be read ({e.strerror or e}); move it away or use a new --out") from None
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or not isinstance(data.get("experiments"), dict):
            raise ValueError("no experiments table")
        if not all(isinstance(e, dict) for e in data["experiments"].values()):
            raise ValueError("an experiment entry is not a table")
    except ValueError as e:
        reason = str(e).split(":")[0] if isinstance(e, json.JSONDecodeError) else str(e)
        raise LooError(f"{path} is not a loo-sim manifest ({reason}); move it away or use a new --out") from None
    return data


def file_digest(path: Path) -> str:
    """The sha256 of a file's bytes."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _files_match(folder: Path, sha256: Any) -> bool:
    """Every file the manifest vouches for is there with the bytes it recorded."""
    if not isinstance(sha256, dict) or not sha256:
        return False
    try:
        return all(file_digest(folder / name) == digest for name, digest in sha256.items())
    except OSError:
        return False


def clean_stale_temps(out: Path) -> list[Path]:
    """Remove what a write killed midway left in OUT and its experiment folders: hidden temp
    files (``.NAME.XXXX.tmp``) and the staging and old folders of an experiment being
    swapped into place (``.NAME.partial-XXXX/``, ``.NAME.old-XXXX/``; ``loo_sim.base.atomic``).
    The caller holds OUT's lock, so no write of ours is in flight."""
    import shutil

    removed: list[Path] = []
    if not out.is_dir():
        return removed
    for folder in [out, *(p for p in out.iterdir() if p.is_dir() and not p.name.startswith("."))]:
        for tmp in folder.glob(".*.tmp"):
            if tmp.is_file():
                tmp.unlink(missing_ok=True)
                removed.append(tmp)
    for staged in [*out.glob(".*.partial-*"), *out.glob(".*.old-*")]:
        if staged.is_dir():
            shutil.rmtree(staged, ignore_errors=True)
            removed.append(staged)
    return removed


def run_report(config: Config, out: Path, resume: bool = False, only: Sequence[str] | None = None,
               echo: Callable[[str], None] = print, progress: ProgressFactory | None = None,
               backend=None, alert: Callable[[str], None] | None = None) -> dict[str, Any]:  # fmt: skip
    """Run the experiments (all, or ``only`` these names); returns the manifest. ``echo``
    says what runs, ``alert`` (default ``echo``; the CLI's stderr) the warnings and failures;
    ``progress`` makes each long loop's progress callback; ``backend``: where the kernel runs. Ctrl-C
    writes what the running experiment finished (PARTIAL), records it in the manifest and
    raises :class:`Interrupted`; the experiments after it do not run."""
    from loo_sim.base.version import __version__

    alert = alert or echo
    names = [e.name for e in config.experiments]
    for name in only or ():
        if name not in names:
            raise LooError(f"{name!r}: no such experiment; allowed {', '.join(names)}", key="only")
    # --only redoes some experiments and keeps the others' entries (what is on disk stays theirs)
    manifest = read_manifest(out) if resume or only else {"experiments": {}}
    # an experiment taken out of the config is no longer part of the report: its entry goes
    manifest["experiments"] = {k: v for k, v in manifest["experiments"].items() if k in names}
    manifest.update(config=shown_path(config.path, out), title=config.title, loo_sim_version=__version__, partial=False)
    clean_stale_temps(out)
    chosen = [e for e in config.experiments if not only or e.name in only]
    for i, exp in enumerate(chosen, start=1):
        digest = exp.study.digest()
        entry = manifest["experiments"].get(exp.name, {})
        target = out / exp.name
        if (resume and entry.get("status") == "done" and entry.get("digest") == digest
                and _files_match(target, entry.get("sha256"))):  # fmt: skip
            echo(f"[{i}/{len(chosen)}] {exp.name}: unchanged since the last run, skipped")
            continue
        echo(f"[{i}/{len(chosen)}] {exp.name} ({exp.study.kind}) ...")
        start = time.perf_counter()
        command = shlex.join(["loo-sim", "report", shown_path(config.path, out), "--only", exp.name, "--out",
                              shown_path(out, out)])
        interrupted = None
        files = None
        try:
            output = run_study(exp.study, str(target), progress=progress, backend=backend, checked=True)
            output.info["report_command"] = command
            if output.partial and not output.tables:  # nothing of it finished
                raise KeyboardInterrupt
            files = write_study(target, output, folder=True)  # complete on disk or absent
            entry = dict(status="partial" if output.partial else "done", partial=output.partial, digest=digest,
                         files=files, sha256={f: file_digest(target / f) for f in files},
                         seconds=round(time.perf_counter() - start, 1), warnings=output.warnings)  # fmt: skip
            for warning in output.warnings:
                alert(f"warning: {exp.name}: {warning}")
            if output.partial:
                interrupted = output.interrupted_line(target)
        except Exception as e:  # one failing experiment must not lose the others
            from loo_sim.base.atomic import describe_write_error

            if isinstance(e, OSError) and describe_write_error(e) is not None:
                raise  # but a full disk or an unwritable --out stops the report: the CLI says it in one line
            if caused_by_ctrl_c(e):  # C code (matplotlib) turned the KeyboardInterrupt into its own error
                entry, interrupted = _stopped(exp.name, digest, target, files, out)
            else:
                entry = dict(status="failed", digest=digest, error=f"{type(e).__name__}: {e}")
                alert(f"error: {exp.name} failed: {entry['error']}")
        except KeyboardInterrupt:
            entry, interrupted = _stopped(exp.name, digest, target, files, out)
        manifest["experiments"][exp.name] = entry
        if interrupted is not None:
            manifest["partial"] = True
        write_json(_manifest_path(out), manifest)  # after each experiment: a kill loses at most the current one
        if interrupted is not None:
            raise Interrupted(interrupted)
    write_json(_manifest_path(out), manifest)  # also when every experiment was skipped (entries dropped above)
    return manifest


def _stopped(name: str, digest: str, target: Path, files: list[str] | None, out: Path) -> tuple[dict, str]:
    """The manifest entry and the one line of an experiment that Ctrl-C stopped: nothing of
    it on disk, or (Ctrl-C once its files were written) its whole run."""
    if files is None:
        entry = dict(status="interrupted", partial=True, digest=digest)
        return entry, f"interrupted: nothing written for {name}; finished experiments are in {out}"
    partial = bool(json.loads((target / "run.json").read_text()).get("partial")) if "run.json" in files else False
    entry = dict(status="partial" if partial else "done", partial=partial, digest=digest, files=files,
                 sha256={f: file_digest(target / f) for f in files})  # fmt: skip
    return entry, f"interrupted: stopped after writing {name}; finished experiments are in {out}"


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
