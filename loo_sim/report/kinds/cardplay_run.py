"""Running a card-play ladder (``loo-sim cardplay``, a report's ``kind = "cardplay"``):
``run.ladder`` for ladder A (the focal seat among the table's players) and, with
``whole_table``, ladder B (every other seat on that family), the table of
``analysis.cardplay``, one plot and a summary in sentences drawn from the table. And the
comparison of two decision charts (``loo-sim cardplay --compare-charts A B``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from loo_sim.analysis.cardplay import (
    ALL,
    change_lines,
    compare_charts,
    infer_sentences,
    infer_table,
    ladder_sentences,
    ladder_table,
    read_chart,
)
from loo_sim.report.command import command
from loo_sim.report.running import StudyOutput, chip_warnings, figure
from loo_sim.run.ladder import infer_pairs, run_ladder

LADDER_TITLES = {"A": "Ladder A: the focal seat among the table's players",
                 "B": "Ladder B: the focal seat with every other seat on the whole-table family"}  # fmt: skip
INFER_PAIRING = ("each pimc:N:infer entrant plays the same deals again in a ladder of two, after pimc:N of the same N "
                 "(its baseline there): infer.csv")  # fmt: skip


def run_cardplay_study(study: Any, out: str | None, progress, backend) -> StudyOutput:
    """The study's output: the ladder table, its figure and summary (and the warning of chip
    amounts past 2**53)."""
    rules = study.base_rules()
    n = rules.players
    entrants = study.entrant_policies()
    names = [t.strip() for t in study.entrants]
    results, frames, infer_frames = [], [], []
    partial, done = False, 0
    for ladder, other in study.ladders():
        label = f"ladder {ladder} deals"
        try:
            res = run_ladder(rules, [other] * n, entrants, names, study.deals, study.seed, study.carried,
                             progress=progress(label) if progress else None, backend=backend)  # fmt: skip
        except KeyboardInterrupt:
            if not results:  # nothing finished: nothing to keep
                raise
            partial, done = True, 0
            break
        results.append((ladder, other, res))
        frames.append(ladder_table(res, ladder))
        if res.partial:
            partial, done = True, res.deals_done
            break
        pairs = _infer_pairs(study, rules, ladder, other, entrants, names, progress, backend)
        if pairs is None:
            partial, done = True, 0
            break
        infer_frames.extend(pairs)
    table = pd.concat(frames, ignore_index=True)
    where = f"{study.preset}, {n} players, {study.deals:,} deals" + (
        f", {study.carried:g} chips carried in" if study.carried else ""
    )
    lines = [f"# Card-play ladder: {where}", "", "```", command(study, out), "```", "",
             f"Each entrant takes a focal seat in turn, on the same deals: deal k is the deck shuffled from "
             f"(seed {study.seed}, k), dealt by seat k mod {n}, as in `loo-sim simulate`, and every entrant plays "
             f"it once in each position 1..{n} from the dealer's left (1: the dealer's left, {n}: the dealer); the "
             "other seats keep the ladder's table. Chips per deal are the focal seat's net chips; the loo rate is "
             "per deal; tricks are per deal it played tricks in. The differences from the first entrant "
             f"(`{names[0]}`) are paired deal by deal, and every interval is 95% with the deal the unit "
             "(`all`: the mean over the positions of one deal)."]  # fmt: skip
    if partial:
        lines += ["", f"**Interrupted**: the last ladder run covers {done:,} of {study.deals:,} deals; a ladder "
                      "not listed did not run."]  # fmt: skip
    figure_rows = []
    for ladder, other, res in results:
        part = table[table.ladder == ladder]
        overall = part[part.position.astype(str) == ALL]
        lines += ["", f"## {LADDER_TITLES[ladder]} (`{other}`)", "",
                  f"{res.deals_done:,} deals, each played by every entrant in each of the {n} positions.", "",
                  f"| entrant | policy | chips per deal | loo rate | tricks per deal played | minus `{names[0]}` "
                  "(paired) |", "|---|---|---|---|---|---|"]  # fmt: skip
        for r in overall.itertuples():
            lines.append(f"| {r.entrant} | {r.policy} | {r.chips_per_deal:+.3f} [{r.chips_ci_low:+.3f}, "
                         f"{r.chips_ci_high:+.3f}] | {r.loo_rate:.4f} ± {1.96 * r.loo_se:.4f} | "
                         f"{r.tricks_per_deal_played:.3f} ± {1.96 * r.tricks_se:.3f} | {r.diff_vs_baseline:+.3f} "
                         f"[{r.diff_ci_low:+.3f}, {r.diff_ci_high:+.3f}] |")  # fmt: skip
        lines += ["", *ladder_sentences(part)]
        lines += _infer_lines(infer_frames, ladder)
        figure_rows.append((ladder, other, part))
    tables = {"ladder": table}
    files = "ladder.csv (every entrant at every position and `all`)"
    if infer_frames:
        tables["infer"] = pd.concat(infer_frames, ignore_index=True)
        files += ", infer.csv (each `pimc:N:infer` minus `pimc:N`, paired, at every position and `all`)"
    lines += ["", f"Files: {files}, ladder.png, run.json."]
    figures = {"ladder": _figure(figure_rows, where)}
    info = _info(study, rules, names, entrants, results, bool(infer_frames))
    return StudyOutput(study, tables, figures, "\n".join(lines) + "\n", info,
                       chip_warnings(rules, [float(study.carried)]), partial=partial, done=done, total=study.deals,
                       unit="deals")  # fmt: skip


def _infer_pairs(study, rules, ladder: str, other, entrants, names, progress, backend) -> list[pd.DataFrame] | None:
    """Each ``pimc:N:infer`` entrant against ``pimc:N`` in a ladder of the two alone, on
    the same deals (``infer_table`` rows); None when one was interrupted."""
    frames = []
    for e, reference in infer_pairs(entrants):
        ref_name = next((names[i] for i, p in enumerate(entrants) if p == reference), str(reference))
        label = f"ladder {ladder}: {names[e]} vs {ref_name} deals"
        try:
            res = run_ladder(rules, [other] * rules.players, [reference, entrants[e]], [ref_name, names[e]],
                             study.deals, study.seed, study.carried, progress=progress(label) if progress else None,
                             backend=backend)  # fmt: skip
        except KeyboardInterrupt:
            return None
        if res.partial:
            return None
        frames.append(infer_table(res, ladder))
    return frames


def _infer_lines(frames: list[pd.DataFrame], ladder: str) -> list[str]:
    rows = [f for f in frames if (f.ladder == ladder).all()]
    if not rows:
        return []
    return ["", "What the inference adds: each `pimc:N:infer` minus `pimc:N` of the same N, paired deal by deal in "
                "a ladder of the two alone on the same deals (infer.csv).", "",
            *infer_sentences(pd.concat(rows, ignore_index=True))]  # fmt: skip


def _figure(rows, where: str):
    from loo_sim.plots.cardplay import ladder_differences, ladder_points

    entrants = len(set(rows[0][2].entrant)) if rows else 1
    fig = figure((14, (3.8 + 0.1 * entrants) * max(len(rows), 1)))
    axes = fig.subplots(max(len(rows), 1), 2, squeeze=False)
    for (ladder, other, part), (left, right) in zip(rows, axes):
        ladder_points(left, part, title=f"Ladder {ladder} (table {other}): {where}")
        ladder_differences(right, part, title=f"Ladder {ladder}: paired difference from {part.entrant.iloc[0]}")
    return fig


def chart_comparison(a_path: str, b_path: str) -> tuple[pd.DataFrame, str]:
    """Two decision charts compared (``analysis.cardplay.compare_charts``): the changes and
    the text (verdict_changes.md) that lists them."""
    a, b = read_chart(a_path), read_chart(b_path)
    changes, counts = compare_charts(a, b)
    lines = ["# Which verdicts change", "", f"A: `{_chart_name(a_path)}`, B: `{_chart_name(b_path)}`.", "",
             "A cell is a hand class, a position, whether the miss is on offer and how many earlier seats are in "
             "(as in the charts). Its verdict is the best action by paired differences, with its margin over the "
             "runner-up and the 95% interval; a change is flagged where at least one of the two verdicts is "
             "significant (it beats every other action on offer with an interval clear of 0).", "",
             *change_lines(changes, counts)]  # fmt: skip
    lines += ["", *_run_notes(a_path, "A"), *_run_notes(b_path, "B")]
    return changes, "\n".join(line for line in lines) + "\n"


def _chart_name(path: str) -> str:
    p = Path(path)
    return str(p / "chart.csv") if p.is_dir() else str(p)


def _run_notes(path: str, side: str) -> list[str]:
    """The command of a miss run, from its run.json beside the chart (where there is one)."""
    import json

    p = Path(path)
    run = (p if p.is_dir() else p.parent) / "run.json"
    try:
        cmd = json.loads(run.read_text()).get("command")
    except (OSError, ValueError, AttributeError):
        return []
    return [f"{side} was made by `{cmd}`."] if cmd else []


def _info(study: Any, rules: Any, names: list[str], entrants: list, results: list, paired_infer: bool) -> dict:
    """run.json's information about a ladder study: rules, entrants, ladders and how deals pair."""
    return {
        "rules": rules.to_dict(),
        "entrants": [{"name": name, "policy": str(p)} for name, p in zip(names, entrants)],
        "ladders": [
            {"ladder": ladder, "table": str(other), "deals_done": res.deals_done, "elapsed_s": round(res.elapsed_s, 3)}
            for ladder, other, res in results
        ],  # fmt: skip
        "carried": study.carried,
        **({"infer_pairs": INFER_PAIRING} if paired_infer else {}),
        "pairing": "every entrant plays the same deals: deal k on the deck shuffled from (seed, k), dealt by seat k "
        "mod players, once with the focal seat at each position; differences from the first entrant are paired "
        "deal by deal",
    }
