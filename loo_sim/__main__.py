"""``python -m loo_sim`` and the ``loo-sim`` console script (:func:`run`).

Ctrl-C while Python is still importing the command line (typer, the package) would end in a
KeyboardInterrupt traceback: until ``loo_sim.cli`` is imported, SIGINT ends the process with
one line and exit status 130 instead; the command line then handles it itself. Once the
command is over, Ctrl-C is ignored while the process ends (its exit status is the command's)."""

import os
import signal
import sys


def _interrupted_while_starting(signum, frame) -> None:
    try:
        sys.stderr.write("interrupted: nothing written\n")
        sys.stderr.flush()
    finally:
        os._exit(130)


def run() -> None:
    """Run ``loo-sim`` with the process's arguments."""
    quiet = signal.getsignal(signal.SIGINT) is signal.default_int_handler  # not when SIGINT is ignored
    if quiet:
        signal.signal(signal.SIGINT, _interrupted_while_starting)
    from loo_sim.cli import exit_now, interrupted_line, main

    if quiet:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        code = main()
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the command is over: Ctrl-C now changes nothing
    except KeyboardInterrupt:  # in main's last steps, after its own handling
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        sys.stderr.write(interrupted_line() + "\n")
        code = 130
    exit_now(code)


if __name__ == "__main__":
    run()
