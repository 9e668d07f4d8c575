"""Results in words: the text table ``loo-sim simulate`` prints and the summary.md of
each kind of study (simulate, miss, pots, variants). Every number comes from the
study's tables (the CSVs), so a summary never says what the files do not.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from loo_sim.analysis.miss import ALL, Share, decision_shares, default_slice, paired_difference, pooled
from loo_sim.game import abi as L
from loo_sim.game.classes import grid_text
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
    from loo_sim.rng import MISS_CARRIED_SESSION
    from loo_sim.run.session_pots import POT_BUCKET_NAMES, antes_total

    p = chart.pots
    if p is None:
        return []
    rules = chart.rules
    ante = antes_total(rules)
    lines = ["## The carried pot, drawn from sessions", "",
             f"The carried pot of each chart deal (and of each heuristic deal) was drawn from the pots met in "
             f"sessions under these rules with the table's own policies: {p.sessions:,} sessions of {p.deals} deals "
             f"each, from a clean pot (R10), the first {p.burn_in} deals of each session dropped as burn-in, so "
             f"{p.counted:,} deals were counted. Their carried pot (what the previous deal left; the pot is it plus "
             f"the {_fmt(ante)} chips of antes) has mean {p.mean:,.4g} ± {p.mean_se:.2g} chips (SE, the session as "
             f"the unit). The distribution is `session_pots.csv` (carried pot, probability, SE, and whether the value "
             f"is exact: a whole number of chips below {L.EXACT_CHIPS:,}, else a log bin's mean, 16 bins a decade); "
             f"deal k's pot is the atom that word 0 of its own counter-based stream (seed, {MISS_CARRIED_SESSION}, k) "
             "picks by the cumulative probabilities, so the draws do not depend on threads or blocks.", ""]  # fmt: skip
    top = np.argsort(-p.prob, kind="stable")[:6]
    atoms = ", ".join(f"{_fmt(p.values[i])} ({p.prob[i]:.1%} ± {p.se[i]:.1%})" for i in sorted(top))
    more = f" (the {len(top)} likeliest of {len(p.values):,} values)" if len(p.values) > len(top) else ""
    lines.append(f"- Carried pots met{more}: {atoms}.")
    if p.overflow_sessions:
        lines.append(f"- {p.overflow_sessions:,} sessions stopped early, their pot past {L.OVERFLOW_LIMIT:g} chips "
                     "(R3).")  # fmt: skip
    if rules.penalty == "unlimited":
        lines.append(f"- Under the unlimited penalty the pot of a session grows without bound (each looed player "
                     f"pays the whole pot): the largest carried pot counted was {_fmt(p.largest)} chips. The draw "
                     "takes each deal's carried pot from this distribution all the same, so the chart's means are "
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
                         f"on the same decisions): {_ci(r.diff_vs_runner_up, r.diff_se)}.")  # fmt: skip
    if miss_offered(chart_df):
        miss_best = best[best.action == "miss"]
        passing = set(cells[cells.action == "pass"].hand_class)
        wins = [r for r in miss_best.itertuples(index=False) if r.hand_class in passing]
        if wins:
            top = max(wins, key=lambda r: r.decisions)
            summed = chart.totals[top.hand_class, 1 : players + 1, 1].sum(axis=(0, 1))
            d, dse = paired_difference(summed, L.DECL_MISS, L.DECL_PASS)
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
        lines.append(f"- {r.heuristic}: {_ci(r.diff_vs_baseline, r.diff_se_paired)} against {base} "
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
    from loo_sim.rng import HEURISTIC_CARRIED_SESSION

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


# ---- pots ----------------------------------------------------------------------------------
def _sig_digits(lo: float, hi: float) -> int:
    """Decimals that show an interval's half-width to one significant digit (two when it
    starts with 1 or 2), and more if its ends would still print alike (never ``[+1, +1]``)."""
    half = (hi - lo) / 2
    d = 0
    if half > 0 and math.isfinite(half):
        e = math.floor(math.log10(half))
        d = max(0, -e + (1 if half / 10.0**e < 3 else 0))
    while d < 12 and f"{lo:.{d}f}" == f"{hi:.{d}f}":
        d += 1
    return d


def _num(x: float, d: int, signed: bool = False, unit: str = "") -> str:
    """``x`` with ``d`` decimals, thousands separated (0, and 100 of a percentage, without
    decimals), or in scientific notation past 1e7; no sign on a number that prints as 0."""
    if x != x:
        return "n/a"
    if abs(x) < 1e-12:
        x = 0.0
    sign = "+" if signed else ""
    if math.isfinite(x) and abs(x) >= 1e7:
        return f"{x:{sign}.3g}{unit}"
    if unit == "%" and abs(abs(x) - 100) < 1e-9:
        x, d = math.copysign(100.0, x), 0
    if x == 0:
        d = 0
    text = f"{x:{sign},.{d}f}"
    if not text.strip("+-0.,"):  # prints as zero
        text = text.lstrip("+-")
    return text + unit


def interval_text(value: float, lo: float, hi: float, *, pct: bool = False, signed: bool = False) -> str:
    """A value with its 95% interval at a precision the interval supports:
    ``2.132 [2.128, 2.136]``, ``0.35% [0.27%, 0.44%]``; a value known exactly (an
    interval of width 0) prints alone; without an interval, three significant digits."""
    scale, unit = (100.0, "%") if pct else (1.0, "")
    v, a, b = value * scale, lo * scale, hi * scale
    if v != v:
        return "n/a"
    if a != a or b != b:
        d = 0 if v == 0 or abs(v) >= 100 else max(0, 2 - math.floor(math.log10(abs(v))))
        return _num(v, d, signed, unit)
    if b - a <= 1e-7 * abs(v) or a == b:  # known exactly, up to the rounding of sums of squares
        if not math.isfinite(v) or abs(v - round(v)) <= 1e-7 * abs(v):
            return _num(float(round(v)) if math.isfinite(v) else v, 0, signed, unit)
        return _num(v, max(0, 3 - math.floor(math.log10(abs(v)))), signed, unit)  # four significant digits
    if abs(v) >= 1e7 and math.isfinite(v):
        sign, g = "+" if signed else "", 2
        if b > a and math.isfinite(b - a):
            g = max(2, math.floor(math.log10(max(abs(a), abs(b)))) - math.floor(math.log10((b - a) / 2)) + 1)
        while g < 17 and f"{a:.{g}g}" == f"{b:.{g}g}":
            g += 1
        return f"{v:{sign}.{g}g}{unit} [{a:{sign}.{g}g}{unit}, {b:{sign}.{g}g}{unit}]"
    d = _sig_digits(a, b)
    return f"{_num(v, d, signed, unit)} [{_num(a, d, signed, unit)}, {_num(b, d, signed, unit)}]"


def _row_text(r, pct: bool = False, signed: bool = False) -> str:
    return interval_text(r.value, r.ci_low, r.ci_high, pct=pct, signed=signed)


def pots_summary(res: PotsResult, tables: dict[str, pd.DataFrame], preset: str, command: str) -> str:
    """summary.md of a pots study: one table of arms x metrics with 95% intervals, a few
    sentences on the differences the paired intervals support, and each seat's final
    balance; every number comes from ``tables`` (the CSVs)."""
    bankrolls = sorted({a.rules.bankroll for a in res.arms if a.rules.bankroll is not None})
    ends = (f" (fewer when a balance falls below -{_fmt(bankrolls[0])}: ruin)" if len(bankrolls) == 1
            else " (fewer when a balance falls below the arm's bankroll: ruin)" if bankrolls else "")  # fmt: skip
    lines = [f"# Pot dynamics: {preset}", "", f"Produced by `{command}`.", "",
             f"{res.sessions:,} sessions of up to {res.deals} deals per arm{ends}, every arm on the same decks "
             f"(deal j of session i is shuffled from the stream (seed {res.seed}, i, j)), so the arms are compared "
             "session by session. Intervals are 95%: Wilson for shares, the delta method with the session as the "
             "unit for rates per deal.", ""]  # fmt: skip
    lines += ["## The arms", "", *_arms_table(res, tables), ""]
    lines += _pot_note(res, tables["pot_by_deal"])
    differs = _difference_lines(res, tables["paired"], tables["arms"])
    if differs:
        lines += ["## What differs", "", *differs, ""]
    lines += ["## Final net balance by seat", "", *_balance_table(res, tables["balances"]), ""]
    lines += _risk_notes(res, tables["arms"])
    return "\n".join(lines)


def _pot_cell(fan: pd.DataFrame) -> str:
    """The pot after the most deals that at least half the sessions reached: median (5%-95%)."""
    first = fan.iloc[0]
    last = fan[fan.sessions >= 0.5 * first.sessions].iloc[-1]
    cell = f"{_fmt(last.q50)} ({_fmt(last.q05)}\u2013{_fmt(last.q95)}) after {int(last.deal)} deals"
    if last.sessions < first.sessions:
        cell += f" ({int(last.sessions):,} sessions still running)"
    return cell


def _arms_table(res: PotsResult, tables: dict[str, pd.DataFrame]) -> list[str]:
    """Markdown: one row per metric, one column per arm; rows that are 0 in every arm
    (flushes, 2**53, overflow, large pots) are left out."""
    from loo_sim.analysis.pots import LARGEST_POT_THRESHOLDS, threshold_metric

    arms = [a.name for a in res.arms]
    stats = tables["arms"]
    s = {name: stats[stats.arm == name].set_index("metric") for name in arms}
    fan = tables["pot_by_deal"]
    rows: list[tuple[str, list[str]]] = []

    def add(label: str, metric: str, pct: bool = False, nonzero: bool = False) -> None:
        if not nonzero or any(s[n].loc[metric].value > 0 for n in arms):
            rows.append((label, [_row_text(s[n].loc[metric], pct=pct) for n in arms]))

    rows.append(("pot: median (5%\u201395% of sessions)", [_pot_cell(fan[fan.arm == n]) for n in arms]))
    add("pot growth per deal (chips)", "pot_growth_per_deal")
    rows.append(("= antes + loo payments - shares paid",
                 [" + ".join(_fmt(s[n].loc[m].value) for m in ("antes_per_deal", "penalties_per_deal"))
                  + f" - {_fmt(s[n].loc['shares_paid_per_deal'].value)}" for n in arms]))  # fmt: skip
    add("looed players per deal", "looed_per_deal")
    add("deals nobody contests", "nobody_contests_share", pct=True, nonzero=True)
    if any(a.rules.single_pot for a in res.arms):
        add("single pots", "single_pot_share", pct=True)
    add("deals won by a flush", "flush_share", pct=True, nonzero=True)
    cells = []
    for n in arms:
        r = s[n].loc["log10_largest_pot"]
        cells.append(interval_text(10**r.value, 10**r.ci_low, 10**r.ci_high))
    rows.append(("largest pot of a session (chips, geometric mean)", cells))
    for x in LARGEST_POT_THRESHOLDS:
        amount = _fmt(x) if x < 1e7 else f"10^{round(math.log10(x))}"
        add(f"sessions whose pot reaches {amount}", threshold_metric(x), pct=True, nonzero=True)
    add("deals per session", "deals_per_session")
    if any(a.rules.bankroll is not None for a in res.arms):
        add(f"ruin within {res.deals} deals", "ruin_probability", pct=True)
    add("sessions past 2**53 chips (R3: no longer exact)", "inexact_past_2_53_probability", pct=True, nonzero=True)
    add(f"sessions stopped past {L.OVERFLOW_LIMIT:.0e} chips", "overflow_stop_probability", pct=True, nonzero=True)
    add("pot left at the end (chips)", "pot_left_at_end")
    out = ["| | " + " | ".join(arms) + " |", "|---|" + "---|" * len(arms)]
    out += [f"| {label} | " + " | ".join(cells) + " |" for label, cells in rows]
    return out


def _pot_note(res: PotsResult, fan: pd.DataFrame) -> list[str]:
    """Whether the pot quantiles are pots that occurred or bin means."""
    binned = [n for n, g in fan.groupby("arm", sort=False) if g.binned_sessions.sum() > 0]
    if not binned:
        return [f"Every pot was a whole number of chips below {res.pot_bound:,} and was counted exactly, so each "
                "pot quantile is a pot that occurred.", ""]  # fmt: skip
    return [f"Pots that were whole numbers of chips below {res.pot_bound:,} were counted exactly; the others "
            f"({', '.join(binned)}) in log bins, 16 per decade, so a quantile that falls in a bin is the mean of "
            "the pots in it.", ""]  # fmt: skip


def _one_factor_pairs(res: PotsResult) -> list[tuple[int, int, str, str]]:
    """(x, y, option, the options they share) for arm x against an earlier arm y when they
    differ in exactly one compared option (every pair when the arms name no options), in
    the order of the compared options."""
    out = []
    for x, ax in enumerate(res.arms):
        for y, ay in enumerate(res.arms[:x]):
            lx, ly = dict(ax.levels), dict(ay.levels)
            if not lx or lx.keys() != ly.keys():
                out.append((x, y, "", ""))
                continue
            diff = [k for k in lx if lx[k] != ly[k]]
            if len(diff) == 1:
                same = ", ".join(f"{k}={v}" for k, v in ax.levels if k != diff[0])
                out.append((x, y, diff[0], same))
    order = [k for k, _ in res.arms[0].levels]
    return sorted(out, key=lambda t: (order.index(t[2]) if t[2] in order else -1, t[1], t[0]))


def _paired_text(r, what: str, unit: str = "", pct: bool = False) -> str:
    """``what`` and a paired difference in words: ``2.1 [1.9, 2.3] more``/``fewer``, ``+x``."""
    scale = 100.0 if pct else 1.0
    d, lo, hi = r["diff"] * scale, r.ci_low * scale, r.ci_high * scale
    unit = " percentage points" if pct else unit
    return f"{what} {interval_text(d, lo, hi, signed=True)}{unit}"


def _difference_lines(res: PotsResult, pair: pd.DataFrame, stats: pd.DataFrame) -> list[str]:
    """A few sentences per pair of arms that differ in one option: the paired differences
    whose interval excludes 0, and the looed players on the deals both arms played."""
    pairs = _one_factor_pairs(res)
    if not len(pair) or not pairs:
        return []
    lines = ["Paired differences, session by session on the same decks, between arms that differ in one compared "
             "option (95% intervals); a difference is named only when its interval excludes 0.", ""]  # fmt: skip
    looed = stats[stats.metric == "looed_per_deal"].set_index("arm").value
    for x, y, option, same in pairs:
        ax, ay = res.arms[x], res.arms[y]
        p = pair[(pair.arm == ax.name) & (pair.baseline == ay.name)].set_index("metric")
        if option:
            nx, ny = dict(ax.levels)[option], dict(ay.levels)[option]
            title = f"**{option}={nx}** against **{option}={ny}**" + (f" ({same})" if same else "")
        else:
            nx, ny = ax.name, ay.name
            title = f"**{nx}** against **{ny}**"
        found, quiet = [], []
        for metric, label in (("ruin", "ruin"), ("deals_per_session", "deals per session")):
            r = p.loc[metric]
            if r["diff"] == 0 and not r.se > 0:
                continue  # the same in every session (no ruin, every session full length): nothing to say
            if _significant(r):
                found.append(_paired_text(r, label, pct=metric == "ruin"))
            else:
                quiet.append(label)
        r = p.loc["log10_largest_pot"]
        if _significant(r):
            ratio = interval_text(10 ** r["diff"], 10**r.ci_low, 10**r.ci_high)
            found.append(f"largest pot (geometric mean) \u00d7{ratio}")
        else:
            quiet.append("the largest pot")
        seats = [m for m in p.index if m.startswith("final_balance_seat_")]
        moved = [m for m in seats if _significant(p.loc[m])]
        found += [_paired_text(p.loc[m], f"seat {m.rsplit('_', 1)[1]}'s final balance", " chips") for m in moved]
        if not moved:
            quiet.append("any seat's final balance")
        text = f"- {title}: " + ("; ".join(found) if found else "no difference") + "."
        if quiet and found:
            text += f" No significant difference in {_and(quiet)}."
        elif quiet:
            text = f"- {title}: no significant difference in {_and(quiet)}."
        text += " " + _looed_sentence(p.loc["looed_per_shared_deal"], nx, ny, looed[ax.name], looed[ay.name])
        lines.append(text)
    return lines


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _significant(r) -> bool:
    return bool(r.ci_low > 0 or r.ci_high < 0)


def _looed_sentence(r, nx: str, ny: str, looed_x: float, looed_y: float) -> str:
    """Looed players per deal compared on the deals both arms played, and where the
    other deals come from."""
    shared, differ = int(r.shared_deals), int(r.shared_deals_looed_differ)
    if differ == 0:
        text = f"Every one of the {shared:,} deals both played had the same number of looed players in both"
        if r.arm_only_deals or r.baseline_only_deals:
            text += ", so looed players per deal differ only through deals one arm played and the other did not"
    elif _significant(r):
        more = "more" if r["diff"] > 0 else "fewer"
        d = interval_text(abs(r["diff"]), min(abs(r.ci_low), abs(r.ci_high)), max(abs(r.ci_low), abs(r.ci_high)))
        text = (f"On the {shared:,} deals both played, {nx} has {d} {more} looed players per deal than {ny} "
                f"(the counts differ on {differ / shared:.0%} of those deals)")  # fmt: skip
    else:
        d = interval_text(r["diff"], r.ci_low, r.ci_high, signed=True)
        text = (f"On the {shared:,} deals both played, looed players per deal differ by {d} ({nx} - {ny}), "
                f"not significantly (the counts differ on {differ / shared:.0%} of those deals)")  # fmt: skip
    only = [(int(r.arm_only_deals), nx, ny, r.arm_only_looed_per_deal),
            (int(r.baseline_only_deals), ny, nx, r.baseline_only_looed_per_deal)]  # fmt: skip
    extra = [f"the {n:,} deals only {who} played (after {other}'s session had ended) had {per:.3f} looed players "
             "each" for n, who, other, per in only if n > 0]  # fmt: skip
    if extra:
        text += "; " + " and ".join(extra)
    return text + f". Over all deals played: {nx} {looed_x:.3f}, {ny} {looed_y:.3f} looed per deal."


def _balance_table(res: PotsResult, bal: pd.DataFrame) -> list[str]:
    arms = [a.name for a in res.arms]
    share = {a.rules.final_pot.value for a in res.arms}
    how = ("the pot left at the end shared equally (R10)" if share == {"share"}
           else "the pot left at the end discarded (R10)" if share == {"discard"}
           else "the pot left at the end shared or discarded as each arm's rules say (R10)")  # fmt: skip
    out = [f"Mean [95% CI] and median of each seat's net chips at the end of a session, {how}.", "",
           "| seat | " + " | ".join(arms) + " |", "|---|" + "---|" * len(arms)]  # fmt: skip
    by = bal.set_index(["arm", "seat"])
    for seat in sorted(bal.seat.unique()):
        cells = []
        for n in arms:
            if (n, seat) in by.index:
                r = by.loc[(n, seat)]
                cells.append(f"{interval_text(r['mean'], r.ci_low, r.ci_high)} (median {_fmt(r.q50)})")
            else:
                cells.append("")
        out.append(f"| {seat} | " + " | ".join(cells) + " |")
    return out


def _risk_notes(res: PotsResult, stats: pd.DataFrame) -> list[str]:
    lines = []
    for arm in res.arms:
        s = stats[stats.arm == arm.name].set_index("metric").value
        if s["inexact_past_2_53_probability"] > 0:
            lines.append(f"- {arm.name}: {s['inexact_past_2_53_probability']:.1%} of sessions reached amounts past "
                         "2**53 chips, where float64 chips are no longer exact (R3).")  # fmt: skip
        if s["overflow_stop_probability"] > 0:
            lines.append(f"- {arm.name}: {s['overflow_stop_probability']:.1%} of sessions were stopped when the pot "
                         f"passed {L.OVERFLOW_LIMIT:.0e} chips; they count up to that deal.")  # fmt: skip
    return [*lines, ""] if lines else []


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
    lines += metric_sections(table, ("loo_rate", "contested_share", "pot_growth", "net_variance"), metric_label,
                             baseline, lambda x: f"{x:.4g}", lambda x: f"{x:+.4g}")  # fmt: skip
    return "\n".join(lines)


def metric_sections(table: pd.DataFrame, metrics: Sequence[str], label: Callable[[str], str], baseline: str,
                    value: Callable[[float], str], diff: Callable[[float], str]) -> list[str]:  # fmt: skip
    """A section per metric of a variants table: each row's value with its interval, and its
    paired difference from ``baseline`` (exactly 0, none, or with its interval)."""
    lines: list[str] = []
    for metric in metrics:
        lines += [f"## {label(metric)}", ""]
        for r in table[table.metric == metric].itertuples(index=False):
            if r.row == baseline:
                change = ""
            elif _exact_zero(r):
                change = f"; against {baseline} exactly 0"
            elif r.diff_vs_baseline != r.diff_vs_baseline:
                change = f"; no paired difference against {baseline}"
            else:
                interval = f"[{diff(r.diff_ci_low)}, {diff(r.diff_ci_high)}]"
                change = f"; against {baseline} {diff(r.diff_vs_baseline)} {interval}"
            lines.append(f"- {r.row}: {value(r.value)} (95% CI [{value(r.ci_low)}, {value(r.ci_high)}]){change}")
        lines.append("")
    return lines


def _g(x: float) -> str:
    """A number for prose: 4 significant digits, thousands separated where whole and large."""
    if x != x:
        return "n/a"
    if abs(x) >= 1e6:
        return f"{x:.3g}"
    return f"{x:,.4g}" if abs(x) >= 1000 else f"{x:.4g}"


def variant_sessions_summary(res, tables: dict[str, pd.DataFrame], clean: pd.DataFrame | None, cmd: str = "") -> str:
    """summary.md of the variants in sessions (``run.variants.run_variant_sessions``): every
    number from the tables (``analysis.variants.session_rows``, ``session_windows``,
    ``session_pots``), then the clean-pot table (the first deal of a session) when it ran."""
    from loo_sim.analysis.variants import pot_quantile, session_metric_label

    table, windows, pots = tables["sessions"], tables["session_windows"], tables["session_pots"]
    baseline, b, w = res.baseline, res.burn_in, res.window
    lines = [
        f"# Rule variants in sessions against {baseline}",
        "",
        f"{res.sessions:,} sessions of {res.deals} deals for every rule set (R10: each session from a clean pot, the "
        "pot carried from deal to deal, the dealer rotating), every rule set on the same decks: deal j of session i "
        f"is shuffled from the stream (seed {res.seed}, i, j) and its first dealer drawn from ({res.seed}, i, -1), "
        f"whatever the rules. The first {b} deals of each session are a burn-in and are dropped (the default: the "
        "first 10 deals, at most half of a session); every figure below is over deals "
        f"{b + 1}-{res.deals} of each session.",
        "",
        "Intervals are 95% with the session as the unit: a rate per deal is a ratio of means over sessions (delta "
        f"method), and a difference against {baseline} is paired, the two rule sets' ratios over the same sessions "
        "linearized together. A difference printed as exactly 0 is 0 in every session, not an estimate.",
        "",
    ]
    if cmd:
        lines[2:2] = [f"Produced by `{cmd}`.", ""]
    inexact = table[(table.metric == "inexact_sessions") & (table.value > 0)]
    for r in inexact.itertuples(index=False):
        lines.append(f"**Not exact**: {r.row}: {r.value:.1%} of sessions passed 2**53 chips (R3); amounts past "
                     "that are not exact, so its chip figures are not either.")  # fmt: skip
        lines.append("")
    lines += ["## Do later deals agree? (the burn-in check)", ""]
    if w == 0:
        lines += ["A session measures a single deal: no windows to compare.", ""]
    else:
        lines.append(
            f"Each rule set's {', '.join(session_metric_label(m) for m in windows.metric.unique())} over deals "
            f"{b + 1}-{b + w} of every session against the last {w} ({res.deals - w + 1}-{res.deals}): the "
            "difference (late - early) with its 95% interval, the session as the unit."
        )
        lines.append("")
        beyond = windows[windows.beyond_3_se]
        if len(beyond):
            lines.append(f"**Warning**: {len(beyond)} of {len(windows)} differences are beyond 3 SE, so these rule "
                         "sets are not in a steady state after the burn-in (or the burn-in is too short):")  # fmt: skip
            for r in beyond.itertuples(index=False):
                lines.append(
                    f"- {r.row}, {session_metric_label(r.metric)}: {_g(r.early)} early, {_g(r.late)} late, "
                    f"difference {_g(r.difference)} [{_g(r.ci_low)}, {_g(r.ci_high)}] (z = {r.z:.1f})"
                )
        else:
            finite = windows[np.isfinite(windows.z.astype(float))]
            worst = finite.iloc[int(np.argmax(np.abs(finite.z.to_numpy(dtype=float))))] if len(finite) else None
            tail = f" (the largest |z| is {abs(worst.z):.2f}: {worst.row}, {session_metric_label(worst.metric)})" \
                if worst is not None else ""  # fmt: skip
            lines.append(f"No difference is beyond 3 SE{tail}: the early and late windows agree.")
        lines.append("")
    metrics = ("loo_rate", "single_share", "double_share", "contested_share", "mean_pot", "net_variance",
               "session_variance")  # fmt: skip
    lines += metric_sections(table, metrics, session_metric_label, baseline, _g, _g)
    lines += ["## The pot at the start of a deal", "",
              "Median and 90th percentile of the pot at the start of a measured deal, and the share of deals whose "
              "pot is the smallest one met (95% CI, the session as the unit); session_pots.csv has the whole "
              "distribution, whole pots below 4,096 chips counted exactly, larger or fractional ones in log bins "
              "(16 per decade, read as the mean of the bin).", "",
              "| rule set | median | 90% | smallest pot | its share |", "|---|---|---|---|---|"]  # fmt: skip
    for name in res.names:
        t = pots[pots.row == name]
        if t.empty:
            continue
        first = t.iloc[0]
        lines.append(f"| {name} | {_g(pot_quantile(pots, name, 0.5))} | {_g(pot_quantile(pots, name, 0.9))} | "
                     f"{_g(first.pot)}{'' if first.exact else ' (bin mean)'} | {first.share:.2%} "
                     f"[{first.ci_low:.2%}, {first.ci_high:.2%}] |")  # fmt: skip
    lines += ["", "## Net chips per deal by position", "",
              "Mean net chips per measured deal (shares won - antes - loo payments) at each position from the "
              "dealer's left (1 = the dealer's left, the last = the dealer), 95% CI.", ""]  # fmt: skip
    most = max(r.players for r in res.rules)
    lines.append("| rule set | " + " | ".join(str(p) for p in range(1, most + 1)) + " |")
    lines.append("|---|" + "---|" * most)
    for name in res.names:
        t = table[(table.row == name) & table.metric.str.startswith("net_position_")]
        cells = [f"{_g(r.value)} [{_g(r.ci_low)}, {_g(r.ci_high)}]" for r in t.itertuples(index=False)]
        lines.append(f"| {name} | " + " | ".join(cells + [""] * (most - len(cells))) + " |")
    lines.append("")
    lines += ["## First deal of a session (every deal from a clean pot)", ""]
    if clean is None:
        lines += ["Not run (interrupted).", ""]
    else:
        text = variants_summary(clean, baseline, res.seed, 0.0)
        body = text.split("\n", 2)[2]  # without its title
        lines.append(
            "The table of the deals every session starts with: each rule set on the same independent deals, each "
            "from a clean pot (nothing carried in), paired deal by deal; these are not the rates of a session in "
            "play (above)."
        )
        lines.append("")
        lines += [ln.replace("## ", "### ", 1) if ln.startswith("## ") else ln for ln in body.split("\n")]
    return "\n".join(lines).rstrip() + "\n"
