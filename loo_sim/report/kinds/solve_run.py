"""Running a solve study (``report/kinds/solve.py``): fictitious play from each start policy
(``solve.declarations``), the exploitability of the results and of the heuristics on fresh
deals, the heuristic comparison against a table of equilibrium players beside one against
``basic``, and the files: strategy.csv (readable by the ``table:PATH`` family), the
heatmap, convergence.png, exploitability.csv and .png, summary.md, run.json.

Ctrl-C in the iterations keeps the iterations that finished and skips the evaluation;
Ctrl-C in the evaluation keeps the solves and the profiles already measured."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from loo_sim.analysis.equilibrium_compare import comparison_section, table_changes
from loo_sim.analysis.equilibrium_text import distance_sentences, table_distance, tip_sentences
from loo_sim.base.stats import Z95
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules
from loo_sim.game.strategy import rules_hash, table_frame
from loo_sim.report.command import command, shown_path
from loo_sim.report.running import StudyOutput, figure
from loo_sim.run.tables import table_text
from loo_sim.solve.declarations import SolveResult, nash_conv, solve

CHART_PROFILE = "chart (the miss study's best actions vs basic)"
TARGET_SHARE = 0.01  # of the ante pool: the bar for a solved table


def _with_play(declare: str | Policy, play: Policy) -> Policy:
    """The DECLARE part of ``declare`` with the table's card play and exchange."""
    return replace(Policy.parse(declare), play=play.play, exchange=play.exchange, samples=play.samples,
                   infer=play.infer)


def strategy_frame(res: SolveResult, met: np.ndarray | None, values: np.ndarray | None, deals: int) -> pd.DataFrame:
    """The solved table as its CSV frame: every information set met in the solve, with its
    reach under the final table (share of ``deals`` fresh deals in which a seat was there),
    the decisions met over the solve, and the mean payoff of each action there."""
    rows = np.flatnonzero(res.decisions > 0)
    extra: dict[str, np.ndarray] = {"reach": (met[rows] if met is not None else res.decisions[rows]) / deals}
    extra["decisions"] = res.decisions[rows].astype(np.int64)
    if values is not None:
        for a, name in enumerate(("pass", "play", "miss", "defend")):
            extra[f"ev_{name}"] = values[rows, a]
    return table_frame(res.strategy, rows, extra)


def _exploit_rows(e, players: int) -> list[dict]:
    rows = []
    for p in range(players):
        half = Z95 * e.gain_se[p]
        rows.append(dict(profile=e.profile, seat=str(p + 1), nashconv=e.gain[p], lo=e.gain[p] - half,
                         hi=e.gain[p] + half, share_of_ante_pool=e.gain[p] / e.ante_pool, value=e.value[p],
                         deals=e.deals))  # fmt: skip
    half = Z95 * e.total_se
    rows.append(dict(profile=e.profile, seat="all", nashconv=e.total, lo=e.total - half, hi=e.total + half,
                     share_of_ante_pool=e.share, value=float(e.value.sum()), deals=e.deals))  # fmt: skip
    return rows


def run_solve(study: Any, out: str | None, progress, backend) -> StudyOutput:
    """The solve study's output (see the module's docstring for Ctrl-C)."""
    rules = study.base_rules()
    play = study.play_policy()
    n = rules.players
    carried = [float(c) for c in study.carried]
    eval_deals = study.evaluation_deals()
    results, interrupted = _solves(study, rules, play, carried, progress, backend)
    if interrupted:  # Ctrl-C in the iterations: what finished, and no evaluation
        return _partial_output(study, rules, results, [], "iterations", out)
    exploit: list = []
    try:
        heuristic_frame = _evaluate(study, rules, play, results, exploit, progress, backend)
    except KeyboardInterrupt:
        return _partial_output(study, rules, results, exploit, "evaluation", out)
    frames = [strategy_frame(r, e.met, e.values, e.deals) for r, e in zip(results, exploit)]
    tables = {
        "convergence": _convergence_frame(results, exploit[0].ante_pool),
        "exploitability": pd.DataFrame([row for e in exploit for row in _exploit_rows(e, n)]),
        "heuristics": heuristic_frame,
    }
    if len(results) > 1:
        tables["distances"] = _distance_frame(results, frames)
    other = study.compared_table(rules) if study.compare_with is not None else None
    if other is not None:
        tables["comparison"] = table_changes(frames[0], other)
    files = _strategy_files(results, frames, rules)
    figures = _figures(study, rules, frames[0], tables)
    summary = solve_summary(study, rules, results, exploit, frames, tables, command(study, out), other)
    info = {
        "rules": rules.to_dict(),
        "rules_hash": rules_hash(rules),
        "card_play": f"{play.play_name}/{play.exchange}",
        "carried": carried,
        "eval_deals": eval_deals,
        "solves": [_solve_info(r, exploit[i]) for i, r in enumerate(results)],
    }
    done = sum(len(r.convergence) for r in results)
    return StudyOutput(study, tables, figures, summary, info, files=files, done=done,
                       total=len(study.starts) * (int(study.iterations) + 1), unit="iterations")  # fmt: skip


