"""Checks of a table handed to the analysis and plotting layers (a CSV read back, or a
frame from a run): the columns it must have, and columns that must hold numbers. Each
failure is one :class:`~loo_sim.base.errors.LooError` naming the table and the column."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from loo_sim.base.errors import LooError


def require(df: pd.DataFrame, columns: Iterable[str], what: str, doing: str) -> None:
    """``df`` must have these columns and at least one row.

    Parameters
    ----------
    df : pandas.DataFrame
        The table.
    columns : iterable of str
        The columns it must have.
    what : str
        The table's name in the message ("strategy", "convergence").
    doing : str
        What an empty table leaves nothing to do ("describe", "plot").

    Raises
    ------
    LooError
        Naming the missing columns and those it has, or saying the table is empty.
    """
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise LooError(f"{what} table lacks column(s) {', '.join(missing)}; it has {', '.join(map(str, df.columns))}")
    if df.empty:
        raise LooError(f"{what} table is empty; nothing to {doing}")


def numeric(df: pd.DataFrame, column: str, what: str, *, nonnegative: bool = False, unit: bool = False) -> np.ndarray:
    """Column ``column`` of ``df`` as finite floats.

    Parameters
    ----------
    df : pandas.DataFrame
        The table (it has the column: see :func:`require`).
    column : str
        The column.
    what : str
        The table's name in the message.
    nonnegative : bool, default False
        The values must be >= 0.
    unit : bool, default False
        The values must lie in [0, 1] (with 1e-9 of slack above 1, for rounding).

    Returns
    -------
    numpy.ndarray
        The values as float64.

    Raises
    ------
    LooError
        If a value is not a number, is missing or infinite, or out of the range asked for.
    """
    try:
        values = pd.to_numeric(df[column]).to_numpy(dtype=float)
    except (TypeError, ValueError) as err:
        raise LooError(f"{what} table column {column} is not numeric ({err})") from None
    if not np.isfinite(values).all():
        raise LooError(f"{what} table column {column} has missing or infinite values")
    if (nonnegative or unit) and (values < 0).any():
        raise LooError(f"{what} table column {column} has negative values (min {values.min():g})")
    if unit and (values > 1 + 1e-9).any():
        raise LooError(f"{what} table column {column} has values above 1 (max {values.max():g})")
    return values
