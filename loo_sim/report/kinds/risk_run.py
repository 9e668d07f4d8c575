"""Running a risk study (``loo-sim risk``, a report's ``kind = "risk"``): ``run.risk``, the
tables of ``analysis.risk``, a plot each, and a summary in plain sentences."""

from __future__ import annotations

import math
from typing import Any

from loo_sim.analysis.risk import bankroll_for_risk, n0_table, risk_curve, ruin_deals
from loo_sim.game.policy import Policy
from loo_sim.report.command import command
from loo_sim.report.running import StudyOutput, figure, session_study_output
from loo_sim.run.risk import run_risk


def run_risk_study(study: Any, out: str | None, progress, backend) -> StudyOutput:
    """The study's output: the risk curve, the bankroll a risk needs, deals until ruin, N0."""
    from loo_sim.plots.risk import n0_plot, risk_curve_plot, ruin_deals_plot

    rules = study.base_rules()
    table = study.table(rules.players)
    policy = Policy.parse(study.focal_policy)
    res = run_risk(rules, table, study.focal, policy, study.sessions, study.session_deals, study.seed,
                   progress=progress("sessions") if progress else None, backend=backend)  # fmt: skip
    curve, need, deals, n0 = risk_curve(res), bankroll_for_risk(res), ruin_deals(res), n0_table(res)
    tables = {"risk_curve": curve, "bankroll_for_risk": need, "ruin_deals": deals, "n0": n0}
    where = (f"{study.preset}, {rules.players} players, seat {study.focal} playing {policy} among "
             f"{table[(study.focal + 1) % rules.players]}, sessions of {study.session_deals} deals")  # fmt: skip
    figures = {name: figure((8, 4.5)) for name in ("risk_curve", "ruin_deals", "n0")}
    seat = f"at seat {study.focal}"
    arms = {"policy": f"{study.focal_policy} {seat}", "basic": f"basic {seat}, same decks"}
    risk_curve_plot(figures["risk_curve"].add_subplot(), curve, need, arms, title=f"Risk of ruin: {where}")
    if len(deals):
        ruin_deals_plot(figures["ruin_deals"].add_subplot(), deals, title="Deals until ruin")
    else:
        del figures["ruin_deals"]
    n0_plot(figures["n0"].add_subplot(), n0, study.session_deals, title=f"N0 of {policy}'s lead over basic")
    lines = [f"# Risk: {where}", "", "```", command(study, out), "```", "",
             f"{res.sessions:,} sessions of {study.session_deals} deals, played without ruin and read at every "
             "bankroll: a "
             "seat with bankroll B is ruined within the session when its running balance falls below -B. The same "
             f"sessions are played with seat {study.focal} on `basic` (same decks), for the comparison and N0.", "",
             "## Bankroll for a risk of ruin within the session", "", "| arm | risk | bankroll | bankroll (upper 95% "
             "bound of the risk at most the target) |", "|---|---|---|---|"]  # fmt: skip
    for r in need.itertuples():
        lines.append(f"| {r.arm} | {r.risk:.0%} | {_chips(r.bankroll)} | {_chips(r.bankroll_upper_bound)} |")
    row = n0.iloc[0]
    lines += ["", "## N0", ""]
    if math.isfinite(row.n0_low):
        lines.append(f"`{policy}`'s lead over `basic` is {row.lead_per_deal:+.4f} chips per deal "
                     f"[{row.ci_low:+.4f}, {row.ci_high:+.4f}] with a standard deviation of {row.sd_per_deal:.2f} per "
                     f"deal, so the lead exceeds one standard deviation of the result after N0 = {row.n0:,.0f} deals "
                     f"({row.n0_low:,.0f} to {row.n0_high:,.0f} over the lead's interval).")  # fmt: skip
    else:
        lines.append(f"`{policy}`'s lead over `basic` is {row.lead_per_deal:+.4f} chips per deal "
                     f"[{row.ci_low:+.4f}, {row.ci_high:+.4f}]: its interval includes 0, so N0 is not "
                     "measured.")  # fmt: skip
    lines += [
        "",
        "Files: risk_curve.csv / .png, bankroll_for_risk.csv, ruin_deals.csv / .png, n0.csv / .png, run.json.",
    ]
    info = {"rules": rules.to_dict(), "table": [str(p) for p in res.table], "focal": study.focal,
            "sessions_done": res.sessions, "deals_per_session": study.session_deals,
            "bankrolls": list(map(float, res.levels))}  # fmt: skip
    return session_study_output(study, tables, figures, lines, info, res)


def _chips(x: float) -> str:
    return "more than the grid's largest" if not math.isfinite(x) else f"{x:,.1f}"
