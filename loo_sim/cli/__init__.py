"""The ``loo-sim`` command line (Typer, which vendors click).

* ``app.py``: the app and the options several commands share;
* ``params.py``: the parameter types (whole numbers such as ``1e6``, chips, seats,
  choices) and how a library error about one option is said with its flag;
* ``commands/``: one module a command, registered below in the order ``--help`` lists them;
* ``study.py``: running a study (simulate, miss, pots, variants, ...) through the library's study runner;
* ``backend.py``: the local or Dask backend (building the LocalCluster or client);
* ``progress.py``: progress bars on a terminal.

Bad input is one ``error:`` line on stderr and exit status 2 (:func:`main`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from loo_sim.base.atomic import forget_written, written_folders
from loo_sim.base.errors import Interrupted, LooError
from loo_sim.base.hooks import caused_by_ctrl_c
from loo_sim.cli.app import app
from loo_sim.cli.commands import (
    advise,
    calibrate,
    cardplay,
    check,
    miss,
    pots,
    replay,
    report,
    risk,
    rules,
    simulate,
    solve,
    tournament,
    variants,
)
from loo_sim.cli.commands import app as app_command
from loo_sim.cli.ctrl_c import ctrl_c_after_compiling
from loo_sim.cli.params import flag_message

for name, fn in [
    ("rules", rules.rules_cmd),
    ("replay", replay.replay_cmd),
    ("check", check.check_cmd),
    ("advise", advise.advise_cmd),
    ("simulate", simulate.simulate_cmd),
    ("calibrate", calibrate.calibrate_cmd),
    ("miss", miss.miss_cmd),
    ("pots", pots.pots_cmd),
    ("variants", variants.variants_cmd),
    ("solve", solve.solve_cmd),
    ("tournament", tournament.tournament_cmd),
    ("risk", risk.risk_cmd),
    ("cardplay", cardplay.cardplay_cmd),
    ("report", report.report_cmd),
    ("app", app_command.app_cmd),
]:
    app.command(name)(fn)


def shadowing(folder: Path) -> Path | None:
    """What ``import loo_sim`` would load, instead of this package, in a script run from
    ``folder`` (its folder comes first on ``sys.path``): a ``loo_sim.py`` there, a
    ``loo_sim/`` package of one's own, or a folder without ``__init__.py`` (a clone named
    ``loo_sim``) that an editable install lets win as a namespace package. None when the
    script would get this package or another checkout of it."""
    import importlib.machinery

    path = [str(folder), *sys.path]
    spec = importlib.machinery.PathFinder.find_spec("loo_sim", path)
    if spec is not None and spec.origin is None:  # only namespace portions: PathFinder returns them before
        return Path(list(spec.submodule_search_locations)[0])  # an editable install's finder is asked
    if spec is None:
        return None
    origin = Path(spec.origin).resolve()
    if origin == Path(__file__).resolve().parents[1] / "__init__.py":  # this package
        return None
    if origin.name == "__init__.py" and (origin.parent / "cli" / "__init__.py").exists():
        return None  # another copy of loo_sim (a checkout beside a regular install)
    return origin if origin.name != "__init__.py" else origin.parent


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app, turning every domain or usage error into one line."""
    try:
        here = Path.cwd()
    except OSError:  # the working folder is gone
        here = None
    shadow = None if here is None else shadowing(here)
    if shadow is not None:
        print(f"warning: {shadow} shadows the installed loo_sim: `import loo_sim` in a Python script run from "
              f"{here} loads it instead (rename it; see Troubleshooting in docs/troubleshooting.md)",
              file=sys.stderr)  # fmt: skip
    args = sys.argv[1:] if argv is None else list(argv)
    forget_written()
    try:
        with ctrl_c_after_compiling():  # never inside a numba compile (cli/ctrl_c.py)
            command = typer.main.get_command(app)
            if not args:  # no command: the usage, as an error (exit 2), so a script that forgot one stops
                with typer.Context(command, info_name="loo-sim") as ctx:
                    print(command.get_help(ctx), file=sys.stderr)
                return 2
            code = command.main(args=args, prog_name="loo-sim", standalone_mode=False)
    except LooError as e:  # a config error lists every problem, one a line
        for line in flag_message(e).splitlines() or [""]:
            print(f"error: {line}", file=sys.stderr)
        return 2
    except typer.TyperException as e:  # click's errors (typer vendors click): usage, bad option values
        print(f"error: {e.format_message()}", file=sys.stderr)
        return e.exit_code
    except OSError as e:  # a full disk or an unwritable place: one line naming the file, exit 1
        from loo_sim.base.atomic import describe_write_error

        if describe_write_error(e) is None:
            raise
        print(f"error: {describe_write_error(e)}", file=sys.stderr)
        return 1
    except Interrupted as e:  # Ctrl-C in a run: what finished is written, stamped PARTIAL
        print(e, file=sys.stderr)
        return 130
    except (typer.Abort, KeyboardInterrupt):  # Ctrl-C before a run wrote anything, or once it had
        print(interrupted_line(), file=sys.stderr)
        return 130
    except Exception as e:  # a Ctrl-C that Python or C code turned into another error (cli/ctrl_c.py)
        if not caused_by_ctrl_c(e):
            raise
        print(interrupted_line(), file=sys.stderr)
        return 130
    if code == 130:  # typer returns Ctrl-C as 130 with standalone_mode=False
        print(interrupted_line(), file=sys.stderr)
    return code if isinstance(code, int) else 0


def interrupted_line() -> str:
    """The one line after a Ctrl-C that no run turned into a PARTIAL result: nothing
    written, or (Ctrl-C as the command printed or ended) where its results were written."""
    import os

    folders = written_folders()
    if not folders:
        return "interrupted: nothing written"
    return f"interrupted: stopped after writing the results in {os.path.commonpath(folders)}"


def exit_now(code: int) -> None:
    """End the process with ``code`` once the command is done, without the interpreter's
    teardown: freeing numba's compiled code, LLVM and the plotting modules module by
    module took 0.1-0.3 s of a 1 s command. The atexit handlers still run first; every
    file a command writes is closed before ``main`` returns. Falls back to ``sys.exit``
    when a non-daemon thread is still running or stdout cannot be flushed (a closed pipe:
    Python's own exit says so)."""
    import atexit
    import os
    import threading

    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        sys.exit(code)
    if any(t.is_alive() and not t.daemon for t in threading.enumerate() if t is not threading.main_thread()):
        sys.exit(code)
    atexit._run_exitfuncs()
    os._exit(code)


__all__ = ["app", "exit_now", "interrupted_line", "main"]
