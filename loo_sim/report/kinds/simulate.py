"""The simulate kind (``loo-sim simulate``, a report's ``kind = "simulate"``): independent
deals with the kernel (``kernel/chunks.py``, ``run/simulate.py``); rates, loo rates, tricks
and net chips per seat, each with its uncertainty (``analysis/simulate.py``,
``analysis/simulate_text.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from loo_sim.base import checks
from loo_sim.game.rules import Rules
from loo_sim.report.command import command, describe_policies, overrides
from loo_sim.report.kinds.base import Study
from loo_sim.report.kinds.fields import Collect
from loo_sim.report.running import StudyOutput, chip_warnings, progress_of, threads, where_ran


@dataclass
class SimulateStudy(Study):
    """Independent deals with the kernel: rates, loo rates, tricks and net chips per seat."""

    kind: ClassVar[str] = "simulate"
    carried: float = 0.0  # chips carried into every deal
    dealer: int | None = None  # a fixed dealer (default: deal k is dealt by seat k mod players)
    by_class: bool = False  # also the loo rate by hand class

    def _more_problems(self, p: Collect, rules: Rules | None) -> None:
        super()._more_problems(p, rules)
        p.attempt("carried", lambda: checks.chips("carried", self.carried))
        if rules is not None and self.dealer is not None:
            p.attempt("dealer", lambda: checks.seat("dealer", self.dealer, rules.players))

    def cli_args(self) -> list[str]:
        args = [*self.rule_args(), *self.table_args()]
        args += ["--deals", str(self.deals), "--seed", str(self.seed), "--carried", f"{self.carried:g}"]
        args += ["--dealer", str(self.dealer)] if self.dealer is not None else []
        return args + (["--by-class"] if self.by_class else [])

    def deals_estimate(self) -> float:
        return float(self.deals)

    def run(self, out: str | None, progress: Any, backend: Any) -> StudyOutput:
        from loo_sim.analysis.simulate import class_table, position_table, summary_table
        from loo_sim.analysis.simulate_text import simulate_summary
        from loo_sim.run.simulate import simulate
        from loo_sim.run.strength import resolve_strength, table_info

        rules = self.base_rules()
        table = self.table(rules.players)
        strength = resolve_strength(rules, table)
        res = simulate(rules, table, self.deals, self.seed, self.carried, self.dealer, threads=threads(),
                       progress=progress_of(progress), by_class=self.by_class, backend=backend,
                       strength=strength)  # fmt: skip
        where = where_ran(backend, res.threads)
        tables = {"summary": summary_table(res), "positions": position_table(res)}
        if self.by_class:
            tables["by_class"] = class_table(res)
        info = {
            "overrides": overrides(self),
            "rules": rules.to_dict(),
            "policies": [str(p) for p in table],
            "deals_requested": res.deals_requested,
            "deals_done": res.deals_done,
            "carried": res.carried,
            "dealer": "rotating (deal k: seat k mod players)" if res.dealer is None else res.dealer,
            "threads": res.threads,
            "ran_on": where,
            "elapsed_s": round(res.elapsed_s, 3),
            "strength_table": table_info(strength),  # the table threshold/ev read (None: no seat reads one)
        }
        summary = simulate_summary(res, tables, self.preset, command(self, out))
        text = self._text(res, table, tables, where)
        return StudyOutput(self, tables, {}, summary, info, chip_warnings(rules, [res.carried]), res.partial, text,
                           done=res.deals_done, total=res.deals_requested)  # fmt: skip

    def _text(self, res: Any, table: list, tables: dict, where: str) -> str:
        """What ``loo-sim simulate`` prints: a header line, the table of seats, the hand classes."""
        from loo_sim.analysis.simulate_text import format_summary

        state = "PARTIAL " if res.partial else ""
        lines = [f"{state}{res.deals_done:,} deals of {self.preset} ({res.rules.players} players), seed {res.seed}, "
                 f"{describe_policies(table)}; {res.elapsed_s:.1f} s on {where}",
                 format_summary(res, tables["summary"])]  # fmt: skip
        if "by_class" in tables:
            lines.append("\nloo rate by hand class (hands played; the grid is docs/policies.md P5, also printed by "
                         "`loo-sim calibrate`):")  # fmt: skip
            for r in tables["by_class"].itertuples(index=False):
                lines.append(f"  {r.label:<42} {r.hands:>10,}  {r.loo_rate:.4f} [{r.ci_low:.4f}, {r.ci_high:.4f}]")
        return "\n".join(lines)
