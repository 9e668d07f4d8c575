"""``loo-sim solve``: the declaration game solved by fictitious play, with the exploitability
of the result and of the heuristics (as a report's ``kind = "solve"`` experiment)."""

from __future__ import annotations

from typing import Annotated

import typer

from loo_sim.base.checks import MAX_DEALS
from loo_sim.base.config import MIN_SOLVE_DEALS
from loo_sim.cli.app import check_workers
from loo_sim.cli.options import (
    BackendOpt,
    PlayersOpt,
    PresetOpt,
    SchedulerOpt,
    SetOpt,
    ThreadsOpt,
    WorkersOpt,
    rules_with_players,
    shared,
)
from loo_sim.cli.params import WholeNumber, policy_text
from loo_sim.cli.study import print_written, run_and_write
from loo_sim.report.kinds.solve import SolveStudy


def solve_cmd(
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    players: PlayersOpt = None,
    policy: Annotated[
        str | None,
        typer.Option(
            help="The table's card play and exchange, PLAY[/EXCHANGE], e.g. high or basic/keep-trumps "
            "(its declarations are what is solved)."
        ),
    ] = None,
    carried: Annotated[
        list[float] | None, shared("--carried", " (repeat: the deals are played at each) [default: 0].")
    ] = None,
    iterations: Annotated[
        int, typer.Option(parser=WholeNumber(1, 100_000), help="Fictitious-play iterations after the start.")
    ] = 100,
    deals: Annotated[
        int, shared("--deals", f" at each iteration and carried pot ({MIN_SOLVE_DEALS:,} at least).")
    ] = 200_000,
    eval_deals: Annotated[
        int | None,
        typer.Option(
            parser=WholeNumber(MIN_SOLVE_DEALS, MAX_DEALS),
            help="Fresh deals for each half of a NashConv estimate (default: 2 x --deals).",
        ),
    ] = None,
    start: Annotated[
        list[str] | None,
        typer.Option(help="Start policy: basic, always or cautious (repeat: one solve each, compared)."),
    ] = None,
    averaging: Annotated[
        str, typer.Option(help="uniform (classic fictitious play), linear (iteration t weighted t) or discounted:G.")
    ] = "linear",
    exploitability_of: Annotated[
        list[str] | None,
        typer.Option(
            parser=policy_text,
            help="Also the NashConv of this declaration policy at every seat, beside the shipped heuristics' "
            "(repeatable): [NAME=]POLICY, e.g. 'no miss=rule:play if trumps >= 1 or aces >= 1; defend; pass; play' "
            "(docs/policies.md P3b).",
        ),
    ] = None,
    compare_with: Annotated[
        str | None,
        typer.Option(
            help="A strategy table of the same rules (e.g. another solve's strategy.csv) to set the solved one "
            "beside: which information sets change their most likely declaration (comparison.csv, summary.md)."
        ),
    ] = None,
    seed: Annotated[int, shared("--seed", " of every iteration's deals and the fresh deals of the evaluation.")] = 0,
    threads: ThreadsOpt = None,
    out: Annotated[str, shared("--out", ": strategy.csv, the plots, CSVs and summary.md.")] = "out/solve",
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Solve the declaration game: a strategy table no seat can profitably leave (given the
    table's card play), its exploitability (NashConv) on fresh deals, and that of each
    heuristic. Read the table back with --policy table:OUT/strategy.csv in any command.

    Examples: `loo-sim solve --preset three-card --iterations 100 --deals 200000 --seed 1 --out out/solve`,
    `loo-sim solve --preset classic-limited --carried 0 --carried 6 --start basic --start always --start cautious`,
    `loo-sim solve --iterations 20 --exploitability-of 'rule:play if trumps >= 1 or aces >= 1; defend; pass; play'`,
    `loo-sim solve --policy pimc:8 --compare-with reports/solve/three-card-5/strategy.csv` (the equilibrium under
    stronger card play, beside the one under basic card play).
    """
    check_workers(backend, workers)
    study = SolveStudy(preset=preset, rules=rules_with_players(sets, players), policy=policy, deals=deals, seed=seed,
                       iterations=iterations, starts=list(start) if start else ["basic"], averaging=averaging,
                       carried=list(carried) if carried else [0.0], eval_deals=eval_deals,
                       exploitability_of=list(exploitability_of or []), compare_with=compare_with)  # fmt: skip
    print_written(*run_and_write(study, out, threads, backend, scheduler, workers))
