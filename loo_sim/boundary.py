"""Everything the kernel needs, as arrays (DESIGN.md property 2): the rules, each seat's
policy codes and parameters, and — for the calibrated families — the strength table
and the decision chart."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from . import layout as L
from .classes import N_CLASSES
from .policies import Policy
from .rules import Rules


class KernelArgs(NamedTuple):
    ri: np.ndarray  # rules, int slots
    rf: np.ndarray  # rules, float slots (and the strength table's entry rate)
    pol: np.ndarray  # [seat, declare/play/exchange] family codes
    polf: np.ndarray  # [seat, PF_*] threshold parameters
    strength: np.ndarray  # [class, seats in deal, tricks] probabilities
    chart: np.ndarray  # [class, position] best declaration (DECL_*), -1 unknown


def empty_chart() -> np.ndarray:
    return np.full((N_CLASSES, L.MAX_PLAYERS + 1), -1, dtype=np.int64)


def kernel_args(rules: Rules, table: Sequence[Policy], strength=None, chart: np.ndarray | None = None) -> KernelArgs:
    """Arrays for the kernel. A table with ``threshold`` or ``ev`` seats reads the
    strength table of these rules (shipped, cached, or calibrated now)."""
    from .strength import StrengthTable, strength_for

    ri, rf = rules.to_array()
    pol = np.zeros((len(table), 3), dtype=np.int64)
    polf = np.zeros((len(table), L.PF_LEN), dtype=np.float64)
    for seat, p in enumerate(table):
        pol[seat, L.P_DECLARE] = L.DECLARE_CODES[p.declare]
        pol[seat, L.P_PLAY] = L.PLAY_CODES[p.play]
        pol[seat, L.P_EXCHANGE] = L.EXCHANGE_CODES[p.exchange]
        polf[seat, L.PF_PLAY_AT] = p.play_at
        polf[seat, L.PF_MISS_BELOW] = p.miss_below
    if strength is None and any(p.declare in ("threshold", "ev") for p in table):
        strength = strength_for(rules)
    if isinstance(strength, StrengthTable):
        rf[L.RF_P_IN] = strength.p_in
        probs = strength.probs
    else:
        probs = np.zeros((N_CLASSES + 1, L.MAX_PLAYERS + 1, L.MAX_TRICKS + 1), dtype=np.float64)
    if chart is None:
        chart = empty_chart()
    return KernelArgs(ri, rf, pol, polf, np.ascontiguousarray(probs), np.ascontiguousarray(chart, dtype=np.int64))
