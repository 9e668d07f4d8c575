"""The kernel's perfect-information solver (``kernel/solver.py``, docs/policies.md P7) on
the reference engine's positions: :func:`encode_position` turns an ``engine.solver.Position``
into the kernel's vectors (slots ``PI_*`` / ``PIF_*`` of ``game/abi.py``), and
:func:`solve`, :func:`card_values` and :func:`best_card` answer as ``engine/solver.py``'s
functions of the same names do, exactly (tests/test_kernel_solver.py).

Measured on one core (``bash scripts/dev.sh bench --solver``, a shared machine), five seats
in the deal, from the first lead, the kernel's batch loop (``kernel.solver.solve_many``):
three-card about 267,000 solves per CPU second (the reference about 280), five-card
about 1,650 (the reference 2.8); by the wall clock the machine's load spreads them. These wrappers add the
encoding and a call from Python to each solve; they share one workspace, so consecutive
solves with the same rules and payoffs share its table (kernel/solver.py).
"""

from __future__ import annotations

import numpy as np

from loo_sim.engine.solver import Position
from loo_sim.game import abi as L
from loo_sim.kernel import solver as K
from loo_sim.kernel.bits import CARD, POS
from loo_sim.run.args import rules_arrays

_WORKSPACE: tuple[np.ndarray, ...] | None = None


def workspace() -> tuple[np.ndarray, ...]:
    """The module's solver workspace (one thread), made on first use."""
    global _WORKSPACE
    if _WORKSPACE is None:
        _WORKSPACE = K.workspace()
    return _WORKSPACE


def encode_position(pos: Position) -> tuple[np.ndarray, np.ndarray]:
    """``(pi, pf)``: the position as the kernel's int64 vector (``PI_*``) and float64 vector
    (``PIF_*``). Seats become indices into ``pos.seats``, cards bit positions."""
    if len(pos.seats) > L.MAX_PLAYERS or pos.rules.hand_size > L.MAX_TRICKS:
        raise ValueError(f"the kernel solver takes at most {L.MAX_PLAYERS} seats and {L.MAX_TRICKS} cards a hand")
    expected = pos.order[: len(pos.trick)]
    if tuple(s for s, _ in pos.trick) != expected:
        raise ValueError(f"trick {pos.trick} is not played in the order {expected} from leader {pos.leader}")
    if len(pos.trick) >= len(pos.seats) or pos.trick_index >= pos.rules.hand_size:
        raise ValueError("the position has no card left to play")
    pi = np.zeros(L.PI_LEN, dtype=np.int64)
    pi[L.PI_N] = len(pos.seats)
    pi[L.PI_LEADER] = pos.seats.index(pos.leader)
    pi[L.PI_NCARDS] = len(pos.trick)
    pi[L.PI_TRICK] = pos.trick_index
    pi[L.PI_TRUMP] = -1 if pos.trump is None else pos.trump
    pi[L.PI_MODE] = L.TRUMP_CODES[pos.mode.value]
    pi[L.PI_INDICATOR] = -1 if pos.indicator is None else POS[pos.indicator]
    pi[L.PI_TURNED] = pos.turned_up is not None
    pi[L.PI_CIVIL] = pos.civil
    pi[L.PI_RENOUNCED] = pos.renounced
    pi[L.PI_SINGLE] = pos.single_pot
    pi[L.PI_DEFENDER] = -1 if pos.defender is None else pos.seats.index(pos.defender)
    for i, seat in enumerate(pos.seats):
        pi[L.PI_HANDS + i] = sum(1 << int(POS[c]) for c in pos.hands[seat])
        pi[L.PI_WON + i] = pos.tricks_won[seat]
    for j, (_, card) in enumerate(pos.trick):
        pi[L.PI_CARDS + j] = POS[card]
    pf = np.array([pos.pot_start, pos.penalty], dtype=np.float64)
    return pi, pf


def solve(pos: Position) -> dict[int, int]:
    """Each seat's final tricks under max^n (``engine.solver.solve``'s answer)."""
    pi, pf = encode_position(pos)
    ri, _ = rules_arrays(pos.rules)
    packed = K.solve_position(pi, pf, ri, *workspace())
    return dict(zip(pos.seats, K.counts(packed, len(pos.seats)), strict=True))


def best_card(pos: Position) -> int:
    """The card (card number) max^n plays for the seat to move (``engine.solver.best_card``)."""
    pi, pf = encode_position(pos)
    ri, _ = rules_arrays(pos.rules)
    ws = workspace()
    K.solve_position(pi, pf, ri, *ws)
    return int(CARD[ws[1][K.ST_BEST]])


def card_values(pos: Position) -> dict[int, tuple[float, ...]]:
    """Each legal card of the seat to move -> the payoff vector (in ``seats`` order) after
    it (``engine.solver.card_values``)."""
    pi, pf = encode_position(pos)
    ri, _ = rules_arrays(pos.rules)
    ws = workspace()
    K.card_values_position(pi, pf, ri, *ws)
    st, pay, n = ws[1], ws[4], len(pos.seats)
    out = {}
    for j in range(int(st[K.ST_OUT_N])):
        ks = K.counts(st[K.ST_OUT_RES + j], n)
        out[int(CARD[st[K.ST_OUT_CARDS + j]])] = tuple(float(pay[i, k]) for i, k in enumerate(ks))
    return out
