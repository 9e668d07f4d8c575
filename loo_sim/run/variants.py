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

from loo_sim.base import checks
from loo_sim.base.config import BLOCK, VARIANT_BATCHES
from loo_sim.base.errors import LooError
from loo_sim.game import abi as L
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules
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


def _check_rows(rows: Sequence[VariantRow], baseline: str | None) -> tuple[list[str], str]:
    """The rows' names and the baseline's (the first row's when None); a run without rows
    or a baseline that names no row is refused."""
    if not rows:
        raise LooError("rows: a variants run needs at least one row")
    names = [r.name for r in rows]
    baseline = names[0] if baseline is None else baseline
    if baseline not in names:
        raise LooError(f"baseline: {baseline!r} is not a row name; allowed {', '.join(names)}", key="baseline")
    return names, baseline


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

    names, baseline = _check_rows(rows, baseline)
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


# ---- in sessions (R10) ----------------------------------------------------------------------
DEFAULT_BURN_IN = 10  # deals dropped at the start of each session (at most half of them: default_burn_in)


def default_burn_in(deals: int) -> int:
    """The documented default: the first 10 deals of each session are dropped, or half of
    them (rounded down) when a session has fewer than 20."""
    return min(DEFAULT_BURN_IN, deals // 2)


def window_deals(deals: int, burn_in: int) -> int:
    """The deals of each window of the stationarity check: half the measured deals (rounded
    down), so the early window (deals burn_in .. burn_in + W - 1) and the late one (the last W)
    do not overlap; 0 (no check) with a single measured deal."""
    return (deals - burn_in) // 2


@dataclass
class VariantSessionsResult:
    """The moments over sessions of every row's session sums (``abi.VS_*``), side by side:
    ``s1[r * VS_LEN + x]`` the sum over sessions, ``s2`` the sums of products (any two slots
    of any two rows: paired estimates with the session as the unit); and the pots at the
    start of the measured deals by ``kernel.variants.pot_index`` (``pot_n`` counts,
    ``pot_sq`` sums of each session's count squared, ``pot_nm`` of count x measured deals,
    ``pot_sum`` the pots). Memory does not grow with sessions or deals."""

    names: list[str]
    rules: list[Rules]
    policies: list[list[Policy]]
    baseline: str
    sessions: int  # sessions played (per row)
    deals: int  # deals per session
    burn_in: int  # deals dropped at the start of each session
    window: int  # deals per window of the stationarity check
    seed: int
    s1: np.ndarray
    s2: np.ndarray
    pot_n: np.ndarray
    pot_sq: np.ndarray
    pot_nm: np.ndarray
    pot_sum: np.ndarray
    elapsed_s: float = 0.0
    partial: bool = False

    def slot(self, row: int, x: int) -> int:
        """The index of row ``row``'s slot ``x`` (``abi.VS_*``) in s1 / s2."""
        return row * L.VS_LEN + x


def run_variant_sessions(
    rows: Sequence[VariantRow],
    baseline: str | None = None,
    sessions: int = 2000,
    deals: int = 50,
    burn_in: int | None = None,
    seed: int = 0,
    threads: int | None = None,
    progress: ProgressFn | None = None,
    backend=None,
) -> VariantSessionsResult:
    """Play ``sessions`` sessions of ``deals`` deals for every row (R10: from a clean pot, the
    pot carried over, the dealer rotating), session i of every row on the same decks (deal j
    from the stream (seed, i, j), as the pots study); measure the deals from ``burn_in`` on
    (default: :func:`default_burn_in`). Ctrl-C stops after the current round, marked ``partial``."""
    from numba import set_num_threads

    from loo_sim.base.config import SESSION_BLOCK
    from loo_sim.run.tasks import variant_sessions_shapes, variant_sessions_task

    names, baseline = _check_rows(rows, baseline)
    sessions, deals = checks.sessions(sessions), checks.session_deals(deals)
    burn_in = default_burn_in(deals) if burn_in is None else checks.burn_in(burn_in, deals)
    seed = checks.seed(seed)
    threads = checks.threads(threads)
    window = window_deals(deals, burn_in)
    args = [arm_args(Arm(r.name, r.rules, list(r.policies))) for r in rows]
    ri, rf, pol, polf, strength, tables, solver = stack_args(args)
    set_num_threads(threads)
    backend = backend or LocalBackend()
    t = {k: np.zeros(shape) for k, shape in variant_sessions_shapes(len(rows)).items()}

    def reduce(first: int, count: int, out: dict[str, np.ndarray]) -> None:
        for b in range(count):  # block order: the sums do not depend on threads or workers
            for k in t:
                t[k] += out[k][b]

    start = time.perf_counter()
    static = (ri, rf, pol, polf, strength, tables, solver, seed, sessions, deals, burn_in, window)
    rounds = run_rounds(variant_sessions_task, static, sessions, SESSION_BLOCK, max(2, threads) * backend.chunk_scale,
                        reduce, progress=progress, backend=backend)  # fmt: skip
    played = int(t["s1"][L.VS_ONE])
    return VariantSessionsResult(names, [r.rules for r in rows], [list(r.policies) for r in rows], baseline, played,
                                 deals, burn_in, window, seed, **t, elapsed_s=time.perf_counter() - start,
                                 partial=rounds.partial)  # fmt: skip
