"""Fictitious play (FP): the game-independent core, and an exact reference on small games.

The core works on tables of action values, one row per information set (infoset) and one
column per action (for Loo: 0 pass, 1 play, 2 miss, 3 defend):

- ``best_response``: each infoset's best allowed action (ties to the lowest index);
- ``averaging_weight``: how much the t-th best response counts in the running average;
- ``update_average``: fold one best response into the average strategy;
- ``exploitability_gain``: what a best response gains over a strategy, per infoset.

A Loo player declares once per deal, at an infoset it cannot come back to, so every
row's average is the plain (weighted) average of its best responses: no reach weighting.

The reference (used by the tests, and the definition the Loo solver is checked against):
``fictitious_play_normal`` / ``nash_conv_normal`` for n-player normal-form games, and
extensive-form FP on Kuhn poker (``kuhn_fictitious_play``, ``kuhn_value``,
``kuhn_nash_conv``), computed exactly by walking the game tree.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from loo_sim.base.errors import LooError

SCHEMES = ("uniform", "linear", "discounted:G")


# ---- the core ----------------------------------------------------------------------------
def _values_and_allowed(q: np.ndarray, allowed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    q = np.asarray(q, dtype=np.float64)
    allowed = np.asarray(allowed, dtype=bool)
    if q.ndim != 2 or q.shape != allowed.shape:
        raise LooError(f"action values {q.shape} and allowed {allowed.shape} must share one [infosets, actions] shape")
    return q, allowed


def best_response(q: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """Each infoset's best allowed action: int64 [I] from values ``q`` [I, A] and ``allowed`` [I, A].

    Deterministic tie-break: of equally good allowed actions the lowest index wins. A NaN
    value of an allowed action counts as -inf, so it is chosen only when every allowed
    action is NaN (or -inf): then the lowest allowed index. An infoset with no allowed
    action gets -1. Values of actions not allowed are ignored, NaN or not.
    """
    q, allowed = _values_and_allowed(q, allowed)
    scores = np.where(allowed & ~np.isnan(q), q, -np.inf)
    br = np.argmax(scores, axis=1)  # argmax returns the first maximum: the lowest index
    # a row whose best score is -inf has every allowed action at -inf/NaN, or none allowed:
    # argmax would then pick column 0 even if it is not allowed
    hopeless = scores[np.arange(len(br)), br] == -np.inf
    br = np.where(hopeless, np.argmax(allowed, axis=1), br)
    return np.where(allowed.any(axis=1), br, -1).astype(np.int64)


def averaging_weight(t: int, scheme: str) -> float:
    """The weight the t-th best response (t = 1, 2, ...) gets in ``update_average``.

    - ``uniform``: 1/t, classic FP: the average is the plain mean of the best responses.
    - ``linear``: 2/(t+1): the t-th best response is weighted by t, so the average is
      sum_t t*BR_t / sum_t t (later, better-informed responses count more).
    - ``discounted:G`` (a number G): the t-th best response is weighted by t**G,
      weight t**G / sum_{s<=t} s**G; G = 0 is uniform and G = 1 linear.

    The first weight is always 1, so the starting average does not survive the first update.
    """
    if isinstance(t, bool) or not isinstance(t, int | np.integer) or t < 1:
        raise LooError(f"iteration t must be an integer >= 1, not {t!r}")
    if scheme == "uniform":
        return 1.0 / t
    if scheme == "linear":
        return 2.0 / (t + 1)
    if isinstance(scheme, str) and scheme.startswith("discounted:"):
        try:
            g = float(scheme.split(":", 1)[1])
        except ValueError:
            g = math.nan
        if math.isfinite(g):  # t**g / sum s**g, as 1 / sum (s/t)**g: no overflow for a large G (discounted:400)
            ratios = np.arange(1, int(t) + 1, dtype=np.float64) / float(t)
            with np.errstate(over="ignore", divide="ignore"):  # a large negative G: (s/t)**G is inf, the weight 0
                return float(1.0 / np.sum(ratios**g))
    raise LooError(f"unknown averaging scheme {scheme!r}: allowed are {', '.join(SCHEMES)} (G a number)")


def update_average(
    avg: np.ndarray, br: np.ndarray, weight: float | np.ndarray, mask: np.ndarray | None = None
) -> np.ndarray:
    """The new average strategy [I, A]: (1-w)*avg + w*onehot(br) in the rows where ``mask`` is
    True (all rows if None) and ``br >= 0``; other rows are copied unchanged. ``avg`` is not
    modified. ``weight`` is one number in [0, 1], or one per infoset ([I]) for a caller
    that counts each infoset's updates itself. Rows that were probability vectors stay so.
    """
    avg = np.asarray(avg, dtype=np.float64)
    br = np.asarray(br, dtype=np.int64)
    if avg.ndim != 2 or br.shape != (avg.shape[0],):
        raise LooError(f"average {avg.shape} must be [infosets, actions] and best responses {br.shape} [infosets]")
    if br.max(initial=-1) >= avg.shape[1]:
        raise LooError(f"best response {int(br.max())} is not an action index below {avg.shape[1]}")
    w = np.broadcast_to(np.asarray(weight, dtype=np.float64), br.shape)
    if not np.all((w >= 0.0) & (w <= 1.0)):
        raise LooError(f"averaging weight must lie in [0, 1], not {weight!r}")
    rows = br >= 0
    if mask is not None:
        rows &= np.asarray(mask, dtype=bool)
    out = avg.copy()
    idx = np.flatnonzero(rows)
    out[idx] *= (1.0 - w[idx])[:, None]
    out[idx, br[idx]] += w[idx]
    return out


def exploitability_gain(q: np.ndarray, allowed: np.ndarray, strategy: np.ndarray) -> np.ndarray:
    """Per infoset [I]: the best allowed value minus the strategy's value sum_a strategy*q.

    0 where no action is allowed; never negative for a strategy over allowed actions. A
    strategy putting mass on an action that is not allowed is an error; NaN values of
    actions the strategy never plays are ignored (one it plays makes that row NaN).
    """
    q, allowed = _values_and_allowed(q, allowed)
    strategy = np.asarray(strategy, dtype=np.float64)
    if strategy.shape != q.shape:
        raise LooError(f"strategy {strategy.shape} must have the action values' shape {q.shape}")
    if np.any(strategy[~allowed] != 0.0):
        raise LooError("strategy puts probability on an action that is not allowed")
    br = best_response(q, allowed)
    rows = np.arange(len(br))
    best = np.where(br >= 0, q[rows, np.maximum(br, 0)], 0.0)
    played = np.where(strategy != 0.0, strategy * q, 0.0).sum(axis=1)
    return np.where(br >= 0, best - played, 0.0)


# ---- normal-form games ---------------------------------------------------------------------
@dataclass(frozen=True)
class NormalFormGame:
    """n players; ``payoffs[a1, ..., an, i]`` is player i's payoff when player k plays ak."""

    payoffs: np.ndarray

    def __post_init__(self) -> None:
        p = np.asarray(self.payoffs, dtype=np.float64)
        if p.ndim < 2 or p.shape[-1] != p.ndim - 1:
            raise LooError(f"payoffs {p.shape} must be [A1, ..., An, n]")
        object.__setattr__(self, "payoffs", p)

    @property
    def n_players(self) -> int:
        return self.payoffs.ndim - 1

    @property
    def n_actions(self) -> tuple[int, ...]:
        return self.payoffs.shape[:-1]


