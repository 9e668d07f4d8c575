"""Studies as typed specs: one dataclass per kind of experiment (:class:`SimulateStudy`,
:class:`MissStudy`, :class:`PotsStudy`, :class:`VariantsStudy`, :class:`SolveStudy`), each with the fields its
kind uses and its own validation. ``problems()`` returns every problem at once, each with
its path below the study (``rules.penalty``, ``seat_policy[2]``, ``compare[0]``), so a
config reports them all; ``check()`` raises the first (the CLI's way).

The CLI commands and batch reports build these and run them with
``report.runners.run_study``, so a report's experiment and the command it prints give
the same numbers and the same files.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from loo_sim import checks
from loo_sim.errors import LooError
from loo_sim.game.policy import Policy, parse_seat_policies
from loo_sim.game.rules import OPTION_NAMES, PRESETS, Rules, split_option

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
    "table_policy": TEXT, "whole_table": TEXT, "session_deals": WHOLE,
}  # fmt: skip
CARRIED = "a finite number of chips or 'session'"  # a miss study's carried pot (--carried session)
TABLE = "a table"
SCALAR = (str, int, float, bool)  # what a rule option's value may be
SCALAR_RULE = "expected a string, number or boolean"
OPTIONS_RULE = "expected a table of options, e.g. {penalty = 'limited'}"
POLICY_RULE = "expected a string, e.g. 'cautious'"


def _is(kind: str, value: Any) -> bool:
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


def _type_name(value: Any) -> str:
    return {bool: "a boolean", str: "a string", int: "an integer", float: "a number", list: "an array",
            dict: "a table"}.get(type(value), type(value).__name__)  # fmt: skip


def _shown(value: Any) -> str:
    text = str(value).lower() if isinstance(value, bool) else repr(value)  # as TOML spells it
    return text if len(text) <= 40 else text[:37] + "..."


def _not_of(kind: str, value: Any) -> str:
    """Why ``value`` is not of ``kind`` (a whole float past 2**53 is not exact: digits are asked for)."""
    if kind == WHOLE and isinstance(value, float) and value.is_integer():
        return f"{_shown(value)} is 2**53 or more written as a float (not exact); write it in digits"
    return f"{_shown(value)} is {_type_name(value)}; expected {kind}"


def preset_name(value: Any) -> str:
    """A preset's name as PRESETS spells it (any case, as ``--preset`` takes it), or a LooError."""
    key = value.strip().lower() if isinstance(value, str) else None
    if key not in PRESETS:
        raise LooError(f"preset: {_shown(value)} is not one of {', '.join(PRESETS)} (any case)")
    return key


class _Collect:
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


