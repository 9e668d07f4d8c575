"""A deal a player entered and scripted (``loo-sim replay --hand/--declare/--play``,
``loo-sim check DEAL.toml``): build its deck (``game/deal_input.py``), play it with the
reference engine, every scripted action checked, the rest left to the seats' policies."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from loo_sim.engine.script import ScriptedPlay
from loo_sim.errors import IllegalAction
from loo_sim.game.deal_input import BuiltDeck, DealInput, Play, build_deck
from loo_sim.game.policy import Policy
from loo_sim.game.record import DealRecord
from loo_sim.game.rules import Rules
from loo_sim.rng import shuffled_deck


def entered_deck(rules: Rules, dealer: int, carried: float, inp: DealInput, seed: int, deal: int) -> BuiltDeck:
    """The deck (R2 deal order) of an entered deal; unseen positions take the cards not
    given in the order of the shuffled deck of ``(seed, deal)`` (R13)."""
    return build_deck(rules, dealer, carried, inp, shuffled_deck(seed, deal))


def filled_note(built: BuiltDeck, seed: int, deal: int) -> str | None:
    """The trace's line saying which cards were not given and where they came from."""
    if not built.unseen:
        return None
    where = ", ".join(built.filled)
    key = f"seed {seed}" if deal == 0 else f"seed {seed}, deal {deal}"
    return (f"Not given: {where} ({built.unseen} cards), filled from the shuffle of {key} "
            "(the cards not given, in that deck's order).")  # fmt: skip


@dataclass
class Scripted:
    """A played scripted deal: the record, or the first illegal action (``illegal``)."""

    rec: DealRecord | None
    illegal: str | None = None
    notes: dict[int, list[str]] = field(default_factory=dict)


def play_scripted(rules: Rules, deck: Sequence[int], dealer: int, carried: float, table: Sequence[Policy], *,
                  seed: int = 0, deal: int = 0, declare: dict[int, str] | None = None, play: Play | None = None,
                  why: bool = False) -> Scripted:  # fmt: skip
    """Play the deal; a scripted declaration or card the rules forbid stops it (``illegal``:
    the rule in words and by section)."""
    from loo_sim.run.api import play_deal

    hook = ScriptedPlay(play, why) if (play or why) else None
    try:
        rec = play_deal(rules, list(deck), dealer, carried, list(table), seed=seed, deal_index=deal,
                        forced=declare or None, card_hook=hook)  # fmt: skip
        if hook is not None:
            in_deal = len(rec.tricks[0].cards) if rec.tricks else 0
            left = hook.leftover(len(rec.tricks), in_deal)
            if left is not None:
                raise IllegalAction(left)
    except IllegalAction as e:
        return Scripted(None, str(e), hook.notes if hook else {})
    return Scripted(rec, None, hook.notes if hook else {})