def action_values_normal(game: NormalFormGame, profile: list[np.ndarray], player: int) -> np.ndarray:
    """Player's expected payoff of each of its pure actions against the others' mixed strategies."""
    u = game.payoffs[..., player]
    for j in reversed(range(game.n_players)):  # contract the highest axis first: lower axes keep their place
        if j != player:
            u = np.tensordot(u, profile[j], axes=([j], [0]))
    return u


def _check_profile(game: NormalFormGame, profile: list[np.ndarray]) -> list[np.ndarray]:
    out = [np.asarray(s, dtype=np.float64) for s in profile]
    if [s.shape for s in out] != [(a,) for a in game.n_actions]:
        raise LooError(f"profile shapes {[s.shape for s in out]} do not match the actions {game.n_actions}")
    return out


def fictitious_play_normal(
    game: NormalFormGame, iterations: int, scheme: str = "uniform", start: list[np.ndarray] | None = None
) -> list[np.ndarray]:
    """Simultaneous FP: each iteration every player best-responds (ties to the lowest action)
    to the others' current averages, then all averages take their best response with
    ``averaging_weight(t, scheme)``. ``start`` (default uniform) is the belief the first
    best responses answer. Returns each player's average mixed strategy."""
    if iterations < 1:
        raise LooError(f"iterations must be >= 1, not {iterations}")
    averaging_weight(1, scheme)  # reject an unknown scheme before any work
    avg = _check_profile(game, start if start is not None else [np.full(a, 1.0 / a) for a in game.n_actions])
    for t in range(1, iterations + 1):
        w = averaging_weight(t, scheme)
        brs = [best_response(action_values_normal(game, avg, i)[None, :], np.ones((1, a), bool))
               for i, a in enumerate(game.n_actions)]  # fmt: skip
        avg = [update_average(avg[i][None, :], brs[i], w)[0] for i in range(game.n_players)]
    return avg


