"""A deal a player entered and scripted (``loo-sim replay --hand/--declare/--play``,
``loo-sim check DEAL.toml``): choose its deck and dealer (the cards entered, a seed's
shuffle or a whole deck: :func:`resolve_deck`; the entered cards placed by
``game/deal_input.py``), play it with the reference engine, every scripted action checked,
the rest left to the seats' policies."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from loo_sim.base import checks
from loo_sim.base.errors import IllegalAction, LooError
from loo_sim.base.rng import shuffled_deck
from loo_sim.engine.script import ScriptedPlay
from loo_sim.game.cards import parse_deck
from loo_sim.game.deal_input import BuiltDeck, DealInput, Play, build_deck
from loo_sim.game.policy import Policy
from loo_sim.game.record import DealRecord
from loo_sim.game.rules import Rules


def entered_deck(rules: Rules, dealer: int, carried: float, inp: DealInput, seed: int, deal: int) -> BuiltDeck:
    """The deck (R2 deal order) of an entered deal; unseen positions take the cards not
    given in the order of the shuffled deck of ``(seed, deal)`` (R13)."""
    return build_deck(rules, dealer, carried, inp, shuffled_deck(seed, deal))


@dataclass
class ChosenDeck:
    """The deck a replay plays (R2 deal order), its dealer, and the entered cards placed in
    it (``built``; None for a seed's shuffle or a deck given whole)."""

    cards: list[int]
    dealer: int
    built: BuiltDeck | None = None


def resolve_deck(rules: Rules, *, deck: str | None, seed: int | None, deal: int, dealer: int | None, carried: float,
                 entered: DealInput | None) -> ChosenDeck:  # fmt: skip
    """The deck and dealer of ``loo-sim replay``: the cards ``entered`` (the rest filled from
    the shuffle of ``seed``, default 0), else the shuffle of ``seed`` (deal ``deal``, dealt
    by seat ``deal`` mod players unless ``dealer`` is given), else ``deck`` given whole
    (dealer 0 unless given). Exactly one of them; the errors name the options.

    Parameters
    ----------
    rules : Rules
        The rules of the deal (the players, and where R2 deals each card).
    deck : str or None
        ``--deck``: 52 cards in deal order.
    seed : int or None
        ``--seed``: the run whose deal ``deal`` is replayed, or that fills the cards not entered.
    deal : int
        ``--deal``: the deal index k of that run.
    dealer : int or None
        ``--dealer``: the dealer seat, or None for the default.
    carried : float
        ``--carried``: chips carried in (where an entered card goes depends on it, R8).
    entered : DealInput or None
        The cards seen (``--hand``, ``--miss``, ``--indicator``, ``--stock``), or None.

    Returns
    -------
    ChosenDeck

    Raises
    ------
    LooError
        If both or neither of a deck and a seed are given (or a deck with entered cards), the
        dealer is not a seat, the deck is not 52 distinct cards, or the entered cards do not fit.
    """
    n = rules.players
    if entered is not None:
        if deck is not None:
            raise LooError("--deck: give the whole deck or the cards seen (--hand, --miss, --indicator, --stock), "
                           "not both")  # fmt: skip
        seat = 0 if dealer is None else checks.seat("--dealer", dealer, n)
        built = entered_deck(rules, seat, carried, entered, seed or 0, deal)
        return ChosenDeck(built.deck, seat, built)
    if (deck is None) == (seed is None):
        raise LooError('replay needs exactly one of --deck "52 cards", --seed N or the hands (--hand SEAT=CARDS)')
    default = deal % n if seed is not None else 0
    seat = default if dealer is None else checks.seat("--dealer", dealer, n)
    cards = shuffled_deck(seed, deal) if seed is not None else parse_deck(deck or "")
    return ChosenDeck(list(cards), seat)


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
