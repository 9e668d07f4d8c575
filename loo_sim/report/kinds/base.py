"""The study every kind of experiment is (``report.kinds``): the rule set, the policies, the
deals and the seed; the checks every kind shares (``problems()`` returns every problem at
once, each with its path below the study, so a config reports them all; ``check()`` raises
the first, the CLI's way); and what a kind declares by overriding: its kernel drivers, the
command line that gives it, its deal count for the run-time estimate, and how it runs.

The CLI commands and batch reports build studies and run them with
``report.running.run_study``, so a report's experiment and the command it prints give the
same numbers and the same files.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from loo_sim.base import checks
from loo_sim.base.errors import LooError
from loo_sim.game.policy import Policy, parse_seat_policies
from loo_sim.game.rules import OPTION_NAMES, PRESETS, Rules
from loo_sim.report.command import overrides
from loo_sim.report.kinds.fields import (
    FIELD_TYPES,
    OPTIONS_RULE,
    POLICY_RULE,
    SCALAR,
    SCALAR_RULE,
    SEARCH_PLAY,
    TABLE,
    TABLE_PATH,
    Collect,
    Problems,
    content_hash,
    head_of,
    is_of,
    not_of,
    parse_item,
    preset_name,
    shown,
    type_name,
)

if TYPE_CHECKING:
    from loo_sim.report.running import ProgressFactory, StudyOutput


@dataclass
class Study:
    """What every kind has: the rule set (a preset and option overrides, as docs/rules.md spells
    them), the policies (``policy`` at every seat, ``seat_policy`` {seat: policy} over it),
    the deals and the seed."""

    kind: ClassVar[str] = ""
    ARRAYS: ClassVar[dict[str, str]] = {}  # the kind's array fields: name -> what each item is
    RENAMED: ClassVar[dict[str, str]] = {}  # old field name -> its new name (the old one is refused)
    # folders earlier experiments of the same report write (``load_config(out=...)``): a file
    # in one may not exist yet when the config is checked
    made_earlier: ClassVar[tuple[str, ...]] = ()
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
        """A hash of the resolved study, the content of every file it reads (``files_read``)
        and the loo_sim version: reports resume on it, so a changed strategy table is a changed
        experiment."""
        from loo_sim.base.version import __version__

        files = {path: content_hash(path) for path in self.files_read()}
        study = self.to_dict()
        study["rules"] = typed_overrides(study["rules"])
        for row in study.get("rows", []) if isinstance(study.get("rows"), list) else []:
            if isinstance(row, dict) and "rules" in row:
                row["rules"] = typed_overrides(row["rules"])
        text = json.dumps({"study": study, "files": files, "version": __version__}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def files_read(self) -> list[str]:
        """The files the study reads: its policies' (:meth:`policy_files`) and the kind's
        others (:meth:`other_files`, e.g. solve's ``compare_with``), as written."""
        return sorted({*self.policy_files(), *self.other_files()})

    def other_files(self) -> list[str]:
        """Files the kind reads besides its policies' (none here)."""
        return []

    def written_earlier(self, path: str) -> bool:
        """Whether ``path`` lies in a folder an earlier experiment of the report writes."""
        from pathlib import Path

        where = Path(path).resolve()
        return any(where.is_relative_to(Path(folder).resolve()) for folder in self.made_earlier)

    def policy_files(self) -> list[str]:
        """The strategy table of every ``table:PATH.csv`` policy and the rule of every
        ``rule:PATH.rule`` one, in any of the study's fields (policy, seat_policy, policies,
        compare, entrants, heuristics, ...), as written."""
        found: set[str] = set()

        def walk(value: Any) -> None:
            if isinstance(value, str):
                found.update(path.strip() for pair in TABLE_PATH.findall(value) for path in pair if path)
            elif isinstance(value, dict):
                for item in value.values():
                    walk(item)
            elif isinstance(value, list):
                for item in value:
                    walk(item)

        walk(self.to_dict())
        return sorted(found)

    def base_rules(self) -> Rules:
        return Rules.preset(self.preset, **self.rules)

    def table(self, players: int) -> list[Policy]:
        return parse_seat_policies(self.policy, self.seat_policy, players)

    def problems(self) -> Problems:
        """Every problem with this study, as (path below the study, message): a field of the
        wrong type is one problem, and the others are still checked (with that field at its
        default, whose own problems are not reported)."""
        p = Collect()
        self._renamed(p)
        self._type_problems(p)
        mistyped = {head_of(path) for path, _ in p.found}
        more = Collect()
        (self._with_defaults(mistyped) if mistyped else self)._value_problems(more)
        return p.found + [(path, message) for path, message in more.found if head_of(path) not in mistyped]

    def _with_defaults(self, names: set[str]) -> Study:
        """A copy with these fields at their defaults (so the other checks can run)."""
        values = {}
        for f in dataclasses.fields(self):
            if f.name in names:
                values[f.name] = f.default_factory() if f.default is dataclasses.MISSING else f.default
        return dataclasses.replace(self, **values)

    def _value_problems(self, p: Collect) -> None:
        """The problems of the values, once every field has its type."""
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
        if rules is not None and not p.found:
            self._table_problems(p, rules)

    def _type_problems(self, p: Collect) -> None:
        """A problem for each field whose value is not of its type (a config's loose values:
        ``by_class = "yes please"``, ``precision = true``, ``sessions = 100.5``, ``rules = 5``)."""
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            kind = None if f.name in self.ARRAYS or f.name in self.RENAMED else FIELD_TYPES.get(f.name)
            if kind is not None and not (value is None and f.default is None) and not is_of(kind, value):
                p.add(f.name, not_of(kind, value))
        if not isinstance(self.rules, dict):
            p.add("rules", f"{shown(self.rules)} is {type_name(self.rules)}; {OPTIONS_RULE}")
        else:
            for key, value in self.rules.items():
                if not isinstance(value, SCALAR):
                    p.add(f"rules.{key}", f"{shown(value)} is {type_name(value)}; {SCALAR_RULE}")
        if not isinstance(self.seat_policy, dict):
            p.add("seat_policy", f"{shown(self.seat_policy)} is {type_name(self.seat_policy)}; "
                                 "expected a table {SEAT = POLICY}, e.g. {2 = 'cautious'}")  # fmt: skip
        else:
            seats: dict[int, Any] = {}
            for seat, value in self.seat_policy.items():
                if isinstance(seat, bool) or not (isinstance(seat, int) or (isinstance(seat, str) and seat.isascii()
                                                                             and seat.isdigit())):  # fmt: skip
                    p.add(f"seat_policy[{seat}]", f"{shown(seat)} is not a seat number; expected 0, 1, 2, ...")
                elif not isinstance(value, str) or not value.strip():
                    p.add(f"seat_policy[{seat}]", f"{shown(value)} is not a policy; {POLICY_RULE}")
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
                p.add(name, f"{shown(values)} is {type_name(values)}; expected an array (each {kind})")
                continue
            for i, value in enumerate(values):
                if not (isinstance(value, dict) if kind == TABLE else is_of(kind, value)):
                    p.add(f"{name}[{i}]", not_of(kind, value))

    def _policy_problems(self, p: Collect, rules: Rules | None) -> None:
        """The policies of the table; without a valid rule set (no table size) each text alone."""
        if rules is not None:
            p.attempt("policy", lambda: self.table(rules.players))
            return
        if self.policy is not None:
            p.attempt("policy", lambda: Policy.parse(self.policy))
        for seat, text in self.seat_policy.items():
            p.attempt(f"seat_policy[{seat}]", lambda t=text, s=seat: parse_item(f"{s}={t}", t))

    def _more_problems(self, p: Collect, rules: Rules | None) -> None:
        """The problems of a kind's own fields (``rules``: None when the rule set is bad)."""
        p.attempt("deals", lambda: checks.deals(self.deals))
        p.attempt("seed", lambda: checks.seed(self.seed))
        self._policy_problems(p, rules)

    def _renamed(self, p: Collect) -> None:
        """A field given under its old name (``RENAMED``): refused, naming the new one."""
        for old, new in self.RENAMED.items():
            if getattr(self, old, None) is not None:
                what = {"session_deals": "the deals of each session", "entrants": "the policies it compares"}[new]
                p.add(old, f"{self.kind} takes {what} as {new} (--{new.replace('_', '-')}); {old} was its old name")

    # ---- what each kind declares (report/kinds/<kind>.py) --------------------------------------
    def drivers(self) -> tuple[str, ...]:
        """The kernel drivers the study runs (``loo_sim.kernel.DRIVERS``): the kind's own by
        default, and the card-play solver's when a policy searches (:meth:`searches`)."""
        return (self.kind, "search") if self.searches() else (self.kind,)

    def searches(self) -> bool:
        """Whether a ``perfect`` or ``pimc:N`` card play is among the policies in any of the
        study's fields, as :meth:`policy_files` walks them."""
        found = False

        def walk(value: Any) -> None:
            nonlocal found
            if isinstance(value, str):
                found = found or SEARCH_PLAY.search(value) is not None
            elif isinstance(value, dict | list):
                for item in value.values() if isinstance(value, dict) else value:
                    walk(item)

        walk(self.to_dict())
        return found

    def cli_args(self) -> list[str] | None:
        """The arguments of ``loo-sim KIND`` (without ``--out``) that give this study, or None
        when no command line can (a variants row whose name ``--row`` cannot spell)."""
        raise NotImplementedError(self.kind)

    def deals_estimate(self) -> float:
        """About how many deals the kernel plays for the study (the run-time estimate's count)."""
        raise NotImplementedError(self.kind)

    def run(self, out: str | None, progress: ProgressFactory | None, backend: Any) -> StudyOutput:
        """Run the study: its tables, figures, summary and run details (``report.running.run_study``
        adds what every kind records). ``out``: the folder named in the recorded command."""
        raise NotImplementedError(self.kind)

    def table_rules(self, rules: Rules) -> list[Rules]:
        """The rule sets the study's strategy tables must be made for: its own by default (a
        miss sweep, the arms of pots and the rows of variants have several)."""
        return [rules]

    def rule_args(self) -> list[str]:
        """``--preset`` and the ``--set`` overrides of the recorded command line."""
        return ["--preset", self.preset, *sum((["--set", item] for item in overrides(self)), [])]

    def table_args(self) -> list[str]:
        """The ``--policy`` and ``--seat-policy`` arguments, as the study has them."""
        args = ["--policy", self.policy] if self.policy is not None else []
        return args + sum((["--seat-policy", f"{seat}={text}"] for seat, text in self.seat_policy.items()), [])

    def _table_problems(self, p: Collect, rules: Rules) -> None:
        """Each strategy table the study names is read now and checked against its rule sets,
        before anything runs (a table for other rules failed mid-run)."""
        paths = [path for path in self.policy_files() if path.lower().endswith(".csv")]
        if not paths:
            return
        from loo_sim.run.tables import read_table  # pandas: only when a table is named

        fields = self.to_dict()
        for path in paths:
            where = next((k for k, v in fields.items() if f"table:{path}".lower() in json.dumps(v).lower()), "policy")
            for rule_set in self.table_rules(rules):
                if p.attempt(where, lambda path=path, r=rule_set: read_table(path, r)) is None:
                    break

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


def typed_overrides(rules: Any) -> Any:
    """Option overrides in their types, JSON-ready, for the digest: ``--players 5`` and ``--set
    players=5`` give the text "5", a config's ``players = 5`` the number; one study, one digest.
    A value the options refuse stays as written (``check()`` reports it)."""
    if not isinstance(rules, dict):
        return rules
    typed = {}
    for name, value in rules.items():
        try:
            typed[name] = Rules.plain_option(name, value)
        except LooError:
            typed[name] = value
    return typed
