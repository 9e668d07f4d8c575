"""Policies as data (docs/policies.md P1-P3): a :class:`Policy` is three family names
(declare / play / exchange) and the threshold parameters. How each family decides is
in ``engine/policies.py`` (readable) and ``kernel/`` (fast), which must agree."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from loo_sim.base.errors import LooError

if TYPE_CHECKING:
    from loo_sim.game.rules import Rules

# ``chart`` plays a decision chart's best action (a miss run's ``analysis.miss.best_actions``);
# a run with a chart seat must be given that chart. ``table:PATH`` plays a strategy table
# (P6: a CSV of information set -> probability of each action, e.g. a solve's strategy.csv).
# ``rule:CLAUSES`` (or ``rule:PATH.rule``) declares by a heuristic written as a sentence (P3b,
# game/rule.py): the first clause whose condition holds and whose action is on offer.
DECLARE_FAMILIES = (
    "always", "basic", "cautious", "nothing-takes-miss", "flush-aware", "threshold", "ev", "chart", "table", "rule",
)  # fmt: skip
CALIBRATED = ("threshold", "ev", "chart", "table")  # families that read strength tables, a chart or a table
TABLE_PREFIX = "table:"
RULE_PREFIX = "rule:"
_RULE_FILE = re.compile(r"\.rule(?=\s*(/|$))", re.IGNORECASE)  # where a rule file's path ends
PLAY_FAMILIES = ("basic", "high", "low", "random", "perfect", "pimc")
# the play families that solve deals with the perfect-information solver (docs/policies.md P8):
# ``perfect`` sees every card, ``pimc:N`` samples N deals of the cards it cannot see
SOLVER_PLAY = ("perfect", "pimc")
MAX_SAMPLES = 1024  # pimc:N takes 1 <= N <= MAX_SAMPLES
# pimc:N:infer[=MODEL] (docs/policies.md P8): the declaration families a pimc seat may assume
# the others declare by; each decides from the hand and the options alone, so the likelihood
# of a declaration is 0 or 1 (the draw rejects)
INFER_MODELS = ("basic", "always", "cautious", "nothing-takes-miss", "flush-aware")
EXCHANGE_FAMILIES = ("basic", "none", "keep-trumps", "flush-chase")
SOLVE_STARTS = ("basic", "always", "cautious")  # the start policies of a solve (docs/policies.md P6)
# the heuristics a miss study compares at the table and a solve measures the exploitability of
HEURISTICS = (
    "basic",
    "always",
    "cautious",
    "nothing-takes-miss",
    "threshold:play=0.7,miss=0.3",
    "threshold:play=0.5,miss=0.3",
    "threshold:play=0.3,miss=0.15",
    "ev",
)
FLUSH_HEURISTICS = ("flush-aware",)  # only where the rules have flushes (elsewhere it plays as basic)


@dataclass(frozen=True)
class Policy:
    """One seat's policy: ``DECLARE[/PLAY[/EXCHANGE]]`` (omitted parts are ``basic``)."""

    declare: str = "basic"
    play: str = "basic"
    exchange: str = "basic"
    play_at: float = 0.0  # threshold: play when P(at least one trick) >= play_at
    miss_below: float = 0.0  # threshold: take the miss when P(at least one trick) < miss_below
    table: str = ""  # table: the strategy table's path, as given
    samples: int = 0  # pimc: the deals sampled at each card decision (N of pimc:N)
    rule: str = ""  # rule: the clauses, canonical (game.rule_syntax.Rule's str), also when read from a file
    rule_path: str = ""  # rule: the .rule file's path as given ("" for clauses written inline)
    infer: str = ""  # pimc:N:infer[=MODEL]: the others' declaration family the draw assumes ("": no inference)

    @property
    def needs_stream(self) -> bool:
        """Whether the seat draws from its own random stream: random or pimc card play, or
        a declaration table (whose rows may be mixed)."""
        return self.play in ("random", "pimc") or self.declare == "table"

    @property
    def play_name(self) -> str:
        """The PLAY part as written: ``pimc:N`` with its N (and ``:infer``, ``:infer=MODEL``
        where it reads the declarations), else the family."""
        if self.play != "pimc":
            return self.play
        if not self.infer:
            return f"pimc:{self.samples}"
        return f"pimc:{self.samples}:infer" + ("" if self.infer == "basic" else f"={self.infer}")

    @classmethod
    def parse(cls, text: str | Policy) -> Policy:
        if isinstance(text, Policy):
            return text
        stripped = str(text).strip()
        if stripped.lower().startswith(TABLE_PREFIX):
            return cls._parse_table(text, stripped)
        if stripped.lower().startswith(RULE_PREFIX):
            return cls._parse_rule(text, stripped[len(RULE_PREFIX) :].strip())
        parts = [p.strip().lower() for p in stripped.split("/")]
        if len(parts) > 3 or not parts[0]:
            raise LooError(f"policy {text!r}: expected DECLARE[/PLAY[/EXCHANGE]], e.g. cautious/high/keep-trumps")
        parts += ["basic"] * (3 - len(parts))
        declare_part, _, params = parts[0].partition(":")
        parts[0] = declare_part
        parts[1], samples, infer = _play_part(text, parts[1])
        for part, allowed, what in zip(
            parts, (DECLARE_FAMILIES, PLAY_FAMILIES, EXCHANGE_FAMILIES), ("declaration", "play", "exchange")
        ):
            if part not in allowed:
                raise LooError(f"policy {text!r}: unknown {what} family {part!r}; allowed {', '.join(allowed)}")
        if declare_part == "threshold":
            play_at, miss_below = _threshold_params(text, params)
            return cls(parts[0], parts[1], parts[2], play_at, miss_below, samples=samples, infer=infer)
        if params:
            raise LooError(f"policy {text!r}: only threshold takes parameters (threshold:play=P,miss=M)")
        return cls(*parts, samples=samples, infer=infer)

    @classmethod
    def _parse_table(cls, text: object, stripped: str) -> Policy:
        """``table:PATH[/PLAY[/EXCHANGE]]``: the path (which may hold slashes) runs to its
        ``.csv``; the case of the path is kept."""
        end = stripped.lower().find(".csv")
        if end < 0:
            raise LooError(f"policy {text!r}: expected table:PATH.csv[/PLAY[/EXCHANGE]], e.g. table:solve/strategy.csv")
        path, rest = stripped[len(TABLE_PREFIX) : end + 4].strip(), stripped[end + 4 :].strip()
        if not path[:-4].strip():
            raise LooError(f"policy {text!r}: table: needs the path of a strategy table, e.g. table:solve/strategy.csv")
        if rest and not rest.startswith("/"):
            raise LooError(f"policy {text!r}: expected table:PATH.csv[/PLAY[/EXCHANGE]] after the path")
        parts = [p.strip() for p in rest.lower().split("/")[1:]]
        if len(parts) > 2:
            raise LooError(f"policy {text!r}: expected table:PATH.csv[/PLAY[/EXCHANGE]]")
        parts += ["basic"] * (2 - len(parts))
        parts[0], samples, infer = _play_part(text, parts[0])
        for part, allowed, what in zip(parts, (PLAY_FAMILIES, EXCHANGE_FAMILIES), ("play", "exchange")):
            if part not in allowed:
                raise LooError(f"policy {text!r}: unknown {what} family {part!r}; allowed {', '.join(allowed)}")
        return cls("table", parts[0], parts[1], table=path, samples=samples, infer=infer)

    @classmethod
    def _parse_rule(cls, text: object, body: str) -> Policy:
        """``rule:CLAUSES[/PLAY[/EXCHANGE]]`` (clauses never hold a slash) or
        ``rule:PATH.rule[/PLAY[/EXCHANGE]]`` (the path, which may hold slashes, runs to its
        ``.rule``; the file is read now). The rule is checked here (game/rule.py)."""
        from loo_sim.game.rule import load_rule, parse_rule

        end = _RULE_FILE.search(body)
        if end is not None:
            path, rest = body[: end.start() + len(".rule")].strip(), body[end.start() + len(".rule") :].strip()
            if not path[: -len(".rule")].strip():
                raise LooError(f"policy {text!r}: rule: needs clauses or the path of a .rule file, e.g. "
                               "rule:play if trumps >= 1; pass; play")  # fmt: skip
            rule = load_rule(path)
        else:
            clauses, slash, after = body.partition("/")
            path, rest, rule = "", slash + after, parse_rule(clauses.strip())
        parts = [p.strip().lower() for p in rest.split("/")[1:]]
        if len(parts) > 2:
            raise LooError(f"policy {text!r}: expected rule:CLAUSES[/PLAY[/EXCHANGE]]")
        parts += ["basic"] * (2 - len(parts))
        parts[0], samples, infer = _play_part(text, parts[0])
        for part, allowed, what in zip(parts, (PLAY_FAMILIES, EXCHANGE_FAMILIES), ("play", "exchange")):
            if part not in allowed:
                raise LooError(f"policy {text!r}: unknown {what} family {part!r}; allowed {', '.join(allowed)}")
        return cls("rule", parts[0], parts[1], samples=samples, rule=str(rule), rule_path=path, infer=infer)

    def __str__(self) -> str:
        declare = self.declare
        if declare == "table":
            declare = f"table:{self.table}"
        if declare == "rule":
            declare = f"rule:{self.rule_path or self.rule}"
        if declare == "threshold":
            declare = f"threshold:play={self.play_at:g},miss={self.miss_below:g}"
        return f"{declare}/{self.play_name}/{self.exchange}"


