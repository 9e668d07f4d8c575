"""The pots kind (``loo-sim pots``, a report's ``kind = "pots"``): sessions of many deals
(R10) for each arm of a comparison, every arm on the same decks (``kernel/sessions.py``,
``run/sessions.py``); how pots grow, how large they get, who ends ahead and the chance of
ruin (``analysis/pots.py``, ``analysis/pots_text.py``, ``plots/pots.py``, ``plots/balances.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from loo_sim.base import checks
from loo_sim.base.errors import LooError
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules, split_option
from loo_sim.report.command import command
from loo_sim.report.kinds.base import Study
from loo_sim.report.kinds.fields import TEXT, Collect, shown
from loo_sim.report.running import StudyOutput, figure, progress_of, strength_table


@dataclass
class PotsStudy(Study):
    """Sessions of many deals (R10) for each arm of a comparison, on the same decks."""

    kind: ClassVar[str] = "pots"
    RENAMED: ClassVar[dict[str, str]] = {"deals": "session_deals"}
    ARRAYS: ClassVar[dict[str, str]] = {"compare": TEXT}
    deals: int | None = None  # refused: the old name of session_deals
    session_deals: int = 50  # deals a session plays at most
    compare: list[str] = field(default_factory=list)  # KEY=V1,V2 items: the grid of arms, first values first
    sessions: int = 2000  # sessions per arm
    bankroll: float | None = None  # a session ends when a balance falls below -bankroll

    def _more_problems(self, p: Collect, rules: Rules | None) -> None:
        p.attempt("seed", lambda: checks.seed(self.seed))
        self._policy_problems(p, rules)
        parsed = p.attempt("compare", lambda: parse_compare(self.compare))
        self._repeats(p, parsed or [])
        p.attempt("sessions", lambda: checks.sessions(self.sessions))
        p.attempt("session_deals", lambda: checks.session_deals(self.session_deals))
        if self.bankroll is not None:
            p.attempt("bankroll", lambda: checks.chips("bankroll", self.bankroll))
        if rules is not None and not p.found:  # the grid of arms, when every part of it is valid
            p.attempt("compare", lambda: self.arms())

    def _repeats(self, p: Collect, parsed: list[tuple[str, list[str]]]) -> None:
        """A key compared twice (``--compare penalty=limited --compare penalty=unlimited``), or
        a value twice in one item (``penalty=limited,limited``): refused before the run."""
        first: dict[str, int] = {}
        for i, (key, values) in enumerate(parsed):
            item = shown(self.compare[i])
            if key in first:
                p.add(f"compare[{i}]", f"{item}: {key} is compared already (item {first[key] + 1}); give each "
                                       f"key once with all its values, e.g. {key}=V1,V2")  # fmt: skip
                continue
            first[key] = i
            seen: dict[str, str] = {}
            for value in values:
                same = _compared_as(key, value)
                if same in seen:
                    p.add(
                        f"compare[{i}]", f"{item}: {value!r} is the same value as {seen[same]!r}; give each value once"
                    )
                    break
                seen[same] = value

    def arms(self):
        """The arms of the comparison (``run.sessions.Arm``), the first values first."""
        from loo_sim.run.sessions import make_arms

        base = self.base_rules()
        if self.bankroll is not None:
            base = base.replace(bankroll=float(self.bankroll))
        return make_arms(base, self.table, parse_compare(self.compare))

    def table_rules(self, rules: Rules) -> list[Rules]:
        return [arm.rules for arm in self.arms()]

    def cli_args(self) -> list[str]:
        args = [*self.rule_args(), *self.table_args()]
        args += sum((["--compare", c] for c in self.compare), [])
        args += ["--sessions", str(self.sessions), "--session-deals", str(self.session_deals), "--seed", str(self.seed)]
        return args + (["--bankroll", f"{self.bankroll:g}"] if self.bankroll is not None else [])

    def deals_estimate(self) -> float:
        return float(self.sessions) * self.session_deals * len(self.arms())

    def run(self, out: str | None, progress: Any, backend: Any) -> StudyOutput:
        from loo_sim.analysis.pots import arm_stats, balance_histogram, balances, max_pot_ccdf, paired, pot_by_deal
        from loo_sim.analysis.pots_text import pots_summary
        from loo_sim.run.sessions import run_pots

        arms = self.arms()
        res = run_pots(arms, self.sessions, self.session_deals, self.seed, progress=progress_of(progress, "sessions"),
                       backend=backend)  # fmt: skip
        tables = {
            "pot_by_deal": pot_by_deal(res),
            "max_pot": max_pot_ccdf(res),
            "balances": balances(res),
            "balance_histogram": balance_histogram(res),
            "arms": arm_stats(res),
            "paired": paired(res),
        }
        figures = pots_figures(self.preset, len(arms), max(a.rules.players for a in arms), tables)
        text = pots_summary(res, tables, self.preset, command(self, out))
        info = {
            "arms": [{"name": a.name, "rules": a.rules.to_dict(), "policies": [str(p) for p in a.policies],
                      "strength_table": strength_table(a.rules, a.policies)} for a in arms],  # fmt: skip
            "sessions": res.sessions,
        }
        return StudyOutput(self, tables, figures, text, info, _inexact_warnings(res, tables["arms"]), res.partial,
                           done=res.sessions, total=self.sessions, unit="sessions")  # fmt: skip


def parse_compare(items: Sequence[str] | None) -> list[tuple[str, list[str]]]:
    """``KEY=V1,V2`` items: a rule option or ``policy`` (the whole table's); errors name ``compare[i]``."""
    out = []
    for i, item in enumerate(items or ()):
        key, values = split_option(item, f"compare[{i}]", "KEY=V1,V2", "penalty=limited,unlimited", ("policy",))
        parts: list[str] = []
        for piece in values.split(","):
            piece = piece.strip()
            if key == "policy" and parts and piece.split("=")[0] in ("play", "miss"):
                parts[-1] += "," + piece  # threshold:play=P,miss=M keeps its comma
            elif piece:
                parts.append(piece)
        if not parts:
            raise LooError(f"{item!r}: expected KEY=V1,V2, e.g. penalty=limited,unlimited", key=f"compare[{i}]")
        out.append((key, parts))
    return out


def _compared_as(key: str, value: str) -> str:
    """What a compared value means (so ``limited`` and ``Limited`` are one value)."""
    try:
        return str(Policy.parse(value)) if key == "policy" else repr(Rules.coerce_option(key, value))
    except LooError:
        return value.strip().lower()


def _inexact_warnings(res, arm_table: Any) -> list[str]:
    """One warning for each arm some of whose sessions passed 2**53 chips (R3)."""
    import numpy as np

    from loo_sim.game import abi as L

    warnings = []
    stats = arm_table.set_index(["arm", "metric"])["value"]
    for a, arm in enumerate(res.arms):
        flagged = stats[(arm.name, "inexact_past_2_53_probability")]
        if flagged > 0:
            first = int(np.nonzero(res.deal_stats[a, :, L.DS_INEXACT_FIRST])[0][0])
            warnings.append(
                f"{arm.name}: {flagged:.1%} of sessions passed 2**53 chips (the first in deal {first + 1}); "
                "amounts past that are not exact (R3)"
            )
    return warnings


def pots_figures(preset: str, arms: int, players: int, tables: dict[str, Any]) -> dict[str, Any]:
    """fan, max_pot and balances of a pots study of ``arms`` arms (``players``: the largest table)."""
    from loo_sim.plots.balances import balance_distribution
    from loo_sim.plots.pots import fan_grid, largest_pot_chart, pot_fan_chart

    rows, cols = fan_grid(arms)
    figures = {
        "fan": figure((4.6 * cols + 0.6, 3.4 * rows + 1.2)),
        "max_pot": figure((8.0, 1.9 + 0.75 * arms)),  # a row per arm, the legend below
        "balances": figure((min(max(7.0, 0.42 * players * max(1, arms) + 2.5), 13.0), 5.6)),
    }
    title = f"{preset}: pot at the start of each deal (median, 50%, 90%)"
    pot_fan_chart(figures["fan"], tables["pot_by_deal"], title=title)
    largest_pot_chart(figures["max_pot"].add_subplot(), tables["max_pot"], title=f"{preset}: largest pot of a session")
    title = f"{preset}: final net balance per seat"
    balance_distribution(figures["balances"].add_subplot(), tables["balances"], title=title)
    return figures
