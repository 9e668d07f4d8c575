"""``loo-sim replay``: one deal with the reference engine, every step printed (or its
record as JSON)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from loo_sim import checks
from loo_sim.cli.app import PolicyOpt, PresetOpt, SeatPolicyOpt, SetOpt, build_rules
from loo_sim.cli.params import Chips, Seat, WholeNumber
from loo_sim.engine.trace import render_deal
from loo_sim.errors import LooError
from loo_sim.game.cards import deck_str
from loo_sim.game.policy import parse_seat_policies
from loo_sim.rng import shuffled_deck
from loo_sim.run.api import play_deal

MAX_DEAL = 2**63 - 1  # deal indices are the kernels' int64 counters (rng.py keys them)


def replay_cmd(
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    deck: Annotated[
        str | None, typer.Option(help="52 cards in canonical deal order (docs/rules.md R2), space separated.")
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            parser=WholeNumber(0, checks.MAX_SEED), help="Shuffle the deck from this seed (instead of --deck)."
        ),
    ] = None,
    deal: Annotated[
        int, typer.Option(parser=WholeNumber(0, MAX_DEAL), help="With --seed: the deal index k of that run.")
    ] = 0,
    dealer: Annotated[
        int | None, typer.Option(parser=Seat(), help="Dealer seat (default: 0, or k mod players with --seed).")
    ] = None,
    carried: Annotated[
        float, typer.Option(parser=Chips(), help="Chips carried in from the last deal (0 = a clean pot).")
    ] = 0.0,
    policy: PolicyOpt = None,
    seat_policy: SeatPolicyOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the deal record as JSON.")] = False,
) -> None:
    """Play one deal and print every step: hands, miss, indicator, declarations, tricks, payouts.

    Examples: `loo-sim replay --preset three-card --seed 7`,
    `loo-sim replay --preset classic-limited --seed 7 --deal 3 --carried 6 --seat-policy 0=cautious --json`.
    """
    rules = build_rules(preset, sets)
    if (deck is None) == (seed is None):
        raise LooError('replay needs exactly one of --deck "52 cards" or --seed N')
    n = rules.players
    if seed is not None:
        cards: list[int] | str = shuffled_deck(seed, deal)
        default_dealer = deal % n
    else:
        cards, default_dealer = deck or "", 0
    dealer_seat = default_dealer if dealer is None else checks.seat("--dealer", dealer, n)
    table = parse_seat_policies(policy, seat_policy, n)
    rec = play_deal(rules, cards, dealer_seat, carried, table, seed=seed or 0, deal_index=deal)
    if not rec.exact:
        print("warning: chip amounts in this deal pass 2**53; float64 chips are no longer exact (R3)", file=sys.stderr)
    if as_json:
        from loo_sim.report.outputs import to_json

        typer.echo(to_json(rec.to_dict(), "replay", indent=None))
        return
    if seed is not None:
        typer.echo(f"Deal {deal} of seed {seed}; deck: {deck_str(cards)}")  # type: ignore[arg-type]
    typer.echo(render_deal(rules, rec, table, title=f"{preset}: "))