@dataclass
class Study:
    """What every kind has: the rule set (a preset and option overrides, as docs/rules.md spells
    them), the policies (``policy`` at every seat, ``seat_policy`` {seat: policy} over it),
    the deals and the seed."""

    kind: ClassVar[str] = ""
    ARRAYS: ClassVar[dict[str, str]] = {}  # the kind's array fields: name -> what each item is
    preset: str = "three-card"
    rules: dict[str, Any] = field(default_factory=dict)  # option overrides
    policy: str | None = None  # every seat
    seat_policy: dict[Any, str] = field(default_factory=dict)  # seat -> policy (keys may be digit strings)
    deals: int = 100_000
    seed: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.preset, str) and self.preset.strip().lower() in PRESETS:  # as --preset takes it
            self.preset = self.preset.strip().lower()

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **json.loads(json.dumps(dataclasses.asdict(self), default=str))}

    def digest(self) -> str:
        """A hash of the resolved study and the loo_sim version (reports resume on it)."""
        from loo_sim.version import __version__

        text = json.dumps({"study": self.to_dict(), "version": __version__}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def base_rules(self) -> Rules:
        return Rules.preset(self.preset, **self.rules)

    def table(self, players: int) -> list[Policy]:
        return parse_seat_policies(self.policy, self.seat_policy, players)

    def problems(self) -> Problems:
        """Every problem with this study, as (path below the study, message)."""
        p = _Collect()
        self._type_problems(p)
        if p.found:  # the other checks need the types
            return p.found
        p.attempt("preset", lambda: preset_name(self.preset))
        valid = {}
        for key, value in self.rules.items():
            if key not in OPTION_NAMES:
                p.add(f"rules.{key}", f"unknown option; allowed {', '.join(OPTION_NAMES)}")
                continue
            coerced = p.attempt(f"rules.{key}", lambda k=key, v=value: Rules.coerce_option(k, v))
            if coerced is not None or value is None:
                valid[key] = value
        if str(self.preset).strip().lower() in PRESETS:  # the combinations (R11), of the options valid one by one
            p.attempt("rules", lambda: Rules.preset(self.preset, **valid))
        rules = self.base_rules() if not p.found else None
        self._more_problems(p, rules)
        return p.found

    def _type_problems(self, p: _Collect) -> None:
        """A problem for each field whose value is not of its type (a config's loose values:
        ``by_class = "yes please"``, ``precision = true``, ``sessions = 100.5``, ``rules = 5``)."""
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            kind = None if f.name in self.ARRAYS else FIELD_TYPES.get(f.name)
            if kind is not None and not (value is None and f.default is None) and not _is(kind, value):
                p.add(f.name, _not_of(kind, value))
        if not isinstance(self.rules, dict):
            p.add("rules", f"{_shown(self.rules)} is {_type_name(self.rules)}; {OPTIONS_RULE}")
        else:
            for key, value in self.rules.items():
                if not isinstance(value, SCALAR):
                    p.add(f"rules.{key}", f"{_shown(value)} is {_type_name(value)}; {SCALAR_RULE}")
        if not isinstance(self.seat_policy, dict):
            p.add("seat_policy", f"{_shown(self.seat_policy)} is {_type_name(self.seat_policy)}; "
                                 "expected a table {SEAT = POLICY}, e.g. {2 = 'cautious'}")  # fmt: skip
        else:
            seats: dict[int, Any] = {}
            for seat, value in self.seat_policy.items():
                if isinstance(seat, bool) or not (isinstance(seat, int) or (isinstance(seat, str) and seat.isascii()
                                                                             and seat.isdigit())):  # fmt: skip
                    p.add(f"seat_policy[{seat}]", f"{_shown(seat)} is not a seat number; expected 0, 1, 2, ...")
                elif not isinstance(value, str) or not value.strip():
                    p.add(f"seat_policy[{seat}]", f"{_shown(value)} is not a policy; {POLICY_RULE}")
                elif int(seat) in seats:  # "0" and "00", or 0 and "0": one seat given twice
                    p.add(f"seat_policy[{seat}]", f"seat {int(seat)} is given twice ({seats[int(seat)]!r} and "
                                                  f"{seat!r}); give each seat once")  # fmt: skip
                else:
                    seats[int(seat)] = seat
        if self.policy is not None and isinstance(self.policy, str) and not self.policy.strip():
            p.add("policy", "'' is not a policy; expected one, e.g. 'basic' or 'cautious/high'")
        for name, kind in self.ARRAYS.items():
            values = getattr(self, name)
            if not isinstance(values, list):
                p.add(name, f"{_shown(values)} is {_type_name(values)}; expected an array (each {kind})")
                continue
            for i, value in enumerate(values):
                if not (isinstance(value, dict) if kind == TABLE else _is(kind, value)):
                    p.add(f"{name}[{i}]", _not_of(kind, value))

    def _more_problems(self, p: _Collect, rules: Rules | None) -> None:
        """The problems of a kind's own fields (``rules``: None when the rule set is bad)."""
        p.attempt("deals", lambda: checks.deals(self.deals))
        p.attempt("seed", lambda: checks.seed(self.seed))
        if rules is not None:
            p.attempt("policy", lambda: self.table(rules.players))

    def check(self) -> None:
        """Raise the first problem as one LooError line, with its path as the key."""
        problems = self.problems()
        if problems:
            path, message = problems[0]
            name = path.split(".")[-1]
            if message.startswith(f"{name}: "):  # the message names its option already
                raise LooError(message[len(name) + 2 :], key=name)
            if path == "rules" or message.startswith(name):  # a rule set's own error; policy 'x': ...
                raise LooError(message)
            raise LooError(message, key=path)


@dataclass
class SimulateStudy(Study):
    """Independent deals with the kernel: rates, loo rates, tricks and net chips per seat."""

    kind: ClassVar[str] = "simulate"
    carried: float = 0.0  # chips carried into every deal
    dealer: int | None = None  # a fixed dealer (default: deal k is dealt by seat k mod players)
    by_class: bool = False  # also the loo rate by hand class

    def _more_problems(self, p: _Collect, rules: Rules | None) -> None:
        super()._more_problems(p, rules)
        p.attempt("carried", lambda: checks.chips("carried", self.carried))
        if rules is not None and self.dealer is not None:
            p.attempt("dealer", lambda: checks.seat("dealer", self.dealer, rules.players))


@dataclass
class MissStudy(Study):
    """Counterfactual decision charts, a paired comparison of heuristics, and a sweep over
    the players and the pot carried in (the first of each is the main run)."""

    kind: ClassVar[str] = "miss"
    ARRAYS: ClassVar[dict[str, str]] = {"players": WHOLE, "carried": CARRIED, "heuristics": TEXT}
    SESSION_OPTIONS: ClassVar[tuple[str, ...]] = ("sessions", "session_deals", "burn_in")
    UNSET_KEPT_OUT: ClassVar[tuple[str, ...]] = SESSION_OPTIONS + ("heuristics",)  # out of to_dict while unset
    deals: int = 200_000
    players: list[int] = field(default_factory=list)  # the sweep (default: the preset's)
    carried: list[float | str] = field(default_factory=lambda: [0.0])  # the sweep, or ["session"]
    precision: float | None = None  # stop the heuristics when every 95% half-width is below it
    focal: int = 0  # the seat whose heuristics are compared
    chart_seat: int | None = None  # the seat the chart replays; None = every seat in turn
    chart_scale: float | None = None  # the charts' colour limit in chips (None: from the data); one per report
    # carried = ["session"]: each deal's carried pot is drawn from the pots met in sessions
    # (run.session_pots); None: the documented default of each
    sessions: int | None = None  # sessions played for the distribution (default 2000)
    session_deals: int | None = None  # deals per session (default 50)
    burn_in: int | None = None  # the first deals of each session not counted (default 10)
    heuristics: list[str] = field(default_factory=list)  # compared too, after the shipped ones (e.g. rule:...)

    def __post_init__(self) -> None:
        super().__post_init__()
        if isinstance(self.carried, list):  # 'Session' as --carried takes it
            self.carried = ["session" if isinstance(c, str) and c.strip().lower() == "session" else c
                            for c in self.carried]  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """As every study's, without the session options and the extra heuristics left unset
        (so a study without them keeps the digest it had before they existed)."""
        return {k: v for k, v in super().to_dict().items() if not (k in self.UNSET_KEPT_OUT and v in (None, []))}

    def heuristic_policies(self, rules: Rules) -> tuple[list[str], list[Policy]]:
        """(names, policies) of the heuristics compared: the shipped ones (heuristics_for),
        then ``heuristics`` as written."""
        from loo_sim.game.policy import heuristics_for

        named = [(h, h) for h in heuristics_for(rules)] + [named_heuristic(h) for h in self.heuristics]
        return [label for label, _ in named], [Policy.parse(text) for _, text in named]

    @property
    def session_pots(self) -> bool:
        """Whether each deal's carried pot is drawn from sessions (``carried = ["session"]``)."""
        return isinstance(self.carried, list) and "session" in self.carried

    def session_settings(self) -> tuple[int, int, int]:
        """(sessions, deals per session, burn-in), the defaults where unset."""
        from loo_sim.run.session_pots import DEFAULT_BURN_IN, DEFAULT_SESSION_DEALS, DEFAULT_SESSIONS

        return (DEFAULT_SESSIONS if self.sessions is None else self.sessions,
                DEFAULT_SESSION_DEALS if self.session_deals is None else self.session_deals,
                DEFAULT_BURN_IN if self.burn_in is None else self.burn_in)  # fmt: skip

    def player_counts(self, rules: Rules) -> list[int]:
        return [int(n) for n in self.players] or [rules.players]

    def _more_problems(self, p: _Collect, rules: Rules | None) -> None:
        from loo_sim.run.session_pots import check_session_options

        p.attempt("deals", lambda: checks.deals(self.deals))
        p.attempt("seed", lambda: checks.seed(self.seed))
        for i, c in enumerate(self.carried):
            if c != "session":
                p.attempt(f"carried[{i}]", lambda c=c: checks.chips("carried", c))
        if self.session_pots and len(self.carried) > 1:
            p.add("carried", "'session' draws every deal's carried pot from sessions, so it is not combined with "
                             "chip values; run them as separate studies")  # fmt: skip
        if self.session_pots:
            p.attempt("sessions", lambda: check_session_options(*self.session_settings()))  # keyed by the option
        else:
            for name in self.SESSION_OPTIONS:
                if getattr(self, name) is not None:
                    p.add(name, "goes with carried = 'session' (--carried session), which draws each deal's "
                                "carried pot from sessions")  # fmt: skip
        for i, n in enumerate(self.players):
            p.attempt(f"players[{i}]", lambda n=n: checks.whole_number("players", n, 3, 8))
        if rules is not None:
            sizes = [int(n) for n in self.players if str(n).isdigit() and 3 <= int(n) <= 8] or [rules.players]
            for n in sizes:
                p.attempt("policy", lambda n=n: self.table(n))
            p.attempt("focal", lambda: checks.seat("focal", self.focal, sizes[0]))
            if self.chart_seat is not None:
                p.attempt("chart_seat", lambda: checks.seat("chart_seat", self.chart_seat, sizes[0]))
        if self.precision is not None and not (isinstance(self.precision, (int, float)) and self.precision > 0):
            p.add("precision", f"{self.precision!r} is not allowed; allowed a number of chips > 0")
        if rules is not None:
            _extra_heuristics(p, "heuristics", self.heuristics, rules)
        scale = self.chart_scale
        if scale is not None and (isinstance(scale, bool) or not isinstance(scale, (int, float)) or not scale > 0
                                  or scale == float("inf")):  # fmt: skip
            p.add("chart_scale", f"{scale!r} is not allowed; allowed a finite number of chips > 0")


@dataclass
class PotsStudy(Study):
    """Sessions of many deals (R10) for each arm of a comparison, on the same decks."""

    kind: ClassVar[str] = "pots"
    ARRAYS: ClassVar[dict[str, str]] = {"compare": TEXT}
    deals: int = 50  # deals a session plays at most
    compare: list[str] = field(default_factory=list)  # KEY=V1,V2 items: the grid of arms, first values first
    sessions: int = 2000  # sessions per arm
    bankroll: float | None = None  # a session ends when a balance falls below -bankroll

    def _more_problems(self, p: _Collect, rules: Rules | None) -> None:
        from loo_sim.analysis.pots import parse_compare

        p.attempt("seed", lambda: checks.seed(self.seed))
        if rules is not None:
            p.attempt("policy", lambda: self.table(rules.players))
        parsed = p.attempt("compare", lambda: parse_compare(self.compare))
        self._repeats(p, parsed or [])
        p.attempt("sessions", lambda: checks.sessions(self.sessions))
        p.attempt("deals", lambda: checks.session_deals(self.deals))
        if self.bankroll is not None:
            p.attempt("bankroll", lambda: checks.chips("bankroll", self.bankroll))
        if rules is not None and not p.found:  # the grid of arms, when every part of it is valid
            p.attempt("compare", lambda: self.arms())

    def _repeats(self, p: _Collect, parsed: list[tuple[str, list[str]]]) -> None:
        """A key compared twice (``--compare penalty=limited --compare penalty=unlimited``), or
        a value twice in one item (``penalty=limited,limited``): refused before the run."""
        first: dict[str, int] = {}
        for i, (key, values) in enumerate(parsed):
            item = _shown(self.compare[i])
            if key in first:
                p.add(f"compare[{i}]", f"{item}: {key} is compared already (item {first[key] + 1}); give each "
                                       f"key once with all its values, e.g. {key}=V1,V2")  # fmt: skip
                continue
            first[key] = i
            seen: dict[str, str] = {}
            for value in values:
                same = _compared_as(key, value)
                if same in seen:
                    p.add(
                        f"compare[{i}]", f"{item}: {value!r} is the same value as {seen[same]!r}; give each value once"
                    )
                    break
                seen[same] = value

    def arms(self):
        """The arms of the comparison (``run.sessions.Arm``), the first values first."""
        from loo_sim.analysis.pots import parse_compare
        from loo_sim.run.sessions import make_arms

        base = self.base_rules()
        if self.bankroll is not None:
            base = base.replace(bankroll=float(self.bankroll))
        return make_arms(base, self.table, parse_compare(self.compare))


@dataclass
class VariantsStudy(Study):
    """Rule sets side by side on the same deals (deal k of the seed for every row), each
    compared with a baseline row deal by deal."""

    kind: ClassVar[str] = "variants"
    ARRAYS: ClassVar[dict[str, str]] = {"rows": TABLE}
    carried: float = 0.0  # chips carried into every deal
    rows: list[dict[str, Any]] = field(default_factory=list)  # {name, preset, rules}
    baseline: str | None = None  # the row the others are compared with (default: the first)
    sessions: int | None = None  # in sessions (R10): sessions per row, ``deals`` then deals per session
    burn_in: int | None = None  # deals dropped at the start of each session (default: run.variants.default_burn_in)

    @property
    def in_sessions(self) -> bool:
        return self.sessions is not None

    def clean_deals(self) -> int:
        """The deals of the clean-pot table: ``deals``, or in sessions as many deals as the
        sessions play (sessions x deals), each from a clean pot as a session's first deal."""
        return min(int(self.sessions) * int(self.deals), checks.MAX_DEALS) if self.in_sessions else int(self.deals)

    def _more_problems(self, p: _Collect, rules: Rules | None) -> None:
        if self.in_sessions:  # deals per session: checked below, once
            p.attempt("seed", lambda: checks.seed(self.seed))
            if rules is not None:
                p.attempt("policy", lambda: self.table(rules.players))
        else:
            super()._more_problems(p, rules)
        p.attempt("carried", lambda: checks.chips("carried", self.carried))
        if self.in_sessions:
            p.attempt("sessions", lambda: checks.sessions(self.sessions))
            deals = p.attempt("deals", lambda: checks.session_deals(self.deals))
            if self.burn_in is not None and deals is not None:
                p.attempt("burn_in", lambda: checks.burn_in(self.burn_in, deals))
            if self.carried:
                p.add("carried", "sessions start from a clean pot (R10); carried goes with deals from a chosen pot")
        elif self.burn_in is not None:
            p.add("burn_in", "burn_in goes with sessions (deals dropped at the start of each session)")
        if not self.rows:
            p.add("rows", "a variants study needs rows, e.g. rows = [{name = 'limited', preset = 'limited'}]")
        names = [str(r.get("name", "")) for r in self.rows]
        for i, row in enumerate(self.rows):
            if not row.get("name"):
                p.add(f"rows[{i}].name", "each row needs a name")
            elif not isinstance(row["name"], str):
                p.add(f"rows[{i}].name", f"{_shown(row['name'])} is {_type_name(row['name'])}; expected a string")
            unknown = set(row) - {"name", "preset", "rules"}
            if unknown:
                p.add(f"rows[{i}]", f"unknown keys {sorted(unknown)}; allowed name, preset, rules")
            row_rules = row.get("rules", {})
            if not isinstance(row_rules, dict):
                p.add(f"rows[{i}].rules", f"{_shown(row_rules)} is {_type_name(row_rules)}; {OPTIONS_RULE}")
                continue
            bad = [k for k, v in row_rules.items() if not isinstance(v, SCALAR)]
            for k in bad:
                p.add(f"rows[{i}].rules.{k}", f"{_shown(row_rules[k])} is {_type_name(row_rules[k])}; {SCALAR_RULE}")
            if not bad:
                p.attempt(f"rows[{i}]", lambda row=row: self.row_rules(row))
        if len(set(names)) != len(names):
            p.add("rows", "row names must differ")
        if self.baseline is not None and self.baseline not in names:
            p.add("baseline", f"{self.baseline!r} is not a row name; allowed {', '.join(names)}")

    def row_rules(self, row: dict[str, Any]) -> Rules:
        preset = preset_name(row.get("preset", self.preset))
        return Rules.preset(preset, **{**self.rules, **row.get("rules", {})})


ROW_FORM = "NAME=PRESET[,KEY=VALUE...]"  # a variants row as the CLI's --row gives it
ROW_EXAMPLE = "lim-ante2=limited,ante=2"


def parse_row(item: str, key: str) -> dict[str, Any]:
    """One row of a variants study from its text (the CLI's ``--row``): ``NAME=PRESET``, then
    ``KEY=VALUE`` rule overrides after commas (``lim-ante2=limited,ante=2``); a lone
    ``PRESET`` is the row of that preset named after it. The row as a config writes it,
    ``{name, preset[, rules]}``; errors carry ``key`` and start with the item."""
    head, *rest = str(item).split(",")
    name, sep, preset = head.partition("=")
    name, preset = name.strip(), (preset if sep else name).strip()

    def bad(detail: str) -> LooError:
        return LooError(f"{item!r}: {detail}; expected {ROW_FORM}, e.g. {ROW_EXAMPLE}", key=key)

    if not name:
        raise bad("no name before '='")
    if not preset:
        raise bad("no preset after '='")
    if preset.lower() not in PRESETS:
        raise LooError(f"{item!r}: {preset!r} is not a preset; allowed {', '.join(PRESETS)} (any case)", key=key)
    rules: dict[str, str] = {}
    for part in rest:
        try:
            option, value = split_option(part, key)
        except LooError as e:  # 'ante': expected key=value, ... or 'x=1': unknown option 'x'; allowed ...
            raise LooError(f"{item!r}: {e.detail}", key=key) from None
        if option in rules:
            raise bad(f"{option} is given twice")
        rules[option] = value
    return {"name": name, "preset": preset.lower(), **({"rules": rules} if rules else {})}


def row_text(row: dict[str, Any], preset: str) -> str | None:
    """A row as ``parse_row`` reads it back (``preset``: the study's, for a row without one);
    None when its name cannot be spelled so (it holds ',' or '=')."""
    name = str(row.get("name", ""))
    if not name.strip() or name != name.strip() or "," in name or "=" in name:
        return None
    options = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in row.get("rules", {}).items()]
    head = str(row.get("preset", preset))
    items = [head if head.lower() == name and options == [] else f"{name}={head}", *options]
    return ",".join(items)


