"""The page's questions as ``loo-sim advise`` asks them: a JSON body (the fields of the
page) read into the rules and a declaration or card question of
:mod:`loo_sim.analysis.advise_api`, each answer with the equivalent command line.

Every field is checked by the same functions as the command line's flags, so a bad
input gets the command's own ``error:`` sentence (naming the flag the command line would
use), which the page shows as one line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from loo_sim.analysis.advise_api import (
    Answer,
    CardQuestion,
    answer_json,
    ask,
    ask_card,
    build_card_question,
    build_question,
    command_line,
)
from loo_sim.base.errors import LooError
from loo_sim.game.rules import PRESETS, Rules, parse_set, profile_warnings
from loo_sim.run.advise import DeclarationQuestion, indicator_seen
from loo_sim.run.rounds import ProgressFn

Payload = Mapping[str, Any]
THEN_CHOICES = ("basic", "high", "low", "perfect")


def text(p: Payload, name: str, default: str = "") -> str:
    """A text field (a list of words is joined with spaces)."""
    value = p.get(name, default)
    if value is None:
        return default
    if isinstance(value, list | tuple):
        return " ".join(str(v) for v in value)
    return str(value)


def number(p: Payload, name: str, default: float, flag: str) -> float:
    """A numeric field, refused with its flag when it is not a number."""
    value = p.get(name, default)
    if value is None or value == "":
        return default
    try:
        return float(value)
    except (TypeError, ValueError):
        raise LooError(f"{flag}: {value!r} is not a number") from None


def whole(p: Payload, name: str, default: int, flag: str) -> int:
    value = number(p, name, default, flag)
    if value != int(value):
        raise LooError(f"{flag}: {value:g} is not a whole number")
    return int(value)


def set_items(p: Payload) -> list[str]:
    """The rule options as ``--set`` takes them: ``key=value`` words, separated by spaces or commas."""
    return [w for w in re.split(r"[\s,;]+", text(p, "sets").strip()) if w]


@dataclass
class Table:
    """The rules of the page: the preset, its ``--set`` options and the players."""

    preset: str
    sets: list[str]
    players: int
    rules: Rules
    warnings: list[str]


def rules_of(p: Payload) -> Table:
    """The rule set of the page's preset, options and players (R9c warnings kept to show)."""
    preset = text(p, "preset", "three-card").strip() or "three-card"
    sets = set_items(p)
    overrides = parse_set(sets)
    players = p.get("players")
    if players not in (None, ""):
        n = whole(p, "players", 0, "--players")
        given = overrides.get("players")
        if given is not None and str(given).strip() != str(n):
            raise LooError(f"--players {n} and --set players={given} disagree; give one of them")
        overrides["players"] = str(n)
    rules = Rules.preset(preset, **overrides)
    return Table(preset, sets, rules.players, rules, profile_warnings(preset, rules))


def rules_summary(p: Payload) -> dict:
    """What the page needs to lay out a question under these rules."""
    t = rules_of(p)
    carried = number(p, "carried", 0.0, "--carried")
    return {"players": t.players, "hand_size": t.rules.hand_size, "warnings": t.warnings,
            "indicator_seen": indicator_seen(t.rules, carried), "miss": bool(t.rules.miss),
            "presets": {k: v[0] for k, v in PRESETS.items()}}  # fmt: skip


@dataclass
class Asked:
    """A question read from the page, ready to run, and its command line."""

    question: DeclarationQuestion | CardQuestion
    command: str

    def run(self, *, precision: float, deals: int, seed: int, progress: ProgressFn | None = None) -> Answer:
        go: Callable[..., Answer] = ask_card if isinstance(self.question, CardQuestion) else ask
        return go(self.question, precision=precision, deals=deals, seed=seed, progress=progress)


def declare_text(p: Payload) -> str:
    """Every position's declaration, ``1=play,2=pass,...``, from a mapping or a text."""
    value = p.get("declare") or {}
    if isinstance(value, Mapping):
        return ",".join(f"{k}={v}" for k, v in sorted(value.items(), key=lambda kv: int(kv[0])))
    return str(value)


def read_question(p: Payload) -> Asked:
    """The declaration question (``kind`` "declaration") or card question ("card") of the page."""
    t = rules_of(p)
    hand = text(p, "hand").strip()
    if not hand:
        raise LooError("--hand: click the cards of your hand on the deck")
    position = whole(p, "position", 1, "--position")
    indicator = text(p, "indicator").strip() or None
    carried = number(p, "carried", 0.0, "--carried")
    table = text(p, "table", "basic").strip() or "basic"
    if text(p, "kind", "declaration") == "card":
        declare, play = declare_text(p), text(p, "play").strip()
        then = text(p, "then", "basic").strip() or "basic"
        miss = text(p, "miss").strip() or None
        q = build_card_question(t.rules, position, hand, declare=declare, play=play, indicator=indicator,
                                carried=carried, table=table, then=then, miss=miss)  # fmt: skip
        command = command_line(t.preset, t.sets, t.players, q, hand, indicator, None, table, declare=declare,
                               play=play, then=then, miss=miss)  # fmt: skip
        return Asked(q, command)
    earlier = ",".join(w.strip() for w in text(p, "earlier").replace(",", " ").split()) or None
    q = build_question(t.rules, position, hand, indicator=indicator, earlier=earlier, carried=carried, table=table)
    return Asked(q, command_line(t.preset, t.sets, t.players, q, hand, indicator, earlier, table))


def run_settings(p: Payload) -> dict:
    """The run's precision, deal cap and seed (as ``--precision``, ``--deals``, ``--seed``)."""
    return {"precision": number(p, "precision", 0.05, "--precision"),
            "deals": whole(p, "deals", 1_000_000, "--deals"), "seed": whole(p, "seed", 0, "--seed")}  # fmt: skip


def answer_of(p: Payload, progress: ProgressFn | None = None) -> dict:
    """The whole round trip: read, run, and the answer's JSON (``loo-sim advise --json``'s)
    with the situation the page draws (the actions on offer, the pot)."""
    asked = read_question(p)
    answer = asked.run(progress=progress, **run_settings(p))
    out = answer_json(answer, asked.command)
    if answer.offer is not None:
        out["offer"] = {"options": answer.offer.options, "pot": answer.offer.pot_start,
                        "penalty": answer.offer.penalty}  # fmt: skip
    return out
