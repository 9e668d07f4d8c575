"""Checks of single values (seats, chips, whole numbers) that raise one clear LooError."""

from __future__ import annotations

import math
from typing import Any

from loo_sim.errors import LooError


def whole_number(name: str, value: Any, low: int, high: int | None = None) -> int:
    """A whole number in low..high; text such as ``1_000_000`` or ``1e6`` is accepted."""
    allowed = f"{low}..{high}" if high is not None else f"{low} or more"
    if isinstance(value, bool):
        raise LooError(f"{name}: {value!r} is not a whole number; allowed {allowed}")
    text = str(value).strip().replace("_", "")
    try:
        number = int(text)
    except ValueError:
        try:
            as_float = float(text)
        except ValueError:
            raise LooError(f"{name}: {value!r} is not a whole number; allowed {allowed}") from None
        if not math.isfinite(as_float) or not as_float.is_integer():
            raise LooError(f"{name}: {value!r} is not a whole number; allowed {allowed}") from None
        number = int(as_float)
    if number < low or (high is not None and number > high):
        raise LooError(f"{name}: {number} is not allowed; allowed {allowed}")
    return number


def seat(name: str, value: Any, players: int) -> int:
    """A seat number 0..players-1."""
    if isinstance(value, bool):
        raise LooError(f"{name}: {value!r} is not a seat number; allowed 0..{players - 1}")
    try:
        number = int(str(value).strip())
    except ValueError:
        raise LooError(f"{name}: {value!r} is not a seat number; allowed 0..{players - 1}") from None
    if not 0 <= number < players:
        raise LooError(f"{name}: seat {number} does not exist; allowed 0..{players - 1}")
    return number


def chips(name: str, value: Any) -> float:
    """A finite number of chips >= 0."""
    try:
        amount = float(value)
    except (TypeError, ValueError):
        raise LooError(f"{name}: {value!r} is not a number of chips") from None
    if not math.isfinite(amount) or amount < 0:
        raise LooError(f"{name}: {value!r} is not allowed; allowed a finite number >= 0")
    return amount


MAX_SEED = 2**63 - 1  # seeds are the first word of the counter-based streams (rng.py)


def seed(value: Any, name: str = "seed") -> int:
    return whole_number(name, value, 0, MAX_SEED)


def deals(value: Any, name: str = "deals") -> int:
    return whole_number(name, value, 1)


def threads(value: Any, name: str = "threads") -> int:
    """1..the cores numba may use; None means all of them."""
    import numba

    limit = numba.config.NUMBA_NUM_THREADS
    return limit if value is None else whole_number(name, value, 1, limit)
