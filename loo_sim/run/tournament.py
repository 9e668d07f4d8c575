"""Mixed-table tournaments (R10 sessions): heuristics seated in a balanced design, every
lineup on the same decks, session by session; the per-session results are reduced as
they come (memory does not grow with the sessions), into the sums ``analysis.tournament``
turns into a league table, results by position and a head-to-head matrix.

The design: with heuristics h_0 .. h_{H-1} at a table of n seats, lineup r (r = 0 .. H-1)
seats h_((i + r) mod H) at seat i. Over the H lineups every heuristic sits in every seat
equally often, and the dealer rotates within each session (its first dealer drawn from
the session's stream), so every heuristic holds every position. Session s deals the
same cards in every lineup (streams (seed, s, deal)), so lineups are compared paired.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from loo_sim.base.config import SESSION_BLOCK
from loo_sim.base.errors import LooError
from loo_sim.game import abi as L
from loo_sim.game.policy import Policy
from loo_sim.game.rules import FinalPot, Rules
from loo_sim.run.args import stack_args
from loo_sim.run.backend import LocalBackend
from loo_sim.run.rounds import ProgressFn, run_rounds
from loo_sim.run.session_pots import pot_bins
from loo_sim.run.sessions import Arm, arm_args, bankroll_of

# chips per deal are binned times this, so that the bins (32 per decade from 1 up) reach down
# to 1e-6 chips per deal; smaller results share the bins next to 0 (printed as +0.000)
RESULT_SCALE = 1e6


def signed_bins(x: np.ndarray) -> np.ndarray:
    """``kernel.bins.balance_bin`` on an array."""
    return np.where(x < 0, L.NB_POT - 1 - pot_bins(np.abs(x)), L.NB_POT + pot_bins(np.abs(x)))


def lineups(policies: Sequence[Policy], players: int) -> list[list[Policy]]:
    """Lineup r seats policies[(i + r) mod H] at seat i, r = 0 .. H-1 (module docstring)."""
    h = len(policies)
    return [[policies[(i + r) % h] for i in range(players)] for r in range(h)]


@dataclass
class TournamentResult:
    rules: Rules
    names: list[str]  # the heuristics, as written
    lineups: list[list[int]]  # [lineup][seat] -> heuristic index
    sessions: int  # played (all lineups)
    deals: int  # per session, at most
    seed: int
    # per heuristic, over sessions: sum and square of its chips per deal in the session
    # (all its seats in all lineups pooled), and its seat-deals
    league: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    # [heuristic, position 1..players, (sum, square, sessions with deals there)]
    by_position: np.ndarray = field(default_factory=lambda: np.zeros((0, 0, 3)))
    # [a, b, (sum, square, sessions)]: per session, mean over the lineups seating both of
    # (a's chips per deal - b's), a's and b's seats in that lineup pooled
    head_to_head: np.ndarray = field(default_factory=lambda: np.zeros((0, 0, 3)))
    seat_deals: np.ndarray = field(default_factory=lambda: np.zeros(0))
    # [heuristic, signed bin] sessions by the heuristic's chips per deal in the session, times
    # RESULT_SCALE, in the signed log bins of kernel.bins.balance_bin, and the sum of what each
    # bin holds: the league's medians and their order-statistic intervals (analysis.tournament)
    result_hist: np.ndarray = field(default_factory=lambda: np.zeros((0, 2 * L.NB_POT)))
    result_sum: np.ndarray = field(default_factory=lambda: np.zeros((0, 2 * L.NB_POT)))
    inexact: int = 0  # sessions in which an amount passed 2**53 (no longer exact, R3) in some lineup
    partial: bool = False


def run_tournament(rules: Rules, policies: Sequence[Policy], names: Sequence[str], sessions: int, deals: int,
                   seed: int, progress: ProgressFn | None = None, backend=None) -> TournamentResult:  # fmt: skip
    """Play ``sessions`` sessions of at most ``deals`` deals for every lineup of ``policies``."""
    from loo_sim.base import checks
    from loo_sim.run.tasks import tournament_task

    if len(policies) < 2:
        raise LooError("policies: a tournament needs two heuristics or more, e.g. basic,cautious", key="policies")
    if len({str(p) for p in policies}) != len(policies):
        raise LooError("policies: each heuristic once", key="policies")
    sessions, deals = checks.sessions(sessions), checks.session_deals(deals)
    n, h = rules.players, len(policies)
    seats = lineups(list(range(h)), n)
    arms = [Arm(f"lineup {r}", rules, [policies[i] for i in seats[r]]) for r in range(h)]
    ri, rf, pol, polf, strength, tables, solver = stack_args([arm_args(a) for a in arms])
    bankroll = np.full(h, bankroll_of(rules), dtype=np.float64)
    share = np.full(h, rules.final_pot is FinalPot.SHARE, dtype=np.bool_)
    static = (ri, rf, pol, polf, strength, tables, solver, bankroll, share, seed, sessions, deals)
    res = TournamentResult(rules, list(names), seats, 0, deals, seed, np.zeros((h, 3)), np.zeros((h, n + 1, 3)),
                           np.zeros((h, h, 3)), np.zeros(h), np.zeros((h, 2 * L.NB_POT)),
                           np.zeros((h, 2 * L.NB_POT)))  # fmt: skip
    owner = np.array(seats)  # [lineup, seat] -> heuristic

    def reduce(first: int, count: int, rows) -> None:
        finals, by_position = rows
        for b in range(count):  # block order
            for k in range(SESSION_BLOCK):
                if np.isnan(finals[b, 0, k, L.MAX_PLAYERS]):
                    continue
                _add_session(res, owner, finals[b, :, k], by_position[b, :, k], n)

    backend = backend or LocalBackend()
    _, res.partial = run_rounds(tournament_task, static, sessions, SESSION_BLOCK, 2 * backend.chunk_scale, reduce,
                                progress=progress, backend=backend)  # fmt: skip
    return res


def _add_session(res: TournamentResult, owner: np.ndarray, finals: np.ndarray, by_position: np.ndarray,
                 n: int) -> None:  # fmt: skip
    """One session of every lineup into the sums (``finals`` [lineup, seat | deals],
    ``by_position`` [lineup, seat, position, net | deals])."""
    h = owner.shape[0]
    res.sessions += 1
    res.inexact += bool((finals[:, L.MAX_PLAYERS + 1] > 0).any())
    balance = np.zeros(h)
    seat_deals = np.zeros(h)
    pos_net = np.zeros((h, n + 1))
    pos_deals = np.zeros((h, n + 1))
    per_lineup = np.zeros((h, h, 2))  # [lineup, heuristic, (balance, seat-deals)]
    for r in range(h):
        played = finals[r, L.MAX_PLAYERS]
        for s in range(n):
            k = owner[r, s]
            balance[k] += finals[r, s]
            seat_deals[k] += played
            per_lineup[r, k] += (finals[r, s], played)
            pos_net[k] += by_position[r, s, : n + 1, 0]
            pos_deals[k] += by_position[r, s, : n + 1, 1]
    res.seat_deals += seat_deals
    with np.errstate(invalid="ignore", divide="ignore"):
        x = balance / seat_deals
        xp = pos_net / pos_deals
        xl = per_lineup[:, :, 0] / per_lineup[:, :, 1]
    ok = seat_deals > 0
    res.league[ok] += np.column_stack([x[ok], x[ok] ** 2, np.ones(ok.sum())])
    who = np.flatnonzero(ok)
    bins = signed_bins(x[ok] * RESULT_SCALE)
    res.result_hist[who, bins] += 1.0
    res.result_sum[who, bins] += x[ok]
    okp = pos_deals > 0
    res.by_position[okp] += np.column_stack([xp[okp], xp[okp] ** 2, np.ones(okp.sum())])
    for a, b in combinations(range(h), 2):
        both = (per_lineup[:, a, 1] > 0) & (per_lineup[:, b, 1] > 0)
        if both.any():
            d = float(np.mean(xl[both, a] - xl[both, b]))
            res.head_to_head[a, b] += (d, d * d, 1.0)
            res.head_to_head[b, a] += (-d, d * d, 1.0)
