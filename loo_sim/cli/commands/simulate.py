"""``loo-sim simulate``: many independent deals with the kernel; rates, loo rates, tricks
and net chips per seat with their uncertainty. It runs a simulate study, as a report's
``kind = "simulate"`` experiment does, and writes the same files."""

from __future__ import annotations

from typing import Annotated

import typer

from loo_sim.cli.app import check_workers
from loo_sim.cli.options import (
    BackendOpt,
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
from loo_sim.cli.study import run_and_write
from loo_sim.report.kinds.simulate import SimulateStudy

LONG_RUN = 2_000_000  # deals: shorter runs show no progress bar


def simulate_cmd(
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    players: PlayersOpt = None,
    policy: PolicyOpt = None,
    seat_policy: SeatPolicyOpt = None,
    deals: Annotated[int, shared("--deals", ", each independent (1e6 and 1_000_000 work).")] = 100_000,
    seed: Annotated[int, shared("--seed", ": deal k is shuffled from the stream (seed, k).")] = 0,
    threads: ThreadsOpt = None,
    carried: Annotated[float, shared("--carried", " every deal (0 = a clean pot).")] = 0.0,
    dealer: Annotated[
        int | None, shared("--dealer", " of every deal (default: deal k is dealt by seat k mod players).")
    ] = None,
    out: Annotated[
        str | None, shared("--out", ": summary.csv (long form), positions.csv, summary.md and run.json.")
    ] = None,
    by_class: Annotated[bool, typer.Option("--by-class", help="Also the loo rate by hand class (P5).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Play many independent deals with the kernel and print rates, loo rates, trick counts and
    net chips per seat, each with its uncertainty.

    Examples: `loo-sim simulate --preset three-card --deals 1000000 --seed 1`,
    `loo-sim simulate --preset five-card --seat-policy 0=cautious --deals 2e6 --out out/five`.
    """
    check_workers(backend, workers)
    study = SimulateStudy(preset=preset, rules=rules_with_players(sets, players), policy=policy,
                          seat_policy=seat_map(seat_policy), deals=deals, seed=seed, carried=carried, dealer=dealer,
                          by_class=by_class)  # fmt: skip
    output, out_dir, _ = run_and_write(study, out, threads, backend, scheduler, workers, min_total=LONG_RUN)
    info = output.info
    if as_json:
        data = {"run": info, "summary": output.tables["summary"].to_dict(orient="records")}
        if "by_class" in output.tables:
            data["by_class"] = output.tables["by_class"].to_dict(orient="records")
        from loo_sim.report.outputs import to_json

        typer.echo(to_json(data, "simulate", indent=None))
        return
    typer.echo(output.text)
    if out_dir is not None:
        typer.echo(f"wrote {out_dir / 'summary.csv'} and {out_dir / 'run.json'}")
