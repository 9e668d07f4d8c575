"""``loo-sim risk``: risk of ruin over bankroll for one seat's policy, deals until ruin, the
bankroll a risk needs, and the N0 of its lead over basic (as a report's ``kind = "risk"``)."""

from __future__ import annotations

from typing import Annotated

import typer

from loo_sim.cli.app import PolicyOpt, PresetOpt, SetOpt, ThreadsOpt, seed_option
from loo_sim.cli.params import Seat, WholeNumber, policy_text
from loo_sim.cli.study import print_written, run_and_write
from loo_sim.game.rules import parse_set
from loo_sim.report.study import RiskStudy


def risk_cmd(
    focal_policy: Annotated[
        str, typer.Option(parser=policy_text, help="The policy whose risk is measured, at seat --focal.")
    ] = "ev",
    policy: PolicyOpt = None,
    focal: Annotated[int, typer.Option(parser=Seat(), help="The seat playing --focal-policy.")] = 0,
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    players: Annotated[int | None, typer.Option(parser=WholeNumber(3, 8), help="Players at the table.")] = None,
    sessions: Annotated[int, typer.Option(parser=WholeNumber(1, 10**7), help="Sessions.")] = 4000,
    deals: Annotated[int, typer.Option(parser=WholeNumber(1, 10**5), help="Deals per session.")] = 200,
    seed: Annotated[int, seed_option("Seed of the sessions.")] = 0,
    threads: ThreadsOpt = None,
    out: Annotated[str, typer.Option(help="Directory for the curves, CSVs and summary.md.")] = "out/risk",
) -> None:
    """Risk of ruin over bankroll for one seat's policy at a table (--policy: the other seats),
    the deals until ruin, the bankroll for a 1% and 5% risk, and N0: the deals after which
    its lead over basic exceeds one standard deviation of its result.

    Example: `loo-sim risk --preset limited --focal-policy ev --sessions 4000 --deals 200 --seed 1`.
    """
    rules = parse_set(sets)
    if players is not None:
        rules["players"] = players
    study = RiskStudy(preset=preset, rules=rules, policy=policy, focal_policy=focal_policy, focal=focal,
                      sessions=sessions, deals=deals, seed=seed)  # fmt: skip
    print_written(*run_and_write(study, out, threads, "local", None, None))
