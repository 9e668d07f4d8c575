"""Callbacks run once the numba kernel has been imported (``loo_sim.kernel`` calls
:func:`kernel_imported` at the end of its import, before anything compiles).

The command line imports numba only when a kernel is about to run (``--help`` and usage
errors stay instant), yet its Ctrl-C guard must hear numba's compile events from the
first compile on: it registers them here (``cli/ctrl_c.py``)."""

from __future__ import annotations

import sys
from collections.abc import Callable

_waiting: list[Callable[[], None]] = []


def when_kernel_imported(callback: Callable[[], None]) -> None:
    """Call ``callback`` now if the kernel is imported already, else right after its import."""
    if getattr(sys.modules.get("loo_sim.kernel"), "KERNEL_READY", False):
        callback()
    else:
        _waiting.append(callback)


def forget(callback: Callable[[], None]) -> None:
    """Drop a callback that has not run yet (a guard that ended before any kernel ran)."""
    if callback in _waiting:
        _waiting.remove(callback)


def kernel_imported() -> None:
    """Run the waiting callbacks, once each (``loo_sim.kernel``'s last step)."""
    while _waiting:
        _waiting.pop(0)()
