"""``loo-sim risk``: risk of ruin over bankroll for one seat's policy, deals until ruin, the
bankroll a risk needs, and the N0 of its lead over basic (as a report's ``kind = "risk"``)."""

from __future__ import annotations

from typing import Annotated

import typer

from loo_sim.cli.app import check_workers
from loo_sim.cli.options import (
    BackendOpt,
    OldDealsOpt,
    PlayersOpt,
    PolicyOpt,
    PresetOpt,
    SchedulerOpt,
    SetOpt,
    ThreadsOpt,
    WorkersOpt,
    rules_with_players,
    shared,
)
from loo_sim.cli.params import policy_text
from loo_sim.cli.study import print_written, run_and_write
from loo_sim.report.kinds.risk import RiskStudy


def risk_cmd(
    focal_policy: Annotated[
        str, typer.Option(parser=policy_text, help="The policy whose risk is measured, at seat --focal.")
    ] = "ev",
    policy: PolicyOpt = None,
    focal: Annotated[int, shared("--focal", " playing --focal-policy.")] = 0,
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    players: PlayersOpt = None,
    sessions: Annotated[int, shared("--sessions", ", each played without ruin and read at every bankroll.")] = 4000,
    session_deals: Annotated[int, shared("--session-deals", ".")] = 200,
    deals: OldDealsOpt = None,
    seed: Annotated[int, shared("--seed", ": deal j of session i comes from (seed, i, j).")] = 0,
    threads: ThreadsOpt = None,
    out: Annotated[str, shared("--out", ": the curves, CSVs and summary.md.")] = "out/risk",
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Risk of ruin over bankroll for one seat's policy at a table (--policy: the other seats),
    the deals until ruin, the bankroll for a 1% and 5% risk, and N0: the deals after which
    its lead over basic exceeds one standard deviation of its result.

    Example: `loo-sim risk --preset limited --focal-policy ev --sessions 4000 --session-deals 200 --seed 1`.
    """
    check_workers(backend, workers)
    study = RiskStudy(preset=preset, rules=rules_with_players(sets, players), policy=policy,
                      focal_policy=focal_policy, focal=focal, sessions=sessions, session_deals=session_deals,
                      deals=deals, seed=seed)  # fmt: skip
    print_written(*run_and_write(study, out, threads, backend, scheduler, workers))
