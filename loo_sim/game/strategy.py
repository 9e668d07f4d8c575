"""Strategy tables as data (docs/policies.md P6): information set -> probability of each
declaration, for the ``table:PATH`` family and the solver's ``strategy.csv``.

The text form is a CSV with one comment line first, ``# loo_sim strategy table;
rules_hash=H; players=N``: a table answers for one rule set and one number of players
(``rules_hash`` hashes every option that changes how a deal is played), and is refused
for any other. Each row is an information set: ``class`` (P5; ``hand`` is its label and
must match), ``position``, ``earlier_in`` (0..3, 3 meaning 3 or more), ``options`` (what
was on offer, e.g. ``play/pass/miss``), ``pot`` (the pot bucket's label) and ``p_pass``,
``p_play``, ``p_miss``, ``p_defend``, which must sum to 1 and be 0 for actions not on
offer. Other columns (``miss_on_offer``, ``reach``, ``decisions``, the actions' mean
payoffs ``ev_*``) are for people and ignored when read.
No file I/O here: ``run/tables.py`` reads and writes the files.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pandas as pd

from loo_sim.base.errors import LooError
from loo_sim.game.classes import EARLIER_IN_BINS, N_CLASSES, class_label
from loo_sim.game.decl import DECL_NAMES, Decl
from loo_sim.game.infosets import (
    ACTIONS,
    N_INFOSETS,
    POT_LABELS,
    SITUATION_LABELS,
    SITUATION_MASKS,
    infoset_index,
    infoset_parts,
)
from loo_sim.game.rules import Rules

SCHEME = 1  # bump when the information sets change: older tables stop matching
HEADER_PREFIX = "# loo_sim strategy table;"
PROB_COLUMNS = tuple(f"p_{name}" for name in DECL_NAMES)  # p_pass, p_play, p_miss, p_defend: column = code
REQUIRED = ("class", "hand", "position", "earlier_in", "options", "pot", *PROB_COLUMNS)
MISS_OR_DEFEND = (1 << int(Decl.MISS)) | (1 << int(Decl.DEFEND))  # the miss on offer, to take or defend with
TOLERANCE = 1e-6  # probabilities of a row must sum to 1 within this (a CSV rounds them)


def rules_hash(rules: Rules) -> str:
    """A hash of the options that change how a deal is played, and of the scheme."""
    text = json.dumps({"infosets": SCHEME, "rules": rules.deal_options()}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def header_line(rules: Rules) -> str:
    return f"{HEADER_PREFIX} rules_hash={rules_hash(rules)}; players={rules.players}"


def parse_header(line: str, source: str) -> dict[str, str]:
    """The ``key=value`` fields of a table's first line (LooError if it is not one)."""
    if not line.startswith(HEADER_PREFIX):
        raise LooError(f"{source}: not a strategy table (its first line must start with {HEADER_PREFIX!r})")
    fields = {}
    for item in line[len(HEADER_PREFIX) :].split(";"):
        key, sep, value = item.strip().partition("=")
        if sep:
            fields[key.strip()] = value.strip()
    return fields


def check_header(fields: dict[str, str], rules: Rules, source: str) -> None:
    """A table for other rules or another number of players is refused, in one line."""
    players = fields.get("players")
    missing = [key for key in ("rules_hash", "players") if not fields.get(key)]
    if missing:
        raise LooError(f"{source}: a strategy table's first line lacks {' and '.join(f'{k}=' for k in missing)} "
                       f"(expected {header_line(rules)!r})")  # fmt: skip
    if players != str(rules.players):
        raise LooError(f"{source}: a strategy table for {players} players; these rules have {rules.players}")
    if fields.get("rules_hash") != rules_hash(rules):
        raise LooError(f"{source}: a strategy table for other rules (rules_hash {fields.get('rules_hash')}; "
                       f"these rules have {rules_hash(rules)}): solve again with these rules")  # fmt: skip


def empty_table() -> np.ndarray:
    """[N_INFOSETS, ACTIONS] of NaN: no information set known (every seat decides as basic)."""
    return np.full((N_INFOSETS, ACTIONS), np.nan)


def table_frame(probs: np.ndarray, rows: np.ndarray, extra: dict[str, np.ndarray] | None = None) -> pd.DataFrame:
    """The rows ``rows`` (information-set keys) of a table as its CSV frame, keys first; ``extra``
    columns (one value per row) after the probabilities."""
    parts = [infoset_parts(int(i)) for i in rows]
    frame = pd.DataFrame(
        {
            "class": [p[0] for p in parts],
            "hand": [class_label(p[0]) for p in parts],
            "position": [p[1] for p in parts],
            "earlier_in": [p[2] for p in parts],
            "options": [SITUATION_LABELS[p[3]] for p in parts],
            "miss_on_offer": [bool(SITUATION_MASKS[p[3]] & MISS_OR_DEFEND) for p in parts],
            "pot": [POT_LABELS[p[4]] for p in parts],
        }
    )
    for a, column in enumerate(PROB_COLUMNS):
        frame[column] = probs[rows, a] if len(rows) else np.zeros(0)
    for name, values in (extra or {}).items():
        frame[name] = values
    return frame


