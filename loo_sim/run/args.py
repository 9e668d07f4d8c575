"""Everything the kernel needs, as arrays (docs/design.md property 2): the rules, each seat's
policy codes and parameters, and — for the calibrated families — the strength table
and the declaration tables (a decision chart, turned into one, and strategy tables)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np

from loo_sim.base.errors import LooError
from loo_sim.game import abi as L
from loo_sim.game.classes import N_CLASSES
from loo_sim.game.infosets import ACTIONS, N_INFOSETS, SITUATION_MASKS, infoset_parts
from loo_sim.game.legality import pam_flush
from loo_sim.game.policy import SOLVER_PLAY, Policy
from loo_sim.game.rule import parsed
from loo_sim.game.rule_code import rule_program
from loo_sim.game.rules import AntePayer, ExchangeTiming, FlushTie, Rules
from loo_sim.run.tables import resolve_tables


class KernelArgs(NamedTuple):
    ri: np.ndarray  # rules, int slots
    rf: np.ndarray  # rules, float slots (and the strength table's entry rate)
    pol: np.ndarray  # [seat, P_*] family codes, then a rule seat's program (P3b, from P_RULE)
    polf: np.ndarray  # [seat, PF_*] threshold parameters
    strength: np.ndarray  # [class, seats in deal, tricks] probabilities
    tables: np.ndarray  # [table, information set, action] probabilities (P6), NaN rows unknown
    solver: np.ndarray | None  # None, or [transposition-table bits] where a seat plays perfect or pimc (P8)


def solver_marker(tables: Sequence[Sequence[Policy]]) -> np.ndarray | None:
    """KernelArgs' ``solver``: None unless a seat of one of the tables plays a solver family
    (P8); then the block drivers make a solver workspace, and compile with it
    (kernel/cardplay.py)."""
    if any(p.play in SOLVER_PLAY for table in tables for p in table):
        return np.array([L.SOLVER_TT_BITS], dtype=np.int64)
    return None


def rules_arrays(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """The rule set as the kernel's (int64 vector, float64 vector); slots in game/abi.py."""
    ints = np.zeros(L.R_LEN, dtype=np.int64)
    ints[L.R_PLAYERS] = rules.players
    ints[L.R_HAND] = rules.hand_size
    ints[L.R_MISS] = rules.miss
    ints[L.R_TRUMP] = L.TRUMP_CODES[rules.trump.value]
    ints[L.R_ANTE_EACH] = rules.ante_payer is AntePayer.EACH
    ints[L.R_PENALTY] = L.PENALTY_CODES[rules.penalty.value]
    ints[L.R_BOLD] = L.BOLD_CODES[rules.bold_stand.value]
    ints[L.R_SINGLE_POT] = rules.single_pot
    ints[L.R_DEFENDS] = rules.dealer_defends
    ints[L.R_LEAD] = L.LEAD_ACE_KING if rules.ace_lead_king else L.LEAD_CODES[rules.lead.value]  # R9c
    ints[L.R_VOID] = L.VOID_CODES[rules.void.value]
    ints[L.R_PAM] = rules.pam
    ints[L.R_CIVIL] = rules.pam and rules.pam_be_civil
    ints[L.R_EXCHANGE] = rules.exchange
    ints[L.R_FLUSH] = rules.flush
    ints[L.R_CLUB_LAW] = rules.club_law
    ints[L.R_TAKES_ALL] = rules.dealer_takes_all_pass
    ints[L.R_TAKES_MISS] = rules.dealer_takes_miss
    ints[L.R_NO_PAM_FLUSH] = rules.pam and not rules.pam_flush
    ints[L.R_SPARES_PAM] = rules.pam and rules.flush_spares_pam
    ints[L.R_SPARES_FLUSHES] = rules.flush_spares_flushes
    ints[L.R_LOOS_ALL] = rules.flush_loos_all
    ints[L.R_FLUSH_SPLIT] = rules.flush_tie is FlushTie.SPLIT
    ints[L.R_AT_TURN] = rules.exchange and rules.exchange_timing is ExchangeTiming.AT_TURN
    ints[L.R_PAM_FLUSH] = pam_flush(rules)
    floats = np.zeros(L.RF_LEN, dtype=np.float64)
    floats[L.RF_ANTE] = rules.ante
    floats[L.RF_PENALTY] = rules.penalty_amount
    return ints, floats


