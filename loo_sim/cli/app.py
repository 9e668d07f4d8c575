"""The Typer app of ``loo-sim`` and the options several commands share (typed with the
parameter types of ``cli.params``). The commands are in ``cli/commands/``, one module
each, and ``cli/__init__.py`` registers them on this app."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from loo_sim.checks import MAX_SEED
from loo_sim.cli.params import OneOf, WholeNumber, policy_text, threads
from loo_sim.errors import LooError
from loo_sim.game.rules import Rules, parse_set, profile_warnings
from loo_sim.run.backend import BACKENDS

app = typer.Typer(
    name="loo-sim",
    help="Monte Carlo strategy analyzer for Loo (Lanterloo). Rules: docs/rules.md; policies: docs/policies.md.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

SetOpt = Annotated[
    list[str] | None,
    typer.Option("--set", help="Override one option, KEY=VALUE (repeatable), e.g. --set penalty=limited."),
]
PresetOpt = Annotated[str, typer.Option("--preset", "-p", help="Rule preset (see `loo-sim rules`).")]
PolicyOpt = Annotated[
    str | None,
    typer.Option(
        "--policy",
        parser=policy_text,
        help="Policy of every seat, DECLARE[/PLAY[/EXCHANGE]], e.g. cautious/high or basic/pimc:16.",
    ),
]
SeatPolicyOpt = Annotated[
    list[str] | None,
    typer.Option("--seat-policy", help="Policy of one seat, SEAT=POLICY (repeatable), e.g. 2=cautious."),
]
ThreadsOpt = Annotated[
    int | None,
    typer.Option(parser=threads, help="Worker threads (default: all cores). Results do not depend on it."),
]
BackendOpt = Annotated[
    str,
    typer.Option(
        parser=OneOf(BACKENDS), metavar="local|dask", help="Where the kernel runs: local (this process) or dask."
    ),
]
SchedulerOpt = Annotated[
    str | None, typer.Option(help="With --backend dask: address of an existing scheduler (default: a LocalCluster).")
]
WorkersOpt = Annotated[
    int | None,
    typer.Option(parser=WholeNumber(1, 512), help="With --backend dask and no --scheduler: LocalCluster workers."),
]


def seed_option(help_text: str) -> typer.models.OptionInfo:
    """A seed: a whole number 0..2**63-1 (the first word of the counter-based streams)."""
    return typer.Option(parser=WholeNumber(0, MAX_SEED), help=help_text)


def check_workers(backend: str, workers: int | None) -> None:
    """``--workers`` sizes a Dask LocalCluster: refused with the local backend (as ``--scheduler`` is)."""
    if workers is not None and backend == "local":
        raise LooError("--workers goes with --backend dask (the local backend runs in this process; see --threads)")


def build_rules(preset: str, sets: list[str] | None) -> Rules:
    """The rule set of ``--preset`` with the ``--set`` overrides (warned about where they
    leave the preset's seed profile, ``warn_profile``)."""
    rules = Rules.preset(preset, **parse_set(sets))
    warn_profile(preset, rules)
    return rules


def warn_profile(preset: str, rules: Rules) -> None:
    """R9c: one line on stderr for each setting outside the range the preset's seed
    profile gives (``game.rules.profile_warnings``); the command plays on. Every command
    that builds a rule set from ``--preset`` and ``--set`` passes here (``build_rules``,
    ``cli.study.run_and_write``)."""
    for line in profile_warnings(preset, rules):
        print(f"warning: {line}", file=sys.stderr)
