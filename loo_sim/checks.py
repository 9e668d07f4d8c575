"""Checks of single values (seats, chips, whole numbers) that raise one clear LooError."""

from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation
from typing import Any

from loo_sim.errors import LooError


def whole_number(name: str, value: Any, low: int, high: int | None = None) -> int:
    """A whole number in low..high; text such as ``1_000_000`` or ``1e6`` is accepted."""
    allowed = f"{low}..{high}" if high is not None else f"{low} or more"
    if isinstance(value, bool):
        raise LooError(f"{name}: {value!r} is not a whole number; allowed {allowed}")
    text = str(value).strip().replace("_", "")
    if not text.isascii():  # int() and float() take other scripts' digits ('١٢٣', '１２')
        raise LooError(f"{name}: {value!r} is not a whole number in ASCII digits; allowed {allowed}")
    try:
        number = int(text)
    except ValueError:
        try:
            exact = Decimal(text)  # the number as written (float() would round 9007199254740993.0)
        except InvalidOperation:
            raise LooError(f"{name}: {value!r} is not a whole number; allowed {allowed}") from None
        if not exact.is_finite() or exact != exact.to_integral_value():
            raise LooError(f"{name}: {value!r} is not a whole number; allowed {allowed}") from None
        if abs(exact) > 2**53:  # past 2**53 a float is not every whole number: write the digits
            raise LooError(
                f"{name}: {value!r} is past 2**53 written as a float; write it in digits ({allowed})"
            ) from None
        number = int(exact)
    if number < low or (high is not None and number > high):
        raise LooError(f"{name}: {number} is not allowed; allowed {allowed}")
    return number


def seat(name: str, value: Any, players: int) -> int:
    """A seat number 0..players-1."""
    if isinstance(value, bool) or not str(value).isascii():
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
        amount = float(value if str(value).isascii() else "not ASCII")  # float() takes other scripts' digits
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
