"""What the shipped results say of a hand, instantly (``loo-sim advise``, issue #25 item 2):
its cell in a decision chart of the committed ``miss`` reports, and its information set's
row in an equilibrium table of the committed ``solve`` reports, where one was made for
the same rules and players.

The files are copies in ``loo_sim/data/canned/`` made by ``scripts/package_canned.py``;
``index.json`` is their key (kind, ``rules_hash`` of the rules with the players, the pot
carried in for a chart, the report folder and the command that made it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

import pandas as pd

from loo_sim.game.cards import suit_of
from loo_sim.game.classes import EARLIER_IN_BINS, class_label, hand_class
from loo_sim.game.decl import Decl
from loo_sim.game.infosets import POT_LABELS, SITUATION_LABELS, SITUATION_OF_MASK, pot_bucket
from loo_sim.game.ranking import TrumpState
from loo_sim.game.strategy import PROB_COLUMNS, rules_hash
from loo_sim.run.advise import DeclarationQuestion, Offer, indicator_seen

CANNED = resources.files("loo_sim").joinpath("data", "canned")  # scripts/package_canned.py writes it


@dataclass
class Canned:
    """One shipped answer for the hand: a chart's cell or a table's row."""

    kind: str  # "chart" or "table"
    source: str  # the report folder
    command: str
    cell: str  # the cell or information set, in words
    best: str | None  # the chart's best action, or the table's most likely one
    significant: bool | None  # the chart's verdict is significant (None for a table)
    values: dict[str, float]  # chart: each action's paired difference from the best; table: probabilities
    assumes: str  # what the shipped result assumes that advise may not


@cache
def canned_index() -> list[dict]:
    """The key of the shipped files (``index.json``), read once."""
    return json.loads(CANNED.joinpath("index.json").read_text())


@cache
def canned_frame(name: str) -> pd.DataFrame:
    """One shipped file (a chart's cells or a strategy table) as a frame, read once."""
    with CANNED.joinpath(name).open("rb") as f:
        skip = 1 if name.startswith("table-") else 0  # a strategy table's first line is its header
        return pd.read_csv(f, compression="gzip", skiprows=skip, dtype={"position": str, "earlier_in": str})


def known_trumps(q: DeclarationQuestion) -> TrumpState | None:
    """Trumps as the seat knows them when declaring; None when they are turned up but
    the indicator was not given (so the hand's class is not known)."""
    if not indicator_seen(q.rules, q.carried):
        return TrumpState(None, False)
    if q.indicator is None:
        return None
    return TrumpState(suit_of(q.indicator), q.rules.pam)


def canned_answers(q: DeclarationQuestion, offer: Offer) -> list[Canned]:
    """The chart cells and table rows shipped for these rules and players (none when the
    hand's class is unknown: the indicator not given)."""
    ts = known_trumps(q)
    if ts is None:
        return []
    cls = hand_class(q.hand, ts)
    earlier = min(sum(1 for d in q.earlier if d != "pass"), EARLIER_IN_BINS - 1)
    key = rules_hash(q.rules)
    out = []
    for entry in canned_index():
        if entry["rules_hash"] != key:
            continue
        if entry["kind"] == "chart":
            found = _chart_cell(entry, cls, q, offer, earlier)
        else:
            found = _table_row(entry, cls, q, offer, earlier)
        if found is not None:
            out.append(found)
    return out


def _earlier_words(earlier: int) -> str:
    return "3 or more earlier seats in" if earlier == EARLIER_IN_BINS - 1 else f"{earlier} earlier in"


def _chart_cell(entry: dict, cls: int, q: DeclarationQuestion, offer: Offer, earlier: int) -> Canned | None:
    if entry["carried"] != q.carried:
        return None  # a chart is for its own pot
    offered = "miss" in offer.options or "defend" in offer.options
    f = canned_frame(entry["file"])
    rows = f[(f.hand_class == cls) & (f.position == str(q.position)) & (f.miss_on_offer == offered)
             & (f.earlier_in == str(earlier))]  # fmt: skip
    if rows.empty:
        return None
    best = rows[rows.best.astype(bool)]
    cell = (f"'{class_label(cls)}', position {q.position}, the miss {'on' if offered else 'not on'} offer, "
            f"{_earlier_words(earlier)} ({int(rows.n.max()):,} decisions)")  # fmt: skip
    return Canned("chart", entry["source"], entry["command"], cell, None if best.empty else str(best.action.iloc[0]),
                  None if best.empty else bool(best.significant.iloc[0]),
                  {str(r.action): float(r.diff_vs_best) for r in rows.itertuples()},
                  "every seat plays basic; the cell pools the hands of its class and every order of earlier "
                  "declarations with as many seats in")  # fmt: skip


def _table_row(entry: dict, cls: int, q: DeclarationQuestion, offer: Offer, earlier: int) -> Canned | None:
    mask = sum(1 << int(Decl[a.upper()]) for a in offer.options)
    situation = SITUATION_OF_MASK[mask]
    if situation < 0:
        return None
    options = SITUATION_LABELS[situation]
    pot = POT_LABELS[pot_bucket(offer.pot_start, offer.penalty)]
    f = canned_frame(entry["file"])
    rows = f[(f["class"] == cls) & (f.position == str(q.position)) & (f.earlier_in == str(earlier))
             & (f.options == options) & (f.pot == pot)]  # fmt: skip
    if rows.empty:
        return None
    row = rows.iloc[0]
    probs = {c.removeprefix("p_"): float(row[c]) for c in PROB_COLUMNS if c.removeprefix("p_") in offer.options}
    cell = f"'{class_label(cls)}', position {q.position}, {_earlier_words(earlier)}, options {options}, {pot}"
    return Canned("table", entry["source"], entry["command"], cell, max(probs, key=probs.__getitem__), None, probs,
                  "every other seat declares by the same equilibrium table (not by your --table)")  # fmt: skip
