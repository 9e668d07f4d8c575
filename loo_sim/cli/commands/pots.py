"""``loo-sim pots``: sessions of many deals (R10) for each arm of a comparison. Runs a
pots study (as a report's ``kind = "pots"`` experiment does) and prints its summary."""

from __future__ import annotations

from typing import Annotated

import typer

from loo_sim.cli.app import check_workers
from loo_sim.cli.options import (
    BackendOpt,
    BankrollOpt,
    OldDealsOpt,
    PlayersOpt,
    PolicyOpt,
    PresetOpt,
    SchedulerOpt,
    SeatPolicyOpt,
    SetOpt,
    ThreadsOpt,
    WorkersOpt,
    rules_with_players,
    shared,
)
from loo_sim.cli.params import seat_map
from loo_sim.cli.study import print_written, run_and_write
from loo_sim.report.kinds.pots import PotsStudy


def pots_cmd(
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    players: PlayersOpt = None,
    policy: PolicyOpt = None,
    seat_policy: SeatPolicyOpt = None,
    compare: Annotated[
        list[str] | None,
        typer.Option(help="KEY=V1,V2[,...]: an option (or policy) to vary; repeat for a grid; arms compared pairwise."),
    ] = None,
    sessions: Annotated[int, shared("--sessions", " in every arm, independent.")] = 2000,
    session_deals: Annotated[int, shared("--session-deals", " (fewer if someone is ruined).")] = 50,
    deals: OldDealsOpt = None,
    bankroll: BankrollOpt = None,
    seed: Annotated[int, shared("--seed", ": deal j of session i comes from (seed, i, j) in every arm.")] = 0,
    threads: ThreadsOpt = None,
    out: Annotated[str, shared("--out", ": the plots, CSVs and summary.md.")] = "out/pots",
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Sessions of many deals (R10): how pots grow, how large they get, who ends ahead, and
    the chance of ruin, for each arm of a comparison played on the same decks.

    Examples: `loo-sim pots --preset three-card --compare penalty=limited,unlimited --sessions 5000 --session-deals 50`,
    `loo-sim pots --compare penalty=limited,unlimited --compare policy=basic,ev --bankroll 200 --out out/pots`.
    """
    check_workers(backend, workers)
    study = PotsStudy(preset=preset, rules=rules_with_players(sets, players), policy=policy,
                      seat_policy=seat_map(seat_policy), compare=list(compare or []), sessions=sessions,
                      session_deals=session_deals, deals=deals, seed=seed, bankroll=bankroll)  # fmt: skip
    print_written(*run_and_write(study, out, threads, backend, scheduler, workers))
