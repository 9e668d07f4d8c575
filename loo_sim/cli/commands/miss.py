"""``loo-sim miss``: should a hand play, pass or take the miss? Runs a miss study (as a
report's ``kind = "miss"`` experiment does) and prints its summary."""

from __future__ import annotations

from typing import Annotated

import typer

from loo_sim.cli.app import check_workers
from loo_sim.cli.options import (
    HELP,
    PARSERS,
    BackendOpt,
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
from loo_sim.cli.params import CarriedPot, Chips, Seat, policy_text, seat_map
from loo_sim.cli.study import print_written, run_and_write
from loo_sim.report.kinds.miss import MissStudy

# the options of the miss study alone
PlayersSweepOpt = Annotated[
    list[int] | None,
    typer.Option("--players", parser=PARSERS["--players"], metavar="N",
                 help=HELP["--players"] + " Repeat for a sweep over table sizes."),
]  # fmt: skip
PrecisionOpt = Annotated[float | None, shared("--precision", " (the heuristic comparison).")]
HeuristicOpt = Annotated[
    list[str] | None,
    typer.Option("--heuristic", parser=policy_text,
                 help="A heuristic of your own compared with the shipped ones (repeatable): [NAME=]POLICY, e.g. "
                 "'nothing=rule:miss if trumps == 0 and aces == 0 and faces == 0; play if trumps >= 1 or aces >= 1; "
                 "defend; pass; play' (docs/policies.md P3b)."),
]  # fmt: skip
ChartSeatOpt = Annotated[
    int | None,
    typer.Option("--chart-seat", parser=Seat(all_word=True), metavar="SEAT|all",
                 help="Seat whose declarations the chart replays, or 'all' (each seat in turn)."),
]  # fmt: skip
ChartScaleOpt = Annotated[
    float | None,
    typer.Option("--chart-scale", parser=Chips(positive=True, what="chips"),
                 help="Colour limit of the charts in chips (default: from the data), so charts of several runs "
                 "compare."),
]  # fmt: skip


def miss_cmd(
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    players: PlayersSweepOpt = None,
    policy: PolicyOpt = None,
    seat_policy: SeatPolicyOpt = None,
    carried: Annotated[
        list[str] | None,
        shared(
            "--carried",
            " (repeat for the sweep), or 'session': each deal's carried pot drawn from the pots "
            "met in sessions under these rules and policies.",
            parser=CarriedPot(),
        ),
    ] = None,
    sessions: Annotated[int | None, shared("--sessions", " with --carried session [default: 2000].")] = None,
    session_deals: Annotated[int | None, shared("--session-deals", " with --carried session [default: 50].")] = None,
    burn_in: Annotated[int | None, shared("--burn-in", " with --carried session [default: 10].")] = None,
    deals: Annotated[int, shared("--deals", " in each run (the most, with --precision).")] = 200_000,
    seed: Annotated[int, shared("--seed", ": deal k of a run is shuffled from the stream (seed, k).")] = 0,
    precision: PrecisionOpt = None,
    focal: Annotated[int, shared("--focal", " whose heuristics are compared.")] = 0,
    heuristic: HeuristicOpt = None,
    chart_seat: ChartSeatOpt = "all",  # type: ignore[assignment]
    chart_scale: ChartScaleOpt = None,
    threads: ThreadsOpt = None,
    out: Annotated[str, shared("--out", ": the charts, CSVs and summary.md.")] = "out/miss",
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
    rules = rules_with_players(sets, list(players or []))  # the sweep is the study's own
    study = MissStudy(
        preset=preset, rules=rules, policy=policy, seat_policy=seat_map(seat_policy), deals=deals, seed=seed,
        carried=list(carried) if carried else [0.0], players=list(players or []), precision=precision, focal=focal,
        chart_seat=chart_seat, chart_scale=chart_scale, sessions=sessions, session_deals=session_deals, burn_in=burn_in,
        heuristics=list(heuristic or []),
    )  # fmt: skip
    print_written(*run_and_write(study, out, threads, backend, scheduler, workers))
