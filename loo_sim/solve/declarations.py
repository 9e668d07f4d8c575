"""The declaration game solved by fictitious play (docs/policies.md P6), and exploitability.

Each Loo seat declares once per deal, at an information set it cannot come back to, so
its behaviour strategy is its mixed strategy and fictitious play needs no reach
weighting (``solve/fictitious.py`` says why Kuhn poker does). An iteration:

1. the table plays the current average strategy at every seat (``table`` family; a mixed
   row draws from the seat's own stream), on fresh deals (the iteration's own streams);
   a quarter as many exploring deals play it mixed with a tenth of uniform choice, so
   that information sets the average strategy never reaches are met too (their best
   response comes from those deals: the table is complete over what a deal can reach);
2. every seat's payoff under every declaration on offer is measured at the information
   set it declared at, the other actions replayed from its decision on the same deal
   with the later seats reacting by the average strategy (common random numbers);
3. the best response takes, at each information set, the action of highest mean payoff;
4. the average strategy moves towards it (``averaging_weight``: uniform is classic
   fictitious play, linear weights iteration t by t and forgets the start sooner).

Iteration 0 plays the start policy (``basic``, ``always`` or ``cautious``), whose
choices per information set become the first average. Card play and the exchange stay
the table's fixed PLAY/EXCHANGE families: this is the equilibrium of the declaration
game given card play.

Exploitability. NashConv = the sum over seats of what a best response gains over the
profile. Seats rotate the deal, so the sum over seats is the sum over positions from
the dealer's left, which is how it is reported. Because a best response picked from
noisy cells is biased upward when judged on the same deals, it is picked on one set of
deals and its gain measured on another:

- per iteration (the convergence plot): the iteration's deals in two halves (even and
  odd lanes of blocks); the response picked on each half is judged on the other, and
  the two are averaged. Its interval adds the positions' half-widths (a bound that
  holds however they correlate);
- for a final table or a heuristic (``nash_conv``): fresh deals (streams the solver never
  used), the response picked on one set and its gain measured deal by deal on a second
  set, paired across seats on the same deal.

A response picked from finitely many deals is not the exact best response, so both
figures estimate what a response learnt from that many deals gains: a lower estimate
of the true NashConv, which more deals raise towards it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from loo_sim.base.config import BLOCK, MIN_SOLVE_DEALS
from loo_sim.base.errors import LooError
from loo_sim.base.stats import Z95
from loo_sim.game import abi as L
from loo_sim.game.infosets import ACTIONS, N_INFOSETS, SITUATION_MASKS, infoset_parts
from loo_sim.game.policy import SOLVE_STARTS, Policy
from loo_sim.game.rules import Rules
from loo_sim.run.equilibrium import (
    E_TABLE,
    EVAL_SESSION,
    EXPLORE_SESSION,
    SOLVE_SESSION,
    infoset_cells,
    response_gains,
)
from loo_sim.solve.fictitious import averaging_weight, best_response, update_average

SOLVED = "<solve>"  # the name the average strategy goes by in the kernel's tables
EXPLORING = "<explore>"  # and the exploring table
EXPLORE = 0.1  # the share of uniform choice the exploring table mixes into the average strategy
EXPLORE_SHARE = 4  # exploration deals: a quarter of an iteration's deals
MIN_DEALS = MIN_SOLVE_DEALS  # deals per iteration: two blocks at least (the halves of the honest estimates)
STARTS = SOLVE_STARTS
POSITION_OF = np.array([infoset_parts(i)[1] for i in range(N_INFOSETS)], dtype=np.int64)
OFFERED = np.array([[(SITUATION_MASKS[infoset_parts(i)[3]] >> a) & 1 for a in range(ACTIONS)]
                    for i in range(N_INFOSETS)], dtype=np.float64)  # fmt: skip
PAIR_INDEX = {pair: p for p, pair in enumerate(L.PAIRS)}


# ---- cells -> values, responses and gains -------------------------------------------------
def action_values(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(q [I, A] mean payoff of each action on offer (NaN elsewhere), allowed [I, A], n [I]
    decisions) from CF_* sums."""
    n_a = cells[:, L.CF_N : L.CF_N + ACTIONS]
    allowed = n_a > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        q = np.where(allowed, cells[:, L.CF_SUM : L.CF_SUM + ACTIONS] / np.where(allowed, n_a, 1.0), np.nan)
    return q, allowed, n_a.max(axis=1)


