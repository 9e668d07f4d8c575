"""What ``loo-sim advise`` answers with, for a declaration and for a card: each action's
payoff on every accepted sample (paired: the same sampled deal for every action, P4), and
the stopping rule both questions share.

A sample is one deal of the cards the seat cannot see, drawn consistently with what it
knows; it is *accepted* when it also agrees with what the seat saw the others do (their
declarations, their cards). ``pay[i, a]`` is the seat's net chips for the deal (P4's
payoff, ``shares - antes - penalties``) on accepted sample ``i`` with action ``a``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from loo_sim.base.stats import Z95

MIN_SAMPLES = 100  # the stopping rule waits for this many accepted samples
NEVER_AFTER = 1_000_000  # samples drawn without one accepted: what was seen (almost) never happens


@dataclass
class Advice:
    """The answer to one question: the actions on offer and their paired payoffs."""

    actions: list[str]  # "play", "pass", "miss", "defend"; or cards ("KH")
    pay: np.ndarray  # float64 [accepted samples, actions]
    attempts: int  # samples drawn, accepted or not
    precision: float  # the 95% half-width asked for
    stopped: str  # "precision" (reached), "cap" (--deals reached first), "interrupted" (Ctrl-C)
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)  # how the samples were drawn, what was assumed

    @property
    def accepted(self) -> int:
        return int(self.pay.shape[0])


def best_index(pay: np.ndarray) -> int:
    """The action with the highest mean payoff (the first of equals)."""
    return int(np.argmax(pay.mean(axis=0)))


def half_widths(pay: np.ndarray) -> np.ndarray:
    """The 95% half-width of each action's paired difference from the best action (0 for
    the best itself); infinite with fewer than two samples."""
    n = pay.shape[0]
    if n < 2:
        return np.full(pay.shape[1], np.inf)
    diff = pay - pay[:, [best_index(pay)]]
    return Z95 * diff.std(axis=0, ddof=1) / np.sqrt(n)


def kept_needed(pay: np.ndarray, precision: float, cap: int) -> int:
    """About how many kept samples the precision needs, from the spread seen so far (the
    progress bar's total); ``cap`` until there are samples to judge by."""
    if pay.shape[0] < MIN_SAMPLES or pay.shape[1] < 2:
        return cap
    worst = float(np.max(half_widths(pay)))
    return int(min(cap, max(pay.shape[0], pay.shape[0] * (worst / precision) ** 2)))


def precise_enough(pay: np.ndarray, precision: float) -> bool:
    """The stopping rule: at least MIN_SAMPLES accepted samples (or a single action, which
    needs no comparison), and every paired difference from the best within ``precision``."""
    if pay.shape[1] == 1:
        return pay.shape[0] >= 1
    return pay.shape[0] >= MIN_SAMPLES and bool(np.all(half_widths(pay) < precision))


def collect(batch: Callable[[int, np.ndarray], tuple[np.ndarray, int]], actions: int, precision: float, cap: int,
            progress: Callable[[int, int], None] | None, never: str) -> tuple[np.ndarray, int, str]:  # fmt: skip
    """The batch loop both questions share: ``batch(attempts, pay)`` draws the next batch
    (from attempt ``attempts``; ``pay`` the rows so far) and returns the accepted rows
    [kept, actions] and how many it drew. Stops when ``precise_enough``, at ``cap`` rows
    ("cap"), or on Ctrl-C after a row ("interrupted"); ``never`` is the error when
    NEVER_AFTER draws keep nothing. Returns (pay, attempts, why it stopped)."""
    from loo_sim.base.errors import LooError

    parts: list[np.ndarray] = []
    pay = np.zeros((0, actions))
    attempts, stopped = 0, "cap"
    try:
        while pay.shape[0] < cap:
            rows, drawn = batch(attempts, pay)
            parts.append(rows)
            pay = np.concatenate(parts)[:cap]
            attempts += drawn
            if progress is not None:
                progress(pay.shape[0], kept_needed(pay, precision, cap))
            if pay.shape[0] == 0 and attempts >= NEVER_AFTER:
                raise LooError(never.format(attempts=attempts))
            if precise_enough(pay, precision):
                stopped = "precision"
                break
    except KeyboardInterrupt:
        if pay.shape[0] == 0:
            raise
        stopped = "interrupted"
    return pay, attempts, stopped
