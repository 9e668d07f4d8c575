"""The ``loo-sim`` command line (Typer, which vendors click).

* ``app.py``: the app and the options several commands share;
* ``params.py``: the parameter types (whole numbers such as ``1e6``, chips, seats,
  choices) and how a library error about one option is said with its flag;
* ``commands/``: one module a command, registered below in the order ``--help`` lists them;
* ``study.py``: running a study (simulate, miss, pots) through the library's study runner;
* ``backend.py``: the local or Dask backend (building the LocalCluster or client);
* ``progress.py``: progress bars on a terminal.

Bad input is one ``error:`` line on stderr and exit status 2 (:func:`main`).
"""

from __future__ import annotations

import sys

import typer

from loo_sim.cli.app import app
from loo_sim.cli.commands import calibrate, miss, pots, replay, report, rules, simulate
from loo_sim.cli.params import flag_message
from loo_sim.errors import LooError

for name, fn in [
    ("rules", rules.rules_cmd),
    ("replay", replay.replay_cmd),
    ("simulate", simulate.simulate_cmd),
    ("calibrate", calibrate.calibrate_cmd),
    ("miss", miss.miss_cmd),
    ("pots", pots.pots_cmd),
    ("report", report.report_cmd),
]:
    app.command(name)(fn)


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app, turning every domain or usage error into one line."""
    command = typer.main.get_command(app)
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        code = command.main(args=args or ["--help"], prog_name="loo-sim", standalone_mode=False)
    except LooError as e:  # a config error lists every problem, one a line
        for line in flag_message(e).splitlines() or [""]:
            print(f"error: {line}", file=sys.stderr)
        return 2
    except typer.TyperException as e:  # click's errors (typer vendors click): usage, bad option values
        print(f"error: {e.format_message()}", file=sys.stderr)
        return e.exit_code
    except (typer.Abort, KeyboardInterrupt):
        print("error: interrupted", file=sys.stderr)
        return 130
    return code if isinstance(code, int) else 0


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())


__all__ = ["app", "main", "run"]
