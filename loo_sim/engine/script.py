"""Scripted card play for the reference engine: a ``CardHook`` (engine/deal.py) that plays
the cards a player wrote down (``replay --play``, ``loo-sim check``), checks each one by
the rules before it is played, and keeps, for ``--why``, each seat's legal cards and why
the others are not.

The legal cards come from ``game/legality.py`` exactly as the engine computes them
(R7, with R9's Pam be civil); an illegal card raises ``IllegalAction`` with the rule in
words and by section (``game/explain.py``). A decision the script does not cover is left
to the seat's policy (the hook returns None).
"""

from __future__ import annotations

from typing import NamedTuple

from loo_sim.base.errors import IllegalAction
from loo_sim.engine.solver import Position
from loo_sim.game.cards import PAM, card_str
from loo_sim.game.deal_input import Play
from loo_sim.game.explain import card_refusal, why_line
from loo_sim.game.legality import follow_options, lead_options
from loo_sim.game.paths import RulePath
from loo_sim.game.ranking import TrumpState


class Decision(NamedTuple):
    """One card decision: who is to play, the hand, the legal cards and the rule that narrowed them."""

    seat: int
    hand: list[int]
    options: list[int]
    path: RulePath | None
    held_back: bool  # R9 Pam be civil took Pam out of the hand


def decision(pos: Position) -> Decision:
    """The legal cards at ``pos``, as ``_Deal.play_tricks`` computes them."""
    seat, rules = pos.to_move, pos.rules
    hand = list(pos.hands[seat])
    cards = [c for _, c in pos.trick]
    ts = TrumpState(pos.trump, rules.pam)
    if not cards:
        options, path = lead_options(hand, ts, rules, first_trick=pos.trick_index == 0, single_pot=pos.single_pot,
                                     turned_up=pos.turned_up)  # fmt: skip
        return Decision(seat, hand, list(options), path, False)
    held = pos.civil and PAM in hand and len(hand) > 1
    avail = [c for c in hand if c != PAM] if held else hand
    options, path = follow_options(avail, cards, ts, rules)
    return Decision(seat, hand, list(options), path, held)


class ScriptedPlay:
    """The card hook: plays ``play[t][k]`` (trick t, k-th card) where scripted, checked;
    with ``why`` it keeps a note for every decision (``notes[t]``, one line each)."""

    def __init__(self, play: Play | None = None, why: bool = False) -> None:
        self.play = play or []
        self.why = why
        self.notes: dict[int, list[str]] = {}
        self.used = 0

    def __call__(self, pos: Position) -> int | None:
        d = decision(pos)
        t, k = pos.trick_index, len(pos.trick)
        if self.why:
            self.notes.setdefault(t, []).append(why_line(d.seat, d.hand, d.options, d.path, d.held_back))
        if t >= len(self.play) or k >= len(self.play[t]):
            return None
        seat, card = self.play[t][k]
        where = f"trick {t + 1}, {card_str(card)}"
        if seat is not None and seat != d.seat:
            if seat not in pos.seats:
                raise IllegalAction(f"{where}: seat {seat} is not in the deal (it passed, R4)")
            turn = ("the eldest hand in the deal leads the first trick" if t == 0 and k == 0
                    else f"the winner of trick {t} leads" if k == 0 else "play goes clockwise")  # fmt: skip
            raise IllegalAction(f"{where}: seat {seat} is not to play: it is seat {d.seat}'s turn ({turn}, R7)")
        why = card_refusal(d.seat, card, d.hand, d.options, d.path, d.held_back)
        if why is not None:
            raise IllegalAction(f"{where}: {why}")
        self.used += 1
        return card

    def leftover(self, tricks_played: int, in_deal: int) -> str | None:
        """After the deal: what the script holds that was never played, or None."""
        total = sum(len(t) for t in self.play)
        if total == self.used:
            return None
        if tricks_played == 0:
            return f"--play scripts {total} cards, but no tricks were played in this deal"
        for t, trick in enumerate(self.play):
            if t >= tricks_played:
                return f"--play scripts trick {t + 1}, but the deal has {tricks_played} tricks"
            if len(trick) > in_deal:
                return f"--play trick {t + 1} scripts {len(trick)} cards, but {in_deal} seats are in the deal"
        return None