def _play_part(text: object, part: str) -> tuple[str, int, str]:
    """The PLAY part's family and, for ``pimc:N[:infer[=MODEL]]``, its N and the model of
    the others' declarations it infers from ("" without ``:infer``; ``basic`` when no
    MODEL is named). The other families: (family, 0, "")."""
    family, sep, rest = part.partition(":")
    if family == "pimc":
        n_text, colon, option = rest.partition(":")
        if not sep or not n_text.strip().isdigit() or not 1 <= int(n_text) <= MAX_SAMPLES:
            raise LooError(f"policy {text!r}: pimc takes the deals it samples per card, pimc:N with N in "
                           f"1..{MAX_SAMPLES}, e.g. basic/pimc:16 or basic/pimc:16:infer")  # fmt: skip
        return family, int(n_text), _infer_model(text, option.strip()) if colon else ""
    if sep:
        raise LooError(f"policy {text!r}: only the play family pimc takes a parameter (pimc:N), not {family!r}")
    return family, 0, ""


def _infer_model(text: object, option: str) -> str:
    """``infer`` (the others declare by ``basic``) or ``infer=MODEL``, MODEL one of INFER_MODELS."""
    name, eq, model = option.partition("=")
    model = model.strip() if eq else "basic"
    if name.strip() != "infer" or model not in INFER_MODELS:
        raise LooError(f"policy {text!r}: pimc:N takes one option, infer or infer=MODEL with MODEL one of "
                       f"{', '.join(INFER_MODELS)}, e.g. basic/pimc:16:infer=cautious")  # fmt: skip
    return model


