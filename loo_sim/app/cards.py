"""The card-play screen's table: the tricks entered so far walked as the card question
walks them (:func:`loo_sim.run.advise_sight.walk_script`: turn order, trumps, each card
checked with ``check``'s sentence), whose turn it is, and, on the asking seat's turn,
each card of its hand with the rule that forbids it, if one does (R7, R9 Pam be civil;
the sentences of ``game/explain.py``, as ``replay --why`` gives them).
"""

from __future__ import annotations

from loo_sim.analysis.advise_api import one_card
from loo_sim.app.questions import Payload, declare_text, number, rules_of, text, whole
from loo_sim.base.errors import LooError
from loo_sim.game.cards import PAM, SUITS, card_str
from loo_sim.game.deal_input import parse_card_list
from loo_sim.game.decl import DEFEND, MISS, PASS
from loo_sim.game.explain import card_refusal
from loo_sim.game.legality import follow_options, lead_options
from loo_sim.game.ranking import TrumpState
from loo_sim.game.rules import Rules
from loo_sim.run.advise_sight import (
    Walked,
    in_positions,
    parse_positions_declare,
    parse_positions_play,
    position_of,
    seat_of,
    walk_script,
)

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")  # R1, in SUITS order


def playing_hand(p: Payload, declarations: dict[int, str], me: int, n: int) -> list[int]:
    """The cards the asking seat plays from: its hand, or the miss it took (R5)."""
    hand = parse_card_list(text(p, "hand"), "--hand")
    if declarations[me] not in (MISS, DEFEND):
        return hand
    miss = text(p, "miss").strip()
    if not miss:
        raise LooError(f"--miss: position {position_of(me, n)} took the miss, so it has seen it; give its cards")
    return parse_card_list(miss, "--miss")


def in_deal_of(declarations: dict[int, str], me: int, n: int) -> list[int]:
    """The seats in the deal, from the eldest hand round to the dealer (seat 0), refused as the card question is."""
    missing = [position_of(s, n) for s in range(n) if s not in declarations]
    if missing:
        raise LooError(f"--declare: a card question needs every declaration; position {missing[0]}'s is missing")
    if declarations[me] == PASS:
        raise LooError(f"position {position_of(me, n)} passed (R4): it has no card to play")
    in_deal = [s for s in [*range(1, n), 0] if declarations[s] != PASS]
    if len(in_deal) < 2:
        raise LooError("--declare: fewer than two seats are in, so no cards are played (R4)")
    return in_deal


def check_seen(w: Walked, me: int, n: int, mine: set[int], indicator: int | None) -> None:
    """Each card is in the deck once: no card played twice, and no other seat plays the
    indicator or a card the asking seat holds (its hand as dealt, or the miss it took)."""
    seen: set[int] = set()
    for pl in w.plays:
        where = f"--play trick {pl.trick + 1}, {card_str(pl.card)}"
        if pl.card in seen:
            raise LooError(f"{where}: already played; each card is in the deck once")
        if pl.seat != me and (pl.card in mine or pl.card == indicator):
            whose = "the indicator" if pl.card == indicator else f"in position {position_of(me, n)}'s hand"
            raise LooError(f"{where}: position {position_of(pl.seat, n)} cannot hold it: it is {whose}")
        seen.add(pl.card)


def my_cards(rules: Rules, single: bool, me: int, held: list[int], w: Walked, indicator: int | None) -> list[dict]:
    """Each card the asking seat holds: legal now, or the sentence of the rule that forbids it."""
    ts = TrumpState(w.trump, rules.pam)
    led = [c for _, c in w.trick]
    held_back = False
    if not led:
        options, path = lead_options(list(held), ts, rules, first_trick=w.trick_index == 0, single_pot=single,
                                     turned_up=indicator if w.turned else None)  # fmt: skip
    else:
        held_back = w.civil and PAM in held and len(held) > 1
        avail = [c for c in held if c != PAM] if held_back else list(held)
        options, path = follow_options(avail, led, ts, rules)
    out = []
    for card in held:
        why = card_refusal(me, card, held, list(options), path, held_back)
        out.append({"card": card_str(card), "legal": why is None,
                    "why": None if why is None else in_positions(why, rules.players)})  # fmt: skip
    return out


def table_state(p: Payload) -> dict:
    """The tricks so far (positions, trick by trick), who is to play, trumps, tricks won,
    and on the asking seat's turn its cards, legal or not with the rule."""
    t = rules_of(p)
    rules, n = t.rules, t.players
    position = whole(p, "position", 1, "--position")
    if not 1 <= position <= n:
        raise LooError(f"--position {position}: there is no position {position} at a table of {n}")
    me = seat_of(position, n)
    declarations = parse_positions_declare(declare_text(p), n)
    in_deal = in_deal_of(declarations, me, n)
    held = playing_hand(p, declarations, me, n)
    if len(held) != rules.hand_size:
        flag = "--hand" if declarations[me] not in (MISS, DEFEND) else "--miss"
        raise LooError(f"{flag}: {len(held)} cards given; a hand holds {rules.hand_size} (R2)")
    indicator = one_card(text(p, "indicator").strip() or None, "--indicator")
    carried = number(p, "carried", 0.0, "--carried")
    single = rules.is_single_pot(carried)
    play_text = text(p, "play").strip()
    play = parse_positions_play(play_text, n) if play_text else []
    w = walk_script(rules, single, in_deal, me, held, play, indicator, my_turn=False)
    check_seen(w, me, n, {*parse_card_list(text(p, "hand"), "--hand"), *held}, indicator)
    mine = {pl.card for pl in w.plays if pl.seat == me}
    tricks: list[list[str]] = []
    for pl in w.plays:
        if pl.trick == len(tricks):
            tricks.append([])
        tricks[pl.trick].append(f"{position_of(pl.seat, n)}:{card_str(pl.card)}")
    state = {
        "play": " | ".join(" ".join(trick) for trick in tricks),
        "tricks": tricks,
        "to_move": position_of(w.to_move, n),
        "my_turn": w.to_move == me,
        "in_deal": [position_of(s, n) for s in in_deal],
        "trumps": None if w.trump is None else SUIT_NAMES[w.trump],
        "trump_letter": None if w.trump is None else SUITS[w.trump],
        "won": {str(position_of(s, n)): k for s, k in w.tricks_won.items()},
        "played": [card_str(pl.card) for pl in w.plays],
        "cards": [],
    }
    if w.to_move == me:
        state["cards"] = my_cards(rules, single, me, [c for c in held if c not in mine], w, indicator)
    return state