def chosen_shares(cells: np.ndarray) -> np.ndarray:
    """[I, A]: what the table chose at each information set, as shares (NaN where never met)."""
    chosen = cells[:, L.CF_CHOSEN : L.CF_CHOSEN + ACTIONS]
    total = chosen.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, chosen / np.where(total > 0, total, 1.0), np.nan)


def played_strategy(cells: np.ndarray, table: np.ndarray | None) -> np.ndarray:
    """The strategy the table played: its table's row where it has one, else (basic decided,
    or the start policy) the shares it chose."""
    shares = chosen_shares(cells)
    if table is None:
        return shares
    return np.where(np.isnan(table[:, :1]), shares, table)


def second_moments(cells: np.ndarray) -> np.ndarray:
    """[I, A, A]: sums over decisions of pay_a * pay_b (from the squares of the payoffs and of
    their paired differences: 2 ab = a^2 + b^2 - (a - b)^2)."""
    sq = cells[:, L.CF_SQ : L.CF_SQ + ACTIONS]
    m = np.zeros((cells.shape[0], ACTIONS, ACTIONS))
    for a in range(ACTIONS):
        m[:, a, a] = sq[:, a]
    for (a, b), p in PAIR_INDEX.items():
        m[:, a, b] = m[:, b, a] = 0.5 * (sq[:, a] + sq[:, b] - cells[:, L.CF_PAIR_SQ + p])
    return m


def cell_gains(cells: np.ndarray, response: np.ndarray, played: np.ndarray, deals: int,
               players: int) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """By position 1..players: (mean gain per deal of declaring by ``response`` instead of
    ``played``, its standard error), judged on ``cells`` of ``deals`` deals. A decision's
    gain is sum_a c_a pay_a with c = onehot(response) - played: its expectation is the
    gain, its variance follows from the cells' second moments."""
    ok = (response >= 0) & ~np.isnan(played[:, 0]) & (cells[:, L.CF_N : L.CF_N + ACTIONS].max(axis=1) > 0)
    c = -np.nan_to_num(played)
    rows = np.flatnonzero(ok)
    c[rows, response[rows]] += 1.0
    c[~ok] = 0.0
    x_sum = (c * cells[:, L.CF_SUM : L.CF_SUM + ACTIONS]).sum(axis=1)
    x_sq = np.einsum("ia,iab,ib->i", c, second_moments(cells), c)
    means, ses = np.zeros(players + 1), np.zeros(players + 1)
    for p in range(1, players + 1):
        at = p == POSITION_OF
        mean = x_sum[at].sum() / deals
        var = max(x_sq[at].sum() / deals - mean * mean, 0.0)
        means[p], ses[p] = mean, np.sqrt(var / deals)
    return means[1:], ses[1:]


# ---- exploitability -------------------------------------------------------------------------
@dataclass
class Exploitability:
    """NashConv of one profile on fresh deals, by position and for the table, in chips per deal."""

    profile: str
    gain: np.ndarray  # [players] by position from the dealer's left
    gain_se: np.ndarray
    total: float
    total_se: float
    value: np.ndarray  # [players] chips per deal under the profile, by position
    ante_pool: float  # antes per deal
    deals: int  # deals the response was judged on (as many again picked it)
    met: np.ndarray | None = None  # [N_INFOSETS] decisions met on the deals that picked the response
    values: np.ndarray | None = None  # [N_INFOSETS, A] mean payoff of each action there (NaN: not on offer)

    @property
    def share(self) -> float:
        return self.total / self.ante_pool if self.ante_pool > 0 else float("nan")


def _sum_over(carried: Sequence[float], run: Callable[[float], np.ndarray]) -> np.ndarray:
    """The sums of one run per carried pot, added in the order of the pots."""
    total = run(carried[0])
    for c in carried[1:]:
        total = total + run(c)
    return total


