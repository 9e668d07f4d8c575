"""``loo-sim cardplay``: the card-play ladder (as a report's ``kind = "cardplay"``), and
``--compare-charts A B``: which verdicts of a decision chart change between two miss runs."""

from __future__ import annotations

from typing import Annotated

import typer

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
from loo_sim.cli.params import policy_text
from loo_sim.cli.study import print_written, run_and_write
from loo_sim.report.kinds.cardplay import CardplayStudy
from loo_sim.report.kinds.fields import split_policies

DEFAULT_OUT = "out/cardplay"


def cardplay_cmd(
    entrants: Annotated[
        str,
        typer.Option(
            help="The entrants, comma-separated: PLAY families (with the table's declarations), e.g. "
            "basic,high,low,random,pimc:8,perfect, or whole policies DECLARE/PLAY[/EXCHANGE]. The first is "
            "the baseline (pimc and perfect solve deals at every card: slower)."
        ),
    ] = "basic,high,low,random",
    focal: Annotated[str | None, typer.Option("--focal", hidden=True, help="Old name of --entrants.")] = None,
    table: Annotated[str, shared("--table")] = "basic",
    whole_table: Annotated[
        str | None,
        typer.Option(
            parser=policy_text,
            help="Also ladder B: the same with every other seat on this PLAY family (or whole policy).",
        ),
    ] = None,
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    players: PlayersOpt = None,
    carried: Annotated[float, shared("--carried", " every deal.")] = 0.0,
    deals: Annotated[int, shared("--deals", ", each played by every entrant in every position.")] = 100_000,
    seed: Annotated[int, shared("--seed", ": deal k is shuffled from the stream (seed, k).")] = 0,
    threads: ThreadsOpt = None,
    out: Annotated[
        str | None, shared("--out", f": ladder.csv, ladder.png and summary.md [default: {DEFAULT_OUT}].")
    ] = None,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
    compare_charts: Annotated[
        tuple[str, str] | None,
        typer.Option(
            metavar="A B",
            help="Instead of a ladder: compare the decision charts of two `loo-sim miss` outputs (folders or chart "
            "CSVs) and list the cells whose verdict changes (written with --out).",
        ),
    ] = None,
) -> None:
    """The card-play ladder: a focal seat plays each entrant's card play against a table of
    --table players on the same deals, in every position: chips per deal, loo rate and
    tricks, by position and overall, and paired differences from the first entrant.

    Examples: `loo-sim cardplay --players 5 --entrants basic,high,low,random --deals 100000 --seed 1`,
    `loo-sim cardplay --players 5 --entrants basic,pimc:8,pimc:32,perfect --whole-table pimc:16 --deals 40000`
    (the committed ladder, a few minutes), `loo-sim cardplay --compare-charts out/miss-basic out/miss-low
    --out out/verdicts`.
    """
    check_workers(backend, workers)
    if compare_charts is not None and compare_charts[0] is not None:
        _compare(*compare_charts, out)
        return
    study = CardplayStudy(preset=preset, rules=rules_with_players(sets, players), entrants=split_policies(entrants),
                          focal=focal, table_policy=table, whole_table=whole_table, carried=carried, deals=deals,
                          seed=seed)  # fmt: skip
    print_written(*run_and_write(study, out or DEFAULT_OUT, threads, backend, scheduler, workers))


def _compare(a: str, b: str, out: str | None) -> None:
    from loo_sim.report.kinds.cardplay_run import chart_comparison
    from loo_sim.report.outputs import csv_bytes, prepare_out_dir
    from loo_sim.report.running import write_run_files

    changes, text = chart_comparison(a, b)
    out_dir = prepare_out_dir(out) if out is not None else None
    typer.echo(text)
    if out_dir is not None:
        files = [("verdict_changes.csv", csv_bytes(changes, "verdict_changes.csv")),
                 ("verdict_changes.md", text.encode("utf-8"))]  # fmt: skip
        names = write_run_files(out_dir, files, {"kind": "cardplay --compare-charts", "charts": [a, b]})
        typer.echo(f"wrote {', '.join(names)} in {out_dir}")
