"""A report's TOML config: a title, a description, where the kernel runs, ``[defaults]``
and ``[[experiments]]``, each becoming the study of its kind (``report.kinds``).

A config is validated in full before anything runs: :func:`load_config` raises one
:class:`ConfigError` listing every problem, each with its TOML path
(``experiments[2].rules.penalty: 'unlimted' is not one of unlimited, limited, capped``).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from loo_sim.base import checks
from loo_sim.base.errors import LooError
from loo_sim.report.kinds import KINDS, STUDIES, Study, study_fields
from loo_sim.report.kinds.fields import FIELD_TYPES, WHOLE

TOP_KEYS = ("title", "description", "backend", "scheduler", "defaults", "experiments")
# players: the sweep of a miss study, the rule option players for the other kinds
KIND_KEYS = {kind: {*study_fields(kind), "players"} for kind in KINDS}
STUDY_FIELDS = set().union(*KIND_KEYS.values())  # what [defaults] may set
TABLES = ("rules", "seat_policy")  # fields that must be TOML tables
LISTS = ("compare", "rows")  # fields that must be TOML arrays
# An experiment's name names its folder: ASCII letters and digits, then also . _ -, 64 at most
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
NAME_RULE = "1-64 ASCII letters, digits, '.', '_' or '-', starting with a letter or digit"
MAX_DEPTH = 16  # tables and arrays nested deeper than this are refused (a config needs 4)
TOO_DEEP = f"tables or arrays nested too deeply; allowed {MAX_DEPTH} levels"


class ConfigError(LooError):
    """Every problem of a config, one a line (the CLI prints them all)."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


@dataclass
class Experiment:
    name: str
    title: str
    study: Study


@dataclass
class Config:
    path: Path
    title: str
    description: str
    experiments: list[Experiment]
    backend: str = "local"  # where the kernel runs: local or dask (the numbers are the same)
    scheduler: str | None = None  # dask: an existing scheduler's address


def study_from(kind: str, values: dict[str, Any]) -> Study:
    """The study of ``kind`` from a config's values (``players`` and ``carried`` may be one
    number or a list: a miss study sweeps them, a solve plays every pot carried in; the
    other kinds take players as the rule option and the first pot carried in)."""
    values = {k: _whole(v) if FIELD_TYPES.get(k) == WHOLE or k == "players" else v for k, v in values.items()}
    players = values.pop("players", None)
    if kind == "miss":
        if players is not None:
            values["players"] = players if isinstance(players, list) else [players]
        if "carried" in values and not isinstance(values["carried"], list):
            values["carried"] = [values["carried"]]
    else:
        if players is not None:
            values["rules"] = {"players": players, **values.get("rules", {})}
        if kind == "solve":  # a solve plays every pot carried in, from each start
            for key in ("carried", "starts"):
                if key in values and not isinstance(values[key], list):
                    values[key] = [values[key]]
        elif isinstance(values.get("carried"), list):
            values["carried"] = values["carried"][0] if values["carried"] else 0.0
    return STUDIES[kind](**values)


def _whole(value: Any) -> Any:
    """A TOML float that is exactly a whole number (``deals = 1e6``) as an int; else as is
    (the study says what is wrong with it). Lists item by item (a miss study's players)."""
    if isinstance(value, list):
        return [_whole(v) for v in value]
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:  # 2**53 may be 2**53 + 1 rounded
        return int(value)
    return value


def _depth(value: Any, limit: int) -> int:
    """How deep tables and arrays nest in ``value`` (counting stops past ``limit``)."""
    if limit < 0 or not isinstance(value, (dict, list)):
        return 0
    items = value.values() if isinstance(value, dict) else value
    return 1 + max((_depth(v, limit - 1) for v in items), default=0)


def _read(path: Path) -> dict[str, Any]:
    text = checks.read_text(path, checks.MAX_CONFIG_BYTES, f"config {str(path)!r}")
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise LooError(f"config {str(path)!r}: {TOO_DEEP}") from None
    except tomllib.TOMLDecodeError as e:
        raise LooError(f"config {str(path)!r} is not valid TOML: {e}") from None
    if _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise LooError(f"config {str(path)!r}: {TOO_DEEP}")
    return data


def _top_problems(data: dict[str, Any]) -> list[str]:
    problems = []
    for key in set(data) - set(TOP_KEYS):
        problems.append(f"{key}: unknown key; allowed title, description, backend, scheduler, defaults, experiments")
    if data.get("backend", "local") not in ("local", "dask"):
        problems.append(f"backend: {data.get('backend')!r} is not one of local, dask")
    for key in ("title", "description"):
        if key in data and not isinstance(data[key], str):
            problems.append(f"{key}: expected a string")
    if "scheduler" in data and not isinstance(data["scheduler"], str):
        problems.append("scheduler: expected an address string, e.g. 'tcp://10.0.0.5:8786'")
    return problems


