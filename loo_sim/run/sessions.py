"""The kernel runs of the pots study (docs/rules.md R10): arms of a comparison, each a rule
set and a table of policies, played over the same sessions (session i of every arm on
the same decks), streamed into aggregates that do not grow with the number of sessions.

``analysis.pots`` turns a :class:`PotsResult` into tables, ``analysis.summaries`` into prose.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from loo_sim.config import SESSION_BLOCK
from loo_sim.game.policy import Policy, parse_table
from loo_sim.game.rules import FinalPot, Rules
from loo_sim.kernel import abi as L
from loo_sim.run.args import KernelArgs, kernel_args
from loo_sim.run.backend import LocalBackend
from loo_sim.run.rounds import ProgressFn, run_rounds
from loo_sim.run.strength import resolve_strength


@dataclass
class Arm:
    name: str  # e.g. "penalty=limited, policy=ev"
    rules: Rules
    policies: list[Policy]


@dataclass
class PotsResult:
    arms: list[Arm]
    sessions: int  # sessions played (per arm)
    deals: int  # deals a session plays at most
    seed: int
    scal: np.ndarray  # [arm, S_*]
    deal_stats: np.ndarray  # [arm, deal, DS_*]
    pot_hist: np.ndarray  # [arm, deal, bin] sessions by the pot at the start of deal j
    pot_sum: np.ndarray  # the same, summing the pots (a bin's mean = sum / count)
    max_hist: np.ndarray  # [arm, bin] sessions by their largest pot
    max_sum: np.ndarray
    bal_hist: np.ndarray  # [arm, seat, signed bin] sessions by final balance
    bal_sum: np.ndarray
    partial: bool = False


def make_arms(
    base: Rules, table_for: Callable[[int], list[Policy]], compare: Sequence[tuple[str, list[str]]]
) -> list[Arm]:
    """The grid of arms: every combination of the compared values (the first is the
    baseline of the paired differences). ``compare``: (rule option or ``policy``, values),
    as ``analysis.pots.parse_compare`` reads them."""
    if not compare:
        return [Arm("baseline", base, table_for(base.players))]
    arms = []
    for combo in itertools.product(*[[(k, v) for v in values] for k, values in compare]):
        overrides = {k: v for k, v in combo if k != "policy"}
        rules = base.replace(**overrides)
        policy = next((v for k, v in combo if k == "policy"), None)
        table = parse_table(policy, rules.players) if policy else table_for(rules.players)
        arms.append(Arm(", ".join(f"{k}={v}" for k, v in combo), rules, table))
    return arms


def arm_args(arm: Arm) -> KernelArgs:
    """The kernel's arrays for one arm, the policy rows padded to MAX_PLAYERS seats (the
    session kernel takes every arm's policies as one [arm, seat] block)."""
    x = kernel_args(arm.rules, arm.policies, resolve_strength(arm.rules, arm.policies))
    pol = np.zeros((L.MAX_PLAYERS, 3), dtype=np.int64)
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
    from loo_sim.run.tasks import pots_shapes, pots_task

    args = [arm_args(a) for a in arms]
    ri, rf, pol, polf, strength, chart = (np.stack(part) for part in zip(*args))
    bankroll = np.array([bankroll_of(a.rules) for a in arms], dtype=np.float64)
    share = np.array([a.rules.final_pot is FinalPot.SHARE for a in arms], dtype=np.bool_)
    static = (ri, rf, pol, polf, strength, chart, bankroll, share, seed, sessions, deals)
    shapes = pots_shapes(len(arms), deals)
    totals = {k: np.zeros(shape) for k, shape in shapes.items()}

    def reduce(first: int, count: int, rows: dict[str, np.ndarray]) -> None:
        for b in range(count):  # block order: the sums do not depend on threads or workers
            for k in shapes:
                totals[k] += rows[k][b]

    backend = backend or LocalBackend()
    _, partial = run_rounds(pots_task, static, sessions, SESSION_BLOCK, 2 * backend.chunk_scale, reduce,
                            progress=progress, backend=backend)  # fmt: skip
    played = int(totals["scal"][0, L.S_SESSIONS])
    return PotsResult(list(arms), played, deals, seed, *totals.values(), partial=partial)
