"""A tournament's tables (``run.tournament``): the league, results by position, and the
head-to-head matrix, each estimate with its standard error and 95% interval, the session
(every lineup on the same decks) the unit of every standard error."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from loo_sim.analysis.text import interval_text
from loo_sim.base.stats import Z95, mean_se, normal_ci
from loo_sim.game.rules import Penalty, Rules
from loo_sim.run.tournament import TournamentResult


def _row(total: float, square: float, count: float) -> dict:
    mean, se = mean_se(total, square, count)
    lo, hi = normal_ci(mean, se)
    return dict(chips_per_deal=mean, se=se, ci_low=lo, ci_high=hi, sessions=int(count))


def binned_rank(counts: np.ndarray, sums: np.ndarray, rank: int) -> float:
    """The rank-th smallest (from 1) of values counted in bins ordered by value, read as its
    bin's mean (``sums / counts``): within the bin's width of the true order statistic."""
    b = int(np.searchsorted(np.cumsum(counts), rank, side="left"))
    return float(sums[b] / counts[b])


def median_interval(counts: np.ndarray, sums: np.ndarray) -> tuple[float, float, float]:
    """The median of a binned sample of n and its distribution-free 95% interval: the order
    statistics of ranks n/2 -+ 1.96 sqrt(n)/2 (the binomial count of values below the
    median, in its normal approximation), each read as its bin's mean."""
    n = int(counts.sum())
    if n == 0:
        return math.nan, math.nan, math.nan
    half = Z95 * math.sqrt(n) / 2
    low, high = max(1, math.floor(n / 2 - half)), min(n, math.ceil(n / 2 + half))
    return tuple(binned_rank(counts, sums, r) for r in (math.ceil(n / 2), low, high))


def no_mean(rules: Rules) -> bool:
    """Whether a session's mean result says nothing: under the unlimited penalty each looed
    player pays the whole pot (R3), so the pot, and a session's result with it, can grow by a
    factor with every deal, and the mean over sessions is carried by the few largest."""
    return rules.penalty is Penalty.UNLIMITED


def league_table(res: TournamentResult) -> pd.DataFrame:
    """Each heuristic's chips per deal, the mean over sessions of its seats' net chips per deal
    played (all its seats in all lineups pooled), and the median session's with its
    order-statistic 95% interval (``median_interval``; bins 32 per decade, so within 7.5%).
    Best first: by the median under the unlimited penalty (``no_mean``), else by the mean."""
    rows = []
    for h, name in enumerate(res.names):
        median, low, high = median_interval(res.result_hist[h], res.result_sum[h])
        rows.append(dict(heuristic=name, **_row(*res.league[h]), seat_deals=int(res.seat_deals[h]), median=median,
                         median_ci_low=low, median_ci_high=high))  # fmt: skip
    by = "median" if no_mean(res.rules) else "chips_per_deal"
    return pd.DataFrame(rows).sort_values(by, ascending=False, kind="stable").reset_index(drop=True)


def position_table(res: TournamentResult) -> pd.DataFrame:
    """Each heuristic's chips per deal at each position from the dealer's left (1 = eldest,
    players = the dealer)."""
    n = res.rules.players
    rows = [dict(heuristic=name, position=p, **_row(*res.by_position[h, p]))
            for h, name in enumerate(res.names) for p in range(1, n + 1)]  # fmt: skip
    return pd.DataFrame(rows)


def head_to_head_table(res: TournamentResult) -> pd.DataFrame:
    """For each ordered pair (a, b): the mean over sessions of a's chips per deal minus b's at
    the tables seating both (paired: the same decks), with its interval."""
    rows = []
    for a, name_a in enumerate(res.names):
        for b, name_b in enumerate(res.names):
            if a != b:
                row = _row(*res.head_to_head[a, b])
                row["difference"] = row.pop("chips_per_deal")
                rows.append(dict(a=name_a, b=name_b, **row))
    return pd.DataFrame(rows)


def design_table(res: TournamentResult) -> pd.DataFrame:
    """The lineups: which heuristic sits in each seat of each."""
    return pd.DataFrame([dict(lineup=r, seat=s, heuristic=res.names[k])
                         for r, seats in enumerate(res.lineups) for s, k in enumerate(seats)])  # fmt: skip