@dataclass
class SolveStudy(Study):
    """The declaration game solved by fictitious play (docs/policies.md P6), from each start
    policy, with the exploitability of the result and of the heuristics on fresh deals.
    ``policy`` is the table's card play: PLAY[/EXCHANGE] (its DECLARE part is solved)."""

    kind: ClassVar[str] = "solve"
    ARRAYS: ClassVar[dict[str, str]] = {"carried": NUMBER, "starts": TEXT, "exploitability_of": TEXT}
    deals: int = 200_000  # per iteration and carried pot
    iterations: int = 100
    starts: list[str] = field(default_factory=lambda: ["basic"])  # one solve per start
    averaging: str = "linear"
    carried: list[float] = field(default_factory=lambda: [0.0])
    eval_deals: int | None = None  # fresh deals per half of each NashConv (default: 2 x deals)
    exploitability_of: list[str] = field(default_factory=list)  # more profiles' NashConv, e.g. rule:... at every seat

    def to_dict(self) -> dict[str, Any]:
        """As every study's, without ``exploitability_of`` while empty (a study without it
        keeps the digest it had before it existed)."""
        return {k: v for k, v in super().to_dict().items() if not (k == "exploitability_of" and v == [])}

    def profiles(self, rules: Rules) -> list[tuple[str, Policy]]:
        """(label, declaration policy) of every heuristic whose NashConv is reported: the
        shipped ones (heuristics_for), then ``exploitability_of`` as written."""
        from loo_sim.game.policy import heuristics_for

        named = [(h, h) for h in heuristics_for(rules)] + [named_heuristic(h) for h in self.exploitability_of]
        return [(label, Policy.parse(text)) for label, text in named]

    def play_policy(self) -> Policy:
        """The table's card play and exchange (``policy``: PLAY[/EXCHANGE], default basic)."""
        text = (self.policy or "basic").strip()
        try:
            return Policy.parse("basic/" + text)
        except LooError as e:
            raise LooError(f"policy {text!r}: solve takes the table's card play, PLAY[/EXCHANGE], e.g. high or "
                           f"basic/keep-trumps ({str(e).split(': ', 1)[-1]})", key="policy") from None  # fmt: skip

    def table(self, players: int) -> list[Policy]:
        return [self.play_policy()] * players

    def evaluation_deals(self) -> int:
        return int(self.eval_deals) if self.eval_deals is not None else 2 * int(self.deals)

    def _more_problems(self, p: _Collect, rules: Rules | None) -> None:
        from loo_sim.solve.declarations import MIN_DEALS, STARTS
        from loo_sim.solve.fictitious import averaging_weight

        p.attempt("seed", lambda: checks.seed(self.seed))
        p.attempt("policy", self.play_policy)
        if self.seat_policy:
            p.add("seat_policy", "solve plays one card-play policy at every seat; give --policy PLAY[/EXCHANGE]")
        p.attempt("deals", lambda: checks.whole_number("deals", self.deals, MIN_DEALS, checks.MAX_DEALS))
        if self.eval_deals is not None:
            p.attempt("eval_deals", lambda: checks.whole_number("eval_deals", self.eval_deals, MIN_DEALS,
                                                                checks.MAX_DEALS))  # fmt: skip
        p.attempt("iterations", lambda: checks.whole_number("iterations", self.iterations, 1, 100_000))
        p.attempt("averaging", lambda: averaging_weight(1, self.averaging))
        if not self.starts:
            p.add("starts", f"at least one start policy is needed; allowed {', '.join(STARTS)}")
        for i, start in enumerate(self.starts):
            if start not in STARTS:
                p.add(f"starts[{i}]", f"{_shown(start)} is not allowed; allowed {', '.join(STARTS)}")
        if len(set(self.starts)) != len(self.starts):
            p.add("starts", "each start policy once")
        if not self.carried:
            p.add("carried", "at least one carried pot is needed, e.g. [0]")
        for i, c in enumerate(self.carried):
            p.attempt(f"carried[{i}]", lambda c=c: checks.chips("carried", c))
        if rules is not None:
            _extra_heuristics(p, "exploitability_of", self.exploitability_of, rules)


