"""The declaration game's oracle runs (docs/policies.md P6): per information set, the payoff
of every action against a table (``infoset_cells``), and what a response gains over the
table deal by deal (``response_gains``). Deals are cut into ``LANES`` lanes of blocks
(lane l: blocks l, l + LANES, ...), each summed in block order by one kernel call, and
the lanes are added in lane order: the sums do not depend on the threads. Even lanes
and odd lanes are two disjoint halves of the deals (the solver's honest estimates).

The lanes go to the backend as chunk tasks (``run/backend.py``): locally one task of all
the lanes, on this process's threads; on Dask a task per lane, spread over the workers.
Each lane's sums are the same wherever it runs, and they are added in lane order, so
both backends give the same numbers to the last bit."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from loo_sim.game import abi as L
from loo_sim.game.infosets import N_INFOSETS
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules
from loo_sim.run.args import kernel_args
from loo_sim.run.backend import LocalBackend, chunk_ranges
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


def infoset_task(ri, rf, pol, polf, strength, tables, solver, seed, session, total, carried, compact, first, count):
    """Lanes first..first+count-1 of an ``infoset_cells`` run: their sums [lane, N_INFOSETS, CF_LEN];
    ``compact`` (a Dask task): per lane, the information sets whose sums are not all zero
    and those sums. A lane meets a few thousand of the 70,200: its sums come back from a
    worker in a few hundred kB, not 19 MB (adding the others' zeros would change no bit: the
    totals are never -0.0); locally, finding them would cost more than adding them."""
    from loo_sim.kernel.equilibrium import infoset_lane

    out = np.zeros((count, N_INFOSETS, L.CF_LEN))
    seed, session = np.uint64(seed), np.uint64(session)

    def lane(i: int) -> None:
        infoset_lane(ri, rf, pol, polf, strength, tables, solver, seed, session, first + i, LANES, total, carried,
                     out[i])  # fmt: skip

    each_block(lane, count, infoset_lane)
    if not compact:
        return out
    met = [np.flatnonzero(sums.any(axis=1)) for sums in out]
    return [(rows, sums[rows]) for rows, sums in zip(met, out)]


def exploit_task(ri, rf, pol, polf, strength, tables, solver, seed, session, total, carried, br, first, count):
    """Lanes first..first+count-1 of a ``response_gains`` run: their sums [lane, E_ROWS, E_LEN]."""
    from loo_sim.kernel.equilibrium import E_LEN, exploit_lane

    out = np.zeros((count, E_ROWS, E_LEN))
    seed, session = np.uint64(seed), np.uint64(session)

    def lane(i: int) -> None:
        exploit_lane(ri, rf, pol, polf, strength, tables, solver, seed, session, first + i, LANES, total, carried, br,
                     out[i])  # fmt: skip

    each_block(lane, count, exploit_lane)
    return out


def each_lane(task: Callable, static: tuple, add: Callable[[int, Any], None], backend=None) -> None:
    """``add(lane, sums)`` for every lane of ``task``'s run, in lane order, the lanes run on
    ``backend`` (this process by default): one task of all the lanes locally, a task per lane
    on Dask. Ctrl-C (or an error) drops the lanes still in flight and goes on up: a run is
    all its lanes or nothing."""
    backend = backend or LocalBackend()
    chunks = chunk_ranges(LANES, 1 if backend.name == "dask" else LANES)
    results = backend.map_chunks(task, static, chunks)
    try:
        for (first, count), rows in zip(chunks, results):
            for i in range(count):
                add(first + i, rows[i])
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # a generator's cleanup now: a Dask backend cancels the lanes still in flight


def infoset_cells(rules: Rules, table: Sequence[Policy], deals: int, seed: int, session: int, carried: float = 0.0,
                  tables: Mapping[str, np.ndarray] | None = None, chart=None, backend=None) -> Cells:  # fmt: skip
    """Every seat's payoff under every declaration on offer, summed per information set, the
    other seats playing ``table`` (strategy tables in ``tables``: path -> probabilities;
    ``chart`` for chart seats); the lanes run on ``backend``."""
    backend = backend or LocalBackend()
    static = (*_args(rules, table, tables, chart), seed, session, deals, float(carried), backend.name == "dask")
    halves = np.zeros((2, N_INFOSETS, L.CF_LEN))

    def add(lane: int, sums: np.ndarray | tuple[np.ndarray, np.ndarray]) -> None:
        if isinstance(sums, tuple):  # compact: the information sets met, and their sums
            rows, sums = sums
            halves[lane % 2, rows] += sums
        else:
            halves[lane % 2] += sums

    each_lane(infoset_task, static, add, backend)
    return Cells(halves, deals)


def response_gains(rules: Rules, table: Sequence[Policy], response: np.ndarray, deals: int, seed: int, session: int,
                   carried: float = 0.0, tables: Mapping[str, np.ndarray] | None = None, chart=None,
                   backend=None) -> np.ndarray:  # fmt: skip
    """[E_ROWS, E_LEN] sums (kernel.equilibrium.E_*): by position (rows 1..players) and for the
    table (row E_TABLE), what declaring as ``response`` [information set] -> action (-1: as
    the table) gains over the table, deal by deal, and the value under the table; the lanes
    run on ``backend``."""
    from loo_sim.kernel.equilibrium import E_LEN

    br = np.ascontiguousarray(response, dtype=np.int64)
    static = (*_args(rules, table, tables, chart), seed, session, deals, float(carried), br)
    total = np.zeros((E_ROWS, E_LEN))

    def add(lane: int, sums: np.ndarray) -> None:
        total[...] += sums

    each_lane(exploit_task, static, add, backend)
    return total
