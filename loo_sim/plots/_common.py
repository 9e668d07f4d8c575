"""What the plot modules share: the checks of an input table (columns, numbers, booleans read
back from a CSV), the colours (of the declarations, keyed by :class:`loo_sim.game.decl.Decl`
and in its order, and of the arms of a session study), the chip-count format and the one
legend of a figure of small multiples. Object API only, like the plot modules (no ``pyplot``).

Every plot function draws onto an Axes or Figure the caller made and returns what it drew
on; none creates a window or writes a file (docs/design.md property 7)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd
from matplotlib.artist import Artist
from matplotlib.figure import Figure, SubFigure
from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.legend import Legend

from loo_sim.base.errors import LooError
from loo_sim.game.decl import DECL_NAMES, Decl

DECL_COLOURS: dict[Decl, str] = {
    Decl.PASS: "tab:gray",
    Decl.PLAY: "tab:blue",
    Decl.MISS: "tab:orange",
    Decl.DEFEND: "tab:green",
}
"""One colour per declaration, the same in every panel and plot."""

ARM_COLOURS: tuple[str, ...] = tuple(
    f"tab:{c}" for c in ("blue", "orange", "green", "red", "purple", "brown", "pink", "gray", "olive", "cyan")
)
"""Colour of the i-th arm (in order of first appearance in a table), cycling after ten."""

_OTHER_COLOURS = ("tab:red", "tab:purple", "tab:brown", "tab:pink", "tab:olive", "tab:cyan")
"""Colours of names in a table that are not declarations, in sorted order; black after these."""


def require(df: pd.DataFrame, columns: Iterable[str], what: str) -> None:
    """A table to plot must have these columns and at least one row (else :class:`LooError`)."""
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise LooError(f"{what} table lacks column(s) {', '.join(missing)}; it has {', '.join(map(str, df.columns))}")
    if df.empty:
        raise LooError(f"{what} table is empty; nothing to plot")


def as_bool(values: pd.Series) -> np.ndarray:
    """Booleans that may have come back from a CSV as text ("True"/"False") or 0/1."""
    if values.dtype == bool:
        return values.to_numpy()
    text = values.astype(str).str.strip().str.lower()
    return text.isin(("true", "1", "1.0", "yes")).to_numpy()


def arm_table(df: pd.DataFrame, columns: Iterable[str], what: str, key: str | None = None) -> pd.DataFrame:
    """A session study's table with its ``arm`` column as text and every other column of
    ``columns`` as floats (a value that is not a number: :class:`LooError`; a missing one
    stays NaN); with ``key``, at most one row per (arm, key)."""
    require(df, columns, what)
    out = df.assign(arm=df["arm"].astype(str))
    for col in (c for c in columns if c != "arm"):
        converted = pd.to_numeric(out[col], errors="coerce")
        bad = converted.isna() & out[col].notna()
        if bad.any():
            raise LooError(f"{what} table: column {col} has non-numeric value {out[col][bad].iloc[0]!r}")
        out[col] = converted.astype(float)
    if key is not None and (dupes := out.duplicated(["arm", key])).any():
        first = out[dupes].iloc[0]
        raise LooError(f"{what} table has more than one row for arm {first['arm']!r}, {key} {first[key]:g}")
    return out


def arm_order(arms: pd.Series) -> list[str]:
    """The arms in order of first appearance."""
    return list(dict.fromkeys(arms))


def number_text(x: float, digits: int = 3, sign: bool = False) -> str:
    """A number as a reader writes it: ``digits`` significant digits below 1,000 (0.4259,
    -0.125), whole with thousands separators below a million (1,040), else two digits and a
    power of ten (1.2e13); "n/a" when not finite. ``sign``: "+" before a number above 0."""
    if not np.isfinite(x):
        return "n/a"
    plus = "+" if sign and x != 0 else ""
    if 1000 <= abs(x) < 1e6:
        return f"{x:{plus},.0f}"
    text = f"{x:{plus}.{2 if abs(x) >= 1e6 else digits}g}"
    return re.sub(r"e\+?(-?)0*(\d)", r"e\1\2", text)  # 1.2e+13 -> 1.2e13, 5.9e-05 -> 5.9e-5


def chips_text(x: float) -> str:
    """A chip count: 27, 1,300, 2.4e13 (:func:`number_text` with 3 digits)."""
    return number_text(x)


def decl_order(names: Iterable[str]) -> list[str]:
    """The declarations among ``names`` in :class:`Decl` order (pass, play, miss, defend),
    then any other names, sorted; each once."""
    present = list(dict.fromkeys(str(n) for n in names))
    return [d for d in DECL_NAMES if d in present] + sorted(n for n in present if n not in DECL_NAMES)


def decl_colours(names: Sequence[str]) -> dict[str, str]:
    """Colour of each name: a declaration's own (:data:`DECL_COLOURS`), others in turn from a
    short list of spare colours."""
    spare = iter(_OTHER_COLOURS)
    return {n: DECL_COLOURS[Decl[n.upper()]] if n in DECL_NAMES else next(spare, "black") for n in names}


def arm_colours(arms: Sequence[str]) -> dict[str, str]:
    """Colour of each arm, by its place in ``arms`` (:data:`ARM_COLOURS`)."""
    return {a: ARM_COLOURS[i % len(ARM_COLOURS)] for i, a in enumerate(arms)}


def figure_legend(
    fig: Figure | SubFigure,
    handles: Sequence[Artist],
    *,
    title: str | None = None,
    **adjust: float,
) -> Legend:
    """The figure's one legend: ``handles`` in one row, centred below the panels.

    Under constrained layout the legend goes ``"outside lower center"`` and the layout makes
    room for it. Otherwise it sits at the lower centre in small type; a :class:`Figure` with
    no layout engine then gets ``fig.subplots_adjust(**adjust)`` to leave room for it and the
    suptitle (a SubFigure, or a figure with another layout engine, is left as it is).
    """
    get_engine = getattr(fig, "get_layout_engine", None)  # a SubFigure may lack it in older matplotlib
    engine = get_engine() if get_engine is not None else None
    if isinstance(engine, ConstrainedLayoutEngine):
        return fig.legend(handles=handles, loc="outside lower center", ncol=len(handles), title=title)
    legend = fig.legend(handles=handles, loc="lower center", ncol=len(handles), title=title, fontsize="small")
    if isinstance(fig, Figure) and engine is None:
        fig.subplots_adjust(**adjust)
    return legend
