"""What the seat asking ``loo-sim advise --play`` knows, checked and put in the engine's
terms (the card half of #25; :mod:`loo_sim.run.advise_cards` asks the question).

* Positions: advise numbers the seats by **position**, 1 = the eldest hand (the dealer's
  left) ... N = the dealer, with the dealer at seat 0, so position ``p`` is seat ``p % N``.
  :func:`parse_positions_declare` and :func:`parse_positions_play` read ``--declare`` and
  ``--play`` in positions and give seats; :func:`in_positions` rewrites an engine message
  ("seat 3") in positions ("position 3").
* :func:`walk_script`: the cards played, trick by trick, with whose card each is (the
  turn order of R7), the trumps as the table knows them (R6), and for each card what
  decided its legality then (``engine.cardplay.Play``: P8's sight). It refuses, with
  ``check``'s sentence and rule, a card out of turn, a card of the asking seat that its
  hand does not allow, and a card another seat could not have played with any hand
  (the cards it played later already make it illegal).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from loo_sim.base.errors import IllegalAction, LooError
from loo_sim.engine.cardplay import Play as SeenPlay
from loo_sim.engine.cardplay import legal_then
from loo_sim.game.cards import ACE, PAM, card_str, make_card, suit_of
from loo_sim.game.deal_input import Play, parse_card_list
from loo_sim.game.decl import DECL_NAMES
from loo_sim.game.explain import card_refusal
from loo_sim.game.legality import follow_options, lead_options
from loo_sim.game.ranking import TrumpState
from loo_sim.game.rules import Rules, Trump

DEALER = 0  # advise deals from seat 0: position p is seat p % players


def seat_of(position: int, players: int) -> int:
    """The seat of ``position`` (1 = the eldest hand ... players = the dealer)."""
    return position % players


def position_of(seat: int, players: int) -> int:
    """The position (1..players) of ``seat``, the dealer (seat 0) last."""
    return seat if seat else players


def parse_position(text: str, players: int, what: str) -> int:
    """A position number 1..players as a seat."""
    t = str(text).strip()
    if not (t.isascii() and t.isdigit()) or not 1 <= int(t) <= players:
        raise LooError(f"{what}: {text.strip()!r} is not a position; positions are 1..{players} (1 = the dealer's "
                       f"left, {players} = the dealer)")  # fmt: skip
    return seat_of(int(t), players)


def in_positions(message: str, players: int) -> str:
    """An engine message with each "seat S" written "position P"."""
    return re.sub(r"\bseat (\d+)", lambda m: f"position {position_of(int(m[1]), players)}", message)


def parse_positions_declare(text: str | Mapping[str | int, str], players: int) -> dict[int, str]:
    """``"1=play,2=pass,3=miss"`` (positions; or a mapping) as seat -> declaration."""
    if isinstance(text, Mapping):
        pairs = [(str(k), str(v)) for k, v in text.items()]
    else:
        pairs = []
        for item in text.replace(";", ",").split(","):
            if item.strip():
                position, eq, word = item.partition("=")
                if not eq:
                    raise LooError(f"--declare {item.strip()!r}: expected POSITION=DECLARATION, e.g. 1=play,2=pass")
                pairs.append((position, word))
    out: dict[int, str] = {}
    for position, word in pairs:
        seat = parse_position(position, players, f"--declare {position.strip()}")
        where = f"--declare {position_of(seat, players)}"
        if word.strip().lower() not in DECL_NAMES:
            raise LooError(f"{where}: {word.strip()!r} is not a declaration; allowed {', '.join(DECL_NAMES)}")
        if seat in out:
            raise LooError(f"{where}: position {position_of(seat, players)} is declared twice")
        out[seat] = word.strip().lower()
    return out


def parse_positions_play(text: str | Sequence[str], players: int) -> Play:
    """``"1:AH 2:9H 3:2H | 1:7H"`` (positions; or a list of tricks) as the cards played,
    trick by trick, with seats; a card without ``POSITION:`` is the next one's to play.
    The last trick may be partial."""
    tricks = text.split("|") if isinstance(text, str) else [str(t) for t in text]
    out: Play = []
    for t, trick in enumerate(tricks, 1):
        entries: list[tuple[int | None, int]] = []
        for item in trick.replace(",", " ").split():
            position, colon, card = item.rpartition(":")
            seat = parse_position(position, players, f"--play trick {t}") if colon else None
            entries.append((seat, parse_card_list([card], f"--play trick {t}")[0]))
        if not entries:
            raise LooError(f'--play: trick {t} is empty; separate tricks with |, e.g. "1:AH 2:9H 3:2H | 1:7H"')
        seats = [s for s, _ in entries if s is not None]
        dup = next((s for s in seats if seats.count(s) > 1), None)
        if dup is not None:
            raise LooError(f"--play trick {t}: position {position_of(dup, players)} plays twice in one trick")
        out.append(entries)
    return out


@dataclass
class Walked:
    """The script walked: each card with its seat and what made it legal (P8's ``Play``),
    and the state at the question (the seat to move, trumps, the indicator turned)."""

    plays: list[SeenPlay]
    to_move: int
    leader: int  # led (or leads) the current trick
    trick: tuple[tuple[int, int], ...]  # (seat, card) played to it so far
    trick_index: int
    tricks_won: dict[int, int]
    trump: int | None
    turned: bool  # the indicator has been turned (R6)
    civil: bool  # the current trick's Pam be civil (R9) ...
    renounced: bool  # ... and renounce (R6) flags


def walk_script(rules: Rules, single: bool, in_deal: Sequence[int], me: int, hand: Sequence[int],
                play: Play, indicator: int | None, *, my_turn: bool = True) -> Walked:  # fmt: skip
    """Walk the cards played as ``engine/tricks.py`` plays them (R6, R7, R9 Pam be civil);
    ``hand`` is the asking seat's playing hand (its own, or the miss it took). With
    ``my_turn=False`` another seat may be to play (``loo-sim app`` entering the tricks)."""
    n, h, pam = rules.players, rules.hand_size, rules.pam
    mode = Trump.FIRST_RENOUNCE if single else rules.trump
    trump = suit_of(indicator) if mode is Trump.TURN_UP and indicator is not None else None
    turned = mode is Trump.TURN_UP
    plays: list[SeenPlay] = []
    leader = in_deal[0]
    won = dict.fromkeys(in_deal, 0)
    civil = renounced = False
    if len(play) > h:
        raise LooError(f"--play scripts {len(play)} tricks, but a hand holds {h} cards (R2)")
    for t, trick in enumerate(play):
        if t > 0 and len(play[t - 1]) < len(in_deal):
            raise LooError(f"--play trick {t} has {len(play[t - 1])} cards, but {len(in_deal)} are in the deal; "
                           "only the last trick may be partial")  # fmt: skip
        if len(trick) > len(in_deal):
            raise LooError(f"--play trick {t + 1} scripts {len(trick)} cards, but {len(in_deal)} are in the deal")
        start = in_deal.index(leader)
        order = list(in_deal[start:]) + list(in_deal[:start])
        cards: list[int] = []
        civil = renounced = False
        for k, (given, card) in enumerate(trick):
            seat = order[k]
            where = f"trick {t + 1}, {card_str(card)}"
            if given is not None and given != seat:
                if given not in in_deal:
                    raise IllegalAction(in_positions(f"{where}: seat {given} is not in the deal (it passed, R4)", n))
                turn = ("the eldest hand in the deal leads the first trick" if t == 0 and k == 0
                        else f"the winner of trick {t} leads" if k == 0 else "play goes clockwise")  # fmt: skip
                raise IllegalAction(in_positions(f"{where}: seat {given} is not to play: it is seat {seat}'s turn "
                                                 f"({turn}, R7)", n))  # fmt: skip
            plays.append(SeenPlay(seat, card, t, tuple(cards), trump, civil, indicator if turned else None))
            if k == 0:
                if mode is Trump.FIRST_LEAD and trump is None:
                    trump = suit_of(card)  # R6 first_lead
                civil = rules.pam and rules.pam_be_civil and trump is not None and card == make_card(ACE, trump)
            elif trump is None and suit_of(card) != suit_of(cards[0]):
                renounced = True  # a legal card off the led suit: the seat holds none of it (R6)
            cards.append(card)
        if renounced and mode is Trump.FIRST_RENOUNCE and len(cards) == len(in_deal):
            if indicator is None:
                raise LooError(f"--indicator: trick {t + 1} had a renounce, so the indicator was turned (R6); give it")
            trump, turned = suit_of(indicator), True
        if len(cards) == len(in_deal):
            leader = order[TrumpState(trump, pam).winner_index(cards)]
            won[leader] += 1
            civil = renounced = False
    done = sum(1 for trick in play if len(trick) == len(in_deal))
    if done == h:
        raise LooError("--play: the script plays the whole deal; nobody is left to play")
    partial = tuple((p.seat, p.card) for p in plays if p.trick == done)
    start = in_deal.index(leader)
    to_move = (list(in_deal[start:]) + list(in_deal[:start]))[len(partial)]
    walked = Walked(plays, to_move, leader, partial, done, won, trump, turned, civil, renounced)
    check_plays(rules, single, me, hand, walked)
    if my_turn and to_move != me:
        raise LooError(f"--play: it is position {position_of(to_move, n)}'s turn, not position {position_of(me, n)}'s")
    return walked


def check_plays(rules: Rules, single: bool, me: int, hand: Sequence[int], walked: Walked) -> None:
    """Refuse a card the asking seat's hand does not allow, and a card another seat could
    not have played holding only the cards it played from then on (a hand can only add
    duties: R7's follow, head and trump, lead duties)."""
    n = rules.players
    for i, p in enumerate(walked.plays):
        later = [q.card for q in walked.plays[i:] if q.seat == p.seat]
        held = [c for c in hand if c not in {q.card for q in walked.plays[:i] if q.seat == me}] if p.seat == me \
            else later  # fmt: skip
        if p.card in legal_then(p, held, rules, single):
            continue
        ts = TrumpState(p.trump, rules.pam)
        if p.before:
            avail = [c for c in held if c != PAM] if p.civil and PAM in held and len(held) > 1 else list(held)
            options, path = follow_options(avail, list(p.before), ts, rules)
        else:
            options, path = lead_options(list(held), ts, rules, first_trick=p.trick == 0, single_pot=single,
                                         turned_up=p.turned_up)  # fmt: skip
        held_back = p.civil and PAM in held and len(held) > 1 and bool(p.before)
        why = card_refusal(p.seat, p.card, held, options, path, held_back) or "this card is not legal here (R7)"
        if p.seat != me:
            why += ", whatever else it held"
        raise IllegalAction(in_positions(f"trick {p.trick + 1}, {card_str(p.card)}: {why}", n))