def _solves(study: Any, rules: Rules, play: Policy, carried: list[float], progress,
            backend) -> tuple[list[SolveResult], bool]:  # fmt: skip
    """The solve from each start, and whether Ctrl-C cut them (a solve cut before its second
    iteration is dropped; the solves before it are kept whole)."""
    results: list[SolveResult] = []
    for start in study.starts:
        bar = progress(f"iterations from {start}") if progress else None

        def step(t: int, total: int, row: dict, bar=bar) -> None:
            if bar is not None:
                bar(t + 1, total + 1)

        try:
            res = solve(rules, play, int(study.iterations), int(study.deals), int(study.seed), start=start,
                        averaging=study.averaging, carried=carried, progress=step, backend=backend)  # fmt: skip
        except KeyboardInterrupt:
            if not results:
                raise
            return results, True
        results.append(res)
        if res.partial:
            return results, True
    return results, False


def _evaluate(study: Any, rules: Rules, play: Policy, results: list[SolveResult], exploit: list, progress,
              backend) -> pd.DataFrame:  # fmt: skip
    """The NashConv of every solved table and profile on fresh deals, appended to ``exploit``
    as each is measured (so Ctrl-C keeps those), then the heuristics' comparison."""
    n = rules.players
    carried = [float(c) for c in study.carried]
    eval_deals = study.evaluation_deals()
    solved = [(f"equilibrium (from {r.start})", [r.table_policy()] * n, r.tables) for r in results]
    heuristics = [(name, [_with_play(p, play)] * n, None) for name, p in study.profiles(rules)]
    heuristics.append((CHART_PROFILE, [_with_play("chart", play)] * n, None))
    chart = _miss_chart(rules, play, eval_deals, study, carried[0], backend)
    bar = progress("exploitability profiles") if progress else None
    for i, (label, table, tables) in enumerate(solved + heuristics):
        exploit.append(nash_conv(rules, table, eval_deals, int(study.seed), label, carried=carried, tables=tables,
                                 chart=chart, backend=backend))  # fmt: skip
        if bar is not None:
            bar(i + 1, len(solved) + len(heuristics))
    return _heuristic_frame(rules, results[0], play, eval_deals, study, progress, backend)


def _strategy_files(results: list[SolveResult], frames: list[pd.DataFrame], rules: Rules) -> dict[str, bytes]:
    """strategy.csv (the first start's table) and strategy-START.csv of the others."""
    names = ["strategy.csv", *(f"strategy-{r.start}.csv" for r in results[1:])]
    return {name: table_text(frame, rules).encode("utf-8") for name, frame in zip(names, frames)}


def _solve_info(r: SolveResult, e: Any | None) -> dict[str, Any]:
    info = dict(start=r.start, iterations_done=len(r.convergence) - 1, elapsed_s=round(r.elapsed_s, 3),
                deals_played=int(r.convergence[-1]["deals"]),
                information_sets=int((r.decisions > 0).sum()))  # fmt: skip
    if e is not None:
        info.update(final_nashconv=e.total, final_nashconv_se=e.total_se)
    return info


