"""The values of a study's fields and their checks, shared by every kind (``report.kinds``):
the type each field must have as a config spells it, the collector of problems (each with
its path below the study, so a config reports them all), the paths of the files a field
names (``table:PATH.csv``), and the parsing of comma-separated policy lists."""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable
from typing import Any

from loo_sim.base.errors import LooError
from loo_sim.game.policy import Policy
from loo_sim.game.rules import PRESETS

Problems = list[tuple[str, str]]  # (path below the study, message)

# The type of every field, as a config spells it (checked before any other check, so a
# value of the wrong type is one problem, not a traceback): field -> its kind of value.
WHOLE, NUMBER, TEXT, FLAG = "a whole number", "a finite number", "a string", "true or false"
FIELD_TYPES: dict[str, str] = {
    "preset": TEXT, "policy": TEXT, "baseline": TEXT, "by_class": FLAG,
    "deals": WHOLE, "seed": WHOLE, "sessions": WHOLE, "burn_in": WHOLE, "focal": WHOLE, "dealer": WHOLE,
    "chart_seat": WHOLE,
    "carried": NUMBER, "precision": NUMBER, "chart_scale": NUMBER, "bankroll": NUMBER,
    "iterations": WHOLE, "averaging": TEXT, "eval_deals": WHOLE, "policies": TEXT, "focal_policy": TEXT,
    "table_policy": TEXT, "whole_table": TEXT, "session_deals": WHOLE, "compare_with": TEXT,
}  # fmt: skip
CARRIED = "a finite number of chips or 'session'"  # a miss study's carried pot (--carried session)
TABLE = "a table"
SCALAR = (str, int, float, bool)  # what a rule option's value may be
SCALAR_RULE = "expected a string, number or boolean"
OPTIONS_RULE = "expected a table of options, e.g. {penalty = 'limited'}"
POLICY_RULE = "expected a string, e.g. 'cautious'"


def is_of(kind: str, value: Any) -> bool:
    """Whether ``value`` is of ``kind`` (bool is no number; inf and nan are no finite number)."""
    if kind == TEXT:
        return isinstance(value, str)
    if kind == FLAG:
        return isinstance(value, bool)
    if kind == CARRIED and value == "session":
        return True
    if isinstance(value, bool):
        return False
    if kind == WHOLE:
        return isinstance(value, int)
    return isinstance(value, (int, float)) and math.isfinite(value)


def type_name(value: Any) -> str:
    return {bool: "a boolean", str: "a string", int: "an integer", float: "a number", list: "an array",
            dict: "a table"}.get(type(value), type(value).__name__)  # fmt: skip


def shown(value: Any) -> str:
    text = str(value).lower() if isinstance(value, bool) else repr(value)  # as TOML spells it
    return text if len(text) <= 40 else text[:37] + "..."


def not_of(kind: str, value: Any) -> str:
    """Why ``value`` is not of ``kind`` (a whole float past 2**53 is not exact: digits are asked for)."""
    if kind == WHOLE and isinstance(value, float) and value.is_integer():
        return f"{shown(value)} is 2**53 or more written as a float (not exact); write it in digits"
    return f"{shown(value)} is {type_name(value)}; expected {kind}"


TABLE_PATH = re.compile(r"(?:table:(.+?\.csv)|rule:(.+?\.rule))", re.IGNORECASE)  # the files Policy.parse reads
# a PLAY part that searches with the card-play solver (game.policy.SOLVER_PLAY): perfect, pimc:N[:infer...],
# alone (an entrant), after DECLARE/ or as seat=POLICY; not a file's name (table:perfect.csv)
SEARCH_PLAY = re.compile(r"(?:^|[/=,\s])(?:perfect|pimc:\d+)(?:$|[:,\s])", re.IGNORECASE)


