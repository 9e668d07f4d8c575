"""A tournament's tables (``run.tournament``): the league, results by position, and the
head-to-head matrix, each estimate with its standard error and 95% interval, the session
(every lineup on the same decks) the unit of every standard error."""

from __future__ import annotations

import pandas as pd

from loo_sim.base.stats import mean_se, normal_ci
from loo_sim.run.tournament import TournamentResult


def _row(total: float, square: float, count: float) -> dict:
    mean, se = mean_se(total, square, count)
    lo, hi = normal_ci(mean, se)
    return dict(chips_per_deal=mean, se=se, ci_low=lo, ci_high=hi, sessions=int(count))


def league_table(res: TournamentResult) -> pd.DataFrame:
    """Each heuristic's chips per deal, the mean over sessions of its seats' net chips per deal
    played (all its seats in all lineups pooled), best first."""
    rows = [dict(heuristic=name, **_row(*res.league[h]), seat_deals=int(res.seat_deals[h]))
            for h, name in enumerate(res.names)]  # fmt: skip
    return pd.DataFrame(rows).sort_values("chips_per_deal", ascending=False, kind="stable").reset_index(drop=True)


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


def league_sentences(league: pd.DataFrame, h2h: pd.DataFrame) -> list[str]:
    """What the league says, in sentences drawn from its own numbers: the leader, and which
    heuristics it beats head to head with an interval clear of 0."""
    top = league.iloc[0]
    lines = [f"`{top.heuristic}` has the highest mean, {top.chips_per_deal:+.3f} chips per deal "
             f"[{top.ci_low:+.3f}, {top.ci_high:+.3f}] over {top.sessions:,} sessions; the order is judged "
             "below from the paired head-to-head differences, not from these means."]  # fmt: skip
    mine = h2h[h2h["a"] == top.heuristic]
    beaten = mine[mine["ci_low"] > 0]
    unclear = mine[(mine["ci_low"] <= 0) & (mine["ci_high"] >= 0)]
    if len(beaten):
        lines.append(
            "Head to head at the same tables it beats "
            + ", ".join(
                f"`{r.b}` by {r.difference:+.3f} [{r.ci_low:+.3f}, {r.ci_high:+.3f}]" for r in beaten.itertuples()
            )
            + "."
        )
    if len(unclear):
        lines.append("Against " + ", ".join(f"`{b}`" for b in unclear["b"]) + " the head-to-head interval "
                     "includes 0: these sessions do not tell them apart.")  # fmt: skip
    lost = mine[mine["ci_high"] < 0]
    if len(lost):
        lines.append(
            "Yet it loses head to head to "
            + ", ".join(f"`{r.b}` ({r.difference:+.3f} [{r.ci_low:+.3f}, {r.ci_high:+.3f}])" for r in lost.itertuples())
            + "."
        )
    return lines
