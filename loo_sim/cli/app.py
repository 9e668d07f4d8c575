"""The Typer app of ``loo-sim`` and the helpers its commands share (the rule set of
``--preset``/``--set``/``--players``, its profile warnings). The options the commands share
are in ``cli/options.py``; the commands in ``cli/commands/``, one module each, which
``cli/__init__.py`` registers on this app."""

from __future__ import annotations

import sys

import typer

from loo_sim.base.errors import LooError
from loo_sim.game.rules import Rules, profile_warnings

app = typer.Typer(
    name="loo-sim",
    help="Monte Carlo strategy analyzer for Loo (Lanterloo). Rules: docs/rules.md; policies: docs/policies.md.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def check_workers(backend: str, workers: int | None) -> None:
    """``--workers`` sizes a Dask LocalCluster: refused with the local backend (as ``--scheduler`` is)."""
    if workers is not None and backend == "local":
        raise LooError("--workers goes with --backend dask (the local backend runs in this process; see --threads)")


def build_rules(preset: str, sets: list[str] | None, players: int | None = None) -> Rules:
    """The rule set of ``--preset`` with the ``--set`` overrides and ``--players`` (warned
    about where they leave the preset's seed profile, ``warn_profile``)."""
    from loo_sim.cli.options import rules_with_players

    rules = Rules.preset(preset, **rules_with_players(sets, players))
    warn_profile(preset, rules)
    return rules


def warn_profile(preset: str, rules: Rules) -> None:
    """R9c: one line on stderr for each setting outside the range the preset's seed
    profile gives (``game.rules.profile_warnings``); the command plays on. Every command
    that builds a rule set from ``--preset`` and ``--set`` passes here (``build_rules``,
    ``cli.study.run_and_write``)."""
    for line in profile_warnings(preset, rules):
        print(f"warning: {line}", file=sys.stderr)