def _misshapen(values: dict[str, Any]) -> dict[str, str]:
    """Fields whose TOML type is wrong (the studies' checks need the shape): key -> problem."""
    bad = {k: "expected a table" for k in TABLES if k in values and not isinstance(values[k], dict)}
    bad.update({k: "expected an array" for k in LISTS if k in values and not isinstance(values[k], list)})
    return bad


def _experiment(where: str, exp: dict[str, Any], defaults: dict[str, Any], problems: list[str],
                earlier: tuple[str, ...] = ()) -> Study | None:  # fmt: skip
    """The study of one [[experiments]] table (None when it cannot be built), its problems
    added; ``earlier``: the folders the experiments before it write."""
    kind = exp.get("kind")
    if kind not in KINDS:
        problems.append(f"{where}.kind: {kind!r} is not one of {', '.join(KINDS)}")
        return None
    allowed = KIND_KEYS[kind] | {"name", "kind", "title"}
    for key in set(exp) - allowed:
        problems.append(f"{where}.{key}: unknown key; allowed {', '.join(sorted(allowed))}")
    # a default under a name the kind has renamed (deals, in a kind that plays sessions) is another kind's
    values = {k: v for k, v in defaults.items() if k in KIND_KEYS[kind] and k not in STUDIES[kind].RENAMED}
    values["rules"] = dict(defaults.get("rules", {}))
    for k, v in exp.items():
        if k in KIND_KEYS[kind]:
            values[k] = {**values["rules"], **v} if k == "rules" and isinstance(v, dict) else v
    bad = _misshapen(values)
    if bad:
        problems += [f"{where}.{k}: {message}" for k, message in bad.items()]
        return None
    study = study_from(kind, values)
    study.made_earlier = earlier
    for sub, message in study.problems():
        last = sub.split(".")[-1].split("[")[0]
        if message.startswith(f"{last}: "):
            message = message[len(last) + 2 :]
        problems.append(f"{_origin(sub, where, exp, defaults)}.{sub}: {message}")
    return study


def _origin(sub: str, where: str, exp: dict[str, Any], defaults: dict[str, Any]) -> str:
    """Where the value a problem is about was set: the experiment (``where``) or ``defaults``."""
    top, _, rest = sub.partition(".")
    top = top.split("[")[0]
    if top == "rules" and rest:
        option = rest.split(".")[0]
        own = isinstance(exp.get("rules"), dict) and option in exp["rules"]
        return where if own or option not in defaults.get("rules", {}) else "defaults"
    return where if top in exp or top not in defaults else "defaults"


def load_config(path: str | Path, out: str | Path | None = None) -> Config:
    """Parse and validate a config; raise ConfigError listing every problem. With ``out``
    (the report's folder), a file an earlier experiment writes there (``out/NAME/...``, e.g.
    a solve's strategy.csv another solve is compared with) need not exist yet."""
    path = Path(path)
    data = _read(path)
    problems = _top_problems(data)
    defaults = data.get("defaults", {})
    if not isinstance(defaults, dict):
        problems.append("defaults: expected a table")
        defaults = {}
    for key in set(defaults) - STUDY_FIELDS:
        problems.append(f"defaults.{key}: unknown key; allowed {', '.join(sorted(STUDY_FIELDS))}")
    bad = _misshapen(defaults)
    problems += [f"defaults.{k}: {message}" for k, message in bad.items()]
    defaults = {k: v for k, v in defaults.items() if k not in bad}
    raw = data.get("experiments", [])
    if not isinstance(raw, list) or not raw:
        problems.append("experiments: expected one or more [[experiments]] tables")
        raw = []
    experiments = []
    seen: set[str] = set()
    for i, exp in enumerate(raw):
        where = f"experiments[{i}]"
        if not isinstance(exp, dict):
            problems.append(f"{where}: expected a table")
            continue
        name = exp.get("name")
        if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
            shown = repr(name) if len(repr(name)) <= 40 else repr(name)[:37] + "..."
            problems.append(f"{where}.name: {shown} is not allowed; allowed {NAME_RULE}")
        elif name in seen:
            problems.append(f"{where}.name: {name!r} is used twice; names must differ")
        else:
            seen.add(name)
        if "title" in exp and not isinstance(exp["title"], str):
            problems.append(f"{where}.title: expected a string")
        earlier = tuple(str(Path(out) / e.name) for e in experiments) if out is not None else ()
        study = _experiment(where, exp, defaults, problems, earlier)
        if study is not None:
            experiments.append(Experiment(str(name), str(exp.get("title", name)), study))
    if problems:
        raise ConfigError(list(dict.fromkeys(problems)))  # a default's problem once, not once an experiment
    return Config(path, str(data.get("title", path.stem)), str(data.get("description", "")), experiments,
                  str(data.get("backend", "local")), data.get("scheduler"))  # fmt: skip
