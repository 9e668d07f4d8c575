"""The cardplay kind (``loo-sim cardplay``, a report's ``kind = "cardplay"``): the card-play
ladder, each entrant's card play at a focal seat among the table's players, on the same deals
and in every position (``kernel/ladder.py``, ``run/ladder.py``, ``analysis/cardplay.py``,
``plots/cardplay.py``); it runs in ``cardplay_run.py``, which also compares two decision
charts (``--compare-charts``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from loo_sim.base import checks
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules
from loo_sim.report.kinds.base import Study
from loo_sim.report.kinds.fields import TEXT, Collect, shown

if TYPE_CHECKING:
    from loo_sim.report.running import StudyOutput


@dataclass
class CardplayStudy(Study):
    """The card-play ladder (run/ladder.py): each of the ``entrants`` (a PLAY family with the
    table's declarations, or a whole policy) takes a focal seat at a table of
    ``table_policy`` players, on the same deals and in every position; with
    ``whole_table``, the same again with every other seat on that family."""

    kind: ClassVar[str] = "cardplay"
    RENAMED: ClassVar[dict[str, str]] = {"focal": "entrants"}
    ARRAYS: ClassVar[dict[str, str]] = {"entrants": TEXT}
    entrants: list[str] = field(default_factory=lambda: ["basic", "high", "low", "random"])
    focal: Any = None  # refused: the old name of entrants (focal is a seat elsewhere)
    table_policy: str = "basic"  # the other seats
    whole_table: str | None = None  # ladder B: the other seats on this (a PLAY family or a whole policy)
    carried: float = 0.0  # chips carried into every deal

    def table_of(self) -> Policy:
        return Policy.parse(self.table_policy)

    def table(self, players: int) -> list[Policy]:
        return [self.table_of()] * players

    def entrant_policies(self) -> list[Policy]:
        from loo_sim.run.ladder import with_play

        return [with_play(self.table_of(), t) for t in self.entrants]

    def ladders(self) -> list[tuple[str, Policy]]:
        """(name, the other seats' policy) of each ladder: A at the table, B at the whole table."""
        from loo_sim.run.ladder import with_play

        out = [("A", self.table_of())]
        if self.whole_table is not None:
            out.append(("B", with_play(self.table_of(), self.whole_table)))
        return out

    def _more_problems(self, p: Collect, rules: Rules | None) -> None:
        from loo_sim.run.ladder import with_play

        p.attempt("deals", lambda: checks.deals(self.deals))
        p.attempt("seed", lambda: checks.seed(self.seed))
        p.attempt("carried", lambda: checks.chips("carried", self.carried))
        if self.policy is not None or self.seat_policy:
            p.add("table_policy", "the ladder seats its players itself: give table_policy (--table) and entrants, "
                                  "not policy or seat_policy")  # fmt: skip
        table = p.attempt("table_policy", self.table_of)
        if table is not None and table.declare == "chart":
            p.add("table_policy", "the chart family needs a decision chart, which the ladder has not; allowed "
                                  "another declaration family, e.g. basic")  # fmt: skip
            table = None
        if not self.entrants:
            p.add("entrants", "the ladder needs at least one entrant, e.g. basic,high,low,random")
        if table is None:
            return
        parsed = [p.attempt(f"entrants[{i}]", lambda t=t: with_play(table, t)) for i, t in enumerate(self.entrants)]
        for i, x in enumerate(parsed):
            if x is not None and x.declare == "chart":
                p.add(f"entrants[{i}]", f"{shown(self.entrants[i])}: the chart family needs a decision chart; allowed "
                                     "another declaration family")  # fmt: skip
        names = [str(x) for x in parsed if x is not None]
        if len(set(names)) != len(names):
            p.add("entrants", "each entrant once (as policies: " + ", ".join(names) + ")")
        if self.whole_table is not None:
            whole = p.attempt("whole_table", lambda: with_play(table, self.whole_table))
            if whole is not None and whole.declare == "chart":
                p.add("whole_table", "the chart family needs a decision chart; allowed another declaration family")

    def cli_args(self) -> list[str]:
        args = [*self.rule_args(), "--entrants", ",".join(self.entrants), "--table", self.table_policy]
        args += ["--whole-table", self.whole_table] if self.whole_table is not None else []
        return args + ["--carried", f"{self.carried:g}", "--deals", str(self.deals), "--seed", str(self.seed)]

    def deals_estimate(self) -> float:
        """Every entrant plays every deal in every position, in each ladder; each
        ``pimc:N:infer`` entrant once more with its ``pimc:N`` (the pair ladders)."""
        from loo_sim.run.ladder import infer_pairs

        pairs = len(infer_pairs(self.entrant_policies()))
        per_ladder = len(self.entrants) + 2 * pairs
        return float(self.deals) * per_ladder * self.base_rules().players * len(self.ladders())

    def run(self, out: str | None, progress: Any, backend: Any) -> StudyOutput:
        from loo_sim.report.kinds.cardplay_run import run_cardplay_study

        return run_cardplay_study(self, out, progress, backend)
