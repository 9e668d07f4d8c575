"""An independent reading of docs/rules.md R7 (with R1's Pam and R9's "Pam be civil").

Written from the rule text alone, for the property tests: it does not import the
engine's rule code (``loo_sim.game.legality``, ``loo_sim.engine.deal``, ``loo_sim.game.ranking``,
``loo_sim.game.policy``).
It is a *checker*: given everything a player knows at the moment of playing, it says
whether one card is allowed, and if not, which clause of R7 it breaks.

Cards are ints ``suit * 13 + rank`` (suits C D H S = 0..3, rank 0 = deuce .. 12 = ace).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

CLUBS = 0
JACK, KING, ACE = 9, 11, 12
PAM_CARD = CLUBS * 13 + JACK  # R1: the jack of clubs


@dataclass(frozen=True)
class TrumpView:
    """What is known of trumps at a moment of play (R6) and whether Pam is in play (R1)."""

    suit: int | None  # None while trumps are unknown
    pam: bool = False

    def is_pam(self, card: int) -> bool:
        # Pam only exists with pam = true, which R1 ties to turn_up, so trumps are known.
        return self.pam and self.suit is not None and card == PAM_CARD

    def suit_for_play(self, card: int) -> int:
        """R1/R7: Pam belongs to the trump suit for following, trumping and heading."""
        if self.is_pam(card):
            return self.suit  # type: ignore[return-value]
        return card // 13

    def is_trump(self, card: int) -> bool:
        return self.suit is not None and self.suit_for_play(card) == self.suit

    def strength(self, card: int, led_suit: int) -> tuple[int, int]:
        """Order of R7's winner rule: Pam, then trumps by rank, then the led suit by rank;
        anything else cannot win (all such cards compare equal and lowest)."""
        if self.is_pam(card):
            return (3, 99)
        if self.is_trump(card):
            return (2, card % 13)
        if self.suit_for_play(card) == led_suit:
            return (1, card % 13)
        return (0, 0)


def winning_index(trick: Sequence[int], view: TrumpView) -> int:
    """R7: the position in ``trick`` (cards in play order) of the card that wins it so far."""
    if not trick:
        raise ValueError("an empty trick has no winner")
    led = view.suit_for_play(trick[0])
    best = 0
    for i in range(1, len(trick)):
        if view.strength(trick[i], led) > view.strength(trick[best], led):
            best = i
    return best


@dataclass(frozen=True)
class PlayContext:
    """Everything R7 needs beyond the hand, the card and the trick so far."""

    view: TrumpView
    lead: str = "free"  # free | ace | trump | classic
    void: str = "must_trump"  # must_trump | trump_to_win
    first_trick: bool = False
    double_pot: bool = True  # False in a single pot (R8): the first-lead clause never applies
    indicator: int | None = None  # the turned indicator, None if not turned
    civil: bool = False  # "Pam be civil" invoked for this trick (R9)


def why_illegal(card: int, hand: Sequence[int], trick: Sequence[int], ctx: PlayContext) -> str | None:
    """None if playing ``card`` from ``hand`` onto ``trick`` is allowed, else the reason."""
    if card not in hand:
        return "card not in hand"
    if not trick:
        return _lead_fault(card, list(hand), ctx)
    return _follow_fault(card, list(hand), list(trick), ctx)


def is_legal(card: int, hand: Sequence[int], trick: Sequence[int], ctx: PlayContext) -> bool:
    return why_illegal(card, hand, trick, ctx) is None


# ---- leading ------------------------------------------------------------------------


def _lead_fault(card: int, hand: list[int], ctx: PlayContext) -> str | None:
    view = ctx.view
    if view.suit is None:  # "they apply only while trumps are known"
        return None
    trump = view.suit
    ace, king = trump * 13 + ACE, trump * 13 + KING
    held_trumps = [c for c in hand if view.is_trump(c)]
    opening = ctx.first_trick and ctx.double_pot  # R8: never in a single pot

    if ctx.lead == "free":
        return None

    if ctx.lead == "ace":
        if opening:
            if view.pam and PAM_CARD in hand:
                return None if card == PAM_CARD else "lead=ace: must lead Pam on the first trick"
            if ace in hand:  # nothing stands in when the ace is the indicator
                return None if card == ace else "lead=ace: must lead the ace of trumps on the first trick"
        return None

    if ctx.lead == "trump":
        if opening:
            if ace in hand:  # Pam never stands in for the ace
                return None if card == ace else "lead=trump: must open with the ace of trumps"
            if ctx.indicator == ace and king in hand:
                return None if card == king else "lead=trump: must open with the king (ace turned up)"
        if held_trumps and not view.is_trump(card):
            return "lead=trump: holding a trump, must lead a trump"
        return None

    if ctx.lead == "classic":
        if opening:
            if ace in hand:
                return None if card == ace else "lead=classic: must open with the ace of trumps"
            if ctx.indicator == ace and king in hand:
                return None if card == king else "lead=classic: must open with the king (ace turned up)"
        if len(held_trumps) >= 2:
            top = max(held_trumps, key=lambda c: view.strength(c, trump))
            if card != top:
                return "lead=classic: holding two or more trumps, must lead the highest"
        return None

    raise ValueError(f"unknown lead option {ctx.lead!r}")


# ---- following ----------------------------------------------------------------------


def _follow_fault(card: int, hand: list[int], trick: list[int], ctx: PlayContext) -> str | None:
    view = ctx.view
    # R9 Pam be civil: the holder plays as if Pam were not in the hand, unless it is the last card.
    if ctx.civil and view.pam and PAM_CARD in hand and len(hand) > 1:
        if card == PAM_CARD:
            return "Pam be civil: Pam may not be played to this trick"
        hand = [c for c in hand if c != PAM_CARD]

    led = view.suit_for_play(trick[0])
    leader_card = trick[winning_index(trick, view)]

    def beats(c: int) -> bool:
        return view.strength(c, led) > view.strength(leader_card, led)

    same_suit = [c for c in hand if view.suit_for_play(c) == led]
    if same_suit:  # R7.1 follow suit
        if view.suit_for_play(card) != led:
            return "must follow suit"
        trumped = view.suit is not None and led != view.suit and any(view.is_trump(c) for c in trick)
        if not trumped and any(beats(c) for c in same_suit) and not beats(card):
            return "must head the trick (follow with a card that beats it)"  # R7.2
        return None

    # R7.3 void in the led suit
    if view.suit is None:
        return None
    held_trumps = [c for c in hand if view.is_trump(c)]
    if not held_trumps:
        return None
    can_overtrump = any(beats(c) for c in held_trumps)
    if ctx.void == "must_trump":
        if not view.is_trump(card):
            return "void=must_trump: void in the led suit, must play a trump"
        if can_overtrump and not beats(card):
            return "void=must_trump: must head the trick with a trump when able"
        return None
    if ctx.void == "trump_to_win":
        if can_overtrump and not (view.is_trump(card) and beats(card)):
            return "void=trump_to_win: must play a trump that wins the trick"
        return None
    raise ValueError(f"unknown void option {ctx.void!r}")
