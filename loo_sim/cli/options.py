"""The options several commands share, each defined once: its flag, its type and the
first words of its help (the catalogue of the command line, as coverage.py's ``Opts``).
A command may add what is its own after those words (``--deals``: "Deals to play, at each
iteration"); ``tests/test_cli_options.py`` walks every command and checks that an option
met in two commands or more is one of these, with the same type and help.

One name per idea: ``--players N`` is ``--set players=N`` on every command that plays
deals; ``--deals`` counts all the deals of a run (per iteration in ``solve``, per seat
count in ``calibrate``), ``--session-deals`` the deals of one session, wherever sessions
are played."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from loo_sim.base.checks import MAX_DEALS, MAX_SEED, MAX_SESSION_DEALS, MAX_SESSIONS
from loo_sim.base.errors import LooError
from loo_sim.cli.params import Chips, OneOf, Seat, WholeNumber, policy_text, threads
from loo_sim.game.rules import parse_set
from loo_sim.run.backend import BACKENDS

# flag -> the first words of its help, wherever it appears
HELP = {
    "--preset": "Rule preset (see `loo-sim rules`).",
    "--set": "Override one option, KEY=VALUE (repeatable), e.g. --set penalty=limited.",
    "--players": "Players at the table, 3..8: the same as --set players=N [default: the preset's].",
    "--policy": "Policy of every seat, DECLARE[/PLAY[/EXCHANGE]], e.g. cautious/high or basic/pimc:16.",
    "--seat-policy": "Policy of one seat, SEAT=POLICY (repeatable), e.g. 2=cautious.",
    "--deals": "Deals to play",
    "--session-deals": "Deals per session",
    "--sessions": "Sessions to play",
    "--burn-in": "Deals left out at the start of each session",
    "--bankroll": "End a session when a balance falls below -BANKROLL.",
    "--seed": "Seed of the random streams",
    "--carried": "Chips carried in",
    "--dealer": "Dealer seat",
    "--focal": "The seat",
    "--why": "At every card decision, the legal cards and why the others are not",
    "--table": "The policy of the other seats, DECLARE[/PLAY[/EXCHANGE]].",
    "--precision": "Stop when every paired difference's 95% half-width is below this many chips",
    "--indicator": "The indicator (turn-up), e.g. 4H (R6).",
    "--miss": 'The miss as dealt (R5), e.g. "2S 5D QC".',
    "--out": "Folder to write",
    "--threads": "Worker threads (default: all cores). Results do not depend on it.",
    "--backend": "Where the kernel runs: local (this process) or dask.",
    "--scheduler": "With --backend dask: address of an existing scheduler (default: a LocalCluster).",
    "--workers": "With --backend dask and no --scheduler: LocalCluster workers.",
}
# flag -> its parser (a type's instance): the same everywhere it appears
PARSERS: dict[str, Any] = {
    "--players": WholeNumber(3, 8),
    "--deals": WholeNumber(1, MAX_DEALS),
    "--session-deals": WholeNumber(1, MAX_SESSION_DEALS),
    "--sessions": WholeNumber(1, MAX_SESSIONS),
    "--burn-in": WholeNumber(0, MAX_SESSION_DEALS - 1),
    "--bankroll": Chips(),
    "--seed": WholeNumber(0, MAX_SEED),
    "--carried": Chips(),
    "--dealer": Seat(),
    "--focal": Seat(),
    "--threads": threads,
    "--policy": policy_text,
    "--table": policy_text,
    "--precision": Chips(positive=True, what="chips (a 95% half-width)"),
    "--backend": OneOf(BACKENDS),
    "--workers": WholeNumber(1, 512),
}


def shared(flag: str, more: str = "", **kwargs: Any) -> Any:
    """The option ``flag`` of the catalogue, its help followed by ``more`` (what is the
    command's own: a default, what the count covers)."""
    kwargs.setdefault("parser", PARSERS.get(flag))
    if kwargs["parser"] is None:
        del kwargs["parser"]
    return typer.Option(flag, help=HELP[flag] + more, **kwargs)


PresetOpt = Annotated[str, typer.Option("--preset", "-p", help=HELP["--preset"])]
SetOpt = Annotated[list[str] | None, shared("--set")]
PlayersOpt = Annotated[int | None, shared("--players", metavar="N")]
PolicyOpt = Annotated[str | None, shared("--policy")]
SeatPolicyOpt = Annotated[list[str] | None, shared("--seat-policy")]
ThreadsOpt = Annotated[int | None, shared("--threads")]
BackendOpt = Annotated[str, shared("--backend", metavar="local|dask")]
SchedulerOpt = Annotated[str | None, shared("--scheduler")]
WorkersOpt = Annotated[int | None, shared("--workers")]
BankrollOpt = Annotated[float | None, shared("--bankroll")]
# the per-session deal count's old name (pots, tournament, risk): passed to the study, which refuses it
OldDealsOpt = Annotated[str | None, typer.Option("--deals", hidden=True, help="Old name of --session-deals.")]


def rules_with_players(sets: list[str] | None, players: int | list[int] | None) -> dict[str, Any]:
    """The ``--set`` overrides with ``--players`` as ``players=N``; both given and different
    is an error. A sweep (``miss --players 4 --players 6``) is checked, not put in the rules."""
    rules = parse_set(sets)
    counts = [players] if isinstance(players, int) else list(players or [])
    given = rules.get("players")
    for n in counts:
        if given is not None and str(given).strip().lstrip("+") != str(n):
            raise LooError(f"--players {n} and --set players={given} disagree; give one of them")
    if isinstance(players, int):
        rules["players"] = str(players)  # as --set gives it: the same study, the same digest
    return rules