def empty_chart() -> np.ndarray:
    """A chart with no answer anywhere (``game.abi.CHART_SHAPE``: class, position, miss
    on offer, earlier seats in)."""
    return np.full(L.CHART_SHAPE, -1, dtype=np.int64)


def check_chart(chart) -> np.ndarray:
    """A decision chart as the chart family reads it: int64 of ``game.abi.CHART_SHAPE``
    with DECL_* codes or -1 (``analysis.miss.best_actions`` makes one)."""
    arr = np.asarray(chart)
    if arr.shape != L.CHART_SHAPE or not np.issubdtype(arr.dtype, np.integer):
        raise LooError(f"chart: an integer array of shape {L.CHART_SHAPE} (class, position, miss on offer, earlier "
                       f"seats in) was expected, got {arr.dtype} {arr.shape}; make one with "
                       "loo_sim.analysis.miss.best_actions")  # fmt: skip
    if ((arr < -1) | (arr >= L.ACTIONS)).any():
        raise LooError(f"chart: codes must be -1 or DECL_* (0..{L.ACTIONS - 1})")
    return np.ascontiguousarray(arr, dtype=np.int64)


_INFOSET_PARTS = np.array([infoset_parts(i) for i in range(N_INFOSETS)], dtype=np.int64)


def chart_as_table(chart: np.ndarray) -> np.ndarray:
    """A decision chart as the pure declaration table the kernel reads: at each information
    set, the chart's best action of its cell (hand class, position, miss on offer to take
    or defend with, earlier seats in) where that action is on offer; elsewhere NaN (the
    chart has no answer there: basic decides). In R8 case 2 the chart never takes the miss
    (R9c dealer_takes_miss: no P3 family does)."""
    cls, position, earlier, situation, _ = _INFOSET_PARTS.T
    masks = np.array(SITUATION_MASKS, dtype=np.int64)[situation]
    offer = ((masks >> L.DECL_MISS) & 1) | ((masks >> L.DECL_DEFEND) & 1)
    # R8 case 2 under R9c dealer_takes_miss: the chart (a P3 family) keeps play/defend there
    defends = ((masks >> L.DECL_DEFEND) & 1) == 1
    masks = np.where(defends, masks & ~(1 << L.DECL_MISS), masks)
    best = chart[cls, position, offer, earlier]
    ok = (best >= 0) & ((masks >> np.maximum(best, 0)) & 1 == 1)
    table = np.full((N_INFOSETS, ACTIONS), np.nan)
    table[ok] = 0.0
    table[np.flatnonzero(ok), best[ok]] = 1.0
    return table


def declaration_tables(table: Sequence[Policy], chart: np.ndarray | None,
                       tables: Mapping[str, np.ndarray] | None) -> tuple[np.ndarray, list[int]]:  # fmt: skip
    """The run's declaration tables [table, information set, action] and each seat's index
    into them (0 where the seat reads none). Without chart or table seats, one row of
    NaN: the array keeps its type (one compiled kernel) at almost no size."""
    stack: list[np.ndarray] = []
    index: dict[str, int] = {}
    seat_index = []
    for p in table:
        name = "chart" if p.declare == "chart" else p.table if p.declare == "table" else None
        if name is not None and name not in index:
            index[name] = len(stack)
            if p.declare == "chart":
                stack.append(chart_as_table(check_chart(chart)))
            elif tables is None or p.table not in tables:
                raise LooError(f"policy {p}: its strategy table was not read (run.tables.resolve_tables)")
            else:
                stack.append(np.asarray(tables[p.table], dtype=np.float64))
        seat_index.append(index.get(name, 0) if name is not None else 0)
    if not stack:
        return np.full((1, 1, ACTIONS), np.nan), seat_index
    return np.ascontiguousarray(np.stack(stack)), seat_index


