"""The command line (Typer): ``loo-sim COMMAND``. Importing the command modules registers
their commands on the one app."""

from loo_sim.cli import studies  # noqa: F401  (registers calibrate, miss, pots and report)
from loo_sim.cli.main import main, run

__all__ = ["main", "run"]