def _ints(frame: pd.DataFrame, column: str, low: int, high: int, source: str) -> np.ndarray:
    values = pd.to_numeric(frame[column], errors="coerce")
    bad = values.isna() | (values != values.round()) | (values < low) | (values > high)
    if bad.any():
        line = int(np.flatnonzero(bad.to_numpy())[0])
        raise LooError(f"{source} row {line + 1}: unknown information-set key: {column} "
                       f"{frame[column].iloc[line]!r} (allowed {low}..{high})")  # fmt: skip
    return values.to_numpy(dtype=np.int64)


def _labels(frame: pd.DataFrame, column: str, allowed: tuple[str, ...], source: str) -> np.ndarray:
    codes = frame[column].astype(str).str.strip().map({label: i for i, label in enumerate(allowed)})
    if codes.isna().any():
        line = int(np.flatnonzero(codes.isna().to_numpy())[0])
        raise LooError(f"{source} row {line + 1}: unknown information-set key: {column} "
                       f"{frame[column].iloc[line]!r} (allowed {', '.join(allowed)})")  # fmt: skip
    return codes.to_numpy(dtype=np.int64)


def _cell(value: object) -> str:
    """A probability cell as written: text quoted (a number read as such shown as one), an empty cell as empty."""
    if isinstance(value, str):
        return repr(value.strip())
    if isinstance(value, float) and np.isnan(value):
        return "(empty)"
    return str(value)


def table_from_frame(frame: pd.DataFrame, players: int, source: str) -> np.ndarray:
    """A table's CSV frame as the [N_INFOSETS, ACTIONS] probabilities both engines read
    (NaN rows: not in the table). Every key and probability is checked: an unknown key, a
    duplicate, probabilities outside 0..1, on an action not on offer, or not summing to 1
    are one-line errors naming the row."""
    missing = [c for c in REQUIRED if c not in frame.columns]
    if missing:
        raise LooError(f"{source}: lacks column(s) {', '.join(missing)}; a strategy table has {', '.join(REQUIRED)}")
    cls = _ints(frame, "class", 0, N_CLASSES - 1, source)
    hands = frame["hand"].astype(str).str.strip().to_numpy()
    for line, (c, hand) in enumerate(zip(cls, hands)):
        if hand != class_label(int(c)):
            raise LooError(f"{source} row {line + 1}: unknown information-set key: hand {hand!r} is not class "
                           f"{c} ({class_label(int(c))!r})")  # fmt: skip
    position = _ints(frame, "position", 1, players, source)
    earlier = _ints(frame, "earlier_in", 0, EARLIER_IN_BINS - 1, source)
    situation = _labels(frame, "options", SITUATION_LABELS, source)
    bucket = _labels(frame, "pot", POT_LABELS, source)
    probs = np.column_stack([pd.to_numeric(frame[c], errors="coerce").to_numpy(dtype=float) for c in PROB_COLUMNS])
    table = empty_table()
    for line in range(len(frame)):
        where = f"{source} row {line + 1}"
        row = probs[line]
        if np.isnan(row).any() or (row < 0).any() or (row > 1).any():
            bad = [f"{c} {_cell(frame[c].iloc[line])}" for a, c in enumerate(PROB_COLUMNS) if not 0 <= row[a] <= 1]
            raise LooError(f"{where}: probabilities must be numbers 0..1, got {', '.join(bad)}")
        offered = SITUATION_MASKS[situation[line]]
        off = [DECL_NAMES[a] for a in range(ACTIONS) if row[a] > 0 and not (offered >> a) & 1]
        if off:
            raise LooError(f"{where}: probability on {', '.join(off)}, which is not on offer "
                           f"({SITUATION_LABELS[situation[line]]})")  # fmt: skip
        if abs(row.sum() - 1.0) > TOLERANCE:
            raise LooError(f"{where}: probabilities sum to {row.sum():.9g}, not 1")
        key = infoset_index(int(cls[line]), int(position[line]), int(earlier[line]), int(situation[line]),
                            int(bucket[line]))  # fmt: skip
        if not np.isnan(table[key, 0]):
            raise LooError(f"{where}: information set given twice (class {cls[line]}, position {position[line]}, "
                           f"earlier_in {earlier[line]}, {SITUATION_LABELS[situation[line]]}, "
                           f"{POT_LABELS[bucket[line]]})")  # fmt: skip
        table[key] = row / row.sum()  # exact sums, so that a pure row is exactly pure
    return table
