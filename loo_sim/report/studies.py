"""Studies as data: one experiment (simulate, miss, pots or variants) fully specified by
a :class:`Study`, validated in full (every problem at once, each with its path), run
into a :class:`StudyOutput` (tables, figures, summary), and written atomically.

The CLI commands and batch reports (``report.py``) both go through here, so a report's
experiment and the command it prints give the same numbers.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from loo_sim import checks
from loo_sim.errors import LooError
from loo_sim.game.policy import Policy, parse_seat_policies
from loo_sim.game.rules import OPTION_NAMES, PRESETS, Rules

KINDS = ("simulate", "miss", "pots", "variants")
HEURISTICS = [
    "basic",
    "always",
    "cautious",
    "nothing-takes-miss",
    "threshold:play=0.7,miss=0.3",
    "threshold:play=0.5,miss=0.3",
    "threshold:play=0.3,miss=0.15",
    "ev",
]


@dataclass
class Study:
    """One experiment. Fields a kind does not use are ignored by it."""

    kind: str
    preset: str = "three-card"
    rules: dict[str, Any] = field(default_factory=dict)  # option overrides, as RULES.md spells them
    policy: str | None = None  # every seat
    seat_policy: dict[int, str] = field(default_factory=dict)  # seat -> policy
    deals: int = 100_000
    seed: int = 0
    carried: list[float] = field(default_factory=lambda: [0.0])  # simulate/variants: the first; miss: the sweep
    dealer: int | None = None  # simulate: fixed dealer (default rotating)
    by_class: bool = False  # simulate
    players: list[int] = field(default_factory=list)  # miss: the sweep (default: the preset's)
    precision: float | None = None  # miss
    focal: int = 0  # miss: the seat whose heuristics are compared
    chart_seat: int | None = None  # miss: None = every seat in turn
    compare: list[str] = field(default_factory=list)  # pots: KEY=V1,V2 items
    sessions: int = 2000  # pots
    bankroll: float | None = None  # pots
    rows: list[dict[str, Any]] = field(default_factory=list)  # variants: {name, preset, rules}
    baseline: str | None = None  # variants: the row the others are compared with

    def to_dict(self) -> dict[str, Any]:
        return json.loads(json.dumps(dataclasses.asdict(self), default=str))

    def digest(self) -> str:
        """A hash of the resolved study and the loo_sim version (reports resume on it)."""
        from loo_sim.version import __version__

        text = json.dumps({"study": self.to_dict(), "version": __version__}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def base_rules(self) -> Rules:
        return Rules.preset(self.preset, **self.rules)

    def table(self, players: int) -> list[Policy]:
        items = [f"{seat}={p}" for seat, p in sorted(self.seat_policy.items())]
        return parse_seat_policies(self.policy, items, players)

    def problems(self) -> list[tuple[str, str]]:
        """Every problem with this study, as (path below the study, message)."""
        out: list[tuple[str, str]] = []

        def attempt(path: str, fn) -> Any:
            try:
                return fn()
            except LooError as e:
                out.append((path, str(e)))
                return None

        if self.kind not in KINDS:
            return [("kind", f"{self.kind!r} is not one of {', '.join(KINDS)}")]
        if self.preset not in PRESETS:
            out.append(("preset", f"{self.preset!r} is not one of {', '.join(PRESETS)}"))
        before = len(out)
        valid = {}
        for key, value in self.rules.items():
            if key not in OPTION_NAMES:
                out.append((f"rules.{key}", f"unknown option; allowed {', '.join(OPTION_NAMES)}"))
            elif attempt(f"rules.{key}", lambda k=key, v=value: Rules.coerce_option(k, v)) is not None or value is None:
                valid[key] = value
        if self.preset in PRESETS:  # the combinations (R11), with the options that are valid one by one
            attempt("rules", lambda: Rules.preset(self.preset, **valid))
        rules = self.base_rules() if len(out) == before else None
        if self.kind != "pots":
            attempt("deals", lambda: checks.whole_number("deals", self.deals, 1))
        attempt("seed", lambda: checks.seed(self.seed))
        for i, c in enumerate(self.carried):
            attempt(f"carried[{i}]", lambda c=c: checks.chips("carried", c))
        for i, n in enumerate(self.players):
            attempt(f"players[{i}]", lambda n=n: checks.whole_number("players", n, 3, 8))
        if rules is not None:
            sizes = [int(n) for n in self.players if str(n).isdigit() and 3 <= int(n) <= 8] or [rules.players]
            for n in sizes:
                attempt("policy", lambda n=n: self.table(n))
            if self.dealer is not None:
                attempt("dealer", lambda: checks.seat("dealer", self.dealer, rules.players))
            attempt("focal", lambda: checks.seat("focal", self.focal, sizes[0]))
            if self.chart_seat is not None:
                attempt("chart_seat", lambda: checks.seat("chart_seat", self.chart_seat, sizes[0]))
        if self.precision is not None and not (isinstance(self.precision, (int, float)) and self.precision > 0):
            out.append(("precision", f"{self.precision!r} is not allowed; allowed a number of chips > 0"))
        if self.kind == "pots":
            from loo_sim.analysis.pots import parse_compare

            attempt("compare", lambda: parse_compare(self.compare))
            attempt("sessions", lambda: checks.whole_number("sessions", self.sessions, 1))
            attempt("deals", lambda: checks.whole_number("deals", self.deals, 1, 100_000))
            if self.bankroll is not None:
                attempt("bankroll", lambda: checks.chips("bankroll", self.bankroll))
            if rules is not None and len(out) == before:
                attempt("compare", lambda: self.arms())
        if self.kind == "variants":
            if not self.rows:
                out.append(
                    ("rows", "a variants study needs rows, e.g. rows = [{name = 'limited', preset = 'limited'}]")
                )
            names = [str(r.get("name", "")) for r in self.rows]
            for i, row in enumerate(self.rows):
                if not row.get("name"):
                    out.append((f"rows[{i}].name", "each row needs a name"))
                unknown = set(row) - {"name", "preset", "rules"}
                if unknown:
                    out.append((f"rows[{i}]", f"unknown keys {sorted(unknown)}; allowed name, preset, rules"))
                attempt(f"rows[{i}]", lambda row=row: self.row_rules(row))
            if len(set(names)) != len(names):
                out.append(("rows", "row names must differ"))
            if self.baseline is not None and self.baseline not in names:
                out.append(("baseline", f"{self.baseline!r} is not a row name; allowed {', '.join(names)}"))
        return out

    def check(self) -> None:
        """Raise the first problem as one LooError line (the CLI's way)."""
        problems = self.problems()
        if problems:
            path, message = problems[0]
            raise LooError(message if message.startswith(path.split(".")[-1]) else f"{path}: {message}")

    def row_rules(self, row: dict[str, Any]) -> Rules:
        preset = row.get("preset", self.preset)
        if preset not in PRESETS:
            raise LooError(f"preset: {preset!r} is not one of {', '.join(PRESETS)}")
        return Rules.preset(preset, **{**self.rules, **row.get("rules", {})})

    def arms(self):
        from loo_sim.analysis.pots import parse_compare
        from loo_sim.run.sessions import make_arms

        base = self.base_rules()
        if self.bankroll is not None:
            base = base.replace(bankroll=float(self.bankroll))
        return make_arms(base, self.table, parse_compare(self.compare))

    def command(self, out: str | None = None) -> str:
        """The CLI command that runs this study (variants: run through a report)."""
        from loo_sim.report.command import policy_args

        args = ["loo-sim", self.kind, "--preset", self.preset]
        args += sum((["--set", f"{k}={_text(v)}"] for k, v in self.rules.items()), [])
        if self.policy is not None or self.seat_policy:
            n = (self.players or [self.base_rules().players])[0]
            args += policy_args(self.table(n))
        if self.kind == "simulate":
            args += ["--deals", str(self.deals), "--seed", str(self.seed), "--carried", f"{self.carried[0]:g}"]
            args += ["--dealer", str(self.dealer)] if self.dealer is not None else []
            args += ["--by-class"] if self.by_class else []
        elif self.kind == "miss":
            args += sum((["--players", str(n)] for n in self.players), [])
            args += sum((["--carried", f"{c:g}"] for c in self.carried), [])
            args += ["--deals", str(self.deals), "--seed", str(self.seed), "--focal", str(self.focal)]
            args += ["--chart-seat", str(self.chart_seat)] if self.chart_seat is not None else []
            args += ["--precision", f"{self.precision:g}"] if self.precision is not None else []
        elif self.kind == "pots":
            args += sum((["--compare", c] for c in self.compare), [])
            args += ["--sessions", str(self.sessions), "--deals", str(self.deals), "--seed", str(self.seed)]
            args += ["--bankroll", f"{self.bankroll:g}"] if self.bankroll is not None else []
        else:
            return ""
        return " ".join(args + (["--out", out] if out else []))


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass
class StudyOutput:
    study: Study
    tables: dict[str, pd.DataFrame]  # name -> long-form table (name.csv)
    figures: dict[str, Any]  # name -> matplotlib Figure (name.png)
    summary: str  # summary.md
    info: dict[str, Any]  # run.json
    warnings: list[str] = field(default_factory=list)
    partial: bool = False


def run_study(study: Study, out: str | None = None, progress: bool = True, backend=None) -> StudyOutput:
    """Validate and run one study (numba's threads as set by the caller; ``backend``:
    where the kernel runs, this process by default)."""
    study.check()
    runner = {"simulate": _run_simulate, "miss": _run_miss, "pots": _run_pots, "variants": _run_variants}
    output = runner[study.kind](study, out, progress, backend)
    from loo_sim.version import __version__

    output.info = {
        "loo_sim_version": __version__,
        "kind": study.kind,
        "command": study.command(out),
        "preset": study.preset,
        "seed": study.seed,
        "study": study.to_dict(),
        "digest": study.digest(),
        "partial": output.partial,
        **output.info,
    }
    return output


def write_study(out_dir: Path, output: StudyOutput) -> list[str]:
    """Write every table, figure, summary.md and run.json (each atomically); the file names."""
    from loo_sim.report.outputs import atomic_write_text, save_png, write_csv, write_json

    names = []
    for name, df in output.tables.items():
        write_csv(out_dir / f"{name}.csv", df)
        names.append(f"{name}.csv")
    for name, fig in output.figures.items():
        save_png(fig, out_dir / f"{name}.png")
        names.append(f"{name}.png")
    atomic_write_text(out_dir / "summary.md", output.summary)
    write_json(out_dir / "run.json", output.info)
    return [*names, "summary.md", "run.json"]


def _figure(size: tuple[float, float]):
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    return Figure(figsize=size, layout="constrained")


def _threads() -> int:
    from numba import get_num_threads

    return get_num_threads()


def _progress(enabled: bool, label: str = "deals"):
    from loo_sim.run.simulate import TextProgress

    return TextProgress(label=label, min_total=0) if enabled else None


# ---- simulate -----------------------------------------------------------------------------
def _run_simulate(study: Study, out: str | None, progress: bool, backend) -> StudyOutput:
    from loo_sim.analysis.simulate import class_table, position_table, summary_table
    from loo_sim.analysis.summaries import simulate_summary
    from loo_sim.run.simulate import simulate

    rules = study.base_rules()
    table = study.table(rules.players)
    res = simulate(
        rules,
        table,
        study.deals,
        study.seed,
        study.carried[0],
        study.dealer,
        threads=_threads(),
        progress=_progress(progress),
        by_class=study.by_class,
        backend=backend,
    )
    tables = {"summary": summary_table(res), "positions": position_table(res)}
    if study.by_class:
        tables["by_class"] = class_table(res)
    text = simulate_summary(res, tables, study.preset, study.command(out))
    info = {"deals_done": res.deals_done, "rules": rules.to_dict(), "policies": [str(p) for p in table]}
    return StudyOutput(study, tables, {}, text, info, partial=res.partial)


# ---- miss ---------------------------------------------------------------------------------
def _run_miss(study: Study, out: str | None, progress: bool, backend) -> StudyOutput:
    from loo_sim.analysis.miss import best_actions, chart_table, heuristic_table, sweep_frames
    from loo_sim.analysis.summaries import miss_summary
    from loo_sim.plots.decisions import best_action_sweep, decision_chart, decision_chart_size, heuristic_bars
    from loo_sim.run.decisions import decisions, heuristics

    base = study.base_rules()
    player_counts = [int(n) for n in study.players] or [base.players]
    pots = [float(c) for c in study.carried] or [0.0]
    rules_by_n = {n: base.replace(players=n) for n in player_counts}
    tables_by_n = {n: study.table(n) for n in player_counts}
    main_n, main_pot = player_counts[0], pots[0]
    rules = rules_by_n[main_n]
    chart_seats = None if study.chart_seat is None else [study.chart_seat]
    chart_res = decisions(
        rules,
        tables_by_n[main_n],
        study.deals,
        study.seed,
        main_pot,
        focal=chart_seats,
        progress=_progress(progress),
        backend=backend,
    )
    chart_df = chart_table(chart_res)
    names = [*HEURISTICS, "chart (best action of this chart)"]
    candidates = [Policy.parse(h) for h in HEURISTICS] + [Policy("chart")]
    heur = heuristics(
        rules,
        tables_by_n[main_n],
        study.focal,
        candidates,
        names,
        study.deals,
        study.seed,
        main_pot,
        chart=best_actions(chart_res),
        precision=study.precision,
        progress=_progress(progress),
        backend=backend,
    )
    heur_df = heuristic_table(heur)
    runs = []
    for n in player_counts:
        for pot in pots:
            if (n, pot) == (main_n, main_pot):
                runs.append(chart_res)
            else:
                seats = None if chart_seats is None else [s for s in chart_seats if s < n]
                runs.append(
                    decisions(rules_by_n[n], tables_by_n[n], study.deals, study.seed, pot, focal=seats, backend=backend)
                )
    shares, sweep_classes = sweep_frames(runs)
    tables = {"chart": chart_df, "heuristics": heur_df, "sweep": shares, "sweep_classes": sweep_classes}
    n_rows = int(chart_df[chart_df.position == "all"].hand_class.nunique())
    figures = {
        "chart": _figure(decision_chart_size(n_rows)),
        "heuristics": _figure((9, 0.5 * len(names) + 1.5)),
        "sweep": _figure((3.6 * len(player_counts) + 1, 3.8)),
    }
    decision_chart(
        figures["chart"].add_subplot(),
        chart_df,
        "all",
        title=f"{study.preset}, {main_n} players, carried {main_pot:g}: best declaration",
    )
    heuristic_bars(
        figures["heuristics"].add_subplot(),
        heur_df,
        baseline="basic",
        title=f"Seat {study.focal}'s heuristics vs basic, {heur.deals:,} deals",
    )
    best_action_sweep(figures["sweep"], shares, title=f"{study.preset}: share of decisions by best declaration")
    text = miss_summary(study.preset, chart_res, chart_df, heur, heur_df, shares, study.command(out))
    info = {
        "rules": rules.to_dict(),
        "chart_deals": chart_res.deals,
        "heuristic_deals": heur.deals,
        "players": player_counts,
        "carried": pots,
    }
    return StudyOutput(study, tables, figures, text, info, partial=chart_res.partial or heur.partial)


# ---- pots ---------------------------------------------------------------------------------
def _run_pots(study: Study, out: str | None, progress: bool, backend) -> StudyOutput:
    import numpy as np

    from loo_sim.analysis.pots import arm_stats, balance_histogram, balances, max_pot_ccdf, paired, pot_by_deal
    from loo_sim.analysis.summaries import pots_summary
    from loo_sim.kernel import abi as L
    from loo_sim.plots.sessions import balance_distribution, pot_fan_chart
    from loo_sim.plots.sessions import max_pot_ccdf as ccdf_plot
    from loo_sim.run.sessions import run_pots

    arms = study.arms()
    res = run_pots(
        arms, study.sessions, study.deals, study.seed, progress=_progress(progress, "sessions"), backend=backend
    )
    tables = {
        "pot_by_deal": pot_by_deal(res),
        "max_pot": max_pot_ccdf(res),
        "balances": balances(res),
        "balance_histogram": balance_histogram(res),
        "arms": arm_stats(res),
        "paired": paired(res),
    }
    cols = min(len(arms), 3)
    players = max(a.rules.players for a in arms)
    figures = {
        "fan": _figure((4.5 * cols + 0.5, 3.8 * ((len(arms) + cols - 1) // cols))),
        "max_pot": _figure((7, 4.5)),
        "balances": _figure((0.8 * players * max(1, len(arms)) + 3, 4.5)),
    }
    pot_fan_chart(
        figures["fan"], tables["pot_by_deal"], title=f"{study.preset}: pot at the start of each deal (median, 50%, 90%)"
    )
    ccdf_plot(figures["max_pot"].add_subplot(), tables["max_pot"], title=f"{study.preset}: largest pot of a session")
    balance_distribution(
        figures["balances"].add_subplot(), tables["balances"], title=f"{study.preset}: final net balance per seat"
    )
    warnings = []
    stats = tables["arms"].set_index(["arm", "metric"])["value"]
    for a, arm in enumerate(arms):
        flagged = stats[(arm.name, "inexact_past_2_53_probability")]
        if flagged > 0:
            first = int(np.nonzero(res.deal_stats[a, :, L.DS_INEXACT_FIRST])[0][0])
            warnings.append(
                f"{arm.name}: {flagged:.1%} of sessions passed 2**53 chips (the first at deal {first}); "
                "amounts past that are not exact (R3)"
            )
    text = pots_summary(res, tables, study.preset, study.command(out))
    info = {
        "arms": [{"name": a.name, "rules": a.rules.to_dict(), "policies": [str(p) for p in a.policies]} for a in arms],
        "sessions": res.sessions,
    }
    return StudyOutput(study, tables, figures, text, info, warnings, partial=res.partial)


# ---- variants -------------------------------------------------------------------------------
def _run_variants(study: Study, out: str | None, progress: bool, backend) -> StudyOutput:
    from loo_sim.analysis.summaries import variants_summary
    from loo_sim.analysis.variants import variant_rows
    from loo_sim.config import VARIANT_BATCHES
    from loo_sim.plots.decisions import variant_bars
    from loo_sim.run.simulate import simulate

    results = []
    for row in study.rows:
        rules = study.row_rules(row)
        results.append(
            (
                row["name"],
                simulate(
                    rules,
                    study.table(rules.players),
                    study.deals,
                    study.seed,
                    study.carried[0],
                    threads=_threads(),
                    batches=VARIANT_BATCHES,
                    progress=_progress(progress),
                    backend=backend,
                ),
            )
        )
    baseline = study.baseline or study.rows[0]["name"]
    table = variant_rows(results, baseline)
    fig = _figure((9, 0.45 * len(results) + 2))
    variant_bars(fig.add_subplot(), table, metric="loo_rate", title="loo rate by rule variant (95% CI)")
    text = variants_summary(table, baseline, study)
    info = {"rows": [{"name": n, "rules": r.rules.to_dict()} for n, r in results], "baseline": baseline}
    return StudyOutput(
        study, {"variants": table}, {"variants": fig}, text, info, partial=any(r.partial for _, r in results)
    )
