"""A deal entered as it was dealt at a real table, and a script of what was done
(``loo-sim replay --hand ...``, ``loo-sim check DEAL.toml``): pure functions, no I/O.

* :func:`deal_slots`: who receives each of the 52 deck positions in the canonical deal
  order of docs/rules.md R2 (a seat, ``"miss"``, ``"indicator"`` or ``"stock"``), for the
  rules, dealer and carried pot of the deal. It depends on the carried pot: with
  ``single_pot`` a clean pot deals no miss (R8), so the same deck string deals other
  hands; entering hands avoids that, since they are placed where the rules deal them.
* :func:`build_deck`: the deck that deals the given hands, miss, indicator and front of
  the stock; every position not given is filled from the seed's shuffle of the cards
  not given (the shuffled deck of ``(seed, deal)``, R13, with the given cards taken out,
  in its order).
* :func:`parse_hands`, :func:`parse_declarations`, :func:`parse_play`: the text forms.

Seats are numbered 0..n-1, as ``loo-sim replay`` prints them (R2); cards are written
``AH``, ``ah``, ``10h``, ``Th``, ``A♥`` or ``a♥`` (R1).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from loo_sim.base.errors import LooError
from loo_sim.game.cards import N_CARDS, card_str, parse_card
from loo_sim.game.decl import DECL_NAMES
from loo_sim.game.rules import Rules, Trump

Slot = int | str  # a seat, or "miss", "indicator", "stock"


def miss_dealt(rules: Rules, carried: float) -> bool:
    """R5, R8: a miss is dealt (not in a single pot)."""
    return rules.miss and not rules.is_single_pot(carried)


def indicator_used(rules: Rules, carried: float) -> bool:
    """R2, R6: the card after the hands is an indicator (turn_up, first_renounce, a single pot)."""
    return rules.is_single_pot(carried) or rules.trump in (Trump.TURN_UP, Trump.FIRST_RENOUNCE)


def deal_slots(rules: Rules, dealer: int, carried: float) -> list[Slot]:
    """R2: who receives each deck position, front first: round by round from the dealer's
    left, the miss (where dealt) just before the dealer, then the indicator (where used),
    then the stock."""
    n = rules.players
    miss = miss_dealt(rules, carried)
    slots: list[Slot] = []
    for _ in range(rules.hand_size):
        for i in range(n):
            seat = (dealer + 1 + i) % n
            if seat == dealer and miss:
                slots.append("miss")
            slots.append(seat)
    if indicator_used(rules, carried):
        slots.append("indicator")
    slots += ["stock"] * (N_CARDS - len(slots))
    return slots


def parse_seat(text: str, players: int, what: str) -> int:
    """A seat number 0..players-1 (as replay prints seats)."""
    t = str(text).strip()
    if not (t.isascii() and t.isdigit()):
        raise LooError(f"{what}: {text!r} is not a seat number; seats are 0..{players - 1}")
    seat = int(t)
    if seat >= players:
        raise LooError(f"{what}: there is no seat {seat} at a table of {players} (seats 0..{players - 1})")
    return seat


def parse_card_list(text: str | Iterable[str], what: str) -> list[int]:
    """Cards separated by spaces or commas; an error names ``what`` and the bad card."""
    items = text.replace(",", " ").split() if isinstance(text, str) else [str(c) for c in text]
    out = []
    for item in items:
        try:
            out.append(parse_card(item))
        except LooError as e:
            raise LooError(f"{what}: {e}") from None
    return out


def parse_hands(items: Mapping[str | int, str | Sequence[str]] | Iterable[str], players: int) -> dict[int, list[int]]:
    """``["1=AH 7H KC", "2=..."]`` (the CLI's repeated ``--hand``) or ``{"1": "AH 7H KC"}``
    (a deal file) as seat -> cards."""
    pairs: list[tuple[str, str | Sequence[str]]] = []
    if isinstance(items, Mapping):
        pairs = [(str(k), v) for k, v in items.items()]
    else:
        for item in items:
            seat, eq, cards = str(item).partition("=")
            if not eq:
                raise LooError(f'--hand {item!r}: expected SEAT=CARDS, e.g. 1="AH 7H KC"')
            pairs.append((seat, cards))
    hands: dict[int, list[int]] = {}
    for seat_text, cards in pairs:
        seat = parse_seat(seat_text, players, f"--hand {seat_text.strip()}")
        if seat in hands:
            raise LooError(f"--hand {seat}: seat {seat}'s hand is given twice")
        hands[seat] = parse_card_list(cards, f"--hand {seat}")
    return hands


def parse_declarations(text: str | Mapping[str | int, str], players: int) -> dict[int, str]:
    """``"1=play,2=pass,3=miss"`` (or a mapping) as seat -> declaration (R4, R8)."""
    if isinstance(text, Mapping):
        pairs = [(str(k), str(v)) for k, v in text.items()]
    else:
        pairs = []
        for item in text.replace(";", ",").split(","):
            if not item.strip():
                continue
            seat, eq, word = item.partition("=")
            if not eq:
                raise LooError(f"--declare {item.strip()!r}: expected SEAT=DECLARATION, e.g. 1=play,2=pass")
            pairs.append((seat, word))
    out: dict[int, str] = {}
    for seat_text, word in pairs:
        seat = parse_seat(seat_text, players, f"--declare {seat_text.strip()}")
        w = word.strip().lower()
        if w not in DECL_NAMES:
            raise LooError(f"--declare {seat}: {word.strip()!r} is not a declaration; allowed {', '.join(DECL_NAMES)}")
        if seat in out:
            raise LooError(f"--declare {seat}: seat {seat} is scripted twice")
        out[seat] = w
    return out


Play = list[list[tuple[int | None, int]]]  # tricks, each (seat or None for "whoever is to play", card)


def parse_play(text: str | Sequence[str], players: int) -> Play:
    """``"1:AH 2:9H 3:2H | 1:7H ..."`` (or a list of tricks) as the cards played, trick by
    trick; a card without ``SEAT:`` is the next seat's to play."""
    tricks = text.split("|") if isinstance(text, str) else [str(t) for t in text]
    out: Play = []
    for t, trick in enumerate(tricks, 1):
        entries: list[tuple[int | None, int]] = []
        for item in trick.replace(",", " ").split():
            seat_text, colon, card_text = item.rpartition(":")
            seat = parse_seat(seat_text, players, f"--play trick {t}") if colon else None
            entries.append((seat, parse_card_list([card_text], f"--play trick {t}")[0]))
        if not entries:
            raise LooError(f'--play: trick {t} is empty; separate tricks with |, e.g. "1:AH 2:9H 3:2H | 1:7H ..."')
        out.append(entries)
    for t, trick in enumerate(out, 1):
        seen = [s for s, _ in trick if s is not None]
        dup = next((s for s in seen if seen.count(s) > 1), None)
        if dup is not None:
            raise LooError(f"--play trick {t}: seat {dup} plays twice in one trick")
    return out


@dataclass
class DealInput:
    """What a player saw of a deal: hands by seat, the miss, the indicator, the front of the stock."""

    hands: dict[int, list[int]] = field(default_factory=dict)
    miss: list[int] | None = None
    indicator: int | None = None
    stock: list[int] = field(default_factory=list)

    @property
    def given(self) -> bool:
        return bool(self.hands or self.miss is not None or self.indicator is not None or self.stock)


@dataclass
class BuiltDeck:
    deck: list[int]
    filled: list[str]  # what was filled from the seed: "seat 0", "the miss", "the indicator", "the stock"
    unseen: int  # how many cards were filled


def build_deck(rules: Rules, dealer: int, carried: float, inp: DealInput, fill_order: Sequence[int]) -> BuiltDeck:
    """The deck (R2 deal order) that deals ``inp``; each position not given takes the next
    card of ``fill_order`` (a shuffled deck) not given. Errors name the card or seat."""
    n, h = rules.players, rules.hand_size
    used: dict[int, str] = {}

    def take(cards: Sequence[int], what: str) -> None:
        for c in cards:
            if c in used:
                where = "twice in " + what if used[c] == what else f"in {used[c]} and in {what}"
                raise LooError(f"{card_str(c)} is given {where}: each card is in the deck once")
            used[c] = what

    for seat, cards in inp.hands.items():
        if not 0 <= seat < n:
            raise LooError(f"--hand {seat}: there is no seat {seat} at a table of {n} (seats 0..{n - 1})")
        if len(cards) != h:
            raise LooError(f"--hand {seat}: {len(cards)} card{'s' * (len(cards) != 1)} given; a hand holds {h} (R2)")
        take(cards, f"--hand {seat}")
    if inp.miss is not None:
        if not miss_dealt(rules, carried):
            why = ("a clean pot is a single pot: no miss is dealt (R8)" if rules.miss
                   else "these rules deal no miss (miss = false, R5)")  # fmt: skip
            raise LooError(f"--miss: {why}")
        if len(inp.miss) != h:
            raise LooError(f"--miss: {len(inp.miss)} card{'s' * (len(inp.miss) != 1)} given; the miss holds {h} (R5)")
        take(inp.miss, "--miss")
    if inp.indicator is not None:
        if not indicator_used(rules, carried):
            raise LooError("--indicator: trump = first_lead turns no indicator (R6)")
        take([inp.indicator], "--indicator")
    slots = deal_slots(rules, dealer, carried)
    room = slots.count("stock")
    if len(inp.stock) > room:
        raise LooError(f"--stock: {len(inp.stock)} cards given; the stock holds {room} (R2)")
    take(inp.stock, "--stock")

    rest = iter([c for c in fill_order if c not in used])
    queues: dict[Slot, list[int]] = {seat: list(cards) for seat, cards in inp.hands.items()}
    if inp.miss is not None:
        queues["miss"] = list(inp.miss)
    if inp.indicator is not None:
        queues["indicator"] = [inp.indicator]
    queues["stock"] = list(inp.stock)
    deck: list[int] = []
    filled: list[str] = []
    unseen = 0
    for slot in slots:
        q = queues.get(slot)
        if q:
            deck.append(q.pop(0))
            continue
        deck.append(next(rest))
        unseen += 1
        name = (f"seat {slot}" if isinstance(slot, int) else "the indicator" if slot == "indicator"
                else f"the {slot}")  # fmt: skip
        if name not in filled:
            filled.append(name)
    assert sorted(deck) == list(range(N_CARDS))
    return BuiltDeck(deck, filled, unseen)
