"""Which card beats which (docs/rules.md R1, R7) and card power (docs/policies.md P1).

One small object, :class:`TrumpState`, holds what is known about trumps at a moment
of the deal: the trump suit (None while unknown, R6) and whether Pam is in play.
The reference engine and the policies use it; the kernel mirrors it with ints.
"""

from __future__ import annotations

from dataclasses import dataclass

from loo_sim.game.cards import ACE, PAM, rank_of, suit_of


@dataclass(frozen=True)
class TrumpState:
    trump: int | None  # trump suit 0..3, or None while trumps are unknown (R6)
    pam: bool = False  # R1: Pam in play (needs turn_up, so trumps are then known)

    def is_pam(self, card: int) -> bool:
        return self.pam and card == PAM

    def is_trump(self, card: int) -> bool:
        """R1: Pam belongs to the trump suit, never to clubs."""
        if self.trump is None:
            return False
        return self.is_pam(card) or suit_of(card) == self.trump

    def suit(self, card: int) -> int:
        """The suit a card counts as for following (Pam follows trumps)."""
        if self.is_pam(card) and self.trump is not None:
            return self.trump
        return suit_of(card)

    def trump_order(self, card: int) -> int:
        """Order among trumps: Pam above the ace (R1)."""
        return ACE + 1 if self.is_pam(card) else rank_of(card)

    def beats(self, card: int, winning: int, led_suit: int) -> bool:
        """R7: would ``card`` beat ``winning``, the card now winning a trick led in ``led_suit``?"""
        card_trump, winning_trump = self.is_trump(card), self.is_trump(winning)
        if card_trump != winning_trump:
            return card_trump
        if card_trump:
            return self.trump_order(card) > self.trump_order(winning)
        return self.suit(card) == led_suit and rank_of(card) > rank_of(winning)

    def winner_index(self, cards: list[int]) -> int:
        """Index of the winning card of a trick (or of the trick so far)."""
        led = self.suit(cards[0])
        best = 0
        for i in range(1, len(cards)):
            if self.beats(cards[i], cards[best], led):
                best = i
        return best

    def power(self, card: int) -> int:
        """P1 card power as one sortable int: power * 4 + suit (the suit breaks ties)."""
        if self.is_pam(card):
            p = 100
        elif self.is_trump(card):
            p = 50 + rank_of(card)
        else:
            p = rank_of(card)
        return p * 4 + suit_of(card)
