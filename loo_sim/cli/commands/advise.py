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

DeclareOpt = Annotated[
    str | None,
    typer.Option("--declare", help="With --play: every position's declaration, e.g. "
                 "1=play,2=miss,3=pass,4=play,5=play."),
]  # fmt: skip
PlayOpt = Annotated[
    str | None,
    typer.Option("--play", help='The cards played so far, trick by trick, by position: "1:AH 2:9H | 1:7H" (the last '
                 "trick may be partial; it must be your turn). Each is checked (R7, R9)."),
]  # fmt: skip
ThenOpt = Annotated[
    str,
    typer.Option("--then", help="With --play: every seat's card play after yours: basic, high, low, perfect, "
                 "pimc:N."),
]  # fmt: skip
KnownOpt = Annotated[
    list[str] | None,
    typer.Option("--known", help='With --play: another position\'s hand as dealt, if you know it, POSITION=CARDS '
                 "(repeatable)."),
]  # fmt: skip


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
    declare: DeclareOpt = None,
    play: PlayOpt = None,
    then: ThenOpt = "basic",
    known: KnownOpt = None,
    miss: Annotated[str | None, shared("--miss", " With --play: give it if you took it.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
) -> None:
    """What should I do with this hand? Each declaration on offer to your hand, with its
    expected net chips for the deal and the paired difference from the best, on deals of
    the cards you cannot see drawn to agree with what you know: your hand, the indicator,
    the pot and the earlier seats' declarations under the table's policy (docs/policies.md,
    "Advice"). Beside it, the shipped decision chart's cell and the equilibrium table's
    row for the same rules, where they exist.

    With --declare and --play: which card to play now. Each legal card with its expected
    net chips, the unseen cards drawn to agree with every declaration and every card played
    (each card legal with the hand drawn), the rest of the deal played by --then.
    Positions, not seats, in --declare, --play and --known (1 = the eldest hand).

    Examples:

    `loo-sim advise --players 5 --position 2 --hand "KH 7S 3D" --indicator 4H --earlier play`

    `loo-sim advise --players 5 --position 4 --hand "KH 7H 2S" --indicator 5H
    --declare 1=play,2=miss,3=pass,4=play,5=play --play "1:AH 2:9H"`
    """
    from loo_sim.base.errors import LooError

    if not hand.strip():
        raise LooError('--hand: give your cards, e.g. --hand "KH 7S 3D"')
    rules = build_rules(preset, sets, players)
    from loo_sim.analysis.advise_api import ask, ask_card, build_card_question, build_question, command_line
    from loo_sim.cli.advise_text import answer_json, answer_text
    from loo_sim.cli.progress import TerminalProgress, compile_notice
    from loo_sim.game.policy import SOLVER_PLAY

    if (declare is None) != (play is None):
        raise LooError("a card question needs both --declare (every position's declaration) and --play (the cards "
                       "so far); a declaration question takes neither")  # fmt: skip
    if play is not None and earlier is not None:
        raise LooError("--earlier goes with a declaration question; with --play, --declare gives every declaration")
    if play is None:
        q = build_question(rules, position, hand, indicator=indicator, earlier=earlier, carried=carried, table=table)
    else:
        q = build_card_question(rules, position, hand, declare=declare, play=play, indicator=indicator,
                                carried=carried, table=table, then=then, known=known, miss=miss)  # fmt: skip
    compile_notice("play_deals", *(("search",) if play is not None and then.split(":")[0] in SOLVER_PLAY else ()))
    with TerminalProgress(min_total=0) as bars:
        run = ask if play is None else ask_card
        answer = run(q, precision=precision, deals=deals, seed=seed, progress=bars("kept deals"))
    command = command_line(preset, sets, players, q, hand, indicator, earlier, table, declare=declare, play=play,
                           then=then, known=known, miss=miss)  # fmt: skip
    if as_json:
        json.dump(answer_json(answer, command), sys.stdout, indent=1)
        typer.echo("")
    else:
        typer.echo(answer_text(answer, command))
    if answer.advice.stopped == "interrupted":  # the answer so far is printed, said to be cut short: exit 130
        from loo_sim.base.errors import Interrupted

        raise Interrupted(f"interrupted: the answer above covers the {answer.advice.accepted:,} deals kept before "
                          "Ctrl-C")  # fmt: skip
