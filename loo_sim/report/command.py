"""The command line that repeats a run, for ``run.json`` and ``summary.md``: the library
writes down which ``loo-sim`` arguments reproduce a table of policies."""

from __future__ import annotations

from collections.abc import Sequence

from loo_sim.game.policy import Policy


def describe_policies(table: Sequence[Policy]) -> str:
    names = [str(p) for p in table]
    if len(set(names)) == 1:
        return f"policy {names[0]} at every seat"
    return "policies " + ", ".join(f"{seat}={name}" for seat, name in enumerate(names))


def policy_args(table: Sequence[Policy]) -> list[str]:
    """The shortest --policy / --seat-policy arguments that give this table."""
    names = [str(p) for p in table]
    if len(set(names)) == 1:
        return ["--policy", names[0]]
    return sum((["--seat-policy", f"{seat}={name}"] for seat, name in enumerate(names)), [])