def _partial_output(study: Any, rules: Rules, results: list[SolveResult], exploit: list, stage: str,
                    out: str | None) -> StudyOutput:  # fmt: skip
    """After Ctrl-C: the convergence and strategy table of every solve that ran, the profiles
    measured before it (the evaluation's), and a summary that says what is missing."""
    from loo_sim.run.session_pots import antes_total

    n = rules.players
    tables = {"convergence": _convergence_frame(results, exploit[0].ante_pool if exploit else antes_total(rules))}
    if exploit:
        tables["exploitability"] = pd.DataFrame([row for e in exploit for row in _exploit_rows(e, n)])
    frames = []
    for i, r in enumerate(results):
        e = exploit[i] if i < len(exploit) else None
        deals = e.deals if e is not None else int(r.convergence[-1]["deals"])
        frames.append(strategy_frame(r, None if e is None else e.met, None if e is None else e.values, deals))
    profiles = len(results) + len(study.profiles(rules)) + 1
    done, total, unit = ((len(exploit), profiles, "exploitability profiles") if stage == "evaluation" else
                         (sum(len(r.convergence) for r in results), len(study.starts) * (int(study.iterations) + 1),
                          "iterations"))  # fmt: skip
    lines = [f"# Equilibrium of the declaration game: {study.preset}, {n} players (PARTIAL)", "",
             "```", command(study, out), "```", "",
             f"Interrupted in the {stage}: {done:,} of {total:,} {unit} finished. Written: the convergence of the "
             "iterations that finished, the strategy table of each solve that ran (strategy.csv, the first start's; "
             "its reach column is the decisions met per deal played)"
             + (", the NashConv of the profiles measured (exploitability.csv)" if exploit else "")
             + ". The evaluation that did not run is missing: run the solve again for it."]  # fmt: skip
    info = {"rules": rules.to_dict(), "rules_hash": rules_hash(rules), "stage_interrupted": stage,
            "solves": [_solve_info(r, exploit[i] if i < len(exploit) else None) for i, r in enumerate(results)]}
    return StudyOutput(study, tables, {}, "\n".join(lines) + "\n", info, partial=True,
                       files=_strategy_files(results, frames, rules), done=done, total=total, unit=unit)  # fmt: skip


def _miss_chart(rules: Rules, play: Policy, deals: int, study: Any, carried: float, backend) -> np.ndarray:
    """The decision chart a miss study makes at a table of basic players (its best actions):
    the `chart` profile whose exploitability is reported beside the heuristics'."""
    from loo_sim.analysis.miss import best_actions
    from loo_sim.run.decisions import decisions

    table = [_with_play("basic", play)] * rules.players
    return best_actions(decisions(rules, table, deals, int(study.seed), carried, backend=backend))


def _convergence_frame(results: list[SolveResult], ante_pool: float) -> pd.DataFrame:
    rows = [dict(start=r.start, **row, ante_pool=ante_pool) for r in results for row in r.convergence]
    frame = pd.DataFrame(rows)
    return frame[["start", "iteration", "deals", "nashconv", "nashconv_lo", "nashconv_hi", "ante_pool"]]


def _heuristic_frame(rules: Rules, main: SolveResult, play: Policy, deals: int, study: Any, progress,
                     backend) -> pd.DataFrame:  # fmt: skip
    """Seat 0's heuristics (and the equilibrium table) against a table of equilibrium players
    and against a table of basic players, paired on the same deals within each table."""
    from loo_sim.analysis.miss import heuristic_table
    from loo_sim.run.decisions import heuristics

    n = rules.players
    profiles = study.profiles(rules)
    names = [name for name, _ in profiles] + ["equilibrium table"]
    candidates = [_with_play(p, play) for _, p in profiles] + [main.table_policy()]
    frames = []
    for label, table in (
        ("equilibrium players", [main.table_policy()] * n),
        ("basic players", [_with_play("basic", play)] * n),
    ):
        res = heuristics(rules, table, 0, candidates, names, deals, int(study.seed), float(study.carried[0]),
                         progress=progress(f"heuristics vs {label}") if progress else None, backend=backend,
                         tables=main.tables)  # fmt: skip
        frame = heuristic_table(res)
        frame.insert(0, "table", label)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def _distance_frame(results: list[SolveResult], frames: list[pd.DataFrame]) -> pd.DataFrame:
    rows = []
    for i in range(len(results)):
        for j in range(i + 1, len(results)):
            d = table_distance(frames[i], frames[j])
            rows.append(dict(a=results[i].start, b=results[j].start, **d))
    return pd.DataFrame(rows)


