"""``loo-sim calibrate``: the strength tables of threshold and ev (shipped, cached or
calibrated now), shown as P(no trick) by hand class and seats in the deal."""

from __future__ import annotations

from typing import Annotated

import typer

from loo_sim.cli.app import build_rules
from loo_sim.cli.options import PlayersOpt, PresetOpt, SetOpt, shared
from loo_sim.cli.progress import compile_notice


def calibrate_cmd(
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    players: PlayersOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Recompute even if a table is shipped or cached.")] = False,
    deals: Annotated[int, shared("--deals", " for each count of seats in the deal, when calibrating.")] = 500_000,
    seed: Annotated[int, shared("--seed", " of the calibration runs.")] = 20260101,
    out: Annotated[str | None, shared("--out", ": the table as strength.csv (optional).")] = None,
) -> None:
    """Strength tables for threshold and ev: P(k tricks | hand class, seats in the deal).

    Shipped tables cover the presets at 3-8 players; other rule sets are calibrated once
    and cached (keyed by a hash of the rules). Examples: `loo-sim calibrate --preset
    three-card --players 6`, `loo-sim calibrate --preset limited --set lead=classic --force`.
    """
    from loo_sim.game.classes import grid_text
    from loo_sim.report.outputs import prepare_out_dir
    from loo_sim.run.strength import cache_dir, strength_for

    rules = build_rules(preset, sets, players)
    out_dir = prepare_out_dir(out) if out is not None else None

    def notify(message: str) -> None:
        typer.echo(message)
        if message.startswith("calibrating"):  # it runs the kernel now
            compile_notice("calibrate")

    table = strength_for(rules, force=force, deals=deals, seed=seed, notify=notify)
    source = {"shipped": "shipped with loo_sim", "cache": f"cached in {cache_dir()}",
              "calibrated": "calibrated now"}[table.source]  # fmt: skip
    typer.echo(f"Strength table of {preset} ({rules.players} players): {source}; key {table.key}, {table.deals:,} "
               f"deals per seat count, seed {table.seed}; entry rate p_in = {table.p_in:.3f}")  # fmt: skip
    rows = _show_table(table, rules.players, rules.hand_size)
    typer.echo("\n" + grid_text(rules))
    if out_dir is not None:
        import pandas as pd

        from loo_sim.report.outputs import csv_bytes
        from loo_sim.report.running import write_run_files

        info = {
            "kind": "calibrate",
            "rules": rules.to_dict(),
            "key": table.key,
            "deals": table.deals,
            "seed": table.seed,
        }
        names = write_run_files(out_dir, [("strength.csv", csv_bytes(pd.DataFrame(rows)))], info)
        typer.echo(f"wrote {', '.join(names)} in {out_dir}")


def _show_table(table, n: int, hand_size: int) -> list[dict]:
    """Print P(no trick) by hand class and seats in the deal; the rows of strength.csv."""
    from loo_sim.game.classes import MISS_ROW, N_CLASSES, class_label

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
            hands_m = int(table.counts[cls, m].sum())
            for k in range(hand_size + 1):
                rows.append(dict(hand_class=cls, label=class_label(cls), seats=m, tricks=k,
                                 probability=table.probs[cls, m, k], hands=hands_m))  # fmt: skip
    return rows
