"""Build a 52-card deck in the canonical deal order of docs/rules.md R2 from chosen hands.

Written from the spec alone (it does not use the engine's dealing code):

- cards are dealt from the front one at a time, round by round, starting with the
  dealer's left neighbour (seat ``dealer + 1``) and going clockwise (rising seat
  numbers, modulo ``players``), ending with the dealer;
- where a miss is dealt (R5) it receives one card in every round, just before the
  dealer (the second-to-last card of the round);
- after the hands (and the miss) comes the indicator, where one is used (``turn_up``,
  or the card turned at the reveal with ``first_renounce``);
- the rest is the stock, drawn from the front.

``build_deck`` places the given hands, the optional miss, the optional indicator and the
optional front of the stock, and fills everything not given (seats left out, the rest of
the stock) with the unused cards in a fixed order (clubs 2..A, diamonds, hearts, spades).
When no indicator is given the next card after the hands is simply the first stock
card (right for ``trump = first_lead``, which has no indicator).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

SUITS = "CDHS"
RANKS = "23456789TJQKA"
ALL_CARDS = [r + s for s in SUITS for r in RANKS]

CardsArg = str | Sequence[str]


def cards(text: CardsArg) -> list[str]:
    """Normalise ``"AH 7h 10C"`` or ``["AH", "7h"]`` to ``["AH", "7H", "TC"]``."""
    items = text.split() if isinstance(text, str) else list(text)
    out = []
    for item in items:
        c = item.strip().upper()
        if c.startswith("10"):
            c = "T" + c[2:]
        if len(c) != 2 or c[0] not in RANKS or c[1] not in SUITS:
            raise ValueError(f"not a card: {item!r}")
        out.append(c)
    return out


def build_deck(
    players: int,
    dealer: int,
    hands: Mapping[int, CardsArg] | Sequence[CardsArg | None],
    *,
    hand_size: int | None = None,
    miss: CardsArg | None = None,
    indicator: str | None = None,
    stock: CardsArg = (),
) -> list[str]:
    """Return the 52 cards (text) in canonical deal order (R2).

    ``hands`` maps seat -> cards (a dict, or a list indexed by seat with ``None`` for
    seats to fill); every seat not given gets filler cards. ``hand_size`` defaults to the
    size of the given hands. ``miss`` (same size as a hand) is dealt just before the
    dealer in every round. ``indicator`` is the card right after the hands and the miss;
    ``stock`` gives the first cards of the stock, in draw order.
    """
    if not 3 <= players <= 8:
        raise ValueError(f"players {players} outside 3..8")
    if not 0 <= dealer < players:
        raise ValueError(f"dealer {dealer} is not a seat")
    given = dict(hands) if isinstance(hands, Mapping) else dict(enumerate(hands))
    given = {int(seat): cards(h) for seat, h in given.items() if h is not None}
    for seat in given:
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} does not exist")
    sizes = {len(h) for h in given.values()}
    if hand_size is None:
        if len(sizes) != 1:
            raise ValueError("give hand_size, or hands that all have the same size")
        hand_size = sizes.pop()
    elif sizes - {hand_size}:
        raise ValueError(f"every hand must hold {hand_size} cards")
    miss_cards = None if miss is None else cards(miss)
    if miss_cards is not None and len(miss_cards) != hand_size:
        raise ValueError(f"the miss must hold {hand_size} cards")
    ind = None if indicator is None else cards(indicator)
    if ind is not None and len(ind) != 1:
        raise ValueError("indicator: one card")
    front = cards(stock)

    used: list[str] = [c for h in given.values() for c in h]
    used += miss_cards or []
    used += ind or []
    used += front
    dupes = sorted({c for c in used if used.count(c) > 1})
    if dupes:
        raise ValueError(f"cards used twice: {' '.join(dupes)}")
    filler = iter([c for c in ALL_CARDS if c not in set(used)])

    def fill(n: int) -> list[str]:
        return [next(filler) for _ in range(n)]

    seat_hands = {seat: given[seat] if seat in given else fill(hand_size) for seat in range(players)}

    deck: list[str] = []
    order = [(dealer + k) % players for k in range(1, players)]  # dealer's left first, clockwise
    for r in range(hand_size):
        deck += [seat_hands[seat][r] for seat in order]
        if miss_cards is not None:
            deck.append(miss_cards[r])  # just before the dealer
        deck.append(seat_hands[dealer][r])  # the dealer last
    if ind is not None:
        deck += ind
    deck += front
    deck += list(filler)
    if len(deck) != 52 or len(set(deck)) != 52:
        raise ValueError("more cards asked for than the deck holds")
    return deck