def _figures(study: Any, rules: Rules, strategy: pd.DataFrame, tables: dict[str, pd.DataFrame]) -> dict:
    from loo_sim.plots.solve import convergence_plot, exploitability_bars
    from loo_sim.plots.strategy import strategy_heatmap, strategy_heatmap_size

    panels = strategy[["earlier_in"]].assign(offer=strategy["options"].str.contains("miss|defend")).drop_duplicates()
    size = strategy_heatmap_size(strategy["class"].nunique(), rules.players, len(panels))
    figures = {"strategy": figure(size)}
    play = study.play_policy().play_name
    title = (f"{study.preset}, {rules.players} players: the equilibrium declaration strategy (start {study.starts[0]}, "
             f"card play {play})")  # fmt: skip
    under = "" if play == "basic" else f" (card play {play})"  # basic's titles as they were
    strategy_heatmap(figures["strategy"], strategy, title=title)
    conv = tables["convergence"]
    main = conv[conv["start"] == study.starts[0]]
    figures["convergence"] = figure((8, 4.5))
    target = TARGET_SHARE * float(main["ante_pool"].iloc[0])
    title = f"{study.preset}, {rules.players} players: NashConv of the average strategy by iteration{under}"
    convergence_plot(figures["convergence"].add_subplot(), main, target=target, title=title)
    ex = tables["exploitability"]
    figures["exploitability"] = figure((9, 0.45 * ex["profile"].nunique() + 1.8))
    title = f"{study.preset}, {rules.players} players: NashConv of each profile on fresh deals{under}"
    exploitability_bars(figures["exploitability"].add_subplot(), ex, title=title)
    return figures


def _pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def nashconv_verdict(eq: Any, basic: Any | None) -> str:
    """The sentence on the solved table's NashConv (``eq``: its exploitability row; ``basic``:
    ``basic``'s, when measured): the 1%-of-the-ante-pool target judged at the upper end of
    the interval, ``basic``'s beside it, and what an interval wholly below zero means."""
    target = TARGET_SHARE * eq.ante_pool
    half = Z95 * eq.total_se
    verdict = "below" if eq.total + half <= target else "not shown to be below"
    line = (f"The solved table's NashConv is {eq.total:.3f} ± {half:.3f} chips per deal ({_pct(eq.share)} of the "
            f"{eq.ante_pool:g}-chip ante pool): {verdict} 1% of the ante pool ({target:.3f}) at the upper end of its "
            "interval.")  # fmt: skip
    if basic is not None and basic.total > 0 and eq.total > 0:
        line += f" `basic`'s is {basic.total:.2f}, {basic.total / eq.total:,.0f} times larger."
    elif basic is not None:
        line += f" `basic`'s is {basic.total:.2f}."
    if eq.total + half < 0:  # a true NashConv is never negative
        line += (" Its interval lies below zero, where no true NashConv is: where few of these deals reach, the "
                 "responses learnt on the first half pick declarations that do worse on the second, and no "
                 "profitable deviation shows; more fresh deals (`--eval-deals`) bring the estimate up towards its "
                 "true value.")
    return line


