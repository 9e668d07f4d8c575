"""The carried pots met in sessions (docs/rules.md R10), as the distribution that
``loo-sim miss --carried session`` draws each chart deal's carried pot from.

Sessions are played by the session kernel (``kernel.sessions.session_block``, the pots
study's, with the same rules and the table's own policies, session i on the decks of the
stream (seed, i, j)); the carried pot at the start of each deal after a burn-in is
counted as the pots study counts pots: whole chips below ``abi.EXACT_CHIPS`` exactly (one
atom per value), the others (fractional, or past the bound) in the log bins of
``kernel.bins.pot_bin``, each read as the mean of what it holds. The probabilities are
ratios over sessions (the deals of one session are not independent) with the
delta-method SE, the session as the unit.

A chart deal's carried pot is then a pure function of (seed, session kind, deal):
``rng.carried_uniform`` picks an atom by the cumulative probabilities (``rng.pick``; the
kernel's twin is ``kernel.session_pots``), so the draws do not depend on threads, blocks
or workers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from loo_sim.base import checks, rng
from loo_sim.base.config import SESSION_BLOCK, SESSION_POTS_BURN_IN, SESSION_POTS_DEALS, SESSION_POTS_SESSIONS
from loo_sim.game import abi as L
from loo_sim.game.infosets import POT_EDGES
from loo_sim.game.policy import Policy
from loo_sim.game.rules import AntePayer, FinalPot, Penalty, Rules
from loo_sim.run.rounds import ProgressFn, run_rounds

SESSION = "session"  # the word of --carried session
DEFAULT_SESSIONS = SESSION_POTS_SESSIONS  # the defaults of --sessions, --session-deals and --burn-in (config.py)
DEFAULT_SESSION_DEALS = SESSION_POTS_DEALS
DEFAULT_BURN_IN = SESSION_POTS_BURN_IN
POT_BUCKET_NAMES = ("<=1", "1-2", "2-4", "4-8", ">8")  # pot_start / penalty, as game.infosets.pot_bucket
N_BUCKETS = len(POT_BUCKET_NAMES)
_EDGES = np.array(POT_EDGES)


def antes_total(rules: Rules) -> float:
    """The antes of one deal (R3): every player's, or the dealer's alone."""
    return rules.ante * (rules.players if rules.ante_payer is AntePayer.EACH else 1)


def penalty_of(rules: Rules, pot_start: np.ndarray) -> np.ndarray:
    """What a loo costs at these pots (R3, R9c): the pot, the fixed amount, or the smaller."""
    if rules.penalty is Penalty.UNLIMITED:
        return pot_start
    if rules.penalty is Penalty.LIMITED:
        return np.full_like(pot_start, rules.penalty_amount)
    return np.minimum(pot_start, rules.penalty_amount)


def pot_buckets(rules: Rules, carried: np.ndarray) -> np.ndarray:
    """The pot bucket (``POT_BUCKET_NAMES``) of a deal from each carried pot: pot_start / penalty."""
    pot_start = np.asarray(carried, dtype=np.float64) + antes_total(rules)
    penalty = penalty_of(rules, pot_start)
    b = np.zeros(pot_start.shape, dtype=np.int64)
    for edge in _EDGES:
        b += pot_start > edge * penalty
    return b


def pot_bins(p: np.ndarray) -> np.ndarray:
    """``kernel.bins.pot_bin`` on an array (p >= 0)."""
    out = np.zeros(p.shape, dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        lg = np.log10(np.where(p >= 1.0, p, 1.0))
    mid = (p >= 1.0) & (p < L.POT_TOP)
    out[mid] = np.minimum(L.NB_POT - 2, 1 + (L.POT_BINS_PER_DECADE * lg[mid]).astype(np.int64))
    out[p >= L.POT_TOP] = L.NB_POT - 1
    return out


@dataclass
class SessionPots:
    """The distribution of the carried pot at the start of a deal in sessions: atoms
    ``values`` (increasing), each with its probability and SE; ``exact[i]``: the atom is a
    whole number of chips that occurred (else a log bin's mean, 32 bins per decade)."""

    rules: Rules
    policies: list[Policy]
    sessions: int  # sessions played
    deals: int  # deals per session (at most: a bankroll may end one sooner)
    burn_in: int  # the first deals of each session not counted
    seed: int
    counted: int  # deals counted (after the burn-in)
    values: np.ndarray
    prob: np.ndarray
    se: np.ndarray
    exact: np.ndarray
    mean: float  # mean carried pot, its SE (ratio over sessions)
    mean_se: float
    bucket_prob: np.ndarray  # [N_BUCKETS] share of counted deals in each pot bucket
    bucket_se: np.ndarray
    largest: float  # the largest carried pot counted
    overflow_sessions: int  # sessions stopped because the pot passed OVERFLOW_LIMIT (R3)
    partial: bool = False

    @property
    def cum(self) -> np.ndarray:
        """Cumulative probabilities, the last exactly 1 (what the draw reads)."""
        return cumulative(self.prob)

    def draw(self, seed: int, session: int, deals: Sequence[int] | np.ndarray) -> np.ndarray:
        """The carried pots of these deals as the kernel draws them (``rng.carried_uniform``
        of the run's seed and session kind, ``rng.MISS_CARRIED_SESSION`` for the chart)."""
        cum = self.cum
        return np.array([self.values[rng.pick(cum, rng.carried_uniform(seed, session, int(k)))] for k in deals],
                        dtype=np.float64)  # fmt: skip

    def table(self) -> pd.DataFrame:
        """The distribution as written beside the chart (``session_pots.csv``)."""
        pot_start = self.values + antes_total(self.rules)
        buckets = pot_buckets(self.rules, self.values)
        lo = np.maximum(self.prob - 1.959963984540054 * self.se, 0.0)
        hi = np.minimum(self.prob + 1.959963984540054 * self.se, 1.0)
        return pd.DataFrame({"carried": self.values, "pot_start": pot_start, "probability": self.prob, "se": self.se,
                             "ci_low": lo, "ci_high": hi, "exact": self.exact,
                             "pot_bucket": [POT_BUCKET_NAMES[b] for b in buckets]})  # fmt: skip


def cumulative(prob: np.ndarray) -> np.ndarray:
    cum = np.cumsum(np.asarray(prob, dtype=np.float64))
    if len(cum):
        cum[-1] = 1.0
    return cum


def fixed_pots(rules: Rules, policies: Sequence[Policy], values: Sequence[float],
               prob: Sequence[float]) -> SessionPots:  # fmt: skip
    """A distribution given outright (tests, the Python API): atoms and probabilities."""
    v = np.asarray(values, dtype=np.float64)
    p = np.asarray(prob, dtype=np.float64)
    z = np.zeros(N_BUCKETS)
    return SessionPots(rules, list(policies), 0, 0, 0, 0, 0, v, p, np.zeros_like(p), np.ones(len(v), bool),
                       float((v * p).sum()), 0.0, z, z.copy(), float(v.max()), 0)  # fmt: skip


def session_pots(rules: Rules, table: Sequence[Policy], sessions: int = DEFAULT_SESSIONS,
                 deals: int = DEFAULT_SESSION_DEALS, burn_in: int = DEFAULT_BURN_IN, seed: int = 0,
                 progress: ProgressFn | None = None, backend=None) -> SessionPots:  # fmt: skip
    """Play ``sessions`` sessions of ``deals`` deals under ``rules`` with ``table`` (the
    pots study's kernel) and count the carried pot at the start of deals burn_in..deals-1."""
    from loo_sim.run.backend import LocalBackend
    from loo_sim.run.sessions import Arm, arm_args, bankroll_of
    from loo_sim.run.tasks import pots_task

    checks.session_options(sessions, deals, burn_in)
    x = arm_args(Arm("session", rules, list(table)))
    static = (x.ri[None], x.rf[None], x.pol[None], x.polf[None], x.strength[None], x.tables[None], x.solver,
              np.array([bankroll_of(rules)]), np.array([rules.final_pot is FinalPot.SHARE]), seed, sessions,
              deals)  # fmt: skip
    bound, nb = L.EXACT_CHIPS, L.NB_POT
    antes = antes_total(rules)
    t = {"x": np.zeros(bound), "xx": np.zeros(bound), "xy": np.zeros(bound),  # per atom: count, count², count·deals
         "bx": np.zeros(nb), "bxx": np.zeros(nb), "bxy": np.zeros(nb), "bsum": np.zeros(nb),
         "kx": np.zeros(N_BUCKETS), "kxx": np.zeros(N_BUCKETS), "kxy": np.zeros(N_BUCKETS),
         "s": np.zeros(1), "ss": np.zeros(1), "sy": np.zeros(1), "y": np.zeros(1), "yy": np.zeros(1),
         "n": np.zeros(1), "largest": np.zeros(1), "overflow": np.zeros(1)}  # fmt: skip

    def add(pre: str, who: np.ndarray, at: np.ndarray, size: int, y: np.ndarray) -> None:
        """Per-session counts of each atom (``at``) into count, count² and count·deals."""
        per = np.zeros((len(y), size))
        np.add.at(per, (who, at), 1.0)
        t[pre + "x"] += per.sum(axis=0)
        t[pre + "xx"] += (per * per).sum(axis=0)
        t[pre + "xy"] += (per * y[:, None]).sum(axis=0)

    def reduce(first: int, count: int, rows: dict[str, np.ndarray]) -> None:
        for b in range(count):  # block order: the sums do not depend on threads or workers
            block = rows["pots"][b, 0]  # [session, deal]: the pot at the start of each deal, NaN past the end
            block = block[~np.isnan(block[:, 0])]  # the block's sessions (the last block may hold fewer)
            t["n"][0] += len(block)
            t["overflow"][0] += rows["scal"][b, 0, L.S_OVERFLOW]
            c = block[:, burn_in:] - antes  # the carried pot of each counted deal
            seen = ~np.isnan(c)
            y = seen.sum(axis=1).astype(np.float64)  # deals counted per session
            who = np.broadcast_to(np.arange(len(c))[:, None], c.shape)[seen]
            v = c[seen]
            s = np.zeros(len(c))
            np.add.at(s, who, v)
            for key, value in (("y", y.sum()), ("yy", (y * y).sum()), ("s", s.sum()), ("ss", (s * s).sum()),
                               ("sy", (s * y).sum())):  # fmt: skip
                t[key][0] += value
            if len(v):
                t["largest"][0] = max(t["largest"][0], float(v.max()))
            whole = (v >= 0) & (v < bound) & (v == np.floor(v))
            add("", who[whole], v[whole].astype(np.int64), bound, y)
            binned = pot_bins(v[~whole])
            add("b", who[~whole], binned, nb, y)
            np.add.at(t["bsum"], binned, v[~whole])
            add("k", who, pot_buckets(rules, v), N_BUCKETS, y)

    backend = backend or LocalBackend()
    _, partial = run_rounds(pots_task, static, sessions, SESSION_BLOCK, 2 * backend.chunk_scale, reduce,
                            progress=progress, backend=backend)  # fmt: skip
    n, y, yy = t["n"][0], t["y"][0], t["yy"][0]
    idx = np.flatnonzero(t["x"])
    bins = np.flatnonzero(t["bx"])
    values = np.concatenate([idx.astype(np.float64), t["bsum"][bins] / t["bx"][bins]])
    x = np.concatenate([t["x"][idx], t["bx"][bins]])
    xx = np.concatenate([t["xx"][idx], t["bxx"][bins]])
    xy = np.concatenate([t["xy"][idx], t["bxy"][bins]])
    exact = np.concatenate([np.ones(len(idx), bool), np.zeros(len(bins), bool)])
    order = np.argsort(values, kind="stable")
    prob, se = ratio_arrays(x, xx, xy, y, yy, n)
    bprob, bse = ratio_arrays(t["kx"], t["kxx"], t["kxy"], y, yy, n)
    mean, mse = ratio_arrays(t["s"], t["ss"], t["sy"], y, yy, n)
    return SessionPots(rules, list(table), int(n), deals, burn_in, seed, int(y), values[order], prob[order], se[order],
                       exact[order], float(mean[0]), float(mse[0]), bprob, bse, float(t["largest"][0]),
                       int(t["overflow"][0]), partial)  # fmt: skip


def ratio_arrays(x, xx, xy, y: float, yy: float, n: float) -> tuple[np.ndarray, np.ndarray]:
    """``stats.ratio_se`` elementwise: sum(x) / sum(y) over n sessions, delta-method SE."""
    x, xx, xy = (np.asarray(a, dtype=np.float64) for a in (x, xx, xy))
    if y <= 0 or n < 2:
        return np.full(x.shape, math.nan), np.full(x.shape, math.nan)
    r = x / y
    resid = np.maximum(xx - 2 * r * xy + r * r * yy, 0.0)
    ybar = y / n
    return r, np.sqrt(resid / (n - 1) / (n * ybar * ybar))
