"""The kernel runs of the pots study (docs/rules.md R10): arms of a comparison, each a rule
set and a table of policies, played over the same sessions (session i of every arm on
the same decks), streamed into aggregates that do not grow with the number of sessions.

``analysis.pots`` turns a :class:`PotsResult` into tables, ``analysis.pots_text`` into prose.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from loo_sim.base.config import SESSION_BLOCK
from loo_sim.game import abi as L
from loo_sim.game.policy import Policy, parse_table
from loo_sim.game.rules import FinalPot, Rules
from loo_sim.run.args import KernelArgs, kernel_args, stack_args
from loo_sim.run.backend import LocalBackend
from loo_sim.run.rounds import ProgressFn, run_rounds
from loo_sim.run.strength import resolve_strength


@dataclass
class Arm:
    name: str  # e.g. "penalty=limited, policy=ev"
    rules: Rules
    policies: list[Policy]
    levels: tuple[tuple[str, str], ...] = ()  # the compared (option, value) pairs, e.g. (("penalty", "limited"),)


@dataclass
class PotsResult:
    """The streamed aggregates of a pots run. Amounts are counted in two parts: integral
    amounts below a bound exactly (``*_exact``, one count per chip value, so a quantile
    read there is a value that occurred), the others (fractional, or past the bound) in
    log bins of ``kernel.bins.pot_bin`` with the sum of what each bin holds (``*_sum``;
    a bin is read as its mean). The bound is ``abi.EXACT_CHIPS`` (4096) for the largest
    pot and the balances, and ``pot_bound`` for the pot by deal (4096 unless arms x deals
    is so large that ``abi.EXACT_BUDGET`` caps it, see :func:`pot_exact_bound`)."""

    arms: list[Arm]
    sessions: int  # sessions played (per arm)
    deals: int  # deals a session plays at most
    seed: int
    scal: np.ndarray  # [arm, S_*]
    deal_stats: np.ndarray  # [arm, deal, DS_*]
    pair: np.ndarray  # [arm x, arm y, PR_*] x against y < x, session by session
    pot_exact: np.ndarray  # [arm, deal, v] sessions whose pot at the start of deal j was exactly v chips
    pot_hist: np.ndarray  # [arm, deal, bin] the other pots at the start of deal j, by log bin
    pot_sum: np.ndarray  # the same, summing the pots (a bin's mean = sum / count)
    max_exact: np.ndarray  # [arm, v] sessions whose largest pot was exactly v
    max_hist: np.ndarray  # [arm, bin] the other sessions by their largest pot
    max_sum: np.ndarray
    bal_exact: np.ndarray  # [arm, seat, k + EXACT_STEPS - 1] sessions whose final balance was exactly k / grid
    bal_hist: np.ndarray  # [arm, seat, signed bin] the others by final balance
    bal_sum: np.ndarray
    bal_grid: np.ndarray  # [arm] the step 1 / grid of the exact balances (balance_grid)
    bal_all_hist: np.ndarray  # [arm, seat, signed bin] every final balance by log bin, the exact ones folded in
    bal_all_sum: np.ndarray  # the same, summing the balances (balance_histogram.csv reads these two)
    partial: bool = False

    @property
    def pot_bound(self) -> int:
        """Integral pots below this are counted exactly in ``pot_exact``."""
        return self.pot_exact.shape[2]


def balance_grid(rules: Rules) -> int:
    """The step 1 / grid on which final balances are counted exactly: a trick's share is
    a multiple of 1 / hand_size of a whole pot, and a shared final pot adds a multiple of
    1 / (hand_size * players) (R3, R10). Balances off the grid (fractional pots) are binned."""
    return rules.hand_size * (rules.players if rules.final_pot is FinalPot.SHARE else 1)


def pot_exact_bound(arms: int, deals: int) -> int:
    """The bound of the exact pot-by-deal counts: ``EXACT_CHIPS``, or the largest power of
    two that keeps arms x deals x bound within ``EXACT_BUDGET`` (at least 64): memory
    grows with the deals of a session, never with the number of sessions."""
    bound = L.EXACT_CHIPS
    while bound > 64 and arms * deals * bound > L.EXACT_BUDGET:
        bound //= 2
    return bound


def make_arms(
    base: Rules, table_for: Callable[[int], list[Policy]], compare: Sequence[tuple[str, list[str]]]
) -> list[Arm]:
    """The grid of arms: every combination of the compared values, in order, each arm
    with its (option, value) pairs as ``levels``. ``compare``: (rule option or
    ``policy``, values), as ``report.kinds.pots.parse_compare`` reads them."""
    if not compare:
        return [Arm("baseline", base, table_for(base.players))]
    arms = []
    for combo in itertools.product(*[[(k, v) for v in values] for k, values in compare]):
        overrides = {k: v for k, v in combo if k != "policy"}
        rules = base.replace(**overrides)
        policy = next((v for k, v in combo if k == "policy"), None)
        table = parse_table(policy, rules.players) if policy else table_for(rules.players)
        arms.append(Arm(", ".join(f"{k}={v}" for k, v in combo), rules, table, tuple(combo)))
    return arms


def arm_args(arm: Arm) -> KernelArgs:
    """The kernel's arrays for one arm, the policy rows padded to MAX_PLAYERS seats (the
    session kernel takes every arm's policies as one [arm, seat] block)."""
    x = kernel_args(arm.rules, arm.policies, resolve_strength(arm.rules, arm.policies))
    pol = np.zeros((L.MAX_PLAYERS, x.pol.shape[1]), dtype=np.int64)  # as wide as its rule programs (P3b)
    polf = np.zeros((L.MAX_PLAYERS, L.PF_LEN), dtype=np.float64)
    pol[: len(x.pol)], polf[: len(x.polf)] = x.pol, x.polf
    return x._replace(pol=pol, polf=polf)


