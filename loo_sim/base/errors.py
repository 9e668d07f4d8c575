"""The one exception class for bad input (docs/design.md property 8: errors, not tracebacks)."""

from __future__ import annotations


class LooError(ValueError):
    """A domain error: bad options, bad cards, bad configs.

    The message is one line that names what is wrong and what is allowed; the CLI
    prints it as is and exits non-zero. An error about one option may give its ``key``,
    the option's name as a Python or TOML caller spells it (``seat_policy[2]``,
    ``compare[0]``, ``out``): the message is then ``KEY: DETAIL``, and the CLI says the
    same with its own flag (``--seat-policy '2=bogus': DETAIL``). With an index, the
    detail starts with the item it is about.
    """

    def __init__(self, message: str = "", *, key: str | None = None) -> None:
        super().__init__(f"{key}: {message}" if key else message)
        self.key = key
        self.detail = message


class Interrupted(Exception):
    """Ctrl-C stopped a run. What finished has been written (stamped PARTIAL) before this
    is raised; the message is the one line the CLI prints before it exits 130
    (``interrupted: N of M deals done; partial results in DIR``)."""


class IllegalAction(LooError):
    """A scripted action (``replay --declare/--play``, ``loo-sim check``) the rules do not
    allow: the message says which seat, what, and the rule it breaks with its section."""
