"""``loo-sim replay``: one deal with the reference engine, every step printed (or its
record as JSON)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from loo_sim.base.errors import LooError
from loo_sim.cli.app import build_rules
from loo_sim.cli.options import PlayersOpt, PolicyOpt, PresetOpt, SeatPolicyOpt, SetOpt, shared
from loo_sim.cli.params import WholeNumber
from loo_sim.engine.trace import entered_header, render_deal
from loo_sim.game.cards import deck_str
from loo_sim.game.deal_input import DealInput, parse_card_list, parse_declarations, parse_hands, parse_play
from loo_sim.game.policy import parse_seat_policies
from loo_sim.run.scripted import filled_note, play_scripted, resolve_deck

MAX_DEAL = 2**63 - 1  # deal indices are the kernels' int64 counters (rng.py keys them)


# the options of a deal entered by hand (the cards seen, the declarations and cards scripted)
HandOpt = Annotated[
    list[str] | None,
    typer.Option("--hand", help="A seat's hand as dealt, SEAT=CARDS (repeat for each seat you know), e.g. "
                 '1="AH 7H KC"; seats 0..players-1 as replay prints them. Cards go where R2 deals them for this '
                 "--dealer and --carried (a clean classic-limited pot deals no miss); cards not given are filled "
                 "from --seed (default 0)."),
]  # fmt: skip
MissOpt = Annotated[str | None, shared("--miss")]
IndicatorOpt = Annotated[str | None, shared("--indicator")]
StockOpt = Annotated[str | None, typer.Option("--stock", help="The front of the stock, in draw order (R9).")]
DeclareOpt = Annotated[
    str | None,
    typer.Option("--declare", help="Scripted declarations, e.g. 1=play,2=pass,3=miss; each is checked (R4, R5, R8); "
                 "seats not named declare by their policy."),
]  # fmt: skip
PlayOpt = Annotated[
    str | None,
    typer.Option("--play", help='Scripted cards, trick by trick: "1:AH 2:9H 3:2H | 1:7H ..."; each is checked (R7, '
                 "R9); cards not scripted are played by the seat's policy."),
]  # fmt: skip
DeckOpt = Annotated[
    str | None, typer.Option("--deck", help="52 cards in canonical deal order (docs/rules.md R2), space separated.")
]
DealOpt = Annotated[
    int, typer.Option("--deal", parser=WholeNumber(0, MAX_DEAL), help="With --seed: the deal index k of that run.")
]


def replay_cmd(
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    players: PlayersOpt = None,
    deck: DeckOpt = None,
    seed: Annotated[
        int | None, shared("--seed", ": the deck is the shuffle of deal --deal (instead of --deck).")
    ] = None,
    deal: DealOpt = 0,
    dealer: Annotated[int | None, shared("--dealer", " (default: 0, or k mod players with --seed).")] = None,
    carried: Annotated[float, shared("--carried", " from the last deal (0 = a clean pot).")] = 0.0,
    policy: PolicyOpt = None,
    seat_policy: SeatPolicyOpt = None,
    hand: HandOpt = None,
    miss: MissOpt = None,
    indicator: IndicatorOpt = None,
    stock: StockOpt = None,
    declare: DeclareOpt = None,
    play: PlayOpt = None,
    why: Annotated[bool, shared("--why", ".")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the deal record as JSON.")] = False,
) -> None:
    """Play one deal and print every step: hands, miss, indicator, declarations, tricks, payouts.

    The deck is --deck, the shuffle of --seed, or the cards you saw (--hand, --miss,
    --indicator, --stock; the rest filled from --seed). Seats are numbered 0..players-1,
    the numbering the trace prints, in --hand, --declare and --play alike.

    Examples: `loo-sim replay --preset three-card --seed 7`,
    `loo-sim replay --preset classic-limited --seed 7 --deal 3 --carried 6 --seat-policy 0=cautious --json`,
    `loo-sim replay -p classic-limited --dealer 0 --carried 9 --hand 1="A♥ 7♥ K♣" --indicator 4H
    --declare 1=play,2=play,3=play,4=pass,0=pass --why`.
    """
    rules = build_rules(preset, sets, players)
    n = rules.players
    entered = None
    if hand is not None or miss is not None or indicator is not None or stock is not None:
        entered = DealInput(hands=parse_hands(hand or [], n),
                            miss=None if miss is None else parse_card_list(miss, "--miss"),
                            indicator=None if indicator is None else one_card(indicator, "--indicator"),
                            stock=[] if stock is None else parse_card_list(stock, "--stock"))  # fmt: skip
    chosen = resolve_deck(rules, deck=deck, seed=seed, deal=deal, dealer=dealer, carried=carried, entered=entered)
    declared = None if declare is None else parse_declarations(declare, n)
    script = None if play is None else parse_play(play, n)
    table = parse_seat_policies(policy, seat_policy, n)
    done = play_scripted(rules, chosen.cards, chosen.dealer, carried, table, seed=seed or 0, deal=deal,
                         declare=declared, play=script, why=why)  # fmt: skip
    if done.illegal is not None:
        raise LooError(f"illegal: {done.illegal}")
    rec = done.rec
    assert rec is not None
    if not rec.exact:
        print("warning: chip amounts in this deal pass 2**53; float64 chips are no longer exact (R3)", file=sys.stderr)
    if as_json:
        from loo_sim.report.outputs import to_json

        typer.echo(to_json(rec.to_dict(), "replay", indent=None))
        return
    if entered is not None and chosen.built is not None:
        note = filled_note(chosen.built, seed or 0, deal)
        typer.echo(entered_header(entered, chosen.dealer, carried, note, chosen.cards))
    elif seed is not None:
        typer.echo(f"Deal {deal} of seed {seed}; deck: {deck_str(chosen.cards)}")
    scripted = entered is not None or declared is not None or script is not None or why
    typer.echo(render_deal(rules, rec, table, title=f"{preset}: ", notes=done.notes, next_pot=scripted))


def one_card(text: str, what: str) -> int:
    """Exactly one card (``--indicator``)."""
    cards = parse_card_list(text, what)
    if len(cards) != 1:
        raise LooError(f"{what}: one card, got {len(cards)}")
    return cards[0]