def nash_conv_normal(game: NormalFormGame, profile: list[np.ndarray]) -> float:
    """Sum over players of (best-response value - profile value): 0 exactly at a Nash
    equilibrium, positive elsewhere."""
    profile = _check_profile(game, profile)
    total = 0.0
    for i in range(game.n_players):
        v = action_values_normal(game, profile, i)
        total += float(v.max() - profile[i] @ v)
    return total


# ---- Kuhn poker (Kuhn 1950) ------------------------------------------------------------------
# Three cards J < Q < K, one to each player, ante 1 each; player 1 checks or bets 1; facing a
# bet a player folds or calls, after a check player 2 checks or bets; there is at most one bet.
# Histories are strings over "p" (pass: check or fold, action 0) and "b" (bet or call, action 1).
# An infoset is the mover's card and the history, e.g. "Q" and "Qpb" (player 1), "Kp", "Jb" (player 2).
# A profile is (player 1's strategy, player 2's): dicts infoset -> [P(p), P(b)].
KuhnProfile = tuple[dict[str, np.ndarray], dict[str, np.ndarray]]
CARDS = "JQK"
DEALS = [(a, b) for a in range(3) for b in range(3) if a != b]  # 6 deals, each with probability 1/6
_HISTORIES = (("", "pb"), ("p", "b"))  # each player's decision histories, player 1's earliest first
INFOSETS = tuple(tuple(c + h for c in CARDS for h in hs) for hs in _HISTORIES)
_TERMINAL = ("pp", "pbp", "pbb", "bp", "bb")


def kuhn_uniform() -> KuhnProfile:
    """Both players mix 50/50 at every infoset."""
    return tuple({k: np.array([0.5, 0.5]) for k in keys} for keys in INFOSETS)


def _payoff(h: str, c1: int, c2: int) -> float:
    """Player 1's winnings at a terminal history (the antes count: a fold loses 1)."""
    if h == "bp":
        return 1.0
    if h == "pbp":
        return -1.0
    stake = 1.0 if h == "pp" else 2.0
    return stake if c1 > c2 else -stake


def _value(h: str, deal: tuple[int, int], profile: KuhnProfile) -> float:
    """Player 1's expected winnings from history h of a deal."""
    if h in _TERMINAL:
        return _payoff(h, *deal)
    mover = len(h) % 2
    probs = profile[mover][CARDS[deal[mover]] + h]
    return sum(probs[a] * _value(h + "pb"[a], deal, profile) for a in (0, 1) if probs[a] != 0.0)


def _reach(strategy: dict[str, np.ndarray], card: str, h: str, player: int) -> float:
    """The probability ``player``'s own actions, holding ``card``, give to history h (its realization weight)."""
    r = 1.0
    for k in range(player, len(h), 2):
        r *= strategy[card + h[:k]]["pb".index(h[k])]
    return r


