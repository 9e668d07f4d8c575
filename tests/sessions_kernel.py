"""Kernel sessions with every deal's record, for the tests (the package streams only
aggregates): ``kernel.sessions.record_session`` driven from Python, each deal's record
vectors turned into a ``DealRecord`` to compare with the reference engine's session."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from loo_sim.game import abi as L
from loo_sim.game.rules import FinalPot
from loo_sim.run.records import record_from_arrays
from loo_sim.run.sessions import Arm, arm_args, bankroll_of


def record_sessions(arm: Arm, seed: int, sessions: Sequence[int], deals: int) -> list[dict]:
    """Sessions played by the kernel with every deal's record: per session its records,
    final balances, ruined seat, first inexact and overflow deal, and the pot left."""
    from loo_sim.kernel.sessions import record_session

    x = arm_args(arm)
    n = arm.rules.players
    out = []
    for i in sessions:
        rec_oi = np.zeros((deals, L.O_LEN), dtype=np.int64)
        rec_of = np.zeros((deals, L.F_LEN), dtype=np.float64)
        bal = np.zeros(L.MAX_PLAYERS, dtype=np.float64)
        played, ruined, inexact, overflow, left, largest, looed = record_session(
            x.ri, x.rf, x.pol, x.polf, x.strength, x.tables, x.solver, bankroll_of(arm.rules),
            arm.rules.final_pot is FinalPot.SHARE, np.uint64(seed), i, deals, rec_oi, rec_of, bal)  # fmt: skip
        out.append(dict(records=[record_from_arrays(rec_oi[j], rec_of[j], n) for j in range(played)],
                        balances=list(bal[:n]), ruined=None if ruined < 0 else int(ruined),
                        inexact_from=None if inexact < 0 else int(inexact),
                        overflow_at=None if overflow < 0 else int(overflow), final_pot=float(left)))  # fmt: skip
    return out
