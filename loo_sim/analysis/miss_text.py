"""The miss study in words (summary.md): how the chart is read, what it says, the
heuristics compared at the same table and how the verdicts move with the pot. Every
number comes from the study's tables (the CSVs), so a summary never says what the files
do not."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from loo_sim.analysis.miss import ALL, Share, decision_shares, default_slice, paired_difference, pooled
from loo_sim.analysis.text import chips_text, per_deal_ci
from loo_sim.base.rng import HEURISTIC_CARRIED_SESSION, MISS_CARRIED_SESSION
from loo_sim.game import abi as L
from loo_sim.game.classes import grid_text
from loo_sim.run.decisions import DecisionResult, HeuristicResult
from loo_sim.run.session_pots import POT_BUCKET_NAMES, antes_total

CHART_DEFINITION = (
    "Decisions are keyed by what the deciding player can see when declaring: the hand class (the grid "
    "below), the position from the dealer's left, whether the miss is still on offer to them (to take, or "
    "as the dealer to defend with) and how many earlier seats are in (0, 1, 2, 3 or more). The best action "
    "of a cell is chosen only from paired differences on the same decisions: two actions are compared on "
    "the decisions where both were on offer, each replayed on the same deal, and the best is the action "
    "whose smallest paired margin over the others is largest. It is marked significant (a solid box) only "
    'when every paired 95% interval against another action excludes 0, and dashed with a "?" otherwise. '
    'chart.csv holds every cell, pooled and not (columns position, miss_on_offer, earlier_in; "all" where '
    "pooled); the `chart` policy plays each cell's best action, falling back to the position pooled over "
    "earlier seats, then to all positions, then to basic."
)


def miss_offered(chart_df: pd.DataFrame) -> bool:
    """Whether any decision of a chart had the miss on offer (to take or defend with)."""
    return bool(chart_df.action.isin(["miss", "defend"]).any())


def miss_title(rules, chart_df: pd.DataFrame) -> str:
    """The question a miss study answers: where no decision had the miss on offer (no miss
    in the rules, R5, or only single pots, R8) it compares playing with passing."""
    if miss_offered(chart_df):
        return "When to take the miss"
    if not len(chart_df):
        return "No declaration to judge (no seat had a choice)"
    return "Play or pass (no miss in this game)" if not rules.miss else "Play or pass (no miss on offer)"


def _no_miss_line(rules, chart_df: pd.DataFrame) -> list[str]:
    if miss_offered(chart_df) or not len(chart_df):
        return []
    if not rules.miss:
        why = "This rule set deals no miss (R5), so nobody can take one"
    else:
        why = ("No decision here had the miss on offer (a single pot deals none, R8, and club law forbids it, "
               "R9b)")  # fmt: skip
    return [f"{why}: the charts compare playing with passing, and the heuristics differ only in when they "
            "play.", ""]  # fmt: skip


def miss_summary(preset: str, chart: DecisionResult, chart_df: pd.DataFrame, heur: HeuristicResult,
                 heur_df: pd.DataFrame, shares: pd.DataFrame, command: str,
                 charts: list[tuple[str, int]] | None = None) -> str:  # fmt: skip
    """summary.md of a miss study: plain sentences, every number taken from the run's tables
    (``charts``: the name and player count of each chart drawn, the main run's first)."""
    rules = chart.rules
    pot = pot_words(chart)
    others = ", ".join(sorted({str(p) for p in chart.policies}))
    deciding = "every seat in turn" if len(chart.focal) == rules.players else f"seat {chart.focal[0]}"
    lines = [f"# {miss_title(rules, chart_df)}: {preset}, {rules.players} players", "",
             f"Produced by `{command}`.", "", *_no_miss_line(rules, chart_df)]  # fmt: skip
    lines += [f"Each deal is replayed once per declaration on offer to the seat deciding ({deciding}), "
              f"the other seats playing {others}; payoffs are the deciding seat's net chips for the deal "
              f"(shares - antes - penalties), here with {pot}, over {chart.deals:,} deals.", "",
              "## How the chart is read", "", CHART_DEFINITION, ""]  # fmt: skip
    charts = charts or [("chart", rules.players)]
    panels = "the miss on offer (left) and not on offer (right)" if miss_offered(chart_df) else "no miss on offer"
    for name, n in charts if len(chart_df) else []:
        main = " (the main run, whose chart the `chart` policy below plays)" if len(charts) > 1 and n == rules.players \
            else ""  # fmt: skip
        lines.append(f"- `{name}.png` (every cell in `{name}.csv`): {n} players, {pot}{main}; {panels}, every "
                     "position and number of earlier seats in pooled.")  # fmt: skip
    lines.append("")
    lines += session_pot_lines(chart, chart_df)
    view = default_slice(chart_df)
    lines += _chart_lines(chart, chart_df, pot, view)
    lines += _heuristic_lines(heur, heur_df, miss_offered(chart_df))
    lines += _sweep_lines(shares)
    lines += ["", "## The hand-class grid", "", "```", grid_text(rules), "```", ""]
    return "\n".join(lines)


def pot_words(res) -> str:
    """The pot a miss run's deals were played from, in words."""
    if res.pots is not None:
        return f"carried pots drawn from sessions (mean {res.pots.mean:,.4g} chips)"
    return "a clean pot" if res.carried == 0 else f"{res.carried:g} chips carried in"


def session_pot_lines(chart: DecisionResult, chart_df: pd.DataFrame) -> list[str]:
    """How a chart's carried pots were drawn from sessions (``--carried session``), what
    they were, and how the verdicts move with the pot bucket; [] for a fixed pot."""

    p = chart.pots
    if p is None:
        return []
    rules = chart.rules
    ante = antes_total(rules)
    lines = ["## The carried pot, drawn from sessions", "",
             f"The carried pot of each chart deal (and of each heuristic deal) was drawn from the pots met in "
             f"sessions under these rules with the table's own policies: {p.sessions:,} sessions of {p.deals} deals "
             f"each, from a clean pot (R10), the first {p.burn_in} deals of each session dropped as burn-in, so "
             f"{p.counted:,} deals were counted. Their carried pot (what the previous deal left; the pot is it "
             f"plus the {chips_text(ante)} chips of antes) has mean {p.mean:,.4g} ± {p.mean_se:.2g} chips (SE, the "
             f"session as the unit). The distribution is `session_pots.csv` (carried pot, probability, SE, and "
             f"whether the value is exact: a whole number of chips below {L.EXACT_CHIPS:,}, else a log bin's mean, "
             f"32 bins a decade); deal k's pot is the atom that word 0 of its own counter-based stream (seed, "
             f"{MISS_CARRIED_SESSION}, k) picks by the cumulative probabilities, so the draws do not depend on "
             "threads or blocks.", ""]  # fmt: skip
    top = np.argsort(-p.prob, kind="stable")[:6]
    atoms = ", ".join(f"{chips_text(p.values[i])} ({p.prob[i]:.1%} ± {p.se[i]:.1%})" for i in sorted(top))
    more = f" (the {len(top)} likeliest of {len(p.values):,} values)" if len(p.values) > len(top) else ""
    lines.append(f"- Carried pots met{more}: {atoms}.")
    if p.overflow_sessions:
        lines.append(f"- {p.overflow_sessions:,} sessions stopped early, their pot past {L.OVERFLOW_LIMIT:g} chips "
                     "(R3).")  # fmt: skip
    if rules.penalty == "unlimited":
        lines.append(f"- Under the unlimited penalty the pot of a session grows without bound (each looed player "
                     f"pays the whole pot): the largest carried pot counted was {chips_text(p.largest)} chips. The "
                     "draw takes each deal's carried pot from this distribution all the same, so the chart's means are "
                     "weighted by the large pots, and the distribution depends on the session length and "
                     "burn-in chosen (it has no steady state). A loo costs the pot itself, so the pot against the "
                     f"penalty is always the first bucket ({POT_BUCKET_NAMES[0]}): the pot buckets tell nothing "
                     "here.")  # fmt: skip
    shares = [f"{POT_BUCKET_NAMES[b]}: {p.bucket_prob[b]:.1%} ± {p.bucket_se[b]:.1%}"
              for b in range(len(POT_BUCKET_NAMES)) if p.bucket_prob[b] > 0]  # fmt: skip
    lines.append("- The pot against the penalty a loo costs (pot_start / penalty), share of the deals counted: "
                 + "; ".join(shares) + ". `chart.csv` has the column `pot_bucket` (`all`: every deal; the charts "
                 "drawn are the `all` rows), and `chart-by-pot.png` shows each bucket's chart.")  # fmt: skip
    lines += _bucket_verdict_lines(chart_df)
    return lines + [""]


def _bucket_verdict_lines(chart_df: pd.DataFrame) -> list[str]:
    """How often a hand class's best action (every position and earlier seats pooled)
    changes between pot buckets."""
    if "pot_bucket" not in chart_df.columns or not len(chart_df):
        return []
    cells = chart_df[(chart_df.position == ALL) & (chart_df.earlier_in == ALL) & (chart_df.pot_bucket != ALL)
                     & chart_df.best]  # fmt: skip
    groups = cells.groupby(["hand_class", "miss_on_offer"])["action"]
    judged = groups.size()
    judged = judged[judged >= 2]
    if not len(judged):
        return ["- No hand class has a verdict in two pot buckets or more (the pots met fall in one bucket, or the "
                "other buckets hold too few decisions)."]  # fmt: skip
    changes = int((groups.nunique()[judged.index] > 1).sum())
    return [f"- Of the {len(judged):,} (hand class, miss on offer) rows with a verdict in at least two pot buckets, "
            f"{changes:,} {'has' if changes == 1 else 'have'} a best action that changes with the pot."]  # fmt: skip


def _chart_lines(chart: DecisionResult, chart_df: pd.DataFrame, pot: str, view: dict) -> list[str]:
    rules = chart.rules
    players = rules.players
    offer = bool(view["miss_on_offer"])
    cells = pooled(chart_df)
    cells = cells[cells.miss_on_offer == offer]
    best = cells[cells.best]
    lines = ["## What the chart says", ""]
    if not len(chart_df):
        return lines + ["- No decision of this run had a real choice, so there is no chart (in a single pot nobody "
                        "may pass and no miss is dealt, R8)."]  # fmt: skip
    where = "with the miss on offer" if offer else "with no miss on offer"
    for r in best.sort_values("decisions", ascending=False).head(8).itertuples(index=False):
        if r.runner_up:
            verdict = "significantly" if r.significant else "but not significantly"
            lines.append(f"- For hands '{r.label}' {where} ({r.decisions:,} decisions, every position and number "
                         f"of earlier seats in), **{r.action}** is best, beating {r.runner_up} {verdict} (paired, "
                         f"on the same decisions): {per_deal_ci(r.diff_vs_runner_up, r.diff_se)}.")  # fmt: skip
    if miss_offered(chart_df):
        miss_best = best[best.action == "miss"]
        passing = set(cells[cells.action == "pass"].hand_class)
        wins = [r for r in miss_best.itertuples(index=False) if r.hand_class in passing]
        if wins:
            top = max(wins, key=lambda r: r.decisions)
            summed = chart.totals[top.hand_class, 1 : players + 1, 1].sum(axis=(0, 1))
            d, dse = paired_difference(summed, L.DECL_MISS, L.DECL_PASS)
            lines.append(f"- With {players} players and {pot}, taking the miss beats passing for hands "
                         f"'{top.label}' (paired, where both were on offer): {per_deal_ci(d, dse)}.")  # fmt: skip
        else:
            lines.append(f"- With {players} players and {pot}, taking the miss is not the best declaration "
                         "for any hand class with enough decisions.")  # fmt: skip
    lines += _earlier_lines(chart_df)
    share: dict[str, Share] = decision_shares(chart)
    wording = {"play": "play in {s} of the decisions (playing is always on offer)",
               "pass": "pass in {s} of those where passing was allowed",
               "miss": "miss in {s} of those where the miss was on offer",
               "defend": "defend in {s} of those where the dealer could defend"}  # fmt: skip
    order = ("play", "pass", "miss", "defend")
    parts = [wording[a].format(s=f"{share[a].share:.1%}") for a in order if share[a].on_offer]
    lines.append("- Judged cell by cell as the chart policy decides (hand class, position, miss on offer, earlier "
                 "seats in), the best declaration is " + ", ".join(parts) + ". Each share is of the decisions "
                 "where that action was on offer, so they need not add up to 100%.")  # fmt: skip
    return lines


def _earlier_lines(chart_df: pd.DataFrame) -> list[str]:
    """How often the verdict of a (class, position, miss on offer) cell changes with the
    number of earlier seats in (why the chart is keyed by it)."""
    if "pot_bucket" in chart_df.columns:
        chart_df = chart_df[chart_df.pot_bucket == ALL]
    cells = chart_df[(chart_df.position != ALL) & (chart_df.earlier_in != ALL) & chart_df.best]
    groups = cells.groupby(["hand_class", "position", "miss_on_offer"])["action"]
    judged = groups.size()
    judged = judged[judged >= 2]
    if not len(judged):
        return []
    changes = int((groups.nunique()[judged.index] > 1).sum())
    return [f"- Of the {len(judged):,} cells (hand class, position, miss on offer) with a verdict for at least two "
            f"numbers of earlier seats in, {changes:,} {'has' if changes == 1 else 'have'} a best action that depends "
            "on how many earlier seats are in."]  # fmt: skip


def _heuristic_lines(heur: HeuristicResult, heur_df: pd.DataFrame, miss: bool = True) -> list[str]:
    base = heur.names[0]
    lines = ["", "## Heuristics compared at the same table", "",
             f"Seat {heur.focal} plays each heuristic in turn on the same {heur.deals:,} deals (other deals than the "
             f"chart's{_heuristic_pots(heur)}); the other seats keep their policies. Paired differences against "
             f"{base}.", ""]  # fmt: skip
    ratio = []
    for r in heur_df.itertuples(index=False):
        if r.heuristic == base:
            takes = f", takes the miss in {r.miss_rate:.1%} of deals" if miss else ""
            lines.append(f"- {base}: {r.net_mean:+.3f} ± {r.net_se:.3f} chips per deal, loo rate "
                         f"{r.loo_rate:.3f}{takes}.")  # fmt: skip
            continue
        ratio.append(r.diff_se_paired / r.diff_se_unpaired if r.diff_se_unpaired else math.nan)
        taken = f", miss taken in {r.miss_rate:.1%} of deals" if miss else ""
        lines.append(f"- {r.heuristic}: {per_deal_ci(r.diff_vs_baseline, r.diff_se_paired)} against {base} "
                     f"(loo rate {r.loo_rate:.3f}{taken}).")  # fmt: skip
    best_h = heur_df.loc[heur_df.net_mean.idxmax()]
    lines.append(f"- The best of them here is {best_h.heuristic} ({best_h.net_mean:+.3f} chips per deal).")
    if ratio:
        lines.append(f"- Pairing pays: the paired standard errors are {np.nanmean(ratio):.2f} times the unpaired "
                     "ones on average.")  # fmt: skip
    return lines


def _heuristic_pots(heur: HeuristicResult) -> str:
    if heur.pots is None:
        return ""

    return (
        ", each from a carried pot drawn from the same session distribution, deal k's by its own stream "
        f"(seed, {HEURISTIC_CARRIED_SESSION}, k)"
    )


def _sweep_lines(shares: pd.DataFrame) -> list[str]:
    if not len(shares):
        return []
    lines = []
    offered = {"play": "decisions", "pass": "decisions where passing was allowed",
               "miss": "decisions where the miss was on offer"}  # fmt: skip
    for (players, action), group in shares.groupby(["players", "action"]):
        group = group.sort_values("carried")
        if action in ("miss", "play") and len(group) > 1:
            a, b = group.iloc[0], group.iloc[-1]
            lines.append(f"- {players} players: the share of the {offered[action]} where {action} is best goes "
                         f"from {a.share:.1%} with {a.carried:g} chips carried in to {b.share:.1%} with "
                         f"{b.carried:g}.")  # fmt: skip
    return ["", "## As the pot and the table change", "", *lines] if lines else []
