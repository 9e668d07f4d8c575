"""Cards as small ints, and their text form (docs/rules.md R1).

A card is ``suit * 13 + rank``: suits in the order ♣ ♦ ♥ ♠ (0..3, which is also
the tie-break order of docs/policies.md P1), ranks 2..A as 0..12. This one encoding is
used by the whole package, the reference engine and the kernel alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from loo_sim.base.errors import LooError

SUITS = "CDHS"
RANKS = "23456789TJQKA"
N_CARDS = 52
ACE = 12
KING = 11
JACK = 9
QUEEN = 10
CLUBS = 0
PAM = CLUBS * 13 + JACK  # the jack of clubs (R1)


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13


def make_card(rank: int, suit: int) -> int:
    return suit * 13 + rank


def card_str(card: int) -> str:
    """Text form of a card: rank then suit letter, e.g. ``AS``, ``TH``."""
    return RANKS[rank_of(card)] + SUITS[suit_of(card)]


SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}


def parse_card(text: str) -> int:
    """Parse ``AS``, ``th``, ``10H``, ``A♥``, ``a♥``; raise LooError otherwise."""
    t = "".join(SUIT_SYMBOLS.get(ch, ch) for ch in text.strip().replace("\ufe0f", "")).upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise LooError(
            f"unknown card {text!r}: expected a rank (2-9, T or 10, J, Q, K, A) "
            "then a suit (C, D, H, S or ♣ ♦ ♥ ♠), e.g. AS, 10H, jc, A♥"
        )
    return make_card(RANKS.index(t[0]), SUITS.index(t[1]))


def parse_cards(cards: str | Iterable[str | int]) -> list[int]:
    """Parse a space/comma separated string or a sequence of card strings or ints."""
    if isinstance(cards, str):
        items: Iterable[str | int] = cards.replace(",", " ").split()
    else:
        items = cards
    out = []
    for c in items:
        if isinstance(c, (int,)) and not isinstance(c, bool):
            if not 0 <= c < N_CARDS:
                raise LooError(f"unknown card number {c}: allowed 0..51")
            out.append(int(c))
        else:
            out.append(parse_card(str(c)))
    return out


def parse_deck(deck: str | Iterable[str | int]) -> list[int]:
    """Parse a full 52-card deck order; every card exactly once."""
    cards = parse_cards(deck)
    if len(cards) != N_CARDS:
        raise LooError(f"a deck must hold 52 cards, got {len(cards)}")
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            raise LooError(f"duplicate card {card_str(c)} in the deck: each card must appear once")
        seen.add(c)
    return cards


def deck_str(cards: Sequence[int]) -> str:
    return " ".join(card_str(c) for c in cards)
