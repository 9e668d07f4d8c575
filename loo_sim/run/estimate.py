"""How long a run will take, estimated before it starts from a nominal kernel rate (the
CLI prints the estimate of a long run on a terminal). A rough guide, never a promise:
rates vary with the rules, the policies and the machine (docs/performance.md)."""

from __future__ import annotations

# Deals per second per thread: below the kernel's measured 1.3-2.1 M deals/s (docs/performance.md), so
# the estimate errs on the long side.
NOMINAL_RATE = 1.0e6
LONG_RUN_S = 60.0  # estimates at least this long are printed before a run starts


def estimate_seconds(deals: float, threads: int, rate: float | None = None) -> float:
    """Seconds to play ``deals`` deals on ``threads`` threads at ``rate`` deals/s a thread
    (default ``NOMINAL_RATE``)."""
    return float(deals) / (max(int(threads), 1) * (rate or NOMINAL_RATE))


def duration_text(seconds: float) -> str:
    """``45 s``, ``12 min``, ``3.5 h``, ``4.2 days``, ``3.1e+04 years``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    if seconds < 365 * 86400:
        return f"{seconds / 86400:.1f} days"
    return f"{seconds / (365.25 * 86400):.3g} years"


def long_run_notice(deals: float, threads: int, what: str = "this run", rate: float | None = None) -> str | None:
    """One line on a run estimated to take at least ``LONG_RUN_S``; None for a short one."""
    rate = rate or NOMINAL_RATE
    seconds = estimate_seconds(deals, threads, rate)
    if seconds < LONG_RUN_S:
        return None
    return (f"note: {what} plays about {deals:.3g} deals: roughly {duration_text(seconds)} on {threads} thread(s) "
            f"(estimated at {rate / 1e6:.1f} M deals/s a thread; Ctrl-C keeps what is done)")  # fmt: skip
