"""Callbacks run once the numba kernel has been imported (``loo_sim.kernel`` calls
:func:`kernel_imported` at the end of its import, before anything compiles).

The command line imports numba only when a kernel is about to run (``--help`` and usage
errors stay instant), yet its Ctrl-C guard must hear numba's compile events from the
first compile on: it registers them here (``cli/ctrl_c.py``).

It also records whether its SIGINT handler has raised a KeyboardInterrupt in the command
under way (:func:`ctrl_c_raised`): C code can turn that exception into an error of its own
(matplotlib's renderer: ``ValueError: Invalid bounding box``), so an error after a Ctrl-C is
the Ctrl-C's doing wherever it is caught (the command line, a report's experiment loop)."""

from __future__ import annotations

import sys
from collections.abc import Callable

_waiting: list[Callable[[], None]] = []
_ctrl_c = {"raised": False}


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


def note_ctrl_c(raised: bool = True) -> None:
    """Record that SIGINT's handler raised KeyboardInterrupt (False: a new command begins)."""
    _ctrl_c["raised"] = raised


def ctrl_c_raised() -> bool:
    """Whether SIGINT's handler raised KeyboardInterrupt in the command under way."""
    return _ctrl_c["raised"]


def caused_by_ctrl_c(error: BaseException | None) -> bool:
    """Whether ``error`` is the doing of a Ctrl-C: a KeyboardInterrupt is in its chain of
    causes (Python wraps one raised in a class body's ``__set_name__``), or SIGINT's
    handler has raised in the command under way (:func:`ctrl_c_raised`)."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, KeyboardInterrupt):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return ctrl_c_raised()
