"""The simulate study in words: the text table ``loo-sim simulate`` prints and its
summary.md. Every number comes from the study's tables (the CSVs)."""

from __future__ import annotations

import pandas as pd

from loo_sim.game import abi as L
from loo_sim.run.simulate import SimResult


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
