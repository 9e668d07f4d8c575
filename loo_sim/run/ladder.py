"""The card-play ladder: entrants (card-play policies) take a focal seat, one at a time, at a
table of the same other players, on the same deals and in every position.

Deal k of a run is the deal k of ``simulate`` with the same seed: its deck is shuffled
from the stream (seed, k) and it is dealt by seat k mod players. Every entrant plays
every deal once in each position p = 1..players from the dealer's left (the focal seat
is then (dealer + p) mod players; the other seats keep the table's policy), so each
entrant is measured in every position on exactly the same deals, and its differences
from the first entrant are paired deal by deal (``kernel.ladder``). The sums come back
per block and are added in block order, so they do not depend on the threads.
``analysis.cardplay`` makes the table.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from loo_sim.base import checks
from loo_sim.base.config import BLOCK
from loo_sim.base.errors import LooError
from loo_sim.game import abi as L
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules
from loo_sim.run.args import stack_args
from loo_sim.run.backend import LocalBackend
from loo_sim.run.rounds import ProgressFn, run_rounds
from loo_sim.run.sessions import Arm, arm_args


def with_play(table: Policy, text: str) -> Policy:
    """An entrant as written: a full policy (``DECLARE/PLAY[/EXCHANGE]``, ``table:PATH...``)
    as it is, or a PLAY family alone (``high``, ``pimc:8``) with the declaration and
    exchange of ``table`` (``high`` at a ``basic`` table is ``basic/high/basic``)."""
    text = str(text).strip()
    if not text:
        raise LooError("'' is not a policy; expected a PLAY family (basic, high, ...) or DECLARE/PLAY[/EXCHANGE]")
    if "/" in text or text.lower().startswith(("table:", "rule:")):
        return Policy.parse(text)
    declare, _, exchange = str(table).rsplit("/", 2)  # the declare part may hold slashes (table:PATH)
    try:
        return Policy.parse(f"{declare}/{text}/{exchange}")
    except LooError as e:
        detail = str(e).split(": ", 1)[-1]
        raise LooError(f"{text!r} is not a card-play family ({detail}); or give a whole policy, "
                       "DECLARE/PLAY[/EXCHANGE]") from None  # fmt: skip


def infer_pairs(entrants: Sequence[Policy]) -> list[tuple[int, Policy]]:
    """Each ``pimc:N:infer`` entrant's index with its reference, the same policy without
    ``:infer`` (``pimc:N`` of the same N): the pair whose paired difference says what the
    inference adds (the cardplay study runs each pair as a ladder of its own)."""
    return [(e, replace(p, infer="")) for e, p in enumerate(entrants) if p.play == "pimc" and p.infer]


@dataclass
class LadderResult:
    """``sums[e, p, LD_*]``: over the deals, entrant e's focal seat at position p (1..players;
    0: the mean over the positions, one value per deal), and its differences from entrant
    0's on the same deal and position."""

    rules: Rules
    table: list[Policy]  # the other seats' policies (seat s's when the focal seat is elsewhere)
    names: list[str]
    entrants: list[Policy]
    seed: int
    carried: float
    deals_requested: int
    sums: np.ndarray  # [entrant, position 0..players, LD_LEN]
    deals_done: int = 0
    elapsed_s: float = 0.0
    partial: bool = False


def ladder_arms(rules: Rules, table: Sequence[Policy], entrants: Sequence[Policy]) -> list[Arm]:
    """Arm e * players + s: the table with entrant e at seat s (``kernel.ladder``)."""
    n = rules.players
    arms = []
    for e, policy in enumerate(entrants):
        for s in range(n):
            seats = list(table)
            seats[s] = policy
            arms.append(Arm(f"entrant {e} at seat {s}", rules, seats))
    return arms


def run_ladder(
    rules: Rules,
    table: Sequence[Policy],
    entrants: Sequence[Policy],
    names: Sequence[str] | None = None,
    deals: int = 100_000,
    seed: int = 0,
    carried: float = 0.0,
    progress: ProgressFn | None = None,
    backend=None,
) -> LadderResult:
    """Play ``deals`` deals for every entrant in every position (module docstring). Ctrl-C
    stops after the current round, marked ``partial``; before the first one finished, the
    KeyboardInterrupt goes on up."""
    from loo_sim.run.tasks import ladder_task

    if not entrants:
        raise LooError("focal: the ladder needs at least one entrant, e.g. basic,high", key="focal")
    names = [str(p) for p in entrants] if names is None else list(names)
    if len(names) != len(entrants):
        raise LooError("names: one name per entrant")
    table = list(table)
    if len(table) != rules.players:
        raise LooError(f"table: {len(table)} policies for {rules.players} seats")
    deals = checks.deals(deals)
    seed = checks.seed(seed)
    carried = checks.chips("carried", carried)
    ri, rf, pol, polf, strength, tables, solver = stack_args([arm_args(a) for a in ladder_arms(rules, table, entrants)])
    e_count, n = len(entrants), rules.players
    res = LadderResult(rules, table, names, list(entrants), seed, carried, deals,
                       np.zeros((e_count, n + 1, L.LD_LEN)))  # fmt: skip

    def reduce(first: int, count: int, acc: np.ndarray) -> None:
        for b in range(count):  # block order: the same sums whatever the threads
            res.sums += acc[b]

    from numba import get_num_threads

    backend = backend or LocalBackend()
    per_call = 2 * get_num_threads() * backend.chunk_scale  # a deal is players x entrants deals: short rounds
    static = (ri, rf, pol, polf, strength, tables, solver, e_count, seed, deals, carried)
    start = time.perf_counter()
    rounds = run_rounds(ladder_task, static, deals, BLOCK, per_call, reduce, progress=progress, backend=backend)
    res.deals_done, res.partial = rounds.done, rounds.partial
    res.elapsed_s = time.perf_counter() - start
    return res
