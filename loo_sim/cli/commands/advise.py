"""``loo-sim advise``: what to declare with the hand you hold (and, with ``--play``, which
card to play now), by paired replays of deals drawn consistently with what you know,
beside what the shipped charts and equilibrium tables say of the same hand."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from loo_sim.cli.app import build_rules
from loo_sim.cli.options import PlayersOpt, PresetOpt, SetOpt, shared
from loo_sim.cli.params import WholeNumber

HandOpt = Annotated[str, typer.Option("--hand", help='Your cards, e.g. "KH 7S 3D" (AH, ah, 10h, A♥ ... as replay).')]
PositionOpt = Annotated[
    int,
    typer.Option("--position", parser=WholeNumber(1, 8), metavar="K",
                 help="Your position from the dealer's left: 1 = the eldest hand ... players = the dealer."),
]  # fmt: skip
EarlierOpt = Annotated[
    str | None,
    typer.Option(
        "--earlier", help="What the seats before you declared, in order from position 1, e.g. play,pass,miss."
    ),
]


def advise_cmd(
    position: PositionOpt,
    hand: HandOpt,
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    players: PlayersOpt = None,
    indicator: Annotated[str | None, shared("--indicator", " Drawn at random when not given.")] = None,
    earlier: EarlierOpt = None,
    carried: Annotated[float, shared("--carried", " (0: a clean pot).")] = 0.0,
    table: Annotated[str, shared("--table", " Every seat's: the later seats' declarations and all card play.")] = (
        "basic"
    ),
    precision: Annotated[float, shared("--precision", " [default: 0.05].")] = 0.05,
    deals: Annotated[int, shared("--deals", " at most (kept deals), if the precision is not reached first.")] = (
        1_000_000
    ),
    seed: Annotated[int, shared("--seed", ".")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
) -> None:
    """What should I do with this hand? Each declaration on offer to your hand, with its
    expected net chips for the deal and the paired difference from the best, on deals of
    the cards you cannot see drawn to agree with what you know: your hand, the indicator,
    the pot and the earlier seats' declarations under the table's policy (docs/policies.md,
    "Advice"). Beside it, the shipped decision chart's cell and the equilibrium table's
    row for the same rules, where they exist.

    Example: `loo-sim advise --players 5 --position 2 --hand "KH 7S 3D" --indicator 4H --earlier play`
    """
    from loo_sim.base.errors import LooError

    if not hand.strip():
        raise LooError('--hand: give your cards, e.g. --hand "KH 7S 3D"')
    rules = build_rules(preset, sets, players)
    from loo_sim.analysis.advise_api import ask, build_question  # pandas and the kernel: after the checks
    from loo_sim.cli.advise_text import answer_json, answer_text
    from loo_sim.cli.progress import TerminalProgress, compile_notice

    q = build_question(rules, position, hand, indicator=indicator, earlier=earlier, carried=carried, table=table)
    compile_notice("play_deals")
    with TerminalProgress(min_total=0) as bars:
        answer = ask(q, precision=precision, deals=deals, seed=seed, progress=bars("kept deals"))
    command = " ".join(["loo-sim advise", *_flags(preset, sets, players, q, hand, indicator, earlier, table)])
    if as_json:
        json.dump(answer_json(answer, command), sys.stdout, indent=1)
        typer.echo("")
        return
    typer.echo(answer_text(answer, command))


def _flags(preset, sets, players, q, hand, indicator, earlier, table) -> list[str]:
    """The question as flags (the page of the app and the JSON show it)."""
    out = [] if preset == "three-card" else ["--preset", preset]
    out += sum((["--set", s] for s in sets or []), [])
    if players is not None:
        out += ["--players", str(players)]
    out += ["--position", str(q.position), "--hand", f'"{hand.strip()}"']
    if indicator:
        out += ["--indicator", indicator.strip()]
    if earlier:
        out += ["--earlier", ",".join(q.earlier)]
    if q.carried:
        out += ["--carried", f"{q.carried:g}"]
    if table != "basic":
        out += ["--table", f"'{table}'"]
    return out
