"""Output files of a run (CSV, JSON, PNG), each written atomically (``loo_sim.atomic``)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pandas as pd

from loo_sim.atomic import atomic_write_bytes, atomic_write_text
from loo_sim.errors import LooError


def prepare_out_dir(path: str | os.PathLike) -> Path:
    """Create ``path`` if needed and check that files can be written there."""
    out = Path(path)
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out, prefix=".probe-", delete=True):
            pass
    except OSError as e:
        raise LooError(f"{str(path)!r} is not a writable directory ({e.strerror or e})", key="out") from None
    return out


def write_csv(path: Path, df: pd.DataFrame) -> None:
    atomic_write_text(path, df.to_csv(index=False))


def write_json(path: Path, data: Any) -> None:
    atomic_write_text(path, json.dumps(data, indent=2, default=str) + "\n")


def save_png(fig, path: Path, dpi: int = 110) -> None:
    """Render a matplotlib figure to ``path`` atomically.

    The figures are made with ``matplotlib.figure.Figure`` (the object API), which pyplot
    does not track, so there is nothing to close (``pyplot.close`` did nothing for them):
    Python frees a figure once nothing refers to it.
    """
    import io

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
    atomic_write_bytes(path, buf.getvalue())
