"""``loo-sim tournament``: heuristics at mixed tables over whole sessions, in a balanced
design on the same decks (as a report's ``kind = "tournament"`` experiment)."""

from __future__ import annotations

from typing import Annotated

import typer

from loo_sim.cli.app import check_workers
from loo_sim.cli.options import (
    BackendOpt,
    BankrollOpt,
    OldDealsOpt,
    PlayersOpt,
    PresetOpt,
    SchedulerOpt,
    SetOpt,
    ThreadsOpt,
    WorkersOpt,
    rules_with_players,
    shared,
)
from loo_sim.cli.study import print_written, run_and_write
from loo_sim.report.kinds.fields import split_policies
from loo_sim.report.kinds.tournament import TournamentStudy


def tournament_cmd(
    policies: Annotated[
        str, typer.Option(help="The heuristics, comma-separated, e.g. basic,cautious,ev,table:out/solve/strategy.csv.")
    ] = "basic,cautious,ev",
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    players: PlayersOpt = None,
    sessions: Annotated[int, shared("--sessions", " with each lineup.")] = 2000,
    session_deals: Annotated[int, shared("--session-deals", ", at most (fewer with --bankroll).")] = 50,
    deals: OldDealsOpt = None,
    bankroll: BankrollOpt = None,
    seed: Annotated[int, shared("--seed", ": deal j of session i comes from (seed, i, j) at every table.")] = 0,
    threads: ThreadsOpt = None,
    out: Annotated[str, shared("--out", ": the league, head-to-head and summary.md.")] = "out/tournament",
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Heuristics at mixed tables over whole sessions: a league table with intervals, results
    by position, and the head-to-head matrix (a's chips per deal minus b's at the tables
    seating both, on the same decks).

    Examples: `loo-sim tournament --policies basic,cautious,ev --players 5 --sessions 2000 --session-deals 50 --seed 1`,
    `loo-sim tournament --preset classic-limited --policies basic,ev,table:out/solve/strategy.csv`.
    """
    check_workers(backend, workers)
    study = TournamentStudy(preset=preset, rules=rules_with_players(sets, players), policies=split_policies(policies),
                            sessions=sessions, session_deals=session_deals, deals=deals, seed=seed,
                            bankroll=bankroll)  # fmt: skip
    print_written(*run_and_write(study, out, threads, backend, scheduler, workers))
