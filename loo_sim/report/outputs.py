"""Output files of a run (CSV, JSON, PNG), each written atomically (``loo_sim.atomic``)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pandas as pd

from loo_sim.atomic import atomic_write_bytes, atomic_write_text  # noqa: F401 (atomic_write_text: re-exported)
from loo_sim.errors import LooError


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


def csv_bytes(df: pd.DataFrame) -> bytes:
    return df.to_csv(index=False).encode("utf-8")


def json_bytes(data: Any) -> bytes:
    return (json.dumps(data, indent=2, default=str) + "\n").encode("utf-8")


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


def write_csv(path: Path, df: pd.DataFrame) -> None:
    atomic_write_bytes(path, csv_bytes(df))


def write_json(path: Path, data: Any) -> None:
    atomic_write_bytes(path, json_bytes(data))


def save_png(fig, path: Path, dpi: int = 110) -> None:
    """Render a matplotlib figure to ``path`` atomically."""
    atomic_write_bytes(path, png_bytes(fig, dpi))