def nash_conv(rules: Rules, table: Sequence[Policy], deals: int, seed: int, label: str, *,
              carried: Sequence[float] = (0.0,), tables: dict | None = None, chart=None,
              evaluation: int = 0, backend=None) -> Exploitability:  # fmt: skip
    """NashConv of ``table`` (one policy per seat) on fresh deals: the best response picked
    on ``deals`` deals per carried pot (streams (seed, EVAL_SESSION + 2 evaluation)), its
    gain measured deal by deal on as many others (+ 1); the deals run on ``backend``."""
    from loo_sim.kernel.equilibrium import E_ANTES, E_DEALS, E_GAIN, E_GAIN_SQ, E_VALUE

    session = EVAL_SESSION + 2 * evaluation
    pick = _sum_over(carried, lambda c: infoset_cells(rules, table, deals, seed, session, c, tables, chart,
                                                      backend).pooled)  # fmt: skip
    q, allowed, met = action_values(pick)
    response = best_response(q, allowed)
    sums = _sum_over(carried, lambda c: response_gains(rules, table, response, deals, seed, session + 1, c, tables,
                                                       chart, backend))  # fmt: skip
    n = rules.players
    count = sums[E_TABLE, E_DEALS]

    def mean_se(row: np.ndarray) -> tuple[float, float]:
        mean = row[E_GAIN] / count
        return mean, float(np.sqrt(max(row[E_GAIN_SQ] / count - mean * mean, 0.0) / count))

    per = [mean_se(sums[p]) for p in range(1, n + 1)]
    total, total_se = mean_se(sums[E_TABLE])
    return Exploitability(label, np.array([m for m, _ in per]), np.array([s for _, s in per]), total, total_se,
                          sums[1 : n + 1, E_VALUE] / count, sums[E_TABLE, E_ANTES] / count, int(count), met,
                          q)  # fmt: skip


# ---- the solver -------------------------------------------------------------------------------
@dataclass
class SolveResult:
    rules: Rules
    play: Policy  # its PLAY and EXCHANGE parts are the table's card play
    start: str
    averaging: str
    iterations: int
    deals: int  # per iteration and carried pot
    seed: int
    carried: list[float]
    strategy: np.ndarray  # [N_INFOSETS, A]; NaN: never met
    decisions: np.ndarray  # [N_INFOSETS] decisions met over all iterations
    convergence: list[dict] = field(default_factory=list)
    elapsed_s: float = 0.0
    partial: bool = False

    def table_policy(self) -> Policy:
        return Policy("table", self.play.play, self.play.exchange, table=SOLVED, samples=self.play.samples,
                      infer=self.play.infer)

    @property
    def tables(self) -> dict[str, np.ndarray]:
        return {SOLVED: self.strategy}


def exploring_table(strategy: np.ndarray, share: float = EXPLORE) -> np.ndarray:
    """A complete table that mixes ``share`` of uniform choice among the options on offer into
    ``strategy`` (uniform where ``strategy`` has no row): every information set a deal can
    reach is reached with some chance, so it gets a best response too."""
    uniform = OFFERED / OFFERED.sum(axis=1, keepdims=True)
    base = np.where(np.isnan(strategy[:, :1]), uniform, strategy)
    return (1.0 - share) * base + share * uniform


def check_solve_args(iterations: int, deals: int, start: str, carried: Sequence[float]) -> None:
    if not isinstance(iterations, int) or iterations <= 0:
        raise LooError(f"iterations: {iterations!r} is not allowed; allowed a whole number >= 1", key="iterations")
    if not isinstance(deals, int) or deals < MIN_DEALS:
        raise LooError(f"deals: {deals!r} is not allowed; allowed a whole number >= {MIN_DEALS} per iteration "
                       "(two blocks: the honest estimates need two halves)", key="deals")  # fmt: skip
    if start not in STARTS:
        raise LooError(f"start: {start!r} is not allowed; allowed {', '.join(STARTS)}", key="start")
    if not carried:
        raise LooError("carried: at least one carried pot is needed, e.g. 0", key="carried")


