"""Strategy tables on disk (docs/policies.md P6): read the CSVs that ``table:PATH`` seats
name, checked against the rules of the run, and write them (``game/strategy.py`` holds
the format)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from loo_sim.base import checks
from loo_sim.base.errors import LooError
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules
from loo_sim.game.strategy import check_header, header_line, parse_header, table_from_frame


def parse_table_text(text: str, rules: Rules, source: str) -> np.ndarray:
    """A strategy table's text as the [N_INFOSETS, ACTIONS] probabilities (LooError if it is
    not one, or is one for other rules or another number of players)."""
    first, _, body = text.partition("\n")
    check_header(parse_header(first.strip(), source), rules, source)
    try:
        frame = pd.read_csv(io.StringIO(body))
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as e:
        raise LooError(f"{source}: not a readable CSV ({str(e).splitlines()[0]})") from None
    if frame.empty:
        raise LooError(f"{source}: a strategy table with no rows")
    return table_from_frame(frame, rules.players, source)


def read_table(path: str | Path, rules: Rules) -> np.ndarray:
    """The table at ``path`` for ``rules`` (see :func:`parse_table_text`)."""
    text = checks.read_text(path, checks.MAX_TABLE_BYTES, f"table:{path}")
    return parse_table_text(text, rules, f"table:{path}")


def read_table_frame(path: str | Path, rules: Rules, source: str) -> pd.DataFrame:
    """The table at ``path`` for ``rules`` as its frame, every column kept (``reach`` too),
    checked as :func:`parse_table_text` checks it."""
    text = checks.read_text(path, checks.MAX_TABLE_BYTES, source)
    parse_table_text(text, rules, source)
    return pd.read_csv(io.StringIO(text.partition("\n")[2]))


def table_text(frame: pd.DataFrame, rules: Rules) -> str:
    """A strategy table's CSV text: the header line, then the frame (``game.strategy.table_frame``)."""
    return header_line(rules) + "\n" + frame.to_csv(index=False, float_format="%.10g")


def resolve_tables(rules: Rules, policies: Sequence[Policy]) -> dict[str, np.ndarray]:
    """The table of each ``table:PATH`` seat, once per path."""
    return {p.table: read_table(p.table, rules) for p in policies if p.declare == "table"}