def solve_summary(study: Any, rules: Rules, results: list[SolveResult], exploit: list,
                  frames: list[pd.DataFrame], tables: dict[str, pd.DataFrame], cmd: str,
                  other: pd.DataFrame | None = None) -> str:  # fmt: skip
    main, eq = results[0], exploit[0]
    n = rules.players
    play = study.play_policy()
    lines = [f"# Equilibrium of the declaration game: {study.preset}, {n} players", ""]
    if cmd:
        lines += ["```", cmd, "```", ""]
    lines += [
        f"The declaration game is solved given card play `{play.play_name}` and exchange `{play.exchange}` at every "
        "seat: the table below is an equilibrium of the declarations (play, pass, the miss, the dealer's defence), "
        "not of card play.",
        "",
        f"Fictitious play ({main.averaging} averaging) from `{main.start}`: {len(main.convergence) - 1} iterations "
        f"of {main.deals:,} deals per carried pot ({', '.join(f'{c:g}' for c in main.carried)} chips carried in), "
        f"{int(main.convergence[-1]['deals']):,} deals in {main.elapsed_s:,.0f} s; "
        f"{int((main.decisions > 0).sum()):,} information sets met (the table lists them; a seat at any other "
        "decides as `basic`).",
        "",
        "## Exploitability (NashConv, chips per deal, on fresh deals)",
        "",
        "NashConv is the sum over seats of what a best response gains over the profile. The response is picked "
        f"on {eq.deals:,} fresh deals per carried pot and its gain measured deal by deal on {eq.deals:,} others "
        "(a response judged on the deals that picked it would be biased upward); a response learnt from finitely "
        "many deals is not the exact best response, so these figures are lower estimates of the true NashConv.",
        "",
        "| profile | NashConv | 95% interval | share of the ante pool |",
        "|---|---|---|---|",
    ]
    for e in exploit:
        half = Z95 * e.total_se
        interval = f"[{_num(e.total - half)}, {_num(e.total + half)}]"
        lines.append(f"| {e.profile} | {_num(e.total)} | {interval} | {_pct(e.share)} |")
    basic = next((e for e in exploit if e.profile == "basic"), None)
    lines += ["", nashconv_verdict(eq, basic)]
    lines += ["", "## What the equilibrium does with the seeds' tips", ""]
    lines += [f"- {s}" for s in tip_sentences(frames[0], rules.miss)]
    if len(results) > 1:
        lines += ["", "## Several starts", ""]
        lines += [f"- {s}" for s in distance_sentences([r.start for r in results], frames)]
        values = ", ".join(f"from {r.start}: {e.value.sum():.3f}" for r, e in zip(results, exploit))
        lines.append(f"- Chips per deal summed over the seats under each table ({values}).")
    if other is not None:
        this_name = f"this table (card play `{play.play_name}`)"
        other_name = f"`{shown_path(study.compare_with)}`"
        lines += ["", *comparison_section(this_name, other_name, frames[0], other, n, rules.miss)]
    lines += ["", "## Heuristics at a table of equilibrium players", ""]
    if len(main.carried) > 1:
        lines += [f"Seat 0's heuristics, played on {study.evaluation_deals():,} deals with {main.carried[0]:g} chips "
                  "carried in (the first pot of the solve).", ""]  # fmt: skip
    lines += _heuristic_lines(tables["heuristics"])
    others = "".join(f", strategy-{r.start}.csv" for r in results[1:])
    more = f"{others} (the tables from the other starts), distances.csv" if others else ""
    more += ", comparison.csv" if other is not None else ""
    lines += ["", "Files: strategy.csv (read it back with `--policy table:PATH`), strategy.png, convergence.csv "
                  f"and .png, exploitability.csv and .png, heuristics.csv{more}, run.json."]  # fmt: skip
    return "\n".join(lines) + "\n"


def _num(x: float) -> str:
    """Three decimals, without a minus sign on a value that rounds to zero."""
    text = f"{x:.3f}"
    return "0.000" if text == "-0.000" else text


def _heuristic_lines(frame: pd.DataFrame) -> list[str]:
    """Which heuristics seat 0 does best with, against each table: the best by its paired
    difference against basic, and every other whose interval of that difference reaches
    the best's (they are not told apart by these deals)."""
    lines = []
    for label, rows in frame.groupby("table", sort=False):
        best = rows.loc[rows["diff_vs_baseline"].idxmax()]
        tied = rows[(rows["diff_ci_high"] >= best["diff_ci_low"]) & (rows["heuristic"] != best["heuristic"])]
        figures = [f"`{best['heuristic']}` {best['diff_vs_baseline']:+.3f} [{best['diff_ci_low']:+.3f}, "
                   f"{best['diff_ci_high']:+.3f}]"]  # fmt: skip
        figures += [f"`{r.heuristic}` {r.diff_vs_baseline:+.3f} [{r.diff_ci_low:+.3f}, {r.diff_ci_high:+.3f}]"
                    for r in tied.itertuples()]  # fmt: skip
        if tied.empty:
            head = f"seat 0 does best with `{best['heuristic']}`"
        else:
            head = "seat 0 does best with " + " or ".join(f"`{h}`" for h in [best["heuristic"], *tied["heuristic"]])
            head += " (their intervals overlap: these deals do not tell them apart)"
        lines.append(f"- Against {label}, {head}. Chips per deal gained over `basic` on the same deals, with "
                     f"95% intervals: {'; '.join(figures)}.")  # fmt: skip
    return lines
