"""The tournament kind (``loo-sim tournament``, a report's ``kind = "tournament"``): the
heuristics seated in a balanced design at mixed tables, sessions of deals (R10) on the same
decks for every lineup (``kernel/tournament.py``, ``run/tournament.py``,
``analysis/tournament.py``, ``plots/tournament.py``); it runs in ``tournament_run.py``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from loo_sim.base import checks
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules
from loo_sim.report.kinds.base import Study
from loo_sim.report.kinds.fields import TEXT, Collect

if TYPE_CHECKING:
    from loo_sim.report.running import StudyOutput


@dataclass
class TournamentStudy(Study):
    """A mixed-table tournament: the heuristics seated in a balanced design (run/tournament.py),
    sessions of deals (R10) on the same decks for every lineup."""

    kind: ClassVar[str] = "tournament"
    RENAMED: ClassVar[dict[str, str]] = {"deals": "session_deals"}
    ARRAYS: ClassVar[dict[str, str]] = {"policies": TEXT}
    policies: list[str] = field(default_factory=lambda: ["basic", "cautious", "ev"])
    deals: int | None = None  # refused: the old name of session_deals
    session_deals: int = 50  # per session, at most
    sessions: int = 2000
    bankroll: float | None = None  # a session ends when a balance falls below -bankroll

    def entrant_policies(self) -> list[Policy]:
        return [Policy.parse(p) for p in self.policies]

    def _more_problems(self, p: Collect, rules: Rules | None) -> None:
        p.attempt("seed", lambda: checks.seed(self.seed))
        p.attempt("sessions", lambda: checks.sessions(self.sessions))
        p.attempt("session_deals", lambda: checks.session_deals(self.session_deals))
        if self.bankroll is not None:
            p.attempt("bankroll", lambda: checks.chips("bankroll", self.bankroll))
        if self.policy is not None or self.seat_policy:
            p.add("policies", "a tournament seats its heuristics itself: give policies, not policy or seat_policy")
        if len(self.policies) < 2:
            p.add("policies", "a tournament needs two heuristics or more, e.g. basic,cautious,ev")
        parsed = [p.attempt(f"policies[{i}]", lambda t=t: Policy.parse(t)) for i, t in enumerate(self.policies)]
        names = [str(x) for x in parsed if x is not None]
        if len(set(names)) != len(names):
            p.add("policies", "each heuristic once")

    def tournament_rules(self) -> Rules:
        rules = self.base_rules()
        return rules.replace(bankroll=float(self.bankroll)) if self.bankroll is not None else rules

    def cli_args(self) -> list[str]:
        args = [*self.rule_args(), "--policies", ",".join(self.policies)]
        args += ["--sessions", str(self.sessions), "--session-deals", str(self.session_deals), "--seed", str(self.seed)]
        return args + (["--bankroll", f"{self.bankroll:g}"] if self.bankroll is not None else [])

    def deals_estimate(self) -> float:
        return float(self.sessions) * self.session_deals * len(self.policies)

    def run(self, out: str | None, progress: Any, backend: Any) -> StudyOutput:
        from loo_sim.report.kinds.tournament_run import run_tournament_study

        return run_tournament_study(self, out, progress, backend)
