"""Running a tournament study (``loo-sim tournament``, a report's ``kind = "tournament"``):
the lineups of ``run.tournament``, the tables of ``analysis.tournament``, two plots and a
summary in plain sentences."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from loo_sim.analysis.text import interval_text
from loo_sim.analysis.tournament import (
    design_table,
    head_to_head_sentence,
    head_to_head_table,
    league_sentences,
    league_table,
    no_mean,
    no_mean_sentence,
    position_table,
)
from loo_sim.game.policy import Policy
from loo_sim.report.command import command
from loo_sim.report.running import StudyOutput, figure, session_study_output
from loo_sim.run.tournament import run_tournament


def entrant_name(text: str) -> str:
    """How an entrant is named in the tables: as written, a strategy table by its last two
    path parts (``table:classic-limited-5/strategy.csv``)."""
    text = text.strip()
    if text.lower().startswith("table:"):
        path = Path(Policy.parse(text).table)
        rest = text[text.lower().find(".csv") + 4 :]
        return f"table:{path.parent.name + '/' if path.parent.name else ''}{path.name}{rest}"
    return text


def run_tournament_study(study: Any, out: str | None, progress, backend) -> StudyOutput:
    """The study's output: the league, results by position, head-to-head, design and a summary."""
    from loo_sim.plots.tournament import head_to_head_matrix, league_bars

    rules = study.tournament_rules()
    policies = study.entrant_policies()
    names = [entrant_name(t) for t in study.policies]
    res = run_tournament(rules, policies, names, study.sessions, study.session_deals, study.seed,
                         progress=progress("sessions") if progress else None, backend=backend)  # fmt: skip
    league, h2h = league_table(res), head_to_head_table(res)
    tables = {"league": league, "by_position": position_table(res), "head_to_head": h2h, "design": design_table(res)}
    k = len(names)
    figures = {"league": figure((8, 0.5 * k + 1.8)), "head_to_head": figure((1.1 * k + 4, 0.9 * k + 3))}
    where = f"{study.preset}, {rules.players} players, {res.sessions:,} sessions of up to {study.session_deals} deals"
    league_bars(figures["league"].add_subplot(), league, title=f"League: {where}", median=no_mean(rules))
    head_to_head_matrix(figures["head_to_head"].add_subplot(), h2h, list(league["heuristic"]))
    cmd = command(study, out)
    median = no_mean(rules)
    figures_are = ("the league's figures are medians over sessions with distribution-free 95% intervals"
                   if median else "the figures are means over sessions with 95% intervals")  # fmt: skip
    lines = [f"# Tournament: {where}", "", "```", cmd, "```", "",
             f"{len(names)} heuristics in {len(res.lineups)} lineups: lineup r seats heuristic (i + r) mod "
             f"{len(names)} at seat i, so each sits in every seat equally often, and the dealer rotates within "
             "each session; every lineup plays the same sessions on the same decks. A heuristic's result in a "
             f"session is its seats' net chips per deal played; {figures_are} (the session the unit).", "",
             "## League", ""]  # fmt: skip
    lines += _league_rows(league, median)
    lines += ["", *([no_mean_sentence(res), ""] if median else []), *league_sentences(league, h2h, median), "",
              head_to_head_sentence(median), "",
              "Files: league.csv, by_position.csv, head_to_head.csv (a minus b at the tables seating both, paired), "
              "design.csv, league.png, head_to_head.png, run.json."]  # fmt: skip
    info = {"rules": rules.to_dict(), "policies": names, "lineups": res.lineups, "sessions_done": res.sessions,
            "deals_per_session": study.session_deals}  # fmt: skip
    return session_study_output(study, tables, figures, lines, info, res, " in some lineup")


def _league_rows(league, median: bool) -> list[str]:
    """The league as a markdown table: medians under the unlimited penalty, else means."""
    if median:
        rows = ["| heuristic | median chips per deal [95% interval] | sessions |", "|---|---|---|"]
        return rows + [f"| {r.heuristic} | {interval_text(r.median, r.median_ci_low, r.median_ci_high, signed=True)} "
                       f"| {r.sessions:,} |" for r in league.itertuples()]  # fmt: skip
    rows = ["| heuristic | chips per deal | 95% interval | sessions |", "|---|---|---|---|"]
    return rows + [f"| {r.heuristic} | {r.chips_per_deal:+.3f} | [{r.ci_low:+.3f}, {r.ci_high:+.3f}] | {r.sessions:,} |"
                   for r in league.itertuples()]  # fmt: skip
