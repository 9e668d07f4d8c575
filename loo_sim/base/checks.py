"""Checks of single values (seats, chips, whole numbers) that raise one clear LooError."""

from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation
from typing import Any

from loo_sim.base.errors import LooError


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


# The largest chip amount (carried, ante, penalty_amount, bankroll; docs/limits.md). A deal
# moves at most a few times (carried + 8 antes + 8 penalties) <= ~1e102 chips, so even the
# square of every amount summed over MAX_DEALS (10**15) deals stays below 1e220, far from
# float64's 1.8e308: sums, means and SEs stay finite. It is also the pot at which a pots
# session stops as overflowed (game.record.OVERFLOW_LIMIT). Past 2**53 amounts are accepted
# but no longer exact: the commands warn (R3).
MAX_CHIPS = 1e100
EXACT_CHIPS = 2.0**53  # R3: past this, float64 chips are no longer exact


def chips(name: str, value: Any) -> float:
    """A finite number of chips, 0..MAX_CHIPS."""
    if isinstance(value, bool):
        raise LooError(f"{name}: {value!r} is not a number of chips")
    try:
        amount = float(value if str(value).isascii() else "not ASCII")  # float() takes other scripts' digits
    except (TypeError, ValueError, OverflowError):
        raise LooError(f"{name}: {value!r} is not a number of chips") from None
    if not math.isfinite(amount) or not 0 <= amount <= MAX_CHIPS:
        raise LooError(f"{name}: {value!r} is not allowed; allowed a number of chips 0..1e100")
    return amount


def inexact_chips(*amounts: float) -> bool:
    """Whether any of these amounts is past 2**53 chips (R3: float64 is no longer exact)."""
    return any(abs(a) > EXACT_CHIPS for a in amounts)


MAX_SEED = 2**63 - 1  # seeds are the first word of the counter-based streams (rng.py)


def seed(value: Any, name: str = "seed") -> int:
    return whole_number(name, value, 0, MAX_SEED)


# Ceilings on counts (docs/limits.md). 10**15 deals is months of a 16-core machine at the
# kernel's few million deals/s per thread, and keeps every count exact in float64 (< 2**53).
MAX_DEALS = 10**15  # deals of one run (simulate, miss, calibrate: per seat count)
MAX_SESSIONS = 10**12  # sessions per arm of a pots run (each plays at most MAX_SESSION_DEALS deals)
MAX_SESSION_DEALS = 100_000  # deals per session


def deals(value: Any, name: str = "deals") -> int:
    """A count of deals, 1..MAX_DEALS."""
    return whole_number(name, value, 1, MAX_DEALS)


def sessions(value: Any, name: str = "sessions") -> int:
    """A count of sessions, 1..MAX_SESSIONS."""
    return whole_number(name, value, 1, MAX_SESSIONS)


def session_deals(value: Any, name: str = "session_deals") -> int:
    """Deals per session, 1..MAX_SESSION_DEALS."""
    return whole_number(name, value, 1, MAX_SESSION_DEALS)


def session_options(count: Any, deals: Any, burn: Any) -> None:
    """Sessions 1.., deals per session 1.., a burn-in that leaves at least one deal counted
    (``miss --carried session``); a LooError keyed by the option (``sessions``,
    ``session_deals``, ``burn_in``)."""
    values = []
    for key, check in (("sessions", lambda: sessions(count, "sessions")),
                       ("session_deals", lambda: session_deals(deals, "session_deals")),
                       ("burn_in", lambda: whole_number("burn_in", burn, 0))):  # fmt: skip
        try:
            values.append(check())
        except LooError as e:
            raise LooError(str(e).removeprefix(f"{key}: "), key=key) from None
    _, per_session, dropped = values
    if dropped >= per_session:
        raise LooError(f"{dropped} is not allowed; allowed 0..{per_session - 1} (fewer than the {per_session} deals "
                       "of a session, so some are counted)", key="burn_in")  # fmt: skip


def burn_in(value: Any, deals: int, name: str = "burn_in") -> int:
    """Deals dropped at the start of each session: 0..deals-1 (one deal at least is measured)."""
    number = whole_number(name, value, 0)
    if number >= deals:
        raise LooError(f"{name}: {number} is not allowed; allowed 0..{deals - 1}, below deals ({deals}), so that "
                       "each session has a deal left to measure")  # fmt: skip
    return number


def threads(value: Any, name: str = "threads") -> int:
    """1..the cores numba may use; None means all of them."""
    import numba

    limit = numba.config.NUMBA_NUM_THREADS
    return limit if value is None else whole_number(name, value, 1, limit)


# ---- files a run reads ---------------------------------------------------------------------
MAX_DEAL_FILE_BYTES = 8 * 2**20  # a deal file (loo-sim check): thousands of deals
MAX_CONFIG_BYTES = 2**20  # a report's TOML config
MAX_TABLE_BYTES = 64 * 2**20  # a strategy table: at most one row per information set (70,200), ~1 KB each


def read_text(path: Any, limit: int, label: str) -> str:
    """The UTF-8 text of the file at ``path``, read with a size bound: a file past ``limit``
    bytes (or an endless one, such as /dev/zero) is refused before it is read whole. Errors
    are one LooError starting with ``label`` (how the caller names the file)."""
    from pathlib import Path

    try:
        with Path(path).open("rb") as f:
            data = f.read(limit + 1)
    except FileNotFoundError:
        raise LooError(f"{label}: no such file") from None
    except IsADirectoryError:
        raise LooError(f"{label}: is a folder, not a file") from None
    except OSError as e:
        raise LooError(f"{label}: cannot be read ({e.strerror or e.__class__.__name__})") from None
    if len(data) > limit:
        raise LooError(f"{label}: larger than {limit:,} bytes, the most such a file holds; not read")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise LooError(f"{label}: not UTF-8 text") from None