_HEURISTIC_NAME = re.compile(r"[\w .+-]+")  # NAME of NAME=POLICY: no ':' or '/', so no policy reads as one


def named_heuristic(text: str) -> tuple[str, str]:
    """(label, policy text) of a heuristic given as ``NAME=POLICY`` or as ``POLICY`` (labelled
    as written): ``tip 1=rule:miss if aces == 0; play``. A policy never reads as a name: the
    only ones with '=' (threshold:, rule:) have ':' before it."""
    name, sep, rest = str(text).partition("=")
    if sep and _HEURISTIC_NAME.fullmatch(name) and name.strip() and not rest.startswith("="):
        return name.strip(), rest.strip()
    return str(text).strip(), str(text).strip()


def _extra_heuristics(p: _Collect, name: str, texts: list[str], rules: Rules) -> None:
    """Problems of heuristics given beside the shipped ones: each a policy, none a shipped
    one or given twice (as policies or labels), none a chart (which needs a chart of its own)."""
    from loo_sim.game.policy import heuristics_for

    seen = {str(Policy.parse(h)): h for h in heuristics_for(rules)}
    labels = set(heuristics_for(rules))
    for i, text in enumerate(texts):
        label, policy = named_heuristic(text)
        parsed = p.attempt(f"{name}[{i}]", lambda t=policy: Policy.parse(t))
        if parsed is None:
            continue
        if parsed.declare == "chart":
            p.add(f"{name}[{i}]", f"{_shown(text)}: the chart family needs a decision chart; give another policy")
        elif str(parsed) in seen:
            p.add(f"{name}[{i}]", f"{_shown(text)} is compared already (as {seen[str(parsed)]!r}); give each once")
        elif label in labels:
            p.add(f"{name}[{i}]", f"{_shown(text)}: the name {label!r} is taken; give another, NAME=POLICY")
        else:
            seen[str(parsed)] = text
            labels.add(label)


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


