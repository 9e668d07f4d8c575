"""The one exception class for bad input (DESIGN.md: errors, not tracebacks)."""


class LooError(ValueError):
    """A domain error: bad options, bad cards, bad configs.

    The message is one line that names what is wrong and what is allowed; the CLI
    prints it as is and exits non-zero.
    """
