"""The solve kind (``loo-sim solve``, a report's ``kind = "solve"``): the declaration game
solved by fictitious play (``solve/declarations.py``, ``kernel/equilibrium.py``,
``run/equilibrium.py``) from each start policy, with the exploitability of the result and of
the heuristics on fresh deals. It runs in ``solve_run.py`` (tables, figures and the summary
of ``analysis/equilibrium_text.py``, ``plots/solve.py``, ``plots/strategy.py``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from loo_sim.base import checks
from loo_sim.base.errors import LooError
from loo_sim.game.policy import Policy, heuristics_for
from loo_sim.game.rules import Rules
from loo_sim.report.kinds.base import Study
from loo_sim.report.kinds.fields import NUMBER, TEXT, Collect, extra_heuristic_problems, named_heuristic, shown

if TYPE_CHECKING:
    from loo_sim.report.running import StudyOutput


@dataclass
class SolveStudy(Study):
    """The declaration game solved by fictitious play (docs/policies.md P6), from each start
    policy, with the exploitability of the result and of the heuristics on fresh deals.
    ``policy`` is the table's card play: PLAY[/EXCHANGE] (its DECLARE part is solved)."""

    kind: ClassVar[str] = "solve"
    ARRAYS: ClassVar[dict[str, str]] = {"carried": NUMBER, "starts": TEXT, "exploitability_of": TEXT}
    deals: int = 200_000  # per iteration and carried pot
    iterations: int = 100
    starts: list[str] = field(default_factory=lambda: ["basic"])  # one solve per start
    averaging: str = "linear"
    carried: list[float] = field(default_factory=lambda: [0.0])
    eval_deals: int | None = None  # fresh deals per half of each NashConv (default: 2 x deals)
    exploitability_of: list[str] = field(default_factory=list)  # more profiles' NashConv, e.g. rule:... at every seat
    compare_with: str | None = None  # a strategy table of the same rules to set the solved one beside

    def to_dict(self) -> dict[str, Any]:
        """As every study's, without ``exploitability_of`` while empty and ``compare_with``
        while unset (a study without them keeps the digest it had before they existed)."""
        unset = {"exploitability_of": [], "compare_with": None}
        return {k: v for k, v in super().to_dict().items() if not (k in unset and v == unset[k])}

    def profiles(self, rules: Rules) -> list[tuple[str, Policy]]:
        """(label, declaration policy) of every heuristic whose NashConv is reported: the
        shipped ones (heuristics_for), then ``exploitability_of`` as written."""
        named = [(h, h) for h in heuristics_for(rules)] + [named_heuristic(h) for h in self.exploitability_of]
        return [(label, Policy.parse(text)) for label, text in named]

    def play_policy(self) -> Policy:
        """The table's card play and exchange (``policy``: PLAY[/EXCHANGE], default basic)."""
        text = (self.policy or "basic").strip()
        try:
            return Policy.parse("basic/" + text)
        except LooError as e:
            raise LooError(f"policy {text!r}: solve takes the table's card play, PLAY[/EXCHANGE], e.g. high or "
                           f"basic/keep-trumps ({str(e).split(': ', 1)[-1]})", key="policy") from None  # fmt: skip

    def table(self, players: int) -> list[Policy]:
        return [self.play_policy()] * players

    def evaluation_deals(self) -> int:
        return int(self.eval_deals) if self.eval_deals is not None else 2 * int(self.deals)

    def _check_averaging(self, weight: Callable[[int, str], float]) -> None:
        """The averaging's weights over the whole run, not only the first: each one in [0, 1]."""
        last = self.iterations + 1 if isinstance(self.iterations, int) and 1 <= self.iterations <= 100_000 else 1
        for t in sorted({1, 2, last}):
            w = weight(t, self.averaging)
            if not 0.0 <= w <= 1.0:  # NaN too
                raise LooError(f"{self.averaging!r} gives iteration {t} the weight {w}; allowed weights in 0..1")

    def _more_problems(self, p: Collect, rules: Rules | None) -> None:
        from loo_sim.base.config import MIN_SOLVE_DEALS as MIN_DEALS
        from loo_sim.game.policy import SOLVE_STARTS as STARTS
        from loo_sim.solve.fictitious import averaging_weight

        p.attempt("seed", lambda: checks.seed(self.seed))
        p.attempt("policy", self.play_policy)
        if self.seat_policy:
            p.add("seat_policy", "solve plays one card-play policy at every seat; give --policy PLAY[/EXCHANGE]")
        p.attempt("deals", lambda: checks.whole_number("deals", self.deals, MIN_DEALS, checks.MAX_DEALS))
        if self.eval_deals is not None:
            p.attempt("eval_deals", lambda: checks.whole_number("eval_deals", self.eval_deals, MIN_DEALS,
                                                                checks.MAX_DEALS))  # fmt: skip
        p.attempt("iterations", lambda: checks.whole_number("iterations", self.iterations, 1, 100_000))
        p.attempt("averaging", lambda: self._check_averaging(averaging_weight))
        if not self.starts:
            p.add("starts", f"at least one start policy is needed; allowed {', '.join(STARTS)}")
        for i, start in enumerate(self.starts):
            if start not in STARTS:
                p.add(f"starts[{i}]", f"{shown(start)} is not allowed; allowed {', '.join(STARTS)}")
        if len(set(self.starts)) != len(self.starts):
            p.add("starts", "each start policy once")
        if not self.carried:
            p.add("carried", "at least one carried pot is needed, e.g. [0]")
        for i, c in enumerate(self.carried):
            p.attempt(f"carried[{i}]", lambda c=c: checks.chips("carried", c))
        if rules is not None:
            extra_heuristic_problems(p, "exploitability_of", self.exploitability_of, heuristics_for(rules))
            # a table an earlier experiment of the report solves is read when this one runs
            if self.compare_with is not None and not self.written_earlier(str(self.compare_with)):
                p.attempt("compare_with", lambda: self.compared_table(rules))

    def other_files(self) -> list[str]:
        """``compare_with``: its content is part of the digest, so a report's ``--resume`` runs
        the solve again when the table it is compared with changes."""
        ok = isinstance(self.compare_with, str) and self.compare_with.strip()
        return [self.compare_with] if ok else []

    def compared_table(self, rules: Rules):
        """The strategy table of ``compare_with`` (a frame with its reach), checked to be one for ``rules``."""
        from loo_sim.run.tables import read_table_frame

        if not isinstance(self.compare_with, str) or not self.compare_with.strip():
            raise LooError(f"{shown(self.compare_with)} is not allowed; allowed: the path of a strategy.csv")
        return read_table_frame(self.compare_with, rules, f"compare_with {self.compare_with}")

    def cli_args(self) -> list[str]:
        args = self.rule_args() + (["--policy", self.policy] if self.policy else [])
        args += sum((["--start", s] for s in self.starts), [])
        args += sum((["--carried", f"{c:g}"] for c in self.carried), [])
        args += ["--iterations", str(self.iterations), "--deals", str(self.deals), "--seed", str(self.seed)]
        args += ["--averaging", self.averaging] if self.averaging != "linear" else []
        args += ["--eval-deals", str(self.eval_deals)] if self.eval_deals is not None else []
        if self.compare_with is not None:
            from loo_sim.report.command import shown_path

            args += ["--compare-with", shown_path(self.compare_with)]
        return args + sum((["--exploitability-of", h] for h in self.exploitability_of), [])

    def deals_estimate(self) -> float:
        """Each deal of a solve is replayed about twice per seat; so are the evaluation's."""
        per_start = (int(self.iterations) + 1) * self.deals * len(self.carried)
        profiles = len(self.starts) + 8 + len(self.exploitability_of)
        evaluation = 2 * self.evaluation_deals() * len(self.carried) * profiles
        return 4.0 * (per_start * len(self.starts) + evaluation)

    def run(self, out: str | None, progress: Any, backend: Any) -> StudyOutput:
        from loo_sim.report.kinds.solve_run import run_solve

        return run_solve(self, out, progress, backend)
