"""The variants study in words (summary.md): each rule set against the baseline on the
same deals, and the same in sessions (the burn-in check, the metrics, the pot at the
start of a deal, net chips by position, the clean-pot table). Every number comes from
the study's tables (the CSVs)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from loo_sim.analysis.text import prose_number
from loo_sim.analysis.variants import metric_label, pot_quantile, session_metric_label


def _exact_zero(r) -> bool:
    return r.diff_vs_baseline == 0 and r.diff_se == 0


def variants_summary(table: pd.DataFrame, baseline: str, seed: int, carried: float) -> str:
    """summary.md of a variants study (every row on the same deals of ``seed`` with ``carried``
    chips carried in); every number from ``table`` (``analysis.variants.variant_rows``)."""

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


def variant_sessions_summary(res, tables: dict[str, pd.DataFrame], clean: pd.DataFrame | None, cmd: str = "") -> str:
    """summary.md of the variants in sessions (``run.variants.run_variant_sessions``): every
    number from the tables (``analysis.variants.session_rows``, ``session_windows``,
    ``session_pots``), then the clean-pot table (the first deal of a session) when it ran."""
    table = tables["sessions"]
    metrics = ("loo_rate", "single_share", "double_share", "contested_share", "mean_pot", "net_variance",
               "session_variance")  # fmt: skip
    lines = _sessions_intro(res, cmd) + _inexact_lines(table) + _burn_in_lines(res, tables["session_windows"])
    lines += metric_sections(table, metrics, session_metric_label, res.baseline, prose_number, prose_number)
    lines += _pot_start_lines(res, tables["session_pots"]) + _position_lines(res, table)
    lines += _clean_pot_lines(clean, res.baseline, res.seed)
    return "\n".join(lines).rstrip() + "\n"


def _sessions_intro(res, cmd: str) -> list[str]:
    """The title, the command, how the sessions were played and how the intervals are read."""
    baseline, b = res.baseline, res.burn_in
    produced = [f"Produced by `{cmd}`.", ""] if cmd else []
    return [
        f"# Rule variants in sessions against {baseline}",
        "",
        *produced,
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


def _inexact_lines(table: pd.DataFrame) -> list[str]:
    """A warning for each rule set some of whose sessions passed 2**53 chips (R3)."""
    lines = []
    for r in table[(table.metric == "inexact_sessions") & (table.value > 0)].itertuples(index=False):
        lines += [f"**Not exact**: {r.row}: {r.value:.1%} of sessions passed 2**53 chips (R3); amounts past that "
                  "are not exact, so its chip figures are not either.", ""]  # fmt: skip
    return lines


def _burn_in_lines(res, windows: pd.DataFrame) -> list[str]:
    """The burn-in check: the early window of each session against the late one, with a
    warning for every difference beyond 3 SE."""
    b, w = res.burn_in, res.window
    lines = ["## Do later deals agree? (the burn-in check)", ""]
    if w == 0:
        return lines + ["A session measures a single deal: no windows to compare.", ""]
    lines += [f"Each rule set's {', '.join(session_metric_label(m) for m in windows.metric.unique())} over deals "
              f"{b + 1}-{b + w} of every session against the last {w} ({res.deals - w + 1}-{res.deals}): the "
              "difference (late - early) with its 95% interval, the session as the unit.", ""]  # fmt: skip
    beyond = windows[windows.beyond_3_se]
    g = prose_number
    if len(beyond):
        lines.append(f"**Warning**: {len(beyond)} of {len(windows)} differences are beyond 3 SE, so these rule "
                     "sets are not in a steady state after the burn-in (or the burn-in is too short):")  # fmt: skip
        for r in beyond.itertuples(index=False):
            lines.append(f"- {r.row}, {session_metric_label(r.metric)}: {g(r.early)} early, {g(r.late)} late, "
                         f"difference {g(r.difference)} [{g(r.ci_low)}, {g(r.ci_high)}] (z = {r.z:.1f})")  # fmt: skip
    else:
        finite = windows[np.isfinite(windows.z.astype(float))]
        worst = finite.iloc[int(np.argmax(np.abs(finite.z.to_numpy(dtype=float))))] if len(finite) else None
        tail = f" (the largest |z| is {abs(worst.z):.2f}: {worst.row}, {session_metric_label(worst.metric)})" \
            if worst is not None else ""  # fmt: skip
        lines.append(f"No difference is beyond 3 SE{tail}: the early and late windows agree.")
    return lines + [""]


def _pot_start_lines(res, pots: pd.DataFrame) -> list[str]:
    """Each rule set's pot at the start of a measured deal: median, 90th percentile and the
    smallest pot met with its share."""
    lines = ["## The pot at the start of a deal", "",
             "Median and 90th percentile of the pot at the start of a measured deal, and the share of deals whose "
             "pot is the smallest one met (95% CI, the session as the unit); session_pots.csv has the whole "
             "distribution, whole pots below 4,096 chips counted exactly, larger or fractional ones in log bins "
             "(32 per decade at every size, read as the mean of the bin: within 7.5% of the true value).", "",
             "| rule set | median | 90% | smallest pot | its share |", "|---|---|---|---|---|"]  # fmt: skip
    for name in res.names:
        t = pots[pots.row == name]
        if t.empty:
            continue
        first = t.iloc[0]
        median, p90 = (prose_number(pot_quantile(pots, name, q)) for q in (0.5, 0.9))
        lines.append(f"| {name} | {median} | {p90} | {prose_number(first.pot)}{'' if first.exact else ' (bin mean)'} "
                     f"| {first.share:.2%} [{first.ci_low:.2%}, {first.ci_high:.2%}] |")  # fmt: skip
    return lines


def _position_lines(res, table: pd.DataFrame) -> list[str]:
    """Net chips per measured deal at each position from the dealer's left, one row per rule set."""
    lines = ["", "## Net chips per deal by position", "",
             "Mean net chips per measured deal (shares won - antes - loo payments) at each position from the "
             "dealer's left (1 = the dealer's left, the last = the dealer), 95% CI.", ""]  # fmt: skip
    most = max(r.players for r in res.rules)
    lines.append("| rule set | " + " | ".join(str(p) for p in range(1, most + 1)) + " |")
    lines.append("|---|" + "---|" * most)
    g = prose_number
    for name in res.names:
        t = table[(table.row == name) & table.metric.str.startswith("net_position_")]
        cells = [f"{g(r.value)} [{g(r.ci_low)}, {g(r.ci_high)}]" for r in t.itertuples(index=False)]
        lines.append(f"| {name} | " + " | ".join(cells + [""] * (most - len(cells))) + " |")
    return lines + [""]


def _clean_pot_lines(clean: pd.DataFrame | None, baseline: str, seed: int) -> list[str]:
    """The clean-pot table (every session's first deal) as a section, its headings one level down."""
    lines = ["## First deal of a session (every deal from a clean pot)", ""]
    if clean is None:
        return lines + ["Not run (interrupted).", ""]
    body = variants_summary(clean, baseline, seed, 0.0).split("\n", 2)[2]  # without its title
    lines += ["The table of the deals every session starts with: each rule set on the same independent deals, each "
              "from a clean pot (nothing carried in), paired deal by deal; these are not the rates of a session in "
              "play (above).", ""]  # fmt: skip
    return lines + [ln.replace("## ", "### ", 1) if ln.startswith("## ") else ln for ln in body.split("\n")]