def stack_tables(parts: Sequence[np.ndarray]) -> np.ndarray:
    """Several runs' declaration tables as one array [run, table, information set, action]
    (the variants and sessions kernels take one run per arm): padded with NaN rows."""
    shape = tuple(max(t.shape[i] for t in parts) for i in range(3))
    out = np.full((len(parts), *shape), np.nan)
    for r, t in enumerate(parts):
        out[r, : t.shape[0], : t.shape[1]] = t
    return out


def widened(pol: np.ndarray, width: int) -> np.ndarray:
    """A policy matrix with rows ``width`` ints wide (rule programs end in OP_END, 0: the
    columns added are never read)."""
    if pol.shape[1] >= width:
        return pol
    out = np.zeros((pol.shape[0], width), dtype=np.int64)
    out[:, : pol.shape[1]] = pol
    return out


def stack_args(args: Sequence[KernelArgs]) -> KernelArgs:
    """Several runs' arrays stacked along a first axis, one run per arm (variants, sessions);
    the policy rows as wide as the widest run's (rule programs, P3b)."""
    width = max(a.pol.shape[1] for a in args)
    args = [a._replace(pol=widened(a.pol, width)) for a in args]
    ri, rf, pol, polf, strength = (np.stack(part) for part in list(zip(*args))[:5])
    solver = next((a.solver for a in args if a.solver is not None), None)
    return KernelArgs(ri, rf, pol, polf, strength, stack_tables([a.tables for a in args]), solver)


def kernel_args(rules: Rules, table: Sequence[Policy], strength=None, chart: np.ndarray | None = None,
                tables: Mapping[str, np.ndarray] | None = None) -> KernelArgs:  # fmt: skip
    """Arrays for the kernel. ``strength`` is the resolved strength table
    (``run.strength.resolve_strength``); a table with ``threshold`` or ``ev`` seats needs
    one, a table with ``chart`` seats needs ``chart``, and ``table:PATH`` seats their
    tables (``tables``: path -> probabilities; read from disk here when None)."""
    ri, rf = rules_arrays(rules)
    if tables is None and any(p.declare == "table" for p in table):
        tables = resolve_tables(rules, table)
    programs = {seat: rule_program(parsed(p.rule)) for seat, p in enumerate(table) if p.declare == "rule"}
    width = L.P_RULE + max((len(code) for code in programs.values()), default=0)
    pol = np.zeros((len(table), max(width, L.P_LEN)), dtype=np.int64)
    polf = np.zeros((len(table), L.PF_LEN), dtype=np.float64)
    for seat, code in programs.items():  # P3b: the rule's program in the seat's row, one compiled kernel for all
        pol[seat, L.P_RULE : L.P_RULE + len(code)] = code
    for seat, p in enumerate(table):
        pol[seat, L.P_DECLARE] = L.DECLARE_CODES[p.declare]
        pol[seat, L.P_PLAY] = L.PLAY_CODES[p.play]
        pol[seat, L.P_EXCHANGE] = L.EXCHANGE_CODES[p.exchange]
        pol[seat, L.P_SAMPLES] = p.samples
        pol[seat, L.P_INFER] = 1 + L.DECLARE_CODES[p.infer] if p.infer else 0
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
    decl_tables, seat_index = declaration_tables(table, chart, tables)
    pol[:, L.P_TABLE] = seat_index
    return KernelArgs(ri, rf, pol, polf, np.ascontiguousarray(probs), decl_tables, solver_marker([table]))
