"""The command line that repeats a run, for ``run.json`` and ``summary.md``: the library
writes down which ``loo-sim`` arguments reproduce a study (the CLI's flags are named
here, and only here, below ``cli/``)."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import Any

from loo_sim.game.policy import Policy
from loo_sim.report.study import (
    CardplayStudy,
    MissStudy,
    PotsStudy,
    RiskStudy,
    SimulateStudy,
    SolveStudy,
    Study,
    TournamentStudy,
    VariantsStudy,
    row_text,
)


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


def overrides(study: Study) -> list[str]:
    """The rule overrides as ``KEY=VALUE`` items (``--set``)."""
    return [f"{k}={_text(v)}" for k, v in study.rules.items()]


def command(study: Study, out: str | None = None) -> str:
    """The CLI command that runs this study ("" for a variants row whose name ``--row`` cannot spell)."""
    args = ["loo-sim", study.kind, "--preset", study.preset]
    args += sum((["--set", item] for item in overrides(study)), [])
    if isinstance(study, SolveStudy):
        args += ["--policy", study.policy] if study.policy else []
    elif isinstance(study, TournamentStudy):
        args += ["--policies", ",".join(study.policies)]
    elif isinstance(study, CardplayStudy):
        args += ["--focal", ",".join(study.focal), "--table", study.table_policy]
        args += ["--whole-table", study.whole_table] if study.whole_table is not None else []
    elif study.policy is not None or study.seat_policy:
        n = (getattr(study, "players", None) or [study.base_rules().players])[0]
        args += policy_args(study.table(n))
    if isinstance(study, SimulateStudy):
        args += ["--deals", str(study.deals), "--seed", str(study.seed), "--carried", f"{study.carried:g}"]
        args += ["--dealer", str(study.dealer)] if study.dealer is not None else []
        args += ["--by-class"] if study.by_class else []
    elif isinstance(study, MissStudy):
        args += sum((["--players", str(n)] for n in study.players), [])
        args += sum((["--carried", c if isinstance(c, str) else f"{c:g}"] for c in study.carried), [])
        for name in study.SESSION_OPTIONS:
            value = getattr(study, name)
            args += [f"--{name.replace('_', '-')}", str(value)] if value is not None else []
        args += ["--deals", str(study.deals), "--seed", str(study.seed), "--focal", str(study.focal)]
        args += ["--chart-seat", str(study.chart_seat)] if study.chart_seat is not None else []
        args += ["--precision", f"{study.precision:g}"] if study.precision is not None else []
        args += ["--chart-scale", f"{study.chart_scale:g}"] if study.chart_scale is not None else []
        args += sum((["--heuristic", h] for h in study.heuristics), [])
    elif isinstance(study, SolveStudy):
        args += sum((["--start", s] for s in study.starts), [])
        args += sum((["--carried", f"{c:g}"] for c in study.carried), [])
        args += ["--iterations", str(study.iterations), "--deals", str(study.deals), "--seed", str(study.seed)]
        args += ["--averaging", study.averaging] if study.averaging != "linear" else []
        args += ["--eval-deals", str(study.eval_deals)] if study.eval_deals is not None else []
        args += sum((["--exploitability-of", h] for h in study.exploitability_of), [])
    elif isinstance(study, RiskStudy):
        args += ["--focal-policy", study.focal_policy, "--focal", str(study.focal)]
        args += ["--sessions", str(study.sessions), "--deals", str(study.deals), "--seed", str(study.seed)]
    elif isinstance(study, TournamentStudy):
        args += ["--sessions", str(study.sessions), "--deals", str(study.deals), "--seed", str(study.seed)]
        args += ["--bankroll", f"{study.bankroll:g}"] if study.bankroll is not None else []
    elif isinstance(study, CardplayStudy):
        args += ["--carried", f"{study.carried:g}", "--deals", str(study.deals), "--seed", str(study.seed)]
    elif isinstance(study, PotsStudy):
        args += sum((["--compare", c] for c in study.compare), [])
        args += ["--sessions", str(study.sessions), "--deals", str(study.deals), "--seed", str(study.seed)]
        args += ["--bankroll", f"{study.bankroll:g}"] if study.bankroll is not None else []
    elif isinstance(study, VariantsStudy):
        rows = [row_text(row, study.preset) for row in study.rows]
        if None in rows:
            return ""
        args += sum((["--row", row] for row in rows), [])
        args += ["--baseline", study.baseline] if study.baseline is not None else []
        if study.in_sessions:
            args += ["--sessions", str(study.sessions), "--deals", str(study.deals)]
            args += ["--burn-in", str(study.burn_in)] if study.burn_in is not None else []
        else:
            args += ["--deals", str(study.deals), "--carried", f"{study.carried:g}"]
        args += ["--seed", str(study.seed)]
    else:
        return ""
    return shlex.join(args + (["--out", out] if out else []))  # a folder with spaces stays one argument


def run_info(study: Study, out: str | None, partial: bool, details: dict[str, Any]) -> dict[str, Any]:
    """Everything needed to repeat a run exactly (``run.json``): the version, the command,
    the resolved study and its digest, then what the kind's runner adds (``details``)."""
    from loo_sim.version import __version__

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
