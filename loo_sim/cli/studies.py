"""``loo-sim`` study commands: calibrate (strength tables), miss (decision charts and
heuristics) and pots (sessions). Registered on the app of ``cli.py``."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from loo_sim import checks
from loo_sim.cli.main import (
    BackendOpt,
    PolicyOpt,
    PresetOpt,
    SchedulerOpt,
    SeatPolicyOpt,
    SetOpt,
    WorkersOpt,
    app,
    build_rules,
    open_backend,
)
from loo_sim.errors import LooError
from loo_sim.game.rules import parse_set


@app.command("calibrate")
def calibrate_cmd(
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    players: Annotated[str | None, typer.Option(help="Players at the table (default: the preset's).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Recompute even if a table is shipped or cached.")] = False,
    deals: Annotated[str, typer.Option(help="Deals per seat count when calibrating.")] = "500000",
    seed: Annotated[str, typer.Option(help="Seed of the calibration runs.")] = "20260101",
    out: Annotated[str | None, typer.Option(help="Also write the table as CSV into this directory.")] = None,
) -> None:
    """Strength tables for threshold and ev: P(k tricks | hand class, seats in the deal).

    Shipped tables cover the presets at 3-8 players; other rule sets are calibrated once
    and cached (keyed by a hash of the rules). Examples: `loo-sim calibrate --preset
    three-card --players 6`, `loo-sim calibrate --preset limited --set lead=classic --force`.
    """
    from loo_sim.game.classes import MISS_ROW, N_CLASSES, class_label, grid_text
    from loo_sim.report.outputs import prepare_out_dir, write_csv
    from loo_sim.run.strength import cache_dir, strength_for

    rules = build_rules(preset, sets)
    if players is not None:
        rules = rules.replace(players=checks.whole_number("--players", players, 3, 8))
    n_deals, seed_value = checks.deals(deals), checks.seed(seed)
    out_dir = prepare_out_dir(out) if out is not None else None
    table = strength_for(rules, force=force, deals=n_deals, seed=seed_value, notify=typer.echo)
    source = {"shipped": "shipped with loo_sim", "cache": f"cached in {cache_dir()}",
              "calibrated": "calibrated now"}[table.source]  # fmt: skip
    n = rules.players
    typer.echo(f"Strength table of {preset} ({n} players): {source}; key {table.key}, {table.deals:,} deals "
               f"per seat count, seed {table.seed}; entry rate p_in = {table.p_in:.3f}")  # fmt: skip
    typer.echo(
        f"P(no trick) by hand class and seats in the deal (m), from {int(table.counts[:MISS_ROW].sum()):,} hands:"
    )
    head = "".join(f"   m={m}" for m in range(2, n + 1))
    typer.echo(f"  {'hand class':<44}{'hands':>11}{head}")
    rows = []
    for cls in [*range(N_CLASSES), MISS_ROW]:
        hands = int(table.counts[cls].sum())
        if hands == 0:
            continue
        p0 = "".join(f"{table.probs[cls, m, 0]:7.3f}" for m in range(2, n + 1))
        typer.echo(f"  {class_label(cls):<44}{hands:>11,}{p0}")
        for m in range(2, n + 1):
            for k in range(rules.hand_size + 1):
                hands_m = int(table.counts[cls, m].sum())
                rows.append(dict(hand_class=cls, label=class_label(cls), seats=m, tricks=k,
                                 probability=table.probs[cls, m, k], hands=hands_m))  # fmt: skip
    typer.echo("\n" + grid_text())
    if out_dir is not None:
        import pandas as pd

        write_csv(out_dir / "strength.csv", pd.DataFrame(rows))
        typer.echo(f"wrote {out_dir / 'strength.csv'}")


def _run(study, out: str, threads: str | None, backend: str, scheduler: str | None, workers: str | None) -> None:
    """Validate, run and write a study; print its summary (shared by miss and pots)."""
    from numba import set_num_threads

    from loo_sim.report.outputs import prepare_out_dir
    from loo_sim.report.studies import run_study, write_study

    study.check()
    set_num_threads(checks.threads(threads))
    out_dir = prepare_out_dir(out)
    runner = open_backend(backend, scheduler, workers)
    try:
        output = run_study(study, out, backend=runner)
    finally:
        runner.close()
    names = write_study(out_dir, output)
    for warning in output.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if output.partial:
        print("interrupted: the results written are PARTIAL", file=sys.stderr)
    typer.echo(output.summary)
    typer.echo(f"wrote {', '.join(names)} in {out_dir}")


def _seat_policies(items: list[str] | None) -> dict[int, str]:
    out = {}
    for item in items or ():
        seat, sep, text = item.partition("=")
        if not sep or not seat.strip().lstrip("-").isdigit():
            raise LooError(f"--seat-policy {item!r}: expected SEAT=POLICY, e.g. 2=cautious")
        out[int(seat)] = text
    return out


@app.command("miss")
def miss_cmd(
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    players: Annotated[list[str] | None, typer.Option(help="Players at the table (repeat for the sweep).")] = None,
    policy: PolicyOpt = None,
    seat_policy: SeatPolicyOpt = None,
    carried: Annotated[list[str] | None, typer.Option(help="Chips carried in (repeat for the sweep).")] = None,
    deals: Annotated[str, typer.Option(help="Deals per run (the most, with --precision).")] = "200000",
    seed: Annotated[str, typer.Option(help="Seed of the runs.")] = "0",
    precision: Annotated[
        str | None,
        typer.Option(help="Stop the heuristic comparison when every paired difference's 95% half-width is below this."),
    ] = None,
    focal: Annotated[str, typer.Option(help="Seat whose heuristics are compared.")] = "0",
    chart_seat: Annotated[
        str, typer.Option(help="Seat whose declarations the chart replays, or 'all' (each in turn).")
    ] = "all",
    threads: Annotated[str | None, typer.Option(help="Worker threads (default: all cores).")] = None,
    out: Annotated[str, typer.Option(help="Directory for the charts, CSVs and summary.md.")] = "out/miss",
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Should a hand play, pass or take the miss? Counterfactual decision charts by hand
    class, a paired comparison of heuristics, and how the answer moves with the pot and
    the number of players.

    Examples: `loo-sim miss --preset three-card --deals 200000 --seed 1 --out out/miss`,
    `loo-sim miss --players 4 --players 5 --players 6 --carried 0 --carried 15 --carried 45 --precision 0.05`.
    """
    from loo_sim.report.studies import Study

    limit = None if precision is None else checks.chips("--precision", precision)
    if limit is not None and limit <= 0:
        raise LooError("--precision: must be > 0 chips (a 95% half-width)")
    counts = [checks.whole_number("--players", p, 3, 8) for p in players or []]
    first_n = counts[0] if counts else build_rules(preset, sets).players
    study = Study(
        kind="miss", preset=preset, rules=parse_set(sets), policy=policy, seat_policy=_seat_policies(seat_policy),
        deals=checks.whole_number("--deals", deals, 1), seed=checks.seed(seed, "--seed"),
        carried=[checks.chips("--carried", c) for c in carried] if carried else [0.0], players=counts,
        precision=limit, focal=checks.seat("--focal", focal, first_n),
        chart_seat=None if chart_seat.strip().lower() == "all" else checks.seat("--chart-seat", chart_seat, first_n),
    )  # fmt: skip
    _run(study, out, threads, backend, scheduler, workers)