@dataclass
class TournamentStudy(Study):
    """A mixed-table tournament: the heuristics seated in a balanced design (run/tournament.py),
    sessions of deals (R10) on the same decks for every lineup."""

    kind: ClassVar[str] = "tournament"
    ARRAYS: ClassVar[dict[str, str]] = {"policies": TEXT}
    policies: list[str] = field(default_factory=lambda: ["basic", "cautious", "ev"])
    deals: int = 50  # per session, at most
    sessions: int = 2000
    bankroll: float | None = None  # a session ends when a balance falls below -bankroll

    def entrants(self) -> list[Policy]:
        return [Policy.parse(p) for p in self.policies]

    def _more_problems(self, p: _Collect, rules: Rules | None) -> None:
        p.attempt("seed", lambda: checks.seed(self.seed))
        p.attempt("sessions", lambda: checks.sessions(self.sessions))
        p.attempt("deals", lambda: checks.session_deals(self.deals))
        if self.bankroll is not None:
            p.attempt("bankroll", lambda: checks.chips("bankroll", self.bankroll))
        if self.policy is not None or self.seat_policy:
            p.add("policies", "a tournament seats its heuristics itself: give policies, not policy or seat_policy")
        if len(self.policies) < 2:
            p.add("policies", "a tournament needs two heuristics or more, e.g. basic,cautious,ev")
        parsed = [p.attempt(f"policies[{i}]", lambda t=t: Policy.parse(t)) for i, t in enumerate(self.policies)]
        names = [str(x) for x in parsed if x is not None]
        if len(set(names)) != len(names):
            p.add("policies", "each heuristic once")

    def tournament_rules(self) -> Rules:
        rules = self.base_rules()
        return rules.replace(bankroll=float(self.bankroll)) if self.bankroll is not None else rules


