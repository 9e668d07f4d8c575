"""Running a study: one runner per kind turns a spec (``report.study``) into a
:class:`StudyOutput` (tables, figures, summary.md, run.json and the text a command
prints), and :func:`write_study` writes it, each file atomically.

The CLI commands (``loo-sim simulate``, ``miss``, ``pots``, ``variants``, ...) and batch
reports both run their studies here, so they write the same files with the same content.
Numba's thread count is the caller's; ``progress`` makes the ``progress(done, total)`` callback of
each long loop (or none), so this layer draws nothing on the terminal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from loo_sim.config import VARIANT_BATCHES
from loo_sim.game.policy import Policy, heuristics_for
from loo_sim.game.rules import Rules
from loo_sim.report.command import command, describe_policies, overrides, run_info
from loo_sim.report.figures import miss_figures, pots_figures, variants_figures
from loo_sim.report.study import (
    CardplayStudy,
    MissStudy,
    PotsStudy,
    RiskStudy,
    SimulateStudy,
    SolveStudy,
    Study,
    TournamentStudy,
    VariantsStudy,
)

ProgressFn = Callable[[int, int], None]
ProgressFactory = Callable[[str], ProgressFn | None]  # a label ("chart deals", "sessions") -> a callback, or None


@dataclass
class StudyOutput:
    study: Study
    tables: dict[str, pd.DataFrame]  # name -> long-form table (name.csv)
    figures: dict[str, Any]  # name -> matplotlib Figure (name.png)
    summary: str  # summary.md
    info: dict[str, Any]  # run.json
    warnings: list[str] = field(default_factory=list)
    partial: bool = False
    text: str = ""  # what a command prints (default: the summary)
    files: dict[str, bytes] = field(default_factory=dict)  # name -> contents written as they are (solve's strategy.csv)
    done: int = 0  # items (deals, sessions) of the stage Ctrl-C stopped that finished (when partial)
    total: int = 0  # items that stage asked for
    unit: str = "deals"  # what those items are ("chart deals", "sessions")

    def interrupted_line(self, where: Path | str | None) -> str:
        """The one line a command prints after Ctrl-C (exit 130)."""
        if not self.tables:
            return "interrupted: nothing written"
        place = f"partial results in {where}" if where is not None else "PARTIAL results printed above (no --out)"
        return f"interrupted: {self.done:,} of {self.total:,} {self.unit} done; {place}"


def run_study(
    study: Study,
    out: str | None = None,
    progress: ProgressFactory | None = None,
    backend=None,
    checked: bool = False,
) -> StudyOutput:
    """Run one study (validated first unless the caller has: ``checked``); ``out`` is the
    directory named in the recorded command, ``backend`` where the kernel runs (this
    process by default)."""
    if not checked:
        study.check()
    output = RUNNERS[study.kind](study, out, progress, backend)
    output.info = run_info(study, out, output.partial, output.info)
    if output.partial:  # Ctrl-C: what finished, stamped, and nothing of the stages after it
        output.info["interrupted"] = {"done": output.done, "total": output.total, "unit": output.unit}
        stamp = (f"**PARTIAL**: interrupted after {output.done:,} of {output.total:,} {output.unit}; "
                 "these results cover only what finished (`--resume` in a report redoes it).\n\n")  # fmt: skip
        output.summary = stamp + output.summary
    output.text = output.text or output.summary
    return output


def write_study(out_dir: Path, output: StudyOutput, folder: bool = False) -> list[str]:
    """Write every table, figure, summary.md and run.json; the file names. All are
    rendered first, then written all-or-nothing: into ``out_dir`` under temp names renamed
    at the end, or with ``folder`` as the whole folder ``out_dir`` (a staging folder
    renamed into place, replacing an older one: a report's experiment is complete on disk
    or absent). A full disk halfway leaves what was there before (``loo_sim.atomic``)."""
    from loo_sim.atomic import replace_folder, write_files
    from loo_sim.report.outputs import csv_bytes, json_bytes, png_bytes

    files = [(f"{name}.csv", csv_bytes(df)) for name, df in output.tables.items()]
    files += list(output.files.items())
    files += [(f"{name}.png", png_bytes(fig)) for name, fig in output.figures.items()]
    files += [("summary.md", output.summary.encode("utf-8")), ("run.json", json_bytes(output.info))]
    (replace_folder if folder else write_files)(out_dir, files)
    return [name for name, _ in files]


def study_deals(study: Study) -> float:
    """About how many deals the kernel plays for ``study`` (the run-time estimate's count)."""
    if isinstance(study, MissStudy):
        counts = len(study.player_counts(study.base_rules()))
        runs = counts * max(len(study.carried), 1)
        sessions = 0.0
        if study.session_pots:
            n, d, _ = study.session_settings()
            sessions = float(n) * d * counts
        heuristics = len(heuristics_for(study.base_rules())) + len(study.heuristics)
        return float(study.deals) * (runs + heuristics + 1) + sessions
    if isinstance(study, PotsStudy):
        return float(study.sessions) * study.deals * len(study.arms())
    if isinstance(study, VariantsStudy):  # in sessions: the sessions' deals and as many clean-pot deals
        return float(study.deals) * max(len(study.rows), 1) * (2 * study.sessions if study.in_sessions else 1)
    if isinstance(study, TournamentStudy):
        return float(study.sessions) * study.deals * len(study.policies)
    if isinstance(study, RiskStudy):
        return 2.0 * study.sessions * study.deals
    if isinstance(study, CardplayStudy):  # every entrant plays every deal in every position, in each ladder
        players = study.base_rules().players
        return float(study.deals) * len(study.focal) * players * len(study.ladders())
    if isinstance(study, SolveStudy):  # each deal of a solve is replayed about twice per seat
        per_start = (int(study.iterations) + 1) * study.deals * len(study.carried)
        profiles = len(study.starts) + 8 + len(study.exploitability_of)
        evaluation = 2 * study.evaluation_deals() * len(study.carried) * profiles
        return 4.0 * (per_start * len(study.starts) + evaluation)
    return float(study.deals)


def _threads() -> int:
    from numba import get_num_threads

    return get_num_threads()


def _progress(factory: ProgressFactory | None, label: str = "deals") -> ProgressFn | None:
    return factory(label) if factory else None


# ---- simulate -----------------------------------------------------------------------------
def _run_simulate(study: SimulateStudy, out: str | None, progress, backend) -> StudyOutput:
    from loo_sim.analysis.simulate import class_table, position_table, summary_table
    from loo_sim.analysis.simulate_text import simulate_summary
    from loo_sim.run.simulate import simulate
    from loo_sim.run.strength import resolve_strength, table_info

    rules = study.base_rules()
    table = study.table(rules.players)
    strength = resolve_strength(rules, table)
    res = simulate(rules, table, study.deals, study.seed, study.carried, study.dealer, threads=_threads(),
                   progress=_progress(progress), by_class=study.by_class, backend=backend,
                   strength=strength)  # fmt: skip
    where = _where(backend, res.threads)
    tables = {"summary": summary_table(res), "positions": position_table(res)}
    if study.by_class:
        tables["by_class"] = class_table(res)
    info = {
        "overrides": overrides(study),
        "rules": rules.to_dict(),
        "policies": [str(p) for p in table],
        "deals_requested": res.deals_requested,
        "deals_done": res.deals_done,
        "carried": res.carried,
        "dealer": "rotating (deal k: seat k mod players)" if res.dealer is None else res.dealer,
        "threads": res.threads,
        "ran_on": where,
        "elapsed_s": round(res.elapsed_s, 3),
        "strength_table": table_info(strength),  # the table threshold/ev read (None: no seat reads one)
    }
    summary = simulate_summary(res, tables, study.preset, command(study, out))
    text = _simulate_text(study, res, table, tables, where)
    return StudyOutput(study, tables, {}, summary, info, _chip_warnings(rules, [res.carried]), res.partial, text,
                       done=res.deals_done, total=res.deals_requested)  # fmt: skip


def _where(backend, threads: int) -> str:
    """Where a run's kernel calls ran: ``2 thread(s)`` here, or a Dask cluster's workers."""
    from loo_sim.run.backend import LocalBackend

    return (backend or LocalBackend()).describe(threads)


def _simulate_text(study: SimulateStudy, res, table: list[Policy], tables: dict[str, pd.DataFrame],
                   where: str) -> str:  # fmt: skip
    """What ``loo-sim simulate`` prints: a header line, the table of seats, the hand classes."""
    from loo_sim.analysis.simulate_text import format_summary

    state = "PARTIAL " if res.partial else ""
    lines = [f"{state}{res.deals_done:,} deals of {study.preset} ({res.rules.players} players), seed {res.seed}, "
             f"{describe_policies(table)}; {res.elapsed_s:.1f} s on {where}",
             format_summary(res, tables["summary"])]  # fmt: skip
    if "by_class" in tables:
        lines.append("\nloo rate by hand class (hands played; the grid is docs/policies.md P5, also printed by "
                     "`loo-sim calibrate`):")  # fmt: skip
        for r in tables["by_class"].itertuples(index=False):
            lines.append(f"  {r.label:<42} {r.hands:>10,}  {r.loo_rate:.4f} [{r.ci_low:.4f}, {r.ci_high:.4f}]")
    return "\n".join(lines)


# ---- miss ---------------------------------------------------------------------------------
def _run_miss(study: MissStudy, out: str | None, progress, backend) -> StudyOutput:
    from loo_sim.analysis.miss import best_actions, chart_table, heuristic_table, sweep_frames
    from loo_sim.analysis.miss_text import miss_summary, pot_words
    from loo_sim.run.decisions import decisions, heuristics

    base = study.base_rules()
    player_counts = study.player_counts(base)
    pots = [0.0] if study.session_pots else [float(c) for c in study.carried] or [0.0]
    main_n, main_pot = player_counts[0], pots[0]
    rules, table = base.replace(players=main_n), study.table(main_n)
    chart_seats = None if study.chart_seat is None else [study.chart_seat]
    info: dict[str, Any] = {"rules": rules.to_dict(), "players": player_counts,
                            "carried": ["session"] if study.session_pots else pots}  # fmt: skip
    dists: dict[int, Any] = {}  # players -> the session distribution of the carried pot
    if study.session_pots:
        stopped = _session_pots(study, base, player_counts, dists, info, progress, backend)
        if stopped is not None:
            return stopped
    main_dist = dists.get(main_n)
    chart_res = decisions(rules, table, study.deals, study.seed, main_pot, focal=chart_seats,
                          progress=_progress(progress, "chart deals"), backend=backend, pots=main_dist)  # fmt: skip
    if chart_res.partial:  # Ctrl-C: stop here, the stages after it do not run
        return _partial_miss(study, {"chart": chart_table(chart_res)}, info, "chart deals", chart_res.deals)
    names, candidates = study.heuristic_policies(rules)
    names, candidates = [*names, "chart (best action of this chart)"], [*candidates, Policy("chart")]
    try:
        heur = heuristics(rules, table, study.focal, candidates, names, study.deals, study.seed, main_pot,
                          chart=best_actions(chart_res), precision=study.precision,
                          progress=_progress(progress, "heuristic deals"), backend=backend,
                          pots=main_dist)  # fmt: skip
    except KeyboardInterrupt:  # before its first round: the chart is kept
        return _partial_miss(study, {"chart": chart_table(chart_res)}, info, "heuristic deals", 0)
    if heur.partial:
        tables = {"chart": chart_table(chart_res), "heuristics": heuristic_table(heur)}
        return _partial_miss(study, tables, info, "heuristic deals", heur.deals)
    runs = []
    for n in player_counts:
        for pot in pots:
            if (n, pot) == (main_n, main_pot):
                runs.append(chart_res)
                continue
            seats = None if chart_seats is None else [s for s in chart_seats if s < n]
            stage = f"sweep deals ({n} players, {'session pots' if study.session_pots else f'pot {pot:g}'})"
            try:
                run = decisions(base.replace(players=n), study.table(n), study.deals, study.seed, pot, focal=seats,
                                backend=backend, pots=dists.get(n))  # fmt: skip
            except KeyboardInterrupt:  # before its first round
                run = None
            if run is None or run.partial:
                tables = {"chart": chart_table(chart_res), "heuristics": heuristic_table(heur)}
                return _partial_miss(study, tables, info, stage, 0 if run is None else run.deals)
            runs.append(run)
    shares, sweep_classes = sweep_frames(runs)
    tables = {"chart": chart_table(chart_res)}
    if main_dist is not None:
        tables["session_pots"] = main_dist.table()
    charts = [("chart", main_n, tables["chart"])]  # one per player count, at the main pot
    for n in player_counts[1:]:
        res = next(r for r in runs if r.rules.players == n and (r.pots is not None or r.carried == main_pot))
        tables[f"chart-{n}"] = chart_table(res)
        if n in dists:
            tables[f"session_pots-{n}"] = dists[n].table()
        charts.append((f"chart-{n}", n, tables[f"chart-{n}"]))
    tables |= {"heuristics": heuristic_table(heur), "sweep": shares, "sweep_classes": sweep_classes}
    shown = pot_words(chart_res) if study.session_pots else main_pot
    plays = {p.play_name for p in table}
    label = study.preset if plays == {"basic"} else f"{study.preset}, card play {', '.join(sorted(plays))}"
    figures = miss_figures(label, charts, shown, study.focal, len(names), heur.deals, tables,
                           scale=study.chart_scale)  # fmt: skip
    text = miss_summary(study.preset, chart_res, tables["chart"], heur, tables["heuristics"], shares,
                        command(study, out), charts=[(name, n) for name, n, _ in charts])  # fmt: skip
    info |= {"chart_deals": chart_res.deals, "heuristic_deals": heur.deals,
             "strength_tables": _strength_tables(base, player_counts, study, candidates)}  # fmt: skip
    largest = [d.largest for d in dists.values()]
    warnings = [w for n in player_counts for w in _chip_warnings(base.replace(players=n), pots + largest)]
    return StudyOutput(study, tables, figures, text, info, list(dict.fromkeys(warnings)))


def _pots_name(players: int, main: int) -> str:
    return "session_pots" if players == main else f"session_pots-{players}"


def _session_pots(study: MissStudy, base: Rules, player_counts: list[int], dists: dict, info: dict, progress,
                  backend) -> StudyOutput | None:  # fmt: skip
    """``--carried session``: the distribution of the carried pot in sessions at each player
    count into ``dists`` (and how it was obtained into ``info``); a partial output when
    Ctrl-C stopped it."""
    from loo_sim.run.session_pots import session_pots

    sessions, deals, burn_in = study.session_settings()
    info["session_pots"] = {"sessions": sessions, "session_deals": deals, "burn_in": burn_in,
                            "seed": study.seed, "deals_counted": {}}  # fmt: skip
    for n in player_counts:
        stage = f"sessions ({n} players)" if len(player_counts) > 1 else "sessions"
        try:
            dist = session_pots(base.replace(players=n), study.table(n), sessions, deals, burn_in, study.seed,
                                progress=_progress(progress, stage), backend=backend)  # fmt: skip
        except KeyboardInterrupt:  # before its first round
            dist = None
        if dist is None or dist.partial:
            cut = {} if dist is None or not dist.counted else {n: dist}
            tables = {_pots_name(m, player_counts[0]): d.table() for m, d in (dists | cut).items()}
            return _partial_miss(study, tables, info, stage, 0 if dist is None else dist.sessions, sessions, "sessions")
        dists[n] = dist
        info["session_pots"]["deals_counted"][str(n)] = dist.counted
    return None


def _partial_miss(study: MissStudy, tables: dict[str, pd.DataFrame], info: dict[str, Any], stage: str,
                  done: int, total: int | None = None, unit: str = "deals") -> StudyOutput:  # fmt: skip
    """A miss study Ctrl-C cut in ``stage``: the tables of the stages that finished (and
    the one cut, when some of it did), no charts, and a summary that says so (``total``
    ``unit`` of that stage: the study's deals by default)."""
    total = study.deals if total is None else total
    lines = [f"# Miss study ({study.preset}): PARTIAL", "",
             f"Interrupted in the {stage} after {done:,} of {total:,} {unit}; the stages after it did not run.",
             "", "Tables written: " + (", ".join(f"{t}.csv" for t in tables) or "none") + "."]  # fmt: skip
    info = info | {"stage_interrupted": stage}
    return StudyOutput(study, tables, {}, "\n".join(lines) + "\n", info, partial=True, done=done,
                       total=total, unit=stage)  # fmt: skip


# ---- pots ---------------------------------------------------------------------------------
def _run_pots(study: PotsStudy, out: str | None, progress, backend) -> StudyOutput:
    from loo_sim.analysis.pots import arm_stats, balance_histogram, balances, max_pot_ccdf, paired, pot_by_deal
    from loo_sim.analysis.pots_text import pots_summary
    from loo_sim.run.sessions import run_pots

    arms = study.arms()
    res = run_pots(arms, study.sessions, study.deals, study.seed, progress=_progress(progress, "sessions"),
                   backend=backend)  # fmt: skip
    tables = {
        "pot_by_deal": pot_by_deal(res),
        "max_pot": max_pot_ccdf(res),
        "balances": balances(res),
        "balance_histogram": balance_histogram(res),
        "arms": arm_stats(res),
        "paired": paired(res),
    }
    figures = pots_figures(study.preset, len(arms), max(a.rules.players for a in arms), tables)
    text = pots_summary(res, tables, study.preset, command(study, out))
    info = {
        "arms": [
            {
                "name": a.name,
                "rules": a.rules.to_dict(),
                "policies": [str(p) for p in a.policies],
                "strength_table": _strength_table(a.rules, a.policies),
            }
            for a in arms
        ],  # fmt: skip
        "sessions": res.sessions,
    }
    return StudyOutput(study, tables, figures, text, info, _inexact_warnings(res, tables["arms"]), res.partial,
                       done=res.sessions, total=study.sessions, unit="sessions")  # fmt: skip


def _strength_table(rules: Rules, policies) -> dict | None:
    """The key, deals, seed and source of the strength table a run of ``policies`` reads."""
    from loo_sim.run.strength import resolve_strength, table_info

    return table_info(resolve_strength(rules, policies))


def _strength_tables(base: Rules, player_counts: list[int], study, candidates) -> dict[str, dict | None]:
    """The strength table of each player count of a miss run (its chart and heuristics)."""
    return {str(n): _strength_table(base.replace(players=n), [*study.table(n), *candidates]) for n in player_counts}


def _chip_warnings(rules: Rules, carried: list[float]) -> list[str]:
    """A warning when a deal's pot (carried plus the antes) or a penalty may pass 2**53 chips,
    where float64 chips are no longer exact (R3)."""
    from loo_sim.checks import inexact_chips

    antes = rules.ante * (rules.players if rules.ante_payer == "each" else 1)
    if not inexact_chips(max(carried, default=0.0) + antes, rules.penalty_amount):
        return []
    return ["chip amounts pass 2**53 (carried plus antes, or the penalty); float64 chips are no longer exact, "
            "results are approximate (R3)"]  # fmt: skip


def _inexact_warnings(res, arm_table: pd.DataFrame) -> list[str]:
    """One warning for each arm some of whose sessions passed 2**53 chips (R3)."""
    import numpy as np

    from loo_sim.game import abi as L

    warnings = []
    stats = arm_table.set_index(["arm", "metric"])["value"]
    for a, arm in enumerate(res.arms):
        flagged = stats[(arm.name, "inexact_past_2_53_probability")]
        if flagged > 0:
            first = int(np.nonzero(res.deal_stats[a, :, L.DS_INEXACT_FIRST])[0][0])
            warnings.append(
                f"{arm.name}: {flagged:.1%} of sessions passed 2**53 chips (the first at deal {first}); "
                "amounts past that are not exact (R3)"
            )
    return warnings


# ---- variants -------------------------------------------------------------------------------
def _run_variants(study: VariantsStudy, out: str | None, progress, backend) -> StudyOutput:
    from loo_sim.analysis.variants import variant_rows
    from loo_sim.analysis.variants_text import variants_summary
    from loo_sim.run.variants import VariantRow, run_variants

    rows = []
    for row in study.rows:
        rules = study.row_rules(row)
        rows.append(VariantRow(row["name"], rules, study.table(rules.players)))
    baseline = study.baseline or study.rows[0]["name"]
    if study.in_sessions:
        return _run_variant_sessions(study, rows, baseline, progress, backend)
    res = run_variants(rows, baseline, study.deals, study.seed, study.carried, threads=_threads(),
                       batches=VARIANT_BATCHES, progress=_progress(progress), backend=backend)  # fmt: skip
    table = variant_rows(res)
    text = variants_summary(table, baseline, study.seed, study.carried)
    info = {
        "rows": [{"name": r.name, "rules": r.rules.to_dict(), "policies": [str(p) for p in r.policies]} for r in rows],
        "baseline": baseline,
        "deals_done": res.deals_done,
        "pairing": "every row plays the same deals: deal k on the deck shuffled from (seed, k), dealt by seat k mod "
        "players; differences against the baseline are paired deal by deal",
        "elapsed_s": round(res.elapsed_s, 3),
    }
    figures = variants_figures(table, baseline, describe_policies(rows[0].policies))
    return StudyOutput(study, {"variants": table}, figures, text, info, partial=res.partial, done=res.deals_done,
                       total=study.deals)  # fmt: skip


def _run_variant_sessions(study: VariantsStudy, rows, baseline: str, progress, backend) -> StudyOutput:
    """Variants in sessions (R10): the session table, its stationarity check and pot
    distribution, then the clean-pot table (every deal from a clean pot, as the first deal
    of a session plays) on as many independent deals as the sessions played."""
    from loo_sim.analysis.variants import session_pots, session_rows, session_windows, variant_rows
    from loo_sim.analysis.variants_text import variant_sessions_summary
    from loo_sim.report.figures import variant_sessions_figures
    from loo_sim.run.variants import run_variant_sessions, run_variants

    sres = run_variant_sessions(rows, baseline, study.sessions, study.deals, study.burn_in, study.seed,
                                threads=_threads(), progress=_progress(progress, "sessions"),
                                backend=backend)  # fmt: skip
    clean = None
    if not sres.partial:  # Ctrl-C in the sessions: stop there
        try:
            clean = run_variants(rows, baseline, study.clean_deals(), study.seed, 0.0, threads=_threads(),
                                 batches=VARIANT_BATCHES, progress=_progress(progress), backend=backend)  # fmt: skip
        except KeyboardInterrupt:  # before its first round finished: the sessions are kept
            clean = None
    partial = sres.partial or clean is None or clean.partial
    tables = {
        "sessions": session_rows(sres),
        "session_windows": session_windows(sres),
        "session_pots": session_pots(sres),
    }
    clean_table = variant_rows(clean) if clean is not None else None
    if clean_table is not None:
        tables["variants"] = clean_table
    text = variant_sessions_summary(sres, tables, clean_table, command(study))
    inexact = tables["sessions"].query("metric == 'inexact_sessions' and value > 0")
    warnings = [f"{r.row}: {r.value:.1%} of sessions passed 2**53 chips; amounts past that are not exact (R3)"
                for r in inexact.itertuples(index=False)]  # fmt: skip
    beyond = tables["session_windows"].query("beyond_3_se")
    if len(beyond):
        warnings.append(f"the late window differs from the early one by more than 3 SE in {len(beyond)} of "
                        f"{len(tables['session_windows'])} comparisons (see session_windows.csv): the burn-in may be "
                        "too short, or the rule set has no steady state")  # fmt: skip
    info = {
        "rows": [{"name": r.name, "rules": r.rules.to_dict(), "policies": [str(p) for p in r.policies]} for r in rows],
        "baseline": baseline,
        "sessions_done": sres.sessions,
        "deals_per_session": sres.deals,
        "burn_in": sres.burn_in,
        "window": sres.window,
        "clean_deals_done": clean.deals_done if clean is not None else 0,
        "pairing": "every row plays the same sessions: deal j of session i on the deck shuffled from (seed, i, j), "
        "the first dealer drawn from (seed, i, -1), the dealer rotating; differences against the baseline are "
        "paired session by session. The clean-pot table: deal k on the deck from (seed, k), dealt by seat k mod "
        "players, paired deal by deal",
        "elapsed_s": round(sres.elapsed_s + (clean.elapsed_s if clean is not None else 0.0), 3),
    }
    figures = variant_sessions_figures(tables, sres, clean_table, describe_policies(rows[0].policies))
    done, total, unit = (sres.sessions, study.sessions, "sessions") if sres.partial or clean is None else \
        (clean.deals_done, study.clean_deals(), "deals")  # fmt: skip
    return StudyOutput(study, tables, figures, text, info, warnings, partial=partial, done=done, total=total,
                       unit=unit)  # fmt: skip


def _run_solve(study: SolveStudy, out: str | None, progress, backend) -> StudyOutput:
    from loo_sim.report.solve import run_solve

    return StudyOutput(**run_solve(study, out, progress, backend))


def _run_tournament(study: TournamentStudy, out: str | None, progress, backend) -> StudyOutput:
    from loo_sim.report.tournament import run_tournament_study

    return StudyOutput(**run_tournament_study(study, out, progress, backend))


def _run_risk(study: RiskStudy, out: str | None, progress, backend) -> StudyOutput:
    from loo_sim.report.risk import run_risk_study

    return StudyOutput(**run_risk_study(study, out, progress, backend))


def _run_cardplay(study: CardplayStudy, out: str | None, progress, backend) -> StudyOutput:
    from loo_sim.report.cardplay import run_cardplay_study

    output = StudyOutput(**run_cardplay_study(study, out, progress, backend))
    output.warnings = _chip_warnings(study.base_rules(), [float(study.carried)])
    return output


RUNNERS: dict[str, Callable[..., StudyOutput]] = {
    "simulate": _run_simulate,
    "miss": _run_miss,
    "pots": _run_pots,
    "variants": _run_variants,
    "solve": _run_solve,
    "tournament": _run_tournament,
    "risk": _run_risk,
    "cardplay": _run_cardplay,
}
