"""Progress bars for long runs (``rich.progress``), on stderr and only on a terminal,
and the one line said before the kernel's first compilation.

The library reports progress through a plain ``progress(done, total)`` callback; a
:class:`TerminalProgress` makes one such callback per loop (``deals``, ``sessions``),
each drawn as its own bar. It draws nothing when stderr is not a terminal or ``$CI``
is set, and nothing for loops shorter than ``min_total``. :func:`compile_notice` says
"compiling the kernel once" under the same condition when numba's cache is cold.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:  # rich loads when a bar is first drawn, not for --help
    from rich.progress import Progress

ProgressFn = Callable[[int, int], None]
COMPILE_NOTICE = "compiling the kernel once, about {seconds} s (numba caches it for later runs) ..."
def compile_seconds(kinds: Sequence[str]) -> int:
    """About how long compiling the drivers of these (cold) kinds of run takes
    (``loo_sim.kernel.COMPILE_SECONDS``, beside the drivers)."""
    from loo_sim.kernel import COMPILE_SECONDS, MORE_KIND_SECONDS

    return max(COMPILE_SECONDS[k] for k in kinds) + MORE_KIND_SECONDS * (len(kinds) - 1)


def on_terminal(stream: TextIO) -> bool:
    """Whether to draw on ``stream``: a terminal, and not on CI (``$CI`` unset)."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and not os.environ.get("CI")


def compile_notice(*kinds: str, stream: TextIO | None = None) -> bool:
    """On a terminal, say that the kernel compiles now when numba's cache holds no
    compiled drivers for these kinds of run (``loo_sim.kernel.DRIVERS``); whether it said so."""
    stream = stream or sys.stderr
    if not on_terminal(stream):
        return False
    from loo_sim.kernel import DRIVERS, kernel_cache_is_warm

    cold = [kind for kind in kinds or DRIVERS if not kernel_cache_is_warm(kind)]
    if not cold:
        return False
    print(COMPILE_NOTICE.format(seconds=compile_seconds(cold)), file=stream, flush=True)
    return True


def rate_text(speed: float, unit: str) -> str:
    """A rate in the unit counted: ``4.16 M deals/s``, ``1,234 sessions/s``, ``0.5 sessions/s``."""
    if speed >= 1e6:
        return f"{speed / 1e6:.2f} M {unit}/s"
    return f"{speed:,.0f} {unit}/s" if speed >= 10 else f"{speed:.1f} {unit}/s"


def _bars(stream: TextIO) -> Progress:
    """A rich display of bars on ``stream``, each with its rate in the unit it counts."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeRemainingColumn
    from rich.text import Text

    class Rate(ProgressColumn):
        """Items a second, in the unit the bar counts (the last word of its label)."""

        def render(self, task: Any) -> Text:
            speed = task.finished_speed or task.speed
            return Text("" if speed is None else rate_text(speed, task.fields.get("unit", "items")))

    # stdout stays the program's (no redirection into the display): results may go to a pipe
    console = Console(file=stream, force_terminal=True)
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), Rate(),
                    TimeRemainingColumn(), console=console, auto_refresh=False, redirect_stdout=False,
                    redirect_stderr=False)  # fmt: skip


class TerminalProgress:
    """A factory of progress callbacks (``progress(label)``), shown as rich bars; use it
    as a context manager so the display ends with the command."""

    def __init__(self, min_total: int = 0, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.min_total = min_total
        self.active = on_terminal(self.stream)
        self._bars: Progress | None = None

    def __call__(self, label: str = "deals") -> ProgressFn | None:
        """A callback drawn as a bar named ``label`` (what it counts: ``chart deals``,
        ``sessions``); its rate is in the label's last word (``deals/s``)."""
        if not self.active:
            return None
        task = None

        def update(done: int, total: int) -> None:
            nonlocal task
            if total < self.min_total:
                return
            bars = self._display()
            if task is None:
                task = bars.add_task(label, total=total, unit=label.split()[-1])
            bars.update(task, completed=done, refresh=True)

        return update

    def _display(self) -> Progress:
        if self._bars is None:
            self._bars = _bars(self.stream)
            self._bars.start()
        return self._bars

    def close(self) -> None:
        if self._bars is not None:
            self._bars.stop()
            self._bars = None

    def __enter__(self) -> TerminalProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
