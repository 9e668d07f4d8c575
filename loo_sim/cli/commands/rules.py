"""``loo-sim rules``: the presets, or every option of one rule set."""

from __future__ import annotations

from typing import Annotated

import typer

from loo_sim.base.errors import LooError
from loo_sim.cli.app import build_rules
from loo_sim.cli.options import SetOpt
from loo_sim.game.rules import PRESETS


def rules_cmd(
    preset: Annotated[str | None, typer.Argument(help="A preset name; omit to list the presets.")] = None,
    sets: SetOpt = None,
) -> None:
    """List the presets, or show every option of one rule set.

    Every option and preset is explained, by section (R1-R13), in docs/rules.md of the
    loo_sim repository; how the simulated players decide is in docs/policies.md.

    Examples: `loo-sim rules`, `loo-sim rules classic-limited --set players=6 --set lead=classic`.
    """
    if preset is None:
        if sets:
            raise LooError("--set needs a preset, e.g. loo-sim rules three-card --set penalty=limited")
        typer.echo("Presets (docs/rules.md R11); show one with `loo-sim rules NAME`:")
        for name, (description, _) in PRESETS.items():
            typer.echo(f"  {name:<16} {description}")
        return
    rules = build_rules(preset, sets)
    typer.echo(f"Rule set: preset {preset}" + (f" with {', '.join(sets)}" if sets else ""))
    typer.echo(rules.render())
