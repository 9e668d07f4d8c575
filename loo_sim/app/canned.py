"""The shipped decision charts and strategy tables (``loo_sim/data/canned/``, the copies
``loo-sim advise`` reads) for the page's heat maps: the index, and one file's rows as
columns and values (the page pivots a slice into hand classes by positions)."""

from __future__ import annotations

import math

from loo_sim.analysis.advise_canned import canned_frame, canned_index  # the same cached reads as advise uses
from loo_sim.base.errors import LooError


def canned_list() -> list[dict]:
    """Each shipped file: its name, kind (chart or table), players, pot and the command that made it."""
    return [{"file": e["file"], "kind": e["kind"], "players": e["players"], "carried": e["carried"],
             "source": e["source"], "command": e["command"]} for e in canned_index()]  # fmt: skip


def _value(x: object) -> object:
    if isinstance(x, float) and math.isnan(x):
        return None
    return x.item() if hasattr(x, "item") else x  # numpy scalars as JSON numbers and booleans


def canned_rows(name: str) -> dict:
    """One shipped file as ``{"kind", "source", "command", "columns", "rows"}``."""
    entry = next((e for e in canned_index() if e["file"] == name), None)
    if entry is None:
        raise LooError(f"no shipped chart or table named {name!r}")
    frame = canned_frame(name)
    rows = [[_value(v) for v in row] for row in frame.itertuples(index=False, name=None)]
    return {"kind": entry["kind"], "source": entry["source"], "command": entry["command"],
            "columns": [str(c) for c in frame.columns], "rows": rows}  # fmt: skip
