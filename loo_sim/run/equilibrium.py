"""The declaration game's oracle runs (docs/policies.md P6): per information set, the payoff
of every action against a table (``infoset_cells``), and what a response gains over the
table deal by deal (``response_gains``). Deals are cut into ``LANES`` lanes of blocks
(lane l: blocks l, l + LANES, ...), each summed in block order by one kernel call, and
the lanes are added in lane order: the sums do not depend on the threads. Even lanes
and odd lanes are two disjoint halves of the deals (the solver's honest estimates)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np

from loo_sim.game import abi as L
from loo_sim.game.infosets import N_INFOSETS
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules
from loo_sim.run.args import kernel_args
from loo_sim.run.strength import resolve_strength
from loo_sim.run.tasks import each_block

LANES = 8
SOLVE_SESSION = 2**61 + 2**40  # iteration t of a solve: deals (seed, SOLVE_SESSION + t, k)
EXPLORE_SESSION = SOLVE_SESSION + 2**39  # its exploring deals: (seed, EXPLORE_SESSION + t, k)
EVAL_SESSION = 2**61 + 2**41  # its evaluations: (seed, EVAL_SESSION + 2 e, k) for the response, + 1 for its value
E_ROWS = L.MAX_PLAYERS + 2  # exploit sums: rows 1..players by position from the dealer's left, then the table
E_TABLE = L.MAX_PLAYERS + 1  # kernel.equilibrium.E_TABLE


class Cells(NamedTuple):
    """Per half of the deals (0: even lanes, 1: odd lanes), per information set, the CF_* sums."""

    halves: np.ndarray  # [2, N_INFOSETS, CF_LEN]
    deals: int

    @property
    def pooled(self) -> np.ndarray:
        return self.halves[0] + self.halves[1]

    def half_deals(self, half: int) -> int:
        """Deals in a half: blocks 0, 2, 4, ... (even lanes) or 1, 3, ... (odd lanes)."""
        from loo_sim.base.config import BLOCK

        blocks = np.arange((self.deals + BLOCK - 1) // BLOCK)
        sizes = np.minimum(BLOCK, self.deals - blocks * BLOCK)
        return int(sizes[blocks % 2 == half].sum())


def _args(rules: Rules, table: Sequence[Policy], tables: Mapping[str, np.ndarray] | None, chart=None):
    return kernel_args(rules, table, resolve_strength(rules, table), chart, tables)


def infoset_cells(rules: Rules, table: Sequence[Policy], deals: int, seed: int, session: int, carried: float = 0.0,
                  tables: Mapping[str, np.ndarray] | None = None, chart=None) -> Cells:  # fmt: skip
    """Every seat's payoff under every declaration on offer, summed per information set, the
    other seats playing ``table`` (strategy tables in ``tables``: path -> probabilities;
    ``chart`` for chart seats)."""
    from loo_sim.kernel.equilibrium import infoset_lane

    args = _args(rules, table, tables, chart)
    lanes = np.zeros((LANES, N_INFOSETS, L.CF_LEN))
    u64 = np.uint64

    def lane(i: int) -> None:
        infoset_lane(*args, u64(seed), u64(session), i, LANES, deals, float(carried), lanes[i])

    each_block(lane, LANES, infoset_lane)
    halves = np.zeros((2, N_INFOSETS, L.CF_LEN))
    for i in range(LANES):
        halves[i % 2] += lanes[i]
    return Cells(halves, deals)


def response_gains(rules: Rules, table: Sequence[Policy], response: np.ndarray, deals: int, seed: int, session: int,
                   carried: float = 0.0, tables: Mapping[str, np.ndarray] | None = None,
                   chart=None) -> np.ndarray:  # fmt: skip
    """[E_ROWS, E_LEN] sums (kernel.equilibrium.E_*): by position (rows 1..players) and for the
    table (row E_TABLE), what declaring as ``response`` [information set] -> action (-1: as
    the table) gains over the table, deal by deal, and the value under the table."""
    from loo_sim.kernel.equilibrium import E_LEN, exploit_lane

    args = _args(rules, table, tables, chart)
    lanes = np.zeros((LANES, E_ROWS, E_LEN))
    br = np.ascontiguousarray(response, dtype=np.int64)
    u64 = np.uint64

    def lane(i: int) -> None:
        exploit_lane(*args, u64(seed), u64(session), i, LANES, deals, float(carried), br, lanes[i])

    each_block(lane, LANES, exploit_lane)
    total = np.zeros((E_ROWS, E_LEN))
    for i in range(LANES):
        total += lanes[i]
    return total
