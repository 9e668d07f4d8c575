"""Risk over whole sessions (R10): for one seat's policy at a table, sessions played without
ruin and read at every bankroll at once (a seat with bankroll B is ruined in a session
exactly when its running balance falls below -B), beside the same sessions with that seat
on ``basic`` (the same decks: paired), for the N0 of the lead. Sums only: memory does not
grow with the sessions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from loo_sim.base.config import SESSION_BLOCK
from loo_sim.base.errors import LooError
from loo_sim.game.policy import Policy
from loo_sim.game.rules import FinalPot, Rules
from loo_sim.run.args import stack_args
from loo_sim.run.backend import LocalBackend
from loo_sim.run.rounds import ProgressFn, run_rounds
from loo_sim.run.sessions import Arm, arm_args


def bankroll_levels(rules: Rules, count: int = 81) -> np.ndarray:
    """The bankrolls a risk run reads: from one ante to 10^4 antes, evenly on a log scale."""
    return np.geomspace(1.0, 1e4, count) * max(rules.ante, 1.0)


@dataclass
class RiskResult:
    rules: Rules
    table: list[Policy]  # the table, the focal seat playing the policy studied
    focal: int
    policy: Policy
    sessions: int
    deals: int
    seed: int
    levels: np.ndarray  # [L] bankrolls
    ruined: np.ndarray  # [arm, L] sessions ruined at each bankroll (arm 0: the policy, 1: basic)
    ruin_deal: np.ndarray  # [arm, L, deals + 1] sessions by the deal of ruin (0: not ruined)
    final: np.ndarray  # [arm, 2] sum and square of the focal seat's final balance
    lead: np.ndarray  # [2] sum and square over sessions of (policy's final balance - basic's)
    inexact: int = 0  # sessions in which an amount passed 2**53 (no longer exact, R3) in either arm
    partial: bool = False


def run_risk(rules: Rules, table: Sequence[Policy], focal: int, policy: Policy, sessions: int, deals: int,
             seed: int, progress: ProgressFn | None = None, backend=None) -> RiskResult:  # fmt: skip
    from loo_sim.base import checks
    from loo_sim.run.tasks import risk_task

    sessions, deals = checks.sessions(sessions), checks.session_deals(deals)
    if not 0 <= focal < rules.players:
        raise LooError(f"focal: seat {focal} does not exist; allowed 0..{rules.players - 1}", key="focal")
    seats = [list(table), list(table)]
    seats[0][focal], seats[1][focal] = policy, Policy("basic", policy.play, policy.exchange, samples=policy.samples,
                                                       infer=policy.infer)
    arms = [Arm(name, rules, s) for name, s in zip(("policy", "basic"), seats)]
    ri, rf, pol, polf, strength, tables, solver = stack_args([arm_args(a) for a in arms])
    share = np.full(2, rules.final_pot is FinalPot.SHARE, dtype=np.bool_)
    levels = bankroll_levels(rules)
    static = (ri, rf, pol, polf, strength, tables, solver, share, seed, sessions, deals, focal, levels)
    res = RiskResult(rules, seats[0], focal, policy, 0, deals, seed, levels, np.zeros((2, len(levels))),
                     np.zeros((2, len(levels), deals + 1)), np.zeros((2, 2)), np.zeros(2))  # fmt: skip

    def reduce(first: int, count: int, out: np.ndarray) -> None:
        for b in range(count):
            for k in range(SESSION_BLOCK):
                row = out[b, :, k]
                if np.isnan(row[0, 2]):
                    continue
                res.sessions += 1
                res.inexact += bool((row[:, 2] < 0).any())
                for a in range(2):
                    passed = row[a, 3:].astype(np.int64)
                    res.ruined[a] += passed > 0
                    res.ruin_deal[a, np.arange(len(levels)), passed] += 1
                    res.final[a] += (row[a, 1], row[a, 1] ** 2)
                d = row[0, 1] - row[1, 1]
                res.lead += (d, d * d)

    backend = backend or LocalBackend()
    _, res.partial = run_rounds(risk_task, static, sessions, SESSION_BLOCK, 2 * backend.chunk_scale, reduce,
                                progress=progress, backend=backend)  # fmt: skip
    return res
