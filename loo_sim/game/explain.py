"""The legality rules in words: each rule path of ``game/legality.py`` that narrows a
seat's cards, once, as a sentence with its section (docs/rules.md R7, R9), for a scripted
card that breaks it and for ``replay --why``."""

from __future__ import annotations

from collections.abc import Sequence

from loo_sim.game.cards import PAM, card_str
from loo_sim.game.paths import RulePath

P = RulePath
# path -> (what the seat must do, with {cards} the legal ones; the rule in words, by section)
CARD_RULES: dict[RulePath | None, tuple[str, str]] = {  # fmt: skip
    None: ("must follow suit with {cards}", "R7: follow suit"),
    P.R7_HEAD_THE_TRICK: ("must head the trick with {cards}", "R7: follow suit and head the trick"),
    P.R7_TRICK_TRUMPED: (
        "must follow suit with {cards}",
        "R7: follow suit; the trick is trumped, so any card of the led suit",
    ),
    P.R7_MUST_TRUMP_OVER: (
        "must overtrump with {cards}",
        "R7 void = must_trump: void in the led suit, trump and head the trick",
    ),
    P.R7_MUST_TRUMP_UNDER: (
        "must trump with {cards}",
        "R7 void = must_trump: void in the led suit, trump even when unable to overtrump",
    ),
    P.R7_TRUMP_TO_WIN_WINNING: (
        "must trump to win with {cards}",
        "R7 void = trump_to_win: void in the led suit, play a trump that wins the trick",
    ),
    P.R7_TRUMP_TO_WIN_ANY: ("may play any card", "R7 void = trump_to_win: no trump that wins, any card"),
    P.R7_ACE_ACE_FIRST: ("must lead {cards}", "R7 lead = ace: the ace of trumps, if held, leads the first trick"),
    P.R7_ACE_PAM_FIRST: ("must lead Pam, {cards}", "R7 lead = ace: Pam, if held, leads the first trick"),
    P.R7_TRUMP_A_TRUMP: ("must lead a trump: {cards}", "R7 lead = trump: a leader holding a trump leads one"),
    P.R7_TRUMP_ACE_FIRST: (
        "must lead {cards}",
        "R7 lead = trump: the first lead of a double pot is the ace of trumps, if held",
    ),
    P.R7_TRUMP_KING_FIRST: (
        "must lead {cards}",
        "R7 lead = trump: the first lead of a double pot is the king when the ace is turned up",
    ),
    P.R7_CLASSIC_ACE_FIRST: (
        "must lead {cards}",
        "R7 lead = classic: the ace of trumps, if held, leads the first trick",
    ),
    P.R7_CLASSIC_KING_FIRST: (
        "must lead {cards}",
        "R7 lead = classic: the king leads the first trick when the ace is turned up",
    ),
    P.R7_CLASSIC_HIGHEST_TRUMP: (
        "must lead {cards}",
        "R7 lead = classic: a leader with two or more trumps leads the highest",
    ),
}
CIVIL = "R9: Pam be civil: the ace of trumps was led, so Pam is held back unless it is the last card"


def _cards(cards: Sequence[int]) -> str:
    return " ".join(card_str(c) for c in cards)


def card_refusal(seat: int, card: int, hand: Sequence[int], options: Sequence[int], path: RulePath | None,
                 held_back: bool) -> str | None:  # fmt: skip
    """Why ``seat`` may not play ``card`` (a sentence ending with its rule and section), or
    None when it may. ``options``/``path``: what ``lead_options``/``follow_options`` gave;
    ``held_back``: Pam was taken out of the hand by Pam be civil."""
    if card in options:
        return None
    if card not in hand:
        return f"seat {seat} does not hold {card_str(card)} (it holds {_cards(hand)})"
    if held_back and card == PAM:
        return f"seat {seat} may not play Pam ({card_str(PAM)}) to this trick ({CIVIL})"
    must, rule = CARD_RULES.get(path, CARD_RULES[None])
    return f"seat {seat} {must.format(cards=_cards(options))} ({rule})"


def why_line(seat: int, hand: Sequence[int], options: Sequence[int], path: RulePath | None, held_back: bool) -> str:
    """``replay --why``: a seat's hand, its legal cards, and why the others are not."""
    barred = [c for c in hand if c not in options]
    head = f"why: seat {seat} holds {_cards(hand)}: "
    if not barred:
        return head + "any card may be played"
    parts = []
    if held_back and PAM in barred:
        parts.append(f"not {card_str(PAM)} ({CIVIL})")
        barred = [c for c in barred if c != PAM]
    if barred:
        must, rule = CARD_RULES.get(path, CARD_RULES[None])
        parts.append(f"{must.format(cards=_cards(options))}, not {_cards(barred)} ({rule})")
    return head + "; ".join(parts)
