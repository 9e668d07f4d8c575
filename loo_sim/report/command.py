"""The command line that repeats a run, for ``run.json`` and ``summary.md``: each kind
spells its own ``loo-sim`` arguments (``cli_args`` in ``report/kinds/``; a test checks that
the CLI parses them back into the same study), and this module joins them, with the paths
shown as a page may show them (never absolute)."""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence
from typing import Any

from loo_sim.game.policy import Policy


def describe_policies(table: Sequence[Policy]) -> str:
    names = [str(p) for p in table]
    if len(set(names)) == 1:
        return f"policy {names[0]} at every seat"
    return "policies " + ", ".join(f"{seat}={name}" for seat, name in enumerate(names))


def policy_args(table: Sequence[Policy]) -> list[str]:
    """The shortest --policy / --seat-policy arguments that give this table."""
    names = [str(p) for p in table]
    if len(set(names)) == 1:
        return ["--policy", names[0]]
    return sum((["--seat-policy", f"{seat}={name}"] for seat, name in enumerate(names)), [])


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def overrides(study: Any) -> list[str]:
    """The rule overrides as ``KEY=VALUE`` items (``--set``)."""
    return [f"{k}={_text(v)}" for k, v in study.rules.items()]


def shown_path(path: str | os.PathLike, base: str | os.PathLike | None = None) -> str:
    """A path as a generated page or command line shows it, never absolute: as given when
    relative (what the user typed, from the folder they ran in); an absolute one relative to
    the working folder when it lies below it, else relative to ``base`` (a report's folder:
    its pages then name the config as ``../study.toml``), else to the working folder."""
    text = os.fspath(path)
    if not os.path.isabs(text):
        return text
    here = os.getcwd()
    try:
        if base is not None and os.path.commonpath([here, text]) != here:
            return os.path.relpath(text, os.path.abspath(base))
        return os.path.relpath(text, here)
    except ValueError:  # another drive (Windows): only the name is portable
        return os.path.basename(text)


def command(study: Any, out: str | None = None) -> str:
    """The CLI command that runs this study ("" when no command line can: a variants row
    whose name ``--row`` cannot spell); each kind spells its own arguments (``cli_args``)."""
    args = study.cli_args()
    if args is None:
        return ""
    return shlex.join(["loo-sim", study.kind, *args] + (["--out", shown_path(out)] if out else []))


def run_info(study: Any, out: str | None, partial: bool, details: dict[str, Any]) -> dict[str, Any]:
    """Everything needed to repeat a run exactly (``run.json``): the version, the command,
    the resolved study and its digest, then what the kind's runner adds (``details``)."""
    from loo_sim.base.version import __version__

    return {
        "loo_sim_version": __version__,
        "kind": study.kind,
        "command": command(study, out),
        "preset": study.preset,
        "seed": study.seed,
        "study": study.to_dict(),
        "digest": study.digest(),
        "partial": partial,
        **details,
    }