def solve(rules: Rules, play: Policy, iterations: int, deals: int, seed: int, *, start: str = "basic",
          averaging: str = "linear", carried: Sequence[float] = (0.0,),
          progress: Callable[[int, int, dict], None] | None = None,
          stop: Callable[[dict], bool] | None = None, backend=None) -> SolveResult:  # fmt: skip
    """Fictitious play of the declaration game (module docstring): ``iterations`` iterations
    after the start, ``deals`` deals each per carried pot, run on ``backend`` (this process
    by default); ``stop(row)`` (the iteration's convergence row) ends it early when true.
    Ctrl-C keeps the iterations done (``partial``)."""
    check_solve_args(iterations, deals, start, carried)
    averaging_weight(1, averaging)  # an unknown scheme fails before any work
    n = rules.players
    start_table = [Policy(start, play.play, play.exchange, samples=play.samples, infer=play.infer)] * n
    res = SolveResult(rules, play, start, averaging, iterations, deals, seed, list(carried),
                      np.full((N_INFOSETS, ACTIONS), np.nan), np.zeros(N_INFOSETS))  # fmt: skip
    began = time.perf_counter()
    try:
        for t in range(iterations + 1):
            table = start_table if t == 0 else [res.table_policy()] * n
            halves = _sum_over(carried, lambda c, table=table, t=t: infoset_cells(
                rules, table, deals, seed, SOLVE_SESSION + t, c, res.tables, backend=backend).halves)  # fmt: skip
            pooled = halves[0] + halves[1]
            played = played_strategy(pooled, None if t == 0 else res.strategy)
            row = _convergence_row(t, halves, played, deals * len(carried), n)
            q, allowed, met = action_values(pooled)
            # the information sets the table never reached: their values from exploring deals
            explored = _sum_over(
                carried, lambda c, t=t, played=played: _explore(rules, play, played, deals, seed, t, c, backend)
            )
            q_x, allowed_x, met_x = action_values(explored)
            unreached = met == 0
            q[unreached], allowed[unreached] = q_x[unreached], allowed_x[unreached]
            response = best_response(q, allowed)
            decisions = res.decisions + met + np.where(unreached, met_x, 0.0)
            strategy = (played if t == 0 else res.strategy).copy()
            fresh = np.isnan(strategy[:, 0]) & (response >= 0)
            strategy[fresh] = np.eye(ACTIONS)[response[fresh]]
            strategy = update_average(strategy, response, averaging_weight(t + 2, averaging),
                                      mask=(response >= 0) & ~fresh)  # fmt: skip
            row["deals"] = (t + 1) * (deals + _explore_deals(deals)) * len(carried)
            # the iteration is whole: kept at once (a Ctrl-C before this keeps the iterations before it, intact)
            res.convergence.append(row)
            res.strategy, res.decisions = strategy, decisions
            if progress is not None:
                progress(t, iterations, res.convergence[-1])
            if stop is not None and stop(res.convergence[-1]):
                break
    except KeyboardInterrupt:
        if len(res.convergence) < 2:
            raise
        res.partial = True
    res.elapsed_s = time.perf_counter() - began
    return res


def _explore_deals(deals: int) -> int:
    return max(BLOCK, deals // EXPLORE_SHARE)


def _explore(rules: Rules, play: Policy, played: np.ndarray, deals: int, seed: int, t: int, carried: float,
             backend=None) -> np.ndarray:  # fmt: skip
    """Iteration t's exploring deals: every seat plays ``exploring_table(played)``; the cells."""
    table = [Policy("table", play.play, play.exchange, table=EXPLORING, samples=play.samples,
                    infer=play.infer)] * rules.players
    return infoset_cells(rules, table, _explore_deals(deals), seed, EXPLORE_SESSION + t, carried,
                         {EXPLORING: exploring_table(played)}, backend=backend).pooled  # fmt: skip


def _convergence_row(t: int, halves: np.ndarray, played: np.ndarray, deals: int, players: int) -> dict:
    """The iteration's NashConv estimate of the table it played, cross-fitted on its halves."""
    gains, ses = [], []
    for pick, judge in ((0, 1), (1, 0)):
        q, allowed, _ = action_values(halves[pick])
        g, se = cell_gains(halves[judge], best_response(q, allowed), played, deals // 2, players)
        gains.append(g)
        ses.append(se)
    gain = (gains[0] + gains[1]) / 2
    se = (ses[0] + ses[1]) / 2
    total, half = float(gain.sum()), float(Z95 * se.sum())
    return {"iteration": t, "nashconv": total, "nashconv_lo": total - half, "nashconv_hi": total + half}
