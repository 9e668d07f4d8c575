"""Parameter types of the command line, and how a library error about one option is said
with its flag.

The types are parsers (typer's ``parser=``; typer vendors click since 0.26 and takes no
click ``ParamType`` any more): each checks a value with ``loo_sim.base.checks`` and raises a
:class:`FlagError`, a ``typer.BadParameter`` that typer ties to its option, so a bad value
is one line naming the flag and what is allowed (``--deals: 0 is not allowed; allowed
1 or more``), exit status 2.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import typer

from loo_sim.base import checks
from loo_sim.base.errors import LooError
from loo_sim.game.policy import split_seat_policy

# The keys of library errors (LooError.key) that are options of the CLI under the same
# name: every field of a study (``seat_policy[2]`` is --seat-policy, ``compare[0]`` is
# --compare, ``session_deals`` is --session-deals) but its rule options, and these:
CLI_KEYS = ("set", "out", "backend", "only", "threads", "workers", "compare_charts")


def flag_keys() -> set[str]:
    """The error keys that name a flag (see ``CLI_KEYS``)."""
    from loo_sim.report.kinds import KINDS, study_fields

    return {name for kind in KINDS for name in study_fields(kind)} - {"rules"} | set(CLI_KEYS)


# keys whose flag has another name: ``starts[0]`` is --start (repeatable), ``table_policy`` is --table,
# ``rows[1]`` is --row (a variants row)
FLAG_NAMES = {"starts": "start", "table_policy": "table", "rows": "row", "heuristics": "heuristic"}
_NAME = "VALUE"  # the name the checks get here; the flag takes its place in the message


class FlagError(typer.BadParameter):
    """A bad value of one option, said with the option's flag: ``FLAG: MESSAGE``, or
    ``FLAG MESSAGE`` with ``about_value`` (a message that starts with the value)."""

    def __init__(self, message: str, about_value: bool = False) -> None:
        super().__init__(message)
        self.about_value = about_value

    def format_message(self) -> str:
        opts = getattr(self.param, "opts", None)
        flag = opts[0] if opts else (self.param_hint or "value")
        return f"{flag} {self.message}" if self.about_value else f"{flag}: {self.message}"


def flag_message(e: LooError) -> str:
    """A library error as the CLI says it: the key of an option becomes its flag
    (``compare[0]: 'x=1': unknown option`` -> ``--compare 'x=1': unknown option``)."""
    base = (e.key or "").split("[")[0]
    if base not in flag_keys():
        return str(e)
    flag = "--" + FLAG_NAMES.get(base, base).replace("_", "-")
    return f"{flag} {e.detail}" if e.detail[:1] in "'\"" else f"{flag}: {e.detail}"  # 'x': about that value


def _checked(check: Callable[[str], Any]) -> Any:
    """Run ``check(name)``; its LooError, ``name: detail``, becomes a FlagError of the detail."""
    try:
        return check(_NAME)
    except LooError as e:
        raise FlagError(str(e).removeprefix(f"{_NAME}: ")) from None


class WholeNumber:
    """A whole number in low..high; ``1e6`` and ``1_000_000`` are accepted."""

    def __init__(self, low: int, high: int | None = None) -> None:
        self.low, self.high = low, high

    def __call__(self, value: Any) -> int:
        return _checked(lambda name: checks.whole_number(name, value, self.low, self.high))


def policy_text(value: Any) -> str | None:
    """A policy's text (``--policy``): not empty (an empty one would run as ``basic``)."""
    if value is None:
        return None
    if not str(value).strip():
        raise FlagError(f"{value!r} is not a policy; allowed e.g. basic, cautious/high (docs/policies.md)",
                        about_value=True)  # fmt: skip
    return str(value)


def threads(value: Any) -> int:
    """Worker threads: 1..the cores numba may use."""
    return _checked(lambda name: checks.threads(value, name))


class Chips:
    """A finite number of chips >= 0 (or > 0 with ``positive``, said as ``must be > 0 WHAT``)."""

    def __init__(self, positive: bool = False, what: str = "chips") -> None:
        self.positive, self.what = positive, what

    def __call__(self, value: Any) -> float:
        amount = _checked(lambda name: checks.chips(name, value))
        if self.positive and amount <= 0:
            raise FlagError(f"must be > 0 {self.what}")
        return amount


class CarriedPot:
    """A number of chips carried in (as :class:`Chips`), or the word ``session`` (any case):
    each deal's carried pot drawn from the pots met in sessions (``loo-sim miss``)."""

    def __call__(self, value: Any) -> float | str:
        if isinstance(value, str) and value.strip().lower() == "session":
            return "session"
        try:
            return checks.chips(_NAME, value)
        except LooError:
            raise FlagError(f"{value!r} is not allowed; allowed a number of chips 0..1e100, or 'session' (each "
                            "deal's carried pot drawn from sessions)", about_value=True) from None  # fmt: skip


class Seat:
    """A seat number (its range is checked by the command, which knows the table size),
    or with ``all_word`` the word ``all`` (None)."""

    def __init__(self, all_word: bool = False) -> None:
        self.all_word = all_word

    def __call__(self, value: Any) -> int | None:
        if value is None or (isinstance(value, int) and not isinstance(value, bool)):
            return value
        text = str(value).strip()
        if self.all_word and text.lower() == "all":
            return None
        try:
            if not text.isascii():  # int() takes other scripts' digits
                raise ValueError(text)
            return int(text)
        except ValueError:
            raise FlagError(f"{value!r} is not a seat number") from None


class OneOf:
    """One of a few words, in any case (``--backend``)."""

    def __init__(self, choices: tuple[str, ...]) -> None:
        self.choices = choices

    def __call__(self, value: Any) -> str:
        word = str(value).strip().lower()
        if word not in self.choices:
            raise FlagError(f"{value!r} is not one of {', '.join(self.choices)}", about_value=True)
        return word


def seat_map(items: list[str] | None) -> dict[int, str]:
    """``--seat-policy SEAT=POLICY`` items as {seat: policy} (a later item for a seat wins)."""
    return dict(split_seat_policy(item, f"seat_policy[{i}]") for i, item in enumerate(items or ()))