def kuhn_value(profile: KuhnProfile) -> float:
    """Player 1's expected winnings per deal under the profile (exact; -1/18 at equilibrium)."""
    return sum(_value("", d, profile) for d in DEALS) / len(DEALS)


def kuhn_best_response(profile: KuhnProfile, player: int) -> dict[str, np.ndarray]:
    """A pure best response of ``player`` to the other's strategy in ``profile``, as one-hot rows.

    Infosets are solved latest first, so each action's value already uses the best
    response further down. Ties go to the lowest action (pass), as in ``best_response``.
    """
    other = 1 - player
    sign = 1.0 if player == 0 else -1.0
    br = dict(profile[player])
    for h in reversed(_HISTORIES[player]):
        keys = [c + h for c in CARDS]
        q = np.zeros((3, 2))
        for deal in DEALS:
            row = deal[player]
            # counterfactual weight: chance (1/6) times the opponent's reach; player's own reach left out
            w = _reach(profile[other], CARDS[deal[other]], h, other) / len(DEALS)
            if w == 0.0:
                continue
            trial = (br, profile[other]) if player == 0 else (profile[other], br)
            for a in (0, 1):
                q[row, a] += w * sign * _value(h + "pb"[a], deal, trial)
        for k, a in zip(keys, best_response(q, np.ones((3, 2), bool)), strict=True):
            br[k] = np.eye(2)[a]
    return br


def kuhn_nash_conv(profile: KuhnProfile) -> float:
    """What both players together gain by best-responding: 0 exactly at a Nash equilibrium."""
    v = kuhn_value(profile)
    gain1 = kuhn_value((kuhn_best_response(profile, 0), profile[1])) - v
    gain2 = v - kuhn_value((profile[0], kuhn_best_response(profile, 1)))
    return gain1 + gain2


def _xfp_update(avg: dict[str, np.ndarray], br: dict[str, np.ndarray], w: float, player: int) -> dict[str, np.ndarray]:
    # XFP (Heinrich, Lanctot & Silver 2015, Theorem 7): mixing two behavioural strategies as
    # (1-w)*avg + w*br in the normal form is realization-equivalent to mixing each infoset u
    # with the weight of br's share of the reach of u:
    #   avg'(u) = avg(u) + w*x_br(u) * (br(u) - avg(u)) / ((1-w)*x_avg(u) + w*x_br(u)),
    # x the player's own reach probability of u. Mixing every infoset with plain w (as for
    # Loo, where each player moves once and every reach is 1) would be wrong here: player
    # 1's "pb" infosets are reached only through its own first check.
    new = {}
    for key, old in avg.items():
        x_avg = _reach(avg, key[0], key[1:], player)
        x_br = _reach(br, key[0], key[1:], player)
        denom = (1.0 - w) * x_avg + w * x_br
        # denom 0: neither strategy reaches u, nor does their mixture; any choice there is equivalent
        new[key] = old if denom == 0.0 else old + w * x_br * (br[key] - old) / denom
    return new


def kuhn_fictitious_play(
    iterations: int,
    scheme: str = "uniform",
    on_iteration: Callable[[int, KuhnProfile], None] | None = None,
) -> KuhnProfile:
    """Extensive-form FP on Kuhn poker from the uniform profile: each iteration both players
    best-respond to the other's current average, and both averages take their best
    response with ``averaging_weight(t, scheme)``, reach-weighted as XFP prescribes.
    ``on_iteration(t, average)`` is called after each update. Returns the average profile."""
    if iterations < 1:
        raise LooError(f"iterations must be >= 1, not {iterations}")
    averaging_weight(1, scheme)
    avg = kuhn_uniform()
    for t in range(1, iterations + 1):
        w = averaging_weight(t, scheme)
        br1, br2 = kuhn_best_response(avg, 0), kuhn_best_response(avg, 1)
        avg = (_xfp_update(avg[0], br1, w, 0), _xfp_update(avg[1], br2, w, 1))
        if on_iteration is not None:
            on_iteration(t, avg)
    return avg