@dataclass
class RiskStudy(Study):
    """Risk over sessions for one seat's policy (``focal_policy``) at a table (``policy`` at the
    other seats): ruin over bankroll, deals until ruin, bankroll for a risk, N0 of its lead
    over basic on the same decks."""

    kind: ClassVar[str] = "risk"
    focal_policy: str = "ev"
    focal: int = 0
    deals: int = 200  # per session
    sessions: int = 4000

    def focal_table(self, players: int) -> list[Policy]:
        return self.table(players)

    def _more_problems(self, p: _Collect, rules: Rules | None) -> None:
        p.attempt("seed", lambda: checks.seed(self.seed))
        p.attempt("sessions", lambda: checks.sessions(self.sessions))
        p.attempt("deals", lambda: checks.session_deals(self.deals))
        p.attempt("focal_policy", lambda: Policy.parse(self.focal_policy))
        if rules is not None:
            p.attempt("policy", lambda: self.table(rules.players))
            p.attempt("focal", lambda: checks.seat("focal", self.focal, rules.players))


@dataclass
class CardplayStudy(Study):
    """The card-play ladder (run/ladder.py): each entrant in ``focal`` (a PLAY family with the
    table's declarations, or a whole policy) takes a focal seat at a table of
    ``table_policy`` players, on the same deals and in every position; with
    ``whole_table``, the same again with every other seat on that family."""

    kind: ClassVar[str] = "cardplay"
    ARRAYS: ClassVar[dict[str, str]] = {"focal": TEXT}
    focal: list[str] = field(default_factory=lambda: ["basic", "high", "low", "random"])
    table_policy: str = "basic"  # the other seats
    whole_table: str | None = None  # ladder B: the other seats on this (a PLAY family or a whole policy)
    carried: float = 0.0  # chips carried into every deal

    def table_of(self) -> Policy:
        return Policy.parse(self.table_policy)

    def table(self, players: int) -> list[Policy]:
        return [self.table_of()] * players

    def entrants(self) -> list[Policy]:
        from loo_sim.run.ladder import with_play

        return [with_play(self.table_of(), t) for t in self.focal]

    def ladders(self) -> list[tuple[str, Policy]]:
        """(name, the other seats' policy) of each ladder: A at the table, B at the whole table."""
        from loo_sim.run.ladder import with_play

        out = [("A", self.table_of())]
        if self.whole_table is not None:
            out.append(("B", with_play(self.table_of(), self.whole_table)))
        return out

    def _more_problems(self, p: _Collect, rules: Rules | None) -> None:
        from loo_sim.run.ladder import with_play

        p.attempt("deals", lambda: checks.deals(self.deals))
        p.attempt("seed", lambda: checks.seed(self.seed))
        p.attempt("carried", lambda: checks.chips("carried", self.carried))
        if self.policy is not None or self.seat_policy:
            p.add("table_policy", "the ladder seats its players itself: give table_policy (--table) and focal, "
                                  "not policy or seat_policy")  # fmt: skip
        table = p.attempt("table_policy", self.table_of)
        if table is not None and table.declare == "chart":
            p.add("table_policy", "the chart family needs a decision chart, which the ladder has not; allowed "
                                  "another declaration family, e.g. basic")  # fmt: skip
            table = None
        if not self.focal:
            p.add("focal", "the ladder needs at least one entrant, e.g. basic,high,low,random")
        if table is None:
            return
        parsed = [p.attempt(f"focal[{i}]", lambda t=t: with_play(table, t)) for i, t in enumerate(self.focal)]
        for i, x in enumerate(parsed):
            if x is not None and x.declare == "chart":
                p.add(f"focal[{i}]", f"{_shown(self.focal[i])}: the chart family needs a decision chart; allowed "
                                     "another declaration family")  # fmt: skip
        names = [str(x) for x in parsed if x is not None]
        if len(set(names)) != len(names):
            p.add("focal", "each entrant once (as policies: " + ", ".join(names) + ")")
        if self.whole_table is not None:
            whole = p.attempt("whole_table", lambda: with_play(table, self.whole_table))
            if whole is not None and whole.declare == "chart":
                p.add("whole_table", "the chart family needs a decision chart; allowed another declaration family")


def _compared_as(key: str, value: str) -> str:
    """What a compared value means (so ``limited`` and ``Limited`` are one value)."""
    try:
        return str(Policy.parse(value)) if key == "policy" else repr(Rules.coerce_option(key, value))
    except LooError:
        return value.strip().lower()


STUDIES: dict[str, type[Study]] = {
    s.kind: s
    for s in (SimulateStudy, MissStudy, PotsStudy, VariantsStudy, SolveStudy, TournamentStudy, RiskStudy,
              CardplayStudy)
}  # fmt: skip
KINDS = tuple(STUDIES)


def study_fields(kind: str) -> tuple[str, ...]:
    """The fields of a kind's study, in order."""
    return tuple(f.name for f in dataclasses.fields(STUDIES[kind]))
