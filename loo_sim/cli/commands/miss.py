"""``loo-sim miss``: should a hand play, pass or take the miss? Runs a miss study (as a
report's ``kind = "miss"`` experiment does) and prints its summary."""

from __future__ import annotations

from typing import Annotated

import typer

from loo_sim.checks import MAX_DEALS, MAX_SESSION_DEALS, MAX_SESSIONS
from loo_sim.cli.app import (
    BackendOpt,
    PolicyOpt,
    PresetOpt,
    SchedulerOpt,
    SeatPolicyOpt,
    SetOpt,
    ThreadsOpt,
    WorkersOpt,
    check_workers,
    seed_option,
)
from loo_sim.cli.params import CarriedPot, Chips, Seat, WholeNumber, policy_text, seat_map
from loo_sim.cli.study import print_written, run_and_write
from loo_sim.game.rules import parse_set
from loo_sim.report.study import MissStudy


def miss_cmd(
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    players: Annotated[
        list[int] | None,
        typer.Option(parser=WholeNumber(3, 8), help="Players at the table (repeat for the sweep)."),
    ] = None,
    policy: PolicyOpt = None,
    seat_policy: SeatPolicyOpt = None,
    carried: Annotated[
        list[str] | None,
        typer.Option(
            parser=CarriedPot(),
            help="Chips carried in (repeat for the sweep), or 'session': each deal's carried pot drawn from the pots "
            "met in sessions under these rules and policies.",
        ),
    ] = None,
    sessions: Annotated[
        int | None,
        typer.Option(
            parser=WholeNumber(1, MAX_SESSIONS), help="With --carried session: sessions played [default: 2000]."
        ),
    ] = None,
    session_deals: Annotated[
        int | None,
        typer.Option(
            parser=WholeNumber(1, MAX_SESSION_DEALS), help="With --carried session: deals per session [default: 50]."
        ),
    ] = None,
    burn_in: Annotated[
        int | None,
        typer.Option(
            parser=WholeNumber(0, MAX_SESSION_DEALS - 1),
            help="With --carried session: the first deals of each session not counted [default: 10].",
        ),
    ] = None,
    deals: Annotated[
        int, typer.Option(parser=WholeNumber(1, MAX_DEALS), help="Deals per run (the most, with --precision).")
    ] = 200_000,
    seed: Annotated[int, seed_option("Seed of the runs.")] = 0,
    precision: Annotated[
        float | None,
        typer.Option(
            parser=Chips(positive=True, what="chips (a 95% half-width)"),
            help="Stop the heuristic comparison when every paired difference's 95% half-width is below this.",
        ),
    ] = None,
    focal: Annotated[int, typer.Option(parser=Seat(), help="Seat whose heuristics are compared.")] = 0,
    heuristic: Annotated[
        list[str] | None,
        typer.Option(
            parser=policy_text,
            help="A heuristic of your own compared with the shipped ones (repeatable): [NAME=]POLICY, e.g. "
            "'nothing=rule:miss if trumps == 0 and aces == 0 and faces == 0; play if trumps >= 1 or aces >= 1; "
            "defend; pass; play' (docs/policies.md P3b).",
        ),
    ] = None,
    chart_seat: Annotated[
        int | None,
        typer.Option(
            parser=Seat(all_word=True), help="Seat whose declarations the chart replays, or 'all' (each in turn)."
        ),
    ] = "all",  # type: ignore[assignment]
    chart_scale: Annotated[
        float | None,
        typer.Option(
            parser=Chips(positive=True, what="chips"),
            help="Colour limit of the charts in chips (default: from the data), so charts of several runs compare.",
        ),
    ] = None,
    threads: ThreadsOpt = None,
    out: Annotated[str, typer.Option(help="Directory for the charts, CSVs and summary.md.")] = "out/miss",
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Should a hand play, pass or take the miss? Counterfactual decision charts by hand
    class, a paired comparison of heuristics, and how the answer moves with the pot and
    the number of players.

    Examples: `loo-sim miss --preset three-card --deals 200000 --seed 1 --out out/miss`,
    `loo-sim miss --players 4 --players 5 --players 6 --carried 0 --carried 15 --carried 45 --precision 0.05`,
    `loo-sim miss --preset limited --carried session --sessions 2000 --session-deals 50 --burn-in 10`,
    `loo-sim miss --heuristic 'rule:play if trumps >= 1 or aces >= 1 or faces >= 2; defend; miss; pass; play'`.
    """
    check_workers(backend, workers)
    study = MissStudy(
        preset=preset, rules=parse_set(sets), policy=policy, seat_policy=seat_map(seat_policy), deals=deals, seed=seed,
        carried=list(carried) if carried else [0.0], players=list(players or []), precision=precision, focal=focal,
        chart_seat=chart_seat, chart_scale=chart_scale, sessions=sessions, session_deals=session_deals, burn_in=burn_in,
        heuristics=list(heuristic or []),
    )  # fmt: skip
    print_written(*run_and_write(study, out, threads, backend, scheduler, workers))