def top_share(counts: np.ndarray, sums: np.ndarray, fraction: float = 0.01) -> float:
    """The share of the sum of |results| that the ``fraction`` of sessions with the largest
    |result| hold (binned results, each bin read as its mean, the last bin taken in part)."""
    nz = np.flatnonzero(counts)
    c, s = counts[nz], np.abs(sums[nz])
    order = np.argsort(-(s / c), kind="stable")
    c, s = c[order], s[order]
    took = np.clip(fraction * c.sum() - (np.cumsum(c) - c), 0.0, c)
    return float((s / c * took).sum() / s.sum())


def no_mean_sentence(res: TournamentResult) -> str:
    """Why the league shows medians under the unlimited penalty, with what the run measured."""
    shares = [top_share(res.result_hist[h], res.result_sum[h]) for h in range(len(res.names))]
    return (f"No mean is shown: under the unlimited penalty each looed player pays the whole pot (R3), so the pot, "
            "and a session's result with it, can grow by a factor with every deal, and a mean over sessions is "
            "carried by the few sessions whose pot grew largest: here the 1% of sessions with the largest results "
            f"hold {min(shares):.0%} to {max(shares):.0%} of the sum of each heuristic's absolute results. The "
            "means and their normal intervals (league.csv keeps them) rest on those few sessions; the median "
            "session and its interval (order statistics, valid for any distribution) do not. Medians are read "
            "from log bins, 32 per decade, so within 7.5%.")  # fmt: skip


def head_to_head_sentence(median: bool) -> str:
    """What the head-to-head figures are (and, under the unlimited penalty, what they rest on)."""
    text = ("The head-to-head figures (head_to_head.csv, head_to_head.png and the sentences above) are per-table "
            "means: in each session, a's chips per deal minus b's at the tables seating both, averaged over those "
            "tables and then over sessions, paired on the same decks; they are not differences of the league "
            "figures above.")  # fmt: skip
    if median:
        text += " Being means, under this penalty they rest on the largest sessions as well."
    return text


def league_sentences(league: pd.DataFrame, h2h: pd.DataFrame, median: bool = False) -> list[str]:
    """What the league says, in sentences drawn from its own numbers: the leader (by the
    median under the unlimited penalty, else by the mean), and which heuristics it beats
    head to head with an interval clear of 0."""
    top = league.iloc[0]
    if median:
        lines = [f"`{top.heuristic}` has the highest median, "
                 f"{interval_text(top['median'], top.median_ci_low, top.median_ci_high, signed=True)} chips per "
                 f"deal over {top.sessions:,} sessions."]  # fmt: skip
    else:
        lines = [f"`{top.heuristic}` has the highest mean, {top.chips_per_deal:+.3f} chips per deal "
                 f"[{top.ci_low:+.3f}, {top.ci_high:+.3f}] over {top.sessions:,} sessions; the order is judged "
                 "below from the paired head-to-head differences, not from these means."]  # fmt: skip
    mine = h2h[h2h["a"] == top.heuristic]
    beaten = mine[mine["ci_low"] > 0]
    unclear = mine[(mine["ci_low"] <= 0) & (mine["ci_high"] >= 0)]
    if len(beaten):
        lines.append(
            "Head to head at the same tables it beats "
            + ", ".join(f"`{r.b}` by {_diff(r, median)}" for r in beaten.itertuples())
            + "."
        )
    if len(unclear):
        lines.append("Against " + ", ".join(f"`{b}`" for b in unclear["b"]) + " the head-to-head interval "
                     "includes 0: these sessions do not tell them apart.")  # fmt: skip
    lost = mine[mine["ci_high"] < 0]
    if len(lost):
        lines.append(
            "Yet it loses head to head to "
            + ", ".join(f"`{r.b}` ({_diff(r, median)})" for r in lost.itertuples())
            + "."
        )
    return lines


def _diff(r, median: bool) -> str:
    """A head-to-head difference with its interval: three decimals, or under the unlimited
    penalty (``median``) at the precision its interval supports (1e+10, not 10000000000.000)."""
    if median:
        return interval_text(r.difference, r.ci_low, r.ci_high, signed=True)
    return f"{r.difference:+.3f} [{r.ci_low:+.3f}, {r.ci_high:+.3f}]"
