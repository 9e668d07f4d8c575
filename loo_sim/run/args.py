"""Everything the kernel needs, as arrays (docs/design.md property 2): the rules, each seat's
policy codes and parameters, and — for the calibrated families — the strength table
and the decision chart."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from loo_sim.errors import LooError
from loo_sim.game.classes import N_CLASSES
from loo_sim.game.policy import Policy
from loo_sim.game.rules import AntePayer, Penalty, Rules
from loo_sim.kernel import abi as L


class KernelArgs(NamedTuple):
    ri: np.ndarray  # rules, int slots
    rf: np.ndarray  # rules, float slots (and the strength table's entry rate)
    pol: np.ndarray  # [seat, declare/play/exchange] family codes
    polf: np.ndarray  # [seat, PF_*] threshold parameters
    strength: np.ndarray  # [class, seats in deal, tricks] probabilities
    chart: np.ndarray  # [class, position, miss on offer, earlier in] best declaration (DECL_*), -1 unknown


def rules_arrays(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """The rule set as the kernel's (int64 vector, float64 vector); slots in kernel/abi.py."""
    ints = np.zeros(L.R_LEN, dtype=np.int64)
    ints[L.R_PLAYERS] = rules.players
    ints[L.R_HAND] = rules.hand_size
    ints[L.R_MISS] = rules.miss
    ints[L.R_TRUMP] = L.TRUMP_CODES[rules.trump.value]
    ints[L.R_ANTE_EACH] = rules.ante_payer is AntePayer.EACH
    ints[L.R_LIMITED] = rules.penalty is Penalty.LIMITED
    ints[L.R_BOLD] = L.BOLD_CODES[rules.bold_stand.value]
    ints[L.R_SINGLE_POT] = rules.single_pot
    ints[L.R_DEFENDS] = rules.dealer_defends
    ints[L.R_LEAD] = L.LEAD_CODES[rules.lead.value]
    ints[L.R_VOID] = L.VOID_CODES[rules.void.value]
    ints[L.R_PAM] = rules.pam
    ints[L.R_CIVIL] = rules.pam and rules.pam_be_civil
    ints[L.R_EXCHANGE] = rules.exchange
    ints[L.R_FLUSH] = rules.flush
    ints[L.R_CLUB_LAW] = rules.club_law
    floats = np.zeros(L.RF_LEN, dtype=np.float64)
    floats[L.RF_ANTE] = rules.ante
    floats[L.RF_PENALTY] = rules.penalty_amount
    return ints, floats


def empty_chart() -> np.ndarray:
    """A chart with no answer anywhere (``kernel.abi.CHART_SHAPE``: class, position, miss
    on offer, earlier seats in)."""
    return np.full(L.CHART_SHAPE, -1, dtype=np.int64)


def check_chart(chart) -> np.ndarray:
    """A decision chart as the chart family reads it: int64 of ``kernel.abi.CHART_SHAPE``
    with DECL_* codes or -1 (``analysis.miss.best_actions`` makes one)."""
    arr = np.asarray(chart)
    if arr.shape != L.CHART_SHAPE or not np.issubdtype(arr.dtype, np.integer):
        raise LooError(f"chart: an integer array of shape {L.CHART_SHAPE} (class, position, miss on offer, earlier "
                       f"seats in) was expected, got {arr.dtype} {arr.shape}; make one with "
                       "loo_sim.analysis.miss.best_actions")  # fmt: skip
    if ((arr < -1) | (arr >= L.ACTIONS)).any():
        raise LooError(f"chart: codes must be -1 or DECL_* (0..{L.ACTIONS - 1})")
    return np.ascontiguousarray(arr, dtype=np.int64)


def kernel_args(rules: Rules, table: Sequence[Policy], strength=None, chart: np.ndarray | None = None) -> KernelArgs:
    """Arrays for the kernel (no I/O). ``strength`` is the resolved strength table
    (``run.strength.resolve_strength``); a table with ``threshold`` or ``ev`` seats needs
    one, and a table with ``chart`` seats needs ``chart``."""
    ri, rf = rules_arrays(rules)
    pol = np.zeros((len(table), 3), dtype=np.int64)
    polf = np.zeros((len(table), L.PF_LEN), dtype=np.float64)
    for seat, p in enumerate(table):
        pol[seat, L.P_DECLARE] = L.DECLARE_CODES[p.declare]
        pol[seat, L.P_PLAY] = L.PLAY_CODES[p.play]
        pol[seat, L.P_EXCHANGE] = L.EXCHANGE_CODES[p.exchange]
        polf[seat, L.PF_PLAY_AT] = p.play_at
        polf[seat, L.PF_MISS_BELOW] = p.miss_below
    if strength is not None:
        rf[L.RF_P_IN] = strength.p_in
        probs = strength.probs
    elif any(p.declare in ("threshold", "ev") for p in table):
        raise LooError(f"policy {table[0]}: threshold and ev need a strength table (run.strength.resolve_strength)")
    else:
        probs = np.zeros((N_CLASSES + 1, L.MAX_PLAYERS + 1, L.MAX_TRICKS + 1), dtype=np.float64)
    if chart is None:
        charted = next((p for p in table if p.declare == "chart"), None)
        if charted is not None:
            raise LooError(f"policy {charted}: the chart family needs a decision chart (best_actions of a miss run)")
        chart = empty_chart()
    return KernelArgs(ri, rf, pol, polf, np.ascontiguousarray(probs), check_chart(chart))
