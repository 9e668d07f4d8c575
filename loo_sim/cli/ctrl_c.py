"""Ctrl-C while numba compiles: held until the compile is done.

Python raises KeyboardInterrupt wherever the main thread happens to be. While numba
compiles, that can be inside one of llvmlite's ctypes callbacks, which swallows the
exception ("Exception ignored on calling ctypes callback") and leaves the function
half-compiled: numba then fails with ``RuntimeError: no compiled object yet``, a
traceback instead of ``interrupted: nothing written``. So while a compile is under way
(numba's ``numba:compile`` events, in any thread) SIGINT only marks itself pending, and
the KeyboardInterrupt comes when the outermost compile ends, in the main thread (a
terminal is told so; a second Ctrl-C acts at once). A compile takes seconds, so the wait
is short; the interrupted driver is kept in memory but not written to numba's cache.

Python also swallows a KeyboardInterrupt raised inside a finalizer or a weakref callback
(numba's type disposal runs in these whenever the garbage collector does): it prints
"Exception ignored in ..." with a traceback and the command runs on. Within the block,
such a KeyboardInterrupt is not printed but raised again in the main thread 0.05 s later
(``sys.unraisablehook``). Once a Ctrl-C has been raised, a finalizer's other errors are not
printed either, then or while the process ends: an object the KeyboardInterrupt left
half-closed (llvmlite's ``ObjectRef``) fails again when it is collected.

C code can also turn a KeyboardInterrupt raised during one of its calls back into Python
into an error of its own (matplotlib's renderer reports ``ValueError: Invalid bounding
box`` when a Ctrl-C lands while it converts a box), with no trace of the Ctrl-C left. So
the handler also records that it raised (``base.hooks.ctrl_c_raised``): an error after that is the
Ctrl-C's doing, and the command line says so (one line, exit 130).

numba is not imported for this: the guard listens to its compile events from the moment
``loo_sim.kernel`` is imported (``loo_sim.base.hooks``), so ``--help`` stays instant."""

import _thread
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from loo_sim.base.hooks import ctrl_c_raised, forget, note_ctrl_c, when_kernel_imported

_lock = threading.Lock()
_state = {"compiling": 0, "pending": False}


def _on_sigint(signum, frame) -> None:
    with _lock:
        hold = _state["compiling"] > 0 and not _state["pending"]  # a second Ctrl-C acts at once
        _state["pending"] = hold
    if not hold:
        note_ctrl_c()
        raise KeyboardInterrupt
    from loo_sim.cli.progress import on_terminal

    if on_terminal(sys.stderr):
        print("\nstopping once the kernel has compiled (a few seconds; Ctrl-C again to stop now)", file=sys.stderr)


def _listener():
    from numba.core import event

    class CompileDepth(event.Listener):
        def on_start(self, ev) -> None:
            with _lock:
                _state["compiling"] += 1

        def on_end(self, ev) -> None:
            with _lock:
                _state["compiling"] -= 1
                fire = _state["compiling"] == 0 and _state["pending"]
                if fire:
                    _state["pending"] = False
                    note_ctrl_c()
            if fire:
                if threading.current_thread() is threading.main_thread():
                    raise KeyboardInterrupt
                _thread.interrupt_main()  # SIGINT's handler again, in the main thread, now outside the compile

    return CompileDepth()


def _unraisable(previous):
    def hook(unraisable) -> None:
        if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
            # SIGINT's handler again, in the main thread, once it is out of the callback and this
            # hook (an exception raised in either is swallowed again): from another thread, later
            later = threading.Timer(0.05, _thread.interrupt_main)
            later.daemon = True
            later.start()
        elif not ctrl_c_raised():
            previous(unraisable)
        # else: a finalizer failing after a Ctrl-C (an llvmlite object closed halfway by the
        # KeyboardInterrupt fails again when collected): a consequence of the Ctrl-C, not news

    return hook


@contextmanager
def ctrl_c_after_compiling() -> Iterator[None]:
    """Within this block, a Ctrl-C during a numba compile takes effect when the compile
    ends, and one that a finalizer or weakref callback swallowed is raised again. A no-op
    outside the main thread or where SIGINT is not Python's default (ignored, or handled by
    the caller)."""
    main = threading.current_thread() is threading.main_thread()
    if not main or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    registered = []

    def listen() -> None:
        from numba.core import event

        listener = _listener()
        event.register("numba:compile", listener)
        registered.append(listener)

    when_kernel_imported(listen)
    note_ctrl_c(False)
    signal.signal(signal.SIGINT, _on_sigint)
    hook, sys.unraisablehook = sys.unraisablehook, _unraisable(sys.unraisablehook)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if not ctrl_c_raised():  # after a Ctrl-C, objects it left half-done may fail when collected later
            sys.unraisablehook = hook
        forget(listen)
        if registered:
            from numba.core import event

            event.unregister("numba:compile", registered[0])
        with _lock:
            _state["pending"] = False
