"""Results in words: the text table ``loo-sim simulate`` prints and the summary.md of
each kind of study (simulate, miss, pots, variants). Every number comes from the
study's tables (the CSVs), so a summary never says what the files do not.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from loo_sim.analysis.miss import ALL, Share, decision_shares, default_slice, paired_difference
from loo_sim.game.classes import grid_text
from loo_sim.kernel import abi as L
from loo_sim.run.decisions import DecisionResult, HeuristicResult
from loo_sim.run.sessions import PotsResult
from loo_sim.run.simulate import SimResult
from loo_sim.stats import normal_ci


def _ci(mean: float, se: float) -> str:
    lo, hi = normal_ci(mean, se)
    return f"{mean:+.2f} chips per deal, 95% CI [{lo:+.2f}, {hi:+.2f}]"


def _fmt(x: float) -> str:
    """Chips as a person reads them: 21, 1,520, 3.4e+12."""
    if x != x:
        return "n/a"
    if abs(x) >= 1e7:
        return f"{x:.3g}"
    if abs(x) >= 100 or float(x).is_integer():
        return f"{x:,.0f}"
    return f"{x:.2f}"


# ---- simulate ------------------------------------------------------------------------------
def format_summary(res: SimResult, df: pd.DataFrame) -> str:
    """The table ``loo-sim simulate`` prints (``df``: ``analysis.simulate.summary_table``)."""
    h = res.rules.hand_size
    seats = [str(s) for s in range(res.rules.players)] + ["all"]
    by = {(r.seat, r.metric): r for r in df.itertuples(index=False)}
    lines = []
    head = f"{'seat':>4}  {'play':>6} {'pass':>6} {'miss':>6} {'defend':>6}  " + " ".join(
        f"{'t=' + str(k):>6}" for k in range(h + 1)
    )
    head += f"  {'loo rate [95% CI]':<24} {'net chips/deal ± SE':<20}"
    lines.append(head)
    for seat in seats:
        rates = " ".join(f"{by[(seat, m)].value:6.3f}" for m in ("play_rate", "pass_rate", "miss_rate", "defend_rate"))
        tricks = " ".join(f"{by[(seat, f'tricks_{k}')].value:6.3f}" for k in range(h + 1))
        loo = by[(seat, "loo_rate")]
        net = by[(seat, "net_per_deal")]
        lines.append(
            f"{seat:>4}  {rates}  {tricks}  {loo.value:.4f} [{loo.ci_low:.4f}, {loo.ci_high:.4f}]   "
            f"{net.value:+.4f} ± {net.se:.4f}"
        )
    lines.append("rates: share of deals with each declaration; t=k: share of hands played that won k tricks.")
    o = {name: by[("all", f"outcome_{name}")] for name in L.OUTCOME_NAMES}
    lines.append(
        "outcomes: "
        + ", ".join(f"{name} {o[name].value:.4f} [{o[name].ci_low:.4f}, {o[name].ci_high:.4f}]" for name in o)
    )
    pn = by[("all", "pot_next")]
    lines.append(f"pot carried to the next deal: {pn.value:.4f} ± {pn.se:.4f} chips")
    if res.rules.flush:
        f = by[("all", "outcome_flush")]
        lines.append(f"deals won by a flush: {f.value:.5f} [{f.ci_low:.5f}, {f.ci_high:.5f}]")
        per = ", ".join(f"seat {s} {by[(str(s), 'flush_held_at_show')].value:.5f}" for s in range(res.rules.players))
        lines.append(f"hands holding a flush at the show: {per}")
    return "\n".join(lines)


def simulate_summary(res: SimResult, tables: dict[str, pd.DataFrame], preset: str, command: str) -> str:
    """summary.md of a simulate study: the printed table, then each position's net chips,
    loo rate and entry rate (``tables``: summary and positions)."""
    lines = [f"# simulate: {preset}, {res.rules.players} players", "", f"Produced by `{command}`.", "",
             f"{res.deals_done:,} independent deals, each with {res.carried:g} chips carried in.", "",
             "```", format_summary(res, tables["summary"]), "```", "",
             "By position from the dealer's left (1 = eldest hand):", ""]  # fmt: skip
    for r in tables["positions"].itertuples(index=False):
        lines.append(
            f"- position {r.position}: {r.net_mean:+.3f} chips per deal (95% CI [{r.net_ci_low:+.3f}, "
            f"{r.net_ci_high:+.3f}]), looed in {r.loo_rate:.2%} of deals, in the deal in {r.in_rate:.2%}."
        )
    return "\n".join(lines) + "\n"


# ---- miss ----------------------------------------------------------------------------------
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
    pot = "a clean pot" if chart.carried == 0 else f"{chart.carried:g} chips carried in"
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
    view = default_slice(chart_df)
    lines += _chart_lines(chart, chart_df, pot, view)
    lines += _heuristic_lines(heur, heur_df, miss_offered(chart_df))
    lines += _sweep_lines(shares)
    lines += ["", "## The hand-class grid", "", "```", grid_text(rules), "```", ""]
    return "\n".join(lines)


def _chart_lines(chart: DecisionResult, chart_df: pd.DataFrame, pot: str, view: dict) -> list[str]:
    rules = chart.rules
    players = rules.players
    offer = bool(view["miss_on_offer"])
    cells = chart_df[(chart_df.position == ALL) & (chart_df.earlier_in == ALL) & (chart_df.miss_on_offer == offer)]
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
                         f"on the same decisions): {_ci(r.diff_vs_runner_up, r.diff_se)}.")  # fmt: skip
    if miss_offered(chart_df):
        miss_best = best[best.action == "miss"]
        passing = set(cells[cells.action == "pass"].hand_class)
        wins = [r for r in miss_best.itertuples(index=False) if r.hand_class in passing]
        if wins:
            top = max(wins, key=lambda r: r.decisions)
            pooled = chart.totals[top.hand_class, 1 : players + 1, 1].sum(axis=(0, 1))
            d, dse = paired_difference(pooled, L.DECL_MISS, L.DECL_PASS)
            lines.append(f"- With {players} players and {pot}, taking the miss beats passing for hands "
                         f"'{top.label}' (paired, where both were on offer): {_ci(d, dse)}.")  # fmt: skip
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
             f"chart's); the other seats keep their policies. Paired differences against {base}.", ""]  # fmt: skip
    ratio = []
    for r in heur_df.itertuples(index=False):
        if r.heuristic == base:
            takes = f", takes the miss in {r.miss_rate:.1%} of deals" if miss else ""
            lines.append(f"- {base}: {r.net_mean:+.3f} ± {r.net_se:.3f} chips per deal, loo rate "
                         f"{r.loo_rate:.3f}{takes}.")  # fmt: skip
            continue
        ratio.append(r.diff_se_paired / r.diff_se_unpaired if r.diff_se_unpaired else math.nan)
        taken = f", miss taken in {r.miss_rate:.1%} of deals" if miss else ""
        lines.append(f"- {r.heuristic}: {_ci(r.diff_vs_baseline, r.diff_se_paired)} against {base} "
                     f"(loo rate {r.loo_rate:.3f}{taken}).")  # fmt: skip
    best_h = heur_df.loc[heur_df.net_mean.idxmax()]
    lines.append(f"- The best of them here is {best_h.heuristic} ({best_h.net_mean:+.3f} chips per deal).")
    if ratio:
        lines.append(f"- Pairing pays: the paired standard errors are {np.nanmean(ratio):.2f} times the unpaired "
                     "ones on average.")  # fmt: skip
    return lines


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


# ---- pots ----------------------------------------------------------------------------------
def pots_summary(res: PotsResult, tables: dict[str, pd.DataFrame], preset: str, command: str) -> str:
    """summary.md of a pots study in plain words; every number comes from ``tables`` (the CSVs)."""
    lines = [f"# Pot dynamics: {preset}", "", f"Produced by `{command}`.", "",
             f"{res.sessions:,} sessions of up to {res.deals} deals per arm, every arm on the same decks "
             f"(deal j of session i is shuffled from the stream (seed {res.seed}, i, j)), so the arms are compared "
             "session by session.", ""]  # fmt: skip
    for arm in res.arms:
        lines += _arm_lines(res, arm, tables)
    pair = tables["paired"]
    if len(pair):
        lines += ["## Paired comparisons", ""]
        for r in pair.itertuples(index=False):
            lines.append(f"- {r.arm} against {r.baseline}, {r.metric}: {r.diff:+.4g} (95% CI [{r.ci_low:+.4g}, "
                         f"{r.ci_high:+.4g}]), session by session on the same decks.")  # fmt: skip
        lines.append("")
    return "\n".join(lines)


def _arm_lines(res: PotsResult, arm, tables: dict[str, pd.DataFrame]) -> list[str]:
    name = arm.name
    stats = tables["arms"]
    s = stats[stats.arm == name].set_index("metric")
    fan = tables["pot_by_deal"]
    f = fan[fan.arm == name]
    lines = [f"## {name}", ""]
    first = f.iloc[0]
    last = f[f.sessions >= 0.5 * first.sessions].iloc[-1]  # while at least half the sessions run
    running = "" if last.sessions == first.sessions else f" (of {int(first.sessions):,}; the others had ended)"
    lines.append(f"- The pot starts at {_fmt(first.q50)} chips; at the start of deal {int(last.deal) + 1} its "
                 f"median is {_fmt(last.q50)} chips, and 90% of the {int(last.sessions):,} sessions still "
                 f"running{running} lie between {_fmt(last.q05)} and {_fmt(last.q95)}.")  # fmt: skip
    length = s.loc["deals_per_session"].value
    if length < res.deals:
        lines.append(f"- Sessions last {length:.2f} deals on average (ruin or overflow ends them early).")
    g = s.loc["pot_growth_per_deal"].value
    lines.append(f"- The pot grows by {_fmt(g)} chips per deal on average: antes "
                 f"{_fmt(s.loc['antes_per_deal'].value)} + loo payments {_fmt(s.loc['penalties_per_deal'].value)}"
                 f" - shares paid {_fmt(s.loc['shares_paid_per_deal'].value)}.")  # fmt: skip
    lp = s.loc["looed_per_deal"]
    lines.append(f"- {lp.value:.3f} players are looed per deal (95% CI [{lp.ci_low:.3f}, {lp.ci_high:.3f}]); "
                 f"nobody contests {s.loc['nobody_contests_share'].value:.2%} of deals"
                 + (f"; {s.loc['single_pot_share'].value:.1%} are single pots and "
                    f"{s.loc['double_pot_share'].value:.1%} double pots" if arm.rules.single_pot else "")
                 + ".")  # fmt: skip
    lines += _largest_pot_lines(s, tables["max_pot"], name)
    bal = tables["balances"]
    for r in bal[bal.arm == name].itertuples(index=False):
        lines.append(f"- Seat {r.seat} ends a session with {_fmt(r.mean)} chips net on average (95% CI "
                     f"[{_fmt(r.ci_low)}, {_fmt(r.ci_high)}], SD {_fmt(r.sd)}; median {_fmt(r.q50)}).")  # fmt: skip
    lines += _risk_lines(res, arm, s)
    lines.append("")
    return lines


def _largest_pot_lines(s: pd.DataFrame, ccdf: pd.DataFrame, name: str) -> list[str]:
    c = ccdf[ccdf.arm == name]
    ml = s.loc["log10_largest_pot"]
    lines = [f"- The largest pot of a session is about 10^{ml.value:.2f} chips on a log average "
             f"(95% CI 10^{ml.ci_low:.2f} to 10^{ml.ci_high:.2f})."]  # fmt: skip
    for threshold in (1e3, 1e6, 1e12):
        row = c[c.pot >= threshold].head(1)
        if len(row):
            lines.append(f"  {row.share_at_least.iloc[0]:.2%} of sessions see a pot of at least "
                         f"{_fmt(row.pot.iloc[0])} chips.")  # fmt: skip
    return lines


def _risk_lines(res: PotsResult, arm, s: pd.DataFrame) -> list[str]:
    lines = []
    ruin = s.loc["ruin_probability"]
    if arm.rules.bankroll is not None:
        lines.append(
            f"- Probability that someone is ruined (balance below -{_fmt(arm.rules.bankroll)}) within "
            f"{res.deals} deals: {ruin.value:.2%} (95% CI [{ruin.ci_low:.2%}, {ruin.ci_high:.2%}])."
        )
    inexact = s.loc["inexact_past_2_53_probability"].value
    if inexact > 0:
        lines.append(f"- Exactness (R3): {inexact:.1%} of sessions reached amounts past 2**53 chips, where "
                     "float64 chips are no longer exact.")  # fmt: skip
    over = s.loc["overflow_stop_probability"].value
    if over > 0:
        lines.append(f"- {over:.1%} of sessions were stopped when the pot passed {L.OVERFLOW_LIMIT:.0e} chips "
                     "(they are counted up to that deal).")  # fmt: skip
    return lines


# ---- variants ------------------------------------------------------------------------------
def _exact_zero(r) -> bool:
    return r.diff_vs_baseline == 0 and r.diff_se == 0


def variants_summary(table: pd.DataFrame, baseline: str, seed: int, carried: float) -> str:
    """summary.md of a variants study (every row on the same deals of ``seed`` with ``carried``
    chips carried in); every number from ``table`` (``analysis.variants.variant_rows``)."""
    from loo_sim.analysis.variants import metric_label

    deals = int(table.n.max())
    others = table[table.row != baseline]
    batches = others[others.metric == "net_variance"].diff_method.str.extract(r"(\d+) batches")[0].dropna()
    batch_text = f"{batches.iloc[0]} batches" if len(batches) else "batches"
    lines = [
        f"# Rule variants against {baseline}",
        "",
        f"Every row plays the same {deals:,} deals (seed {seed}: deal k is shuffled from the stream ({seed}, k) "
        f"whatever the rules, and dealt by seat k mod the row's players), {carried:g} chips carried in, policies "
        "as configured.",
        "",
        f"Differences against {baseline} are paired: the mean of the deal-by-deal differences on the same decks, "
        "with a 95% interval from their standard error (for the variance of net chips, from the difference of "
        f"the two rows' variances in each of {batch_text} of the same deals).",
    ]
    live = others[(others.diff_se > 0) & (others.unpaired_se > 0)]
    if len(live):
        ratio = (live.diff_se / live.unpaired_se).to_numpy(dtype=float)
        best = live.iloc[int(np.argmin(ratio))]
        narrower = int((ratio < 0.9).sum())
        rest = "" if narrower == len(ratio) else f" (the others: 0.9 to {np.max(ratio):.2g} times)"
        lines[-1] += (
            f" The paired standard error is {np.min(ratio):.2g} times the one separate runs would give "
            f"(`unpaired_se` in variants.csv) for {metric_label(best.metric)} of {best.row}, and below 0.9 times it "
            f"for {narrower} of the {len(ratio)} differences that are not exactly 0{rest}."
        )
    zeros = others[[_exact_zero(r) for r in others.itertuples(index=False)]]
    if len(zeros):
        lines += [
            "",
            "A difference printed as exactly 0 is 0 on every deal (for the variance: in every batch), not an "
            "estimate: on these deals the two rows never differ in that number.",
        ]
    lines.append("")
    for metric in ("loo_rate", "contested_share", "pot_growth", "net_variance"):
        lines.append(f"## {metric_label(metric)}")
        lines.append("")
        for r in table[table.metric == metric].itertuples(index=False):
            if r.row == baseline:
                change = ""
            elif _exact_zero(r):
                change = f"; against {baseline} exactly 0"
            elif r.diff_vs_baseline != r.diff_vs_baseline:
                change = f"; no paired difference against {baseline}"
            else:
                change = f"; against {baseline} {r.diff_vs_baseline:+.4g} [{r.diff_ci_low:+.4g}, {r.diff_ci_high:+.4g}]"
            lines.append(f"- {r.row}: {r.value:.4g} (95% CI [{r.ci_low:.4g}, {r.ci_high:.4g}]){change}")
        lines.append("")
    return "\n".join(lines)