def bankroll_of(rules: Rules) -> float:
    """The kernel's bankroll: the rules' bankroll, or -1 for none (nobody is ever ruined)."""
    return rules.bankroll if rules.bankroll is not None else -1.0


def run_pots(arms: Sequence[Arm], sessions: int, deals: int, seed: int, progress: ProgressFn | None = None,
             backend=None) -> PotsResult:  # fmt: skip
    """Play ``sessions`` sessions of ``deals`` deals for every arm, session i of every arm
    on the same decks; stream the aggregates (Ctrl-C keeps what finished: partial)."""
    from loo_sim.base import checks
    from loo_sim.run.tasks import pots_task

    sessions, deals = checks.sessions(sessions), checks.session_deals(deals)
    args = [arm_args(a) for a in arms]
    ri, rf, pol, polf, strength, tables, solver = stack_args(args)
    bankroll = np.array([bankroll_of(a.rules) for a in arms], dtype=np.float64)
    share = np.array([a.rules.final_pot is FinalPot.SHARE for a in arms], dtype=np.bool_)
    static = (ri, rf, pol, polf, strength, tables, solver, bankroll, share, seed, sessions, deals)
    a, n, nb, e = len(arms), L.MAX_PLAYERS, L.NB_POT, L.EXACT_CHIPS
    shapes = {
        "scal": (a, L.S_LEN),
        "deal_stats": (a, deals, L.DS_LEN),
        "pair": (a, a, L.PR_LEN),
        "pot_exact": (a, deals, pot_exact_bound(a, deals)),
        "pot_hist": (a, deals, nb),
        "pot_sum": (a, deals, nb),
        "max_exact": (a, e),
        "max_hist": (a, nb),
        "max_sum": (a, nb),
        "bal_exact": (a, n, 2 * L.EXACT_STEPS - 1),
        "bal_hist": (a, n, 2 * nb),
        "bal_sum": (a, n, 2 * nb),
    }
    t = {k: np.zeros(shape) for k, shape in shapes.items()}
    grid = np.array([balance_grid(arm.rules) for arm in arms], dtype=np.int64)

    def reduce(first: int, count: int, rows: dict[str, np.ndarray]) -> None:
        from loo_sim.kernel.bins import count_balances, count_largest, count_pots

        for b in range(count):  # block order: the sums do not depend on threads or workers
            for k in ("scal", "deal_stats", "pair"):
                t[k] += rows[k][b]
            count_pots(rows["pots"][b], t["pot_exact"], t["pot_hist"], t["pot_sum"])
            count_largest(rows["largest"][b], t["max_exact"], t["max_hist"], t["max_sum"])
            count_balances(rows["finals"][b], grid, t["bal_exact"], t["bal_hist"], t["bal_sum"])

    backend = backend or LocalBackend()
    _, partial = run_rounds(pots_task, static, sessions, SESSION_BLOCK, 2 * backend.chunk_scale, reduce,
                            progress=progress, backend=backend)  # fmt: skip
    played = int(t["scal"][0, L.S_SESSIONS])
    all_hist, all_sum = folded_balances(t["bal_exact"], grid, t["bal_hist"], t["bal_sum"])
    return PotsResult(list(arms), played, deals, seed, **t, bal_grid=grid, bal_all_hist=all_hist, bal_all_sum=all_sum,
                      partial=partial)  # fmt: skip


def folded_balances(exact: np.ndarray, grid: np.ndarray, hist: np.ndarray,
                    sums: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """The whole distribution of final balances in signed log bins [arm, seat, bin]: the
    binned counts and sums with the exact counts added to their bins (the kernel's
    ``fold_balances``), done here so that the tables above the run layer need no kernel."""
    from loo_sim.kernel.bins import fold_balances

    all_hist, all_sum = hist.copy(), sums.copy()
    for a in range(exact.shape[0]):
        fold_balances(exact[a], int(grid[a]), all_hist[a], all_sum[a])
    return all_hist, all_sum