def content_hash(path: str) -> str:
    """The sha256 of a file's bytes, or why there are none (the study's check says it more fully)."""
    try:
        with open(path, "rb") as f:
            return hashlib.file_digest(f, "sha256").hexdigest()
    except OSError as e:
        return f"unreadable: {e.__class__.__name__}"


def head_of(path: str) -> str:
    """The field a problem's path is about: ``rules.penalty`` and ``seat_policy[2]`` -> ``rules``, ``seat_policy``."""
    return path.split(".")[0].split("[")[0]


def parse_item(item: str, text: str) -> Policy:
    """One ``SEAT=POLICY`` item's policy, its error starting with the item (as the table's parser says it)."""
    try:
        return Policy.parse(text)
    except LooError as e:
        raise LooError(f"{item!r}: {e}") from None


def preset_name(value: Any) -> str:
    """A preset's name as PRESETS spells it (any case, as ``--preset`` takes it), or a LooError."""
    key = value.strip().lower() if isinstance(value, str) else None
    if key not in PRESETS:
        raise LooError(f"preset: {shown(value)} is not one of {', '.join(PRESETS)} (any case)")
    return key


class Collect:
    """Problems as they are found; ``attempt`` runs a check and keeps its error."""

    def __init__(self) -> None:
        self.found: Problems = []

    def add(self, path: str, message: str) -> None:
        self.found.append((path, message))

    def attempt(self, path: str, fn: Callable[[], Any]) -> Any:
        try:
            return fn()
        except LooError as e:  # an error about one item (seat_policy[2], compare[0]) has its own path
            self.found.append((e.key, e.detail) if e.key else (path, str(e)))
            return None


def split_policies(text: str) -> list[str]:
    """``basic,cautious,threshold:play=0.6,miss=0.3``: policies separated by commas, where a
    piece ``key=value`` without a family name belongs to the policy before it."""
    out: list[str] = []
    for piece in (p.strip() for p in str(text).split(",")):
        if out and "=" in piece and ":" not in piece and "/" not in piece.split("=")[0]:
            out[-1] += "," + piece
        elif piece:
            out.append(piece)
    return out


HEURISTIC_NAME = re.compile(r"[\w .+-]+")  # NAME of NAME=POLICY: no ':' or '/', so no policy reads as one


def named_heuristic(text: str) -> tuple[str, str]:
    """(label, policy text) of a heuristic given as ``NAME=POLICY`` or as ``POLICY`` (labelled
    as written): ``tip 1=rule:miss if aces == 0; play``. A policy never reads as a name: the
    only ones with '=' (threshold:, rule:) have ':' before it."""
    name, sep, rest = str(text).partition("=")
    if sep and HEURISTIC_NAME.fullmatch(name) and name.strip() and not rest.startswith("="):
        return name.strip(), rest.strip()
    return str(text).strip(), str(text).strip()


def extra_heuristic_problems(p: Collect, name: str, texts: list[str], shipped: list[str]) -> None:
    """Problems of heuristics given beside the ``shipped`` ones (``miss --heuristic``, ``solve
    --exploitability-of``): each a policy, none a shipped one or given twice (as policies or
    labels), none a chart (which needs a chart of its own)."""
    seen = {str(Policy.parse(h)): h for h in shipped}
    labels = set(shipped)
    for i, text in enumerate(texts):
        label, policy = named_heuristic(text)
        parsed = p.attempt(f"{name}[{i}]", lambda t=policy: Policy.parse(t))
        if parsed is None:
            continue
        if parsed.declare == "chart":
            p.add(f"{name}[{i}]", f"{shown(text)}: the chart family needs a decision chart; give another policy")
        elif str(parsed) in seen:
            p.add(f"{name}[{i}]", f"{shown(text)} is compared already (as {seen[str(parsed)]!r}); give each once")
        elif label in labels:
            p.add(f"{name}[{i}]", f"{shown(text)}: the name {label!r} is taken; give another, NAME=POLICY")
        else:
            seen[str(parsed)] = text
            labels.add(label)
