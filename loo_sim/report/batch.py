"""Batch reports: one TOML file, many experiments (simulate, miss, pots, variants).

A config is validated in full before anything runs (every problem reported at once,
each with its TOML path). Each experiment writes into ``OUT/NAME/`` (atomic writes), and
``OUT/manifest.json`` records, after each one, its status and a hash of its resolved
config; ``--resume`` skips the experiments whose hash is unchanged and whose files are
all there. ``index.md`` and a self-contained ``index.html`` (plots embedded) are rebuilt
from what is on disk at the end.
"""

from __future__ import annotations

import json
import time
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from loo_sim.errors import LooError
from loo_sim.report.outputs import atomic_write_text, write_json
from loo_sim.report.studies import KINDS, Study, run_study, write_study

STUDY_FIELDS = {f.name for f in fields(Study)} - {"kind"}
EXPERIMENT_KEYS = STUDY_FIELDS | {"name", "kind", "title"}


class ConfigError(LooError):
    """Every problem of a config, one a line (the CLI prints them all)."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


@dataclass
class Experiment:
    name: str
    title: str
    study: Study


@dataclass
class Config:
    path: Path
    title: str
    description: str
    experiments: list[Experiment]
    backend: str = "local"  # where the kernel runs: local or dask (the numbers are the same)
    scheduler: str | None = None  # dask: an existing scheduler's address


def _study_from(kind: str, values: dict[str, Any]) -> Study:
    values = dict(values)
    players = values.pop("players", None)
    if isinstance(players, list):
        values["players"] = players
    elif players is not None:
        if kind == "miss":
            values["players"] = [players]
        else:
            values.setdefault("rules", {})
            values["rules"] = {"players": players, **values["rules"]}
    if "carried" in values and not isinstance(values["carried"], list):
        values["carried"] = [values["carried"]]
    if "seat_policy" in values and isinstance(values["seat_policy"], dict):
        values["seat_policy"] = {int(k) if str(k).lstrip("-").isdigit() else k: v
                                 for k, v in values["seat_policy"].items()}  # fmt: skip
    return Study(kind=kind, **values)


def load_config(path: str | Path) -> Config:
    """Parse and validate a config; raise ConfigError listing every problem."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LooError(f"config {str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as e:
        raise LooError(f"config {str(path)!r} cannot be read ({e})") from None
    except tomllib.TOMLDecodeError as e:
        raise LooError(f"config {str(path)!r} is not valid TOML: {e}") from None
    problems: list[str] = []
    for key in set(data) - {"title", "description", "defaults", "experiments", "backend", "scheduler"}:
        problems.append(f"{key}: unknown key; allowed title, description, backend, scheduler, defaults, experiments")
    if data.get("backend", "local") not in ("local", "dask"):
        problems.append(f"backend: {data.get('backend')!r} is not one of local, dask")
    if "scheduler" in data and not isinstance(data["scheduler"], str):
        problems.append("scheduler: expected an address string, e.g. 'tcp://10.0.0.5:8786'")
    defaults = data.get("defaults", {})
    if not isinstance(defaults, dict):
        problems.append("defaults: expected a table")
        defaults = {}
    for key in set(defaults) - STUDY_FIELDS:
        problems.append(f"defaults.{key}: unknown key; allowed {', '.join(sorted(STUDY_FIELDS))}")
    raw = data.get("experiments", [])
    if not isinstance(raw, list) or not raw:
        problems.append("experiments: expected one or more [[experiments]] tables")
        raw = []
    experiments = []
    seen: set[str] = set()
    for i, exp in enumerate(raw):
        where = f"experiments[{i}]"
        if not isinstance(exp, dict):
            problems.append(f"{where}: expected a table")
            continue
        name, kind = exp.get("name"), exp.get("kind")
        if not isinstance(name, str) or not name or not name.replace("-", "").replace("_", "").isalnum():
            problems.append(f"{where}.name: {name!r} is not allowed; allowed letters, digits, - and _")
        elif name in seen:
            problems.append(f"{where}.name: {name!r} is used twice; names must differ")
        else:
            seen.add(name)
        if kind not in KINDS:
            problems.append(f"{where}.kind: {kind!r} is not one of {', '.join(KINDS)}")
            continue
        for key in set(exp) - EXPERIMENT_KEYS:
            problems.append(f"{where}.{key}: unknown key; allowed {', '.join(sorted(EXPERIMENT_KEYS))}")
        values = {k: v for k, v in defaults.items() if k in STUDY_FIELDS}
        values["rules"] = dict(defaults.get("rules", {}))
        for k, v in exp.items():
            if k in STUDY_FIELDS:
                values[k] = {**values["rules"], **v} if k == "rules" and isinstance(v, dict) else v
        try:
            study = _study_from(kind, values)
        except TypeError as e:
            problems.append(f"{where}: {e}")
            continue
        for sub, message in study.problems():
            last = sub.split(".")[-1].split("[")[0]
            if message.startswith(f"{last}: "):
                message = message[len(last) + 2 :]
            problems.append(f"{where}.{sub}: {message}")
        experiments.append(Experiment(str(name), str(exp.get("title", name)), study))
    if problems:
        raise ConfigError(problems)
    return Config(path, str(data.get("title", path.stem)), str(data.get("description", "")), experiments,
                  str(data.get("backend", "local")), data.get("scheduler"))  # fmt: skip


# ---- running -------------------------------------------------------------------------------
def _manifest_path(out: Path) -> Path:
    return out / "manifest.json"


def read_manifest(out: Path) -> dict[str, Any]:
    try:
        return json.loads(_manifest_path(out).read_text())
    except (OSError, ValueError):
        return {"experiments": {}}


def run_report(config: Config, out: Path, resume: bool = False, only: Sequence[str] | None = None,
               echo: Callable[[str], None] = print, progress: bool = True, backend=None) -> dict[str, Any]:  # fmt: skip
    """Run the experiments (all, or ``only`` these names); returns the manifest."""
    from loo_sim.version import __version__

    names = [e.name for e in config.experiments]
    for name in only or ():
        if name not in names:
            raise LooError(f"--only {name!r}: no such experiment; allowed {', '.join(names)}")
    manifest = read_manifest(out) if resume else {"experiments": {}}
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
            target.mkdir(parents=True, exist_ok=True)
            output = run_study(exp.study, str(target), progress=progress, backend=backend)
            output.info["report_command"] = command
            files = write_study(target, output)
            entry = dict(status="partial" if output.partial else "done", digest=digest, files=files,
                         seconds=round(time.perf_counter() - start, 1), warnings=output.warnings)  # fmt: skip
            for warning in output.warnings:
                echo(f"    warning: {warning}")
        except KeyboardInterrupt:
            manifest["experiments"][exp.name] = dict(status="interrupted", digest=digest)
            write_json(_manifest_path(out), manifest)
            raise
        except Exception as e:  # one failing experiment must not lose the others
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