@app.command("pots")
def pots_cmd(
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    policy: PolicyOpt = None,
    seat_policy: SeatPolicyOpt = None,
    compare: Annotated[
        list[str] | None,
        typer.Option(help="KEY=V1,V2[,...]: an option (or policy) to vary; repeat for a grid. First = baseline."),
    ] = None,
    sessions: Annotated[str, typer.Option(help="Independent sessions per arm.")] = "2000",
    deals: Annotated[str, typer.Option(help="Deals per session (fewer if someone is ruined).")] = "50",
    bankroll: Annotated[str | None, typer.Option(help="End a session when a balance falls below -B.")] = None,
    seed: Annotated[str, typer.Option(help="Seed: deal j of session i comes from (seed, i, j) in every arm.")] = "0",
    threads: Annotated[str | None, typer.Option(help="Worker threads (default: all cores).")] = None,
    out: Annotated[str, typer.Option(help="Directory for the plots, CSVs and summary.md.")] = "out/pots",
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Sessions of many deals (R10): how pots grow, how large they get, who ends ahead, and
    the chance of ruin, for each arm of a comparison played on the same decks.

    Examples: `loo-sim pots --preset three-card --compare penalty=limited,unlimited --sessions 5000 --deals 50`,
    `loo-sim pots --compare penalty=limited,unlimited --compare policy=basic,ev --bankroll 200 --out out/pots`.
    """
    from loo_sim.report.studies import Study

    study = Study(
        kind="pots", preset=preset, rules=parse_set(sets), policy=policy, seat_policy=_seat_policies(seat_policy),
        compare=list(compare or []), sessions=checks.whole_number("--sessions", sessions, 1),
        deals=checks.whole_number("--deals", deals, 1, 100_000),
        seed=checks.seed(seed, "--seed"),
        bankroll=None if bankroll is None else checks.chips("--bankroll", bankroll),
    )  # fmt: skip
    _run(study, out, threads, backend, scheduler, workers)


@app.command("report")
def report_cmd(
    config: Annotated[str, typer.Argument(help="The TOML config of the experiments.")],
    out: Annotated[str, typer.Option(help="Directory of the report (index.md, index.html, one folder each).")] = (
        "out/report"
    ),
    resume: Annotated[bool, typer.Option("--resume", help="Skip experiments already done with the same config.")] = (
        False
    ),
    only: Annotated[list[str] | None, typer.Option(help="Run only this experiment (repeatable).")] = None,
    threads: Annotated[str | None, typer.Option(help="Worker threads (default: all cores).")] = None,
    backend: Annotated[str | None, typer.Option(help="local or dask (default: the config's, else local).")] = None,
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Run every experiment of a TOML config (kinds simulate, miss, pots, variants) and write a
    report a person reads (index.md, index.html) and a program loads (CSV, manifest.json).

    Examples: `loo-sim report reports/miss.toml --out reports/miss`,
    `loo-sim report my.toml --out out/my --resume`, `loo-sim report my.toml --only limited-vs-unlimited`.
    """
    from pathlib import Path

    from numba import set_num_threads

    from loo_sim.report.batch import build_index, load_config, run_report
    from loo_sim.report.outputs import prepare_out_dir

    cfg = load_config(config)
    set_num_threads(checks.threads(threads))
    out_dir = prepare_out_dir(out)
    runner = open_backend(backend or cfg.backend, scheduler or cfg.scheduler, workers)
    try:
        manifest = run_report(cfg, Path(out_dir), resume=resume, only=only, echo=typer.echo, backend=runner)
    finally:
        runner.close()
    build_index(cfg, Path(out_dir))
    typer.echo(f"wrote {out_dir / 'index.md'}, {out_dir / 'index.html'} and {out_dir / 'manifest.json'}")
    failed = [name for name, e in manifest["experiments"].items() if e.get("status") == "failed"]
    if failed:
        raise LooError(f"{len(failed)} experiment(s) failed: {', '.join(failed)} (see manifest.json)")
