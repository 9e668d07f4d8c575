"""Output files of a run (CSV, JSON, PNG), each written atomically (``loo_sim.base.atomic``)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pandas as pd

from loo_sim.base.atomic import atomic_write_bytes, atomic_write_text  # noqa: F401 (atomic_write_text: re-exported)
from loo_sim.base.errors import LooError


def prepare_out_dir(path: str | os.PathLike) -> Path:
    """Create ``path`` if needed and check that files can be written there."""
    if not str(path).strip():  # Path("") is the current folder: files would land where the user stands
        raise LooError(f"{str(path)!r} is not a folder name", key="out")
    out = Path(path)
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out, prefix=".probe-", delete=True):
            pass
    except OSError as e:
        raise LooError(f"{str(path)!r} is not a writable directory ({e.strerror or e})", key="out") from None
    return out


def csv_bytes(df: pd.DataFrame, name: str = "table") -> bytes:
    """A table as CSV; an undefined value (NaN: a standard error of fewer than two
    observations, a rate of nothing) is an empty cell, and an infinite one is refused."""
    _refuse_infinite(name, df)
    return df.to_csv(index=False, na_rep="").encode("utf-8")


def json_bytes(data: Any, name: str = "JSON") -> bytes:
    return (to_json(data, name) + "\n").encode("utf-8")


def write_csv(path: Path, df: pd.DataFrame) -> None:
    atomic_write_bytes(path, csv_bytes(df, path.name))


def write_json(path: Path, data: Any) -> None:
    """JSON as :func:`to_json` makes it."""
    atomic_write_bytes(path, json_bytes(data, path.name))


def to_json(data: Any, what: str = "JSON", indent: int | None = 2) -> str:
    """Strict JSON: an undefined value (NaN) is ``null``, as it is an empty cell in a CSV;
    an infinity (not JSON: Python would write ``Infinity``) is refused with one LooError."""
    try:
        return json.dumps(_nan_to_none(data), indent=indent, default=str, allow_nan=False)
    except ValueError as e:
        raise LooError(f"{what}: a value is not a finite number ({e}); nothing written") from None


def _nan_to_none(value: Any) -> Any:
    if isinstance(value, float):
        return None if value != value else value
    if isinstance(value, dict):
        return {k: _nan_to_none(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_nan_to_none(v) for v in value]
    return value


def _refuse_infinite(name: str, df: pd.DataFrame) -> None:
    import numpy as np

    numbers = df.select_dtypes(include="number")
    if numbers.size and np.isinf(numbers.to_numpy(dtype=np.float64)).any():
        columns = [c for c in numbers.columns if np.isinf(numbers[c].to_numpy(dtype=np.float64)).any()]
        raise LooError(f"{name}: column(s) {', '.join(map(str, columns))} hold an infinite value; nothing written")


def png_bytes(fig, dpi: int = 110) -> bytes:
    """A matplotlib figure rendered as PNG.

    The figures are made with ``matplotlib.figure.Figure`` (the object API), which pyplot
    does not track, so there is nothing to close (``pyplot.close`` did nothing for them):
    Python frees a figure once nothing refers to it.
    """
    import io

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
    return buf.getvalue()


def save_png(fig, path: Path, dpi: int = 110) -> None:
    """Render a matplotlib figure to ``path`` atomically."""
    atomic_write_bytes(path, png_bytes(fig, dpi))
