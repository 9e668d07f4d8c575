"""The risk kind (``loo-sim risk``, a report's ``kind = "risk"``): one seat's policy at a
table over sessions: ruin over bankroll, deals until ruin, the bankroll a risk needs and the
N0 of its lead over basic on the same decks (``kernel/risk.py``, ``run/risk.py``,
``analysis/risk.py``, ``plots/risk.py``); it runs in ``risk_run.py``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from loo_sim.base import checks
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules
from loo_sim.report.kinds.base import Study
from loo_sim.report.kinds.fields import Collect

if TYPE_CHECKING:
    from loo_sim.report.running import StudyOutput


@dataclass
class RiskStudy(Study):
    """Risk over sessions for one seat's policy (``focal_policy``) at a table (``policy`` at the
    other seats): ruin over bankroll, deals until ruin, bankroll for a risk, N0 of its lead
    over basic on the same decks."""

    kind: ClassVar[str] = "risk"
    RENAMED: ClassVar[dict[str, str]] = {"deals": "session_deals"}
    focal_policy: str = "ev"
    focal: int = 0
    deals: int | None = None  # refused: the old name of session_deals
    session_deals: int = 200  # per session
    sessions: int = 4000

    def focal_table(self, players: int) -> list[Policy]:
        return self.table(players)

    def _more_problems(self, p: Collect, rules: Rules | None) -> None:
        p.attempt("seed", lambda: checks.seed(self.seed))
        p.attempt("sessions", lambda: checks.sessions(self.sessions))
        p.attempt("session_deals", lambda: checks.session_deals(self.session_deals))
        p.attempt("focal_policy", lambda: Policy.parse(self.focal_policy))
        self._policy_problems(p, rules)
        if rules is not None:
            p.attempt("focal", lambda: checks.seat("focal", self.focal, rules.players))

    def cli_args(self) -> list[str]:
        args = [*self.rule_args(), *self.table_args()]
        args += ["--focal-policy", self.focal_policy, "--focal", str(self.focal)]
        return args + ["--sessions", str(self.sessions), "--session-deals", str(self.session_deals), "--seed",
                       str(self.seed)]  # fmt: skip

    def deals_estimate(self) -> float:
        """The sessions with the focal policy, and again with basic in its seat."""
        return 2.0 * self.sessions * self.session_deals

    def run(self, out: str | None, progress: Any, backend: Any) -> StudyOutput:
        from loo_sim.report.kinds.risk_run import run_risk_study

        return run_risk_study(self, out, progress, backend)
