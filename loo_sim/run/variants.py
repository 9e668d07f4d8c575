"""The kernel run of the variants study: rule sets (rows) side by side on the same deals.

Every row plays deal k of the run on the same deck (shuffled from the stream (seed, k),
as in ``simulate``), dealt by seat k mod its own players, so each row's aggregates are
exactly those of ``simulate(row's rules, ..., seed)``, and the differences from the
baseline row are paired deal by deal (``kernel.variants``). ``analysis.variants`` makes
the table.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from loo_sim import checks
from loo_sim.config import BLOCK, VARIANT_BATCHES
from loo_sim.errors import LooError
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules
from loo_sim.kernel import abi as L
from loo_sim.run.args import stack_args
from loo_sim.run.backend import LocalBackend
from loo_sim.run.rounds import ProgressFn, run_rounds
from loo_sim.run.sessions import Arm, arm_args
from loo_sim.run.simulate import SimResult


@dataclass
class VariantRow:
    name: str
    rules: Rules
    policies: list[Policy]


@dataclass
class VariantsResult:
    """Per row, a :class:`SimResult` (what ``simulate`` of that row alone gives, batch means
    included); ``pair[r, V_*]``: sums over the deals of row r's values minus the baseline's."""

    names: list[str]
    results: list[SimResult]
    baseline: str
    pair: np.ndarray  # [row, V_LEN]
    elapsed_s: float = 0.0
    partial: bool = False

    @property
    def deals_done(self) -> int:
        return self.results[0].deals_done

    def row(self, name: str) -> SimResult:
        return self.results[self.names.index(name)]


def run_variants(
    rows: Sequence[VariantRow],
    baseline: str | None = None,
    deals: int = 100_000,
    seed: int = 0,
    carried: float = 0.0,
    threads: int | None = None,
    batches: int = VARIANT_BATCHES,
    progress: ProgressFn | None = None,
    backend=None,
) -> VariantsResult:
    """Play ``deals`` deals for every row on the same decks (baseline: the first row by
    default); Ctrl-C stops after the current round, marked ``partial``."""
    from numba import set_num_threads

    from loo_sim.run.tasks import variants_task

    if not rows:
        raise LooError("rows: a variants run needs at least one row")
    names = [r.name for r in rows]
    baseline = names[0] if baseline is None else baseline
    if baseline not in names:
        raise LooError(f"baseline: {baseline!r} is not a row name; allowed {', '.join(names)}", key="baseline")
    deals = checks.deals(deals)
    seed = checks.seed(seed)
    threads = checks.threads(threads)
    carried = checks.chips("carried", carried)
    args = [arm_args(Arm(r.name, r.rules, list(r.policies))) for r in rows]
    ri, rf, pol, polf, strength, tables, solver = stack_args(args)
    base = names.index(baseline)
    set_num_threads(threads)
    backend = backend or LocalBackend()
    per_call = max(4 * threads, 16) * backend.chunk_scale
    results = [SimResult(r.rules, list(r.policies), seed, deals, carried, None, np.zeros(L.A_LEN), threads=threads)
               for r in rows]  # fmt: skip
    for res in results:
        res.batches = np.zeros((batches, L.A_LEN)) if batches else None
    pair = np.zeros((len(rows), L.V_LEN))

    def reduce(first: int, count: int, out: tuple[np.ndarray, np.ndarray]) -> None:
        agg, pairs = out
        for b in range(count):  # block order, as simulate adds them: the same sums bit for bit
            for r, res in enumerate(results):
                res.totals[...] += agg[b, r]
                if res.batches is not None:
                    res.batches[(first + b) % batches] += agg[b, r]
            pair[...] += pairs[b]

    start = time.perf_counter()
    static = (ri, rf, pol, polf, strength, tables, solver, base, seed, deals, carried)
    rounds = run_rounds(variants_task, static, deals, BLOCK, per_call, reduce, progress=progress, backend=backend)
    elapsed = time.perf_counter() - start
    for res in results:
        res.partial, res.elapsed_s = rounds.partial, elapsed
    return VariantsResult(names, results, baseline, pair, elapsed, rounds.partial)