def _threshold_params(text: object, params: str) -> tuple[float, float]:
    values: dict[str, float] = {}
    for item in filter(None, (p.strip() for p in params.split(","))):
        key, _, value = item.partition("=")
        if key not in ("play", "miss") or not value:
            raise LooError(f"policy {text!r}: threshold takes play=P,miss=M (probabilities 0..1)")
        try:
            number = float(value)
        except ValueError:
            raise LooError(f"policy {text!r}: {key}={value!r} is not a number; allowed 0..1") from None
        if not 0.0 <= number <= 1.0:
            raise LooError(f"policy {text!r}: {key}={value} is not allowed; allowed 0..1")
        values[key] = number
    if set(values) != {"play", "miss"}:
        raise LooError(f"policy {text!r}: threshold needs both play=P and miss=M, e.g. threshold:play=0.6,miss=0.3")
    return values["play"], values["miss"]


def parse_table(policy: str | Policy | Sequence[str | Policy] | None, players: int) -> list[Policy]:
    """One policy for the whole table, or one per seat (seat 0 first)."""
    if policy is None:
        policy = "basic"
    if isinstance(policy, (str, Policy)):
        return [Policy.parse(policy)] * players
    table = [Policy.parse(p) for p in policy]
    if len(table) != players:
        raise LooError(f"policy: {len(table)} policies given for {players} players; give one, or one per seat")
    return table


SeatPolicies = Mapping[Any, Any] | Sequence[str]


def split_seat_policy(item: str, key: str = "seat_policy") -> tuple[int, str]:
    """One ``SEAT=POLICY`` item: (seat, policy text); the seat is not yet checked against
    a table size. Errors carry ``key`` and start with the item."""
    seat_text, sep, text = str(item).partition("=")
    if not sep:
        raise LooError(f"{item!r}: expected SEAT=POLICY, e.g. 2=cautious", key=key)
    try:
        return int(seat_text), text
    except ValueError:
        raise LooError(f"{item!r}: seat {seat_text!r} is not a seat number", key=key) from None


def _seat_items(seats: SeatPolicies | None) -> list[tuple[str, str]]:
    """(key, ``SEAT=POLICY`` item) of each seat's own policy, from a mapping {seat: policy}
    (a TOML table, whose keys may be digit strings: key ``seat_policy[SEAT]``) or from
    ``SEAT=POLICY`` items (the CLI's ``--seat-policy``: key ``seat_policy[i]``, the i-th item)."""
    if isinstance(seats, Mapping):
        return [(f"seat_policy[{seat}]", f"{seat}={text}") for seat, text in seats.items()]
    return [(f"seat_policy[{i}]", item) for i, item in enumerate(seats or ())]


def parse_seat_policies(default: str | Policy | None, seats: SeatPolicies | None, players: int) -> list[Policy]:
    """The table of ``players`` policies: ``default`` (``basic`` when None) at every seat,
    then each seat's own policy (see :func:`_seat_items`; a later item for a seat wins).
    The one parser of seat policies, for the CLI, TOML configs and Python callers."""
    table = parse_table(default or "basic", players)
    for key, item in _seat_items(seats):
        seat, text = split_seat_policy(item, key)
        if not 0 <= seat < players:
            raise LooError(f"{item!r}: seat {seat} is not a seat; allowed 0..{players - 1}", key=key)
        try:
            table[seat] = Policy.parse(text)
        except LooError as e:
            raise LooError(f"{item!r}: {e}", key=key) from None
    return table


def heuristics_for(rules: Rules) -> list[str]:
    """The heuristics of the miss and solve studies under ``rules``: :data:`HEURISTICS`,
    then :data:`FLUSH_HEURISTICS` where ``flush`` is on (last, so the other rows are those
    of the same rules without flushes). The one list, so that the two studies cannot drift apart.

    Parameters
    ----------
    rules : Rules
        The rule set the heuristics will play.

    Returns
    -------
    list of str
        Policy texts, each readable by :meth:`Policy.parse`.
    """
    return list(HEURISTICS) + (list(FLUSH_HEURISTICS) if rules.flush else [])
