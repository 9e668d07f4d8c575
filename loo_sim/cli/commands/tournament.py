"""``loo-sim tournament``: heuristics at mixed tables over whole sessions, in a balanced
design on the same decks (as a report's ``kind = "tournament"`` experiment)."""

from __future__ import annotations

from typing import Annotated

import typer

from loo_sim.cli.app import PresetOpt, SetOpt, ThreadsOpt, seed_option
from loo_sim.cli.params import Chips, WholeNumber
from loo_sim.cli.study import print_written, run_and_write
from loo_sim.game.rules import parse_set
from loo_sim.report.study import TournamentStudy, split_policies


def tournament_cmd(
    policies: Annotated[
        str, typer.Option(help="The heuristics, comma-separated, e.g. basic,cautious,ev,table:out/solve/strategy.csv.")
    ] = "basic,cautious,ev",
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    players: Annotated[int | None, typer.Option(parser=WholeNumber(3, 8), help="Players at the table.")] = None,
    sessions: Annotated[int, typer.Option(parser=WholeNumber(1, 10**7), help="Sessions per lineup.")] = 2000,
    deals: Annotated[int, typer.Option(parser=WholeNumber(1, 10**5), help="Deals a session plays at most.")] = 50,
    bankroll: Annotated[
        float | None, typer.Option(parser=Chips(), help="A session ends when a balance falls below -bankroll.")
    ] = None,
    seed: Annotated[int, seed_option("Seed of the sessions.")] = 0,
    threads: ThreadsOpt = None,
    out: Annotated[str, typer.Option(help="Directory for the league, head-to-head and summary.md.")] = "out/tournament",
) -> None:
    """Heuristics at mixed tables over whole sessions: a league table with intervals, results
    by position, and the head-to-head matrix (a's chips per deal minus b's at the tables
    seating both, on the same decks).

    Examples: `loo-sim tournament --policies basic,cautious,ev --players 5 --sessions 2000 --deals 50 --seed 1`,
    `loo-sim tournament --preset classic-limited --policies basic,ev,table:out/solve/strategy.csv`.
    """
    rules = parse_set(sets)
    if players is not None:
        rules["players"] = players
    study = TournamentStudy(preset=preset, rules=rules, policies=split_policies(policies), sessions=sessions,
                            deals=deals, seed=seed, bankroll=bankroll)  # fmt: skip
    print_written(*run_and_write(study, out, threads, "local", None, None))
