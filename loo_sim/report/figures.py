"""The figures of each kind of study: their sizes, and the plots drawn on them.

Figures are built with matplotlib's object API (``matplotlib.figure.Figure``), which
needs no backend and no pyplot state; the plots (``loo_sim.plots``) draw on their Axes.
"""

from __future__ import annotations

from typing import Any

import pandas as pd


def figure(size: tuple[float, float]):
    """A new Figure of ``size`` inches with the constrained layout."""
    from matplotlib.figure import Figure

    return Figure(figsize=size, layout="constrained")


def miss_figures(preset: str, charts: list[tuple[str, int, pd.DataFrame]], carried: float | str, focal: int,
                 heuristics: int, heuristic_deals: int, tables: dict[str, pd.DataFrame],
                 scale: float | None = None) -> dict[str, Any]:  # fmt: skip
    """The charts (``charts``: file name, players and table of each, the main run first),
    heuristics (of ``heuristics`` candidates, at the main run's table) and sweep of a miss
    study. Every chart of the study shares one colour scale, so their colours compare:
    ``scale`` chips when given (a report sets one for all its studies), else from the data.
    ``carried``: the chips carried in, or the pot in words (``--carried session``); a chart
    with pot buckets also gets ``chart-by-pot``, one panel per bucket."""
    from loo_sim.plots.miss import best_action_sweep, heuristic_bars

    pot = carried if isinstance(carried, str) else f"{carried:g} chips carried in"
    drawn = [(name, n, df) for name, n, df in charts if len(df)]  # a run without a real choice has no chart
    lim = scale if scale is not None else max((_chart_limit(df) for _, _, df in drawn), default=1.0)
    figures = {name: _chart_figure(preset, n, pot, df, lim) for name, n, df in drawn}
    main_players = charts[0][1]
    if drawn and drawn[0][0] == "chart" and "pot_bucket" in drawn[0][2].columns:
        figures["chart-by-pot"] = _pot_figure(preset, main_players, drawn[0][2], lim)
    figures["heuristics"] = figure((9, 0.5 * heuristics + 1.5))
    figures["sweep"] = figure((max(3.6 * tables["sweep"].players.nunique() + 1, 7.5), 4.2))
    title = (f"{preset}, {main_players} players, {pot}: seat {focal}'s declaration "
             f"heuristics vs basic\n(paired, on the same {heuristic_deals:,} deals)")  # fmt: skip
    heuristic_bars(figures["heuristics"].add_subplot(), tables["heuristics"], baseline="basic", title=title)
    title = f"{preset}: how often each action is best, of the decisions where it was on offer"
    best_action_sweep(figures["sweep"], tables["sweep"], title=title)
    return figures


def _chart_panels(chart: pd.DataFrame) -> list[tuple[bool, pd.DataFrame]]:
    """The slices a chart figure draws: (miss on offer, its rows) where the miss was on
    offer, then where it was not, each pooled over positions and earlier seats in."""
    from loo_sim.analysis.miss import pooled as pooled_rows

    pooled = pooled_rows(chart)
    return [(offer, rows) for offer in (True, False) if len(rows := pooled[pooled.miss_on_offer == offer])]


def _chart_limit(chart: pd.DataFrame) -> float:
    from loo_sim.plots.miss_chart import decision_chart_limit

    return max(decision_chart_limit(rows, miss_on_offer=offer) for offer, rows in _chart_panels(chart))


def _chart_figure(preset: str, players: int, pot: str, chart: pd.DataFrame, lim: float):
    """One chart figure: the miss on offer on the left, not on offer on the right (one
    colour scale ``lim``, the colorbar on the last panel)."""
    from loo_sim.plots.miss_chart import decision_chart, decision_chart_size

    panels = _chart_panels(chart)
    sizes = [decision_chart_size(rows.hand_class.nunique(), rows.action.nunique()) for _, rows in panels]
    fig = figure((sum(w for w, _ in sizes), max(h for _, h in sizes) + 0.4))
    axes = fig.subplots(1, len(panels), squeeze=False, width_ratios=[w for w, _ in sizes])[0]
    for i, (ax, (offer, rows)) in enumerate(zip(axes, panels)):
        last = i == len(panels) - 1
        if offer:
            title = "the miss on offer"
        elif len(panels) > 1:
            title = "the miss not on offer (taken, or none dealt)"
        else:
            title = "no miss on offer: play or pass"
        decision_chart(ax, rows, "all", title=title, miss_on_offer=offer, vlim=lim, colorbar=last, key=i == 0)
    fig.suptitle(f"{preset}, {players} players, {pot}: best declaration by hand class\n"
                 "(all positions, any number of earlier seats in; best from paired differences)")  # fmt: skip
    return fig


def _pot_figure(preset: str, players: int, chart: pd.DataFrame, lim: float):
    """A chart of session pots by pot bucket (pot_start / penalty): one panel per bucket
    that has decisions, the default slice of the miss on offer (or not, where none is)."""
    from loo_sim.analysis.miss import ALL, default_slice
    from loo_sim.plots.miss_chart import decision_chart, decision_chart_size
    from loo_sim.run.session_pots import POT_BUCKET_NAMES

    offer = bool(default_slice(chart)["miss_on_offer"])
    rows = chart[(chart.position == ALL) & (chart.earlier_in == ALL) & (chart.miss_on_offer == offer)]
    buckets = [b for b in POT_BUCKET_NAMES if (rows.pot_bucket == b).any()]
    sizes = [decision_chart_size(rows[rows.pot_bucket == b].hand_class.nunique(), rows.action.nunique())
             for b in buckets]  # fmt: skip
    fig = figure((sum(w for w, _ in sizes), max(h for _, h in sizes) + 0.4))
    axes = fig.subplots(1, len(buckets), squeeze=False, width_ratios=[w for w, _ in sizes])[0]
    for i, (ax, b) in enumerate(zip(axes, buckets)):
        n = int(rows[rows.pot_bucket == b].drop_duplicates("hand_class").decisions.sum())
        decision_chart(ax, rows, "all", title=f"pot {b} penalties ({n:,} decisions)", miss_on_offer=offer,
                       pot_bucket=b, vlim=lim, colorbar=i == len(buckets) - 1, key=i == 0)  # fmt: skip
    where = "the miss on offer" if offer else "the miss not on offer"
    fig.suptitle(f"{preset}, {players} players, carried pots drawn from sessions: best declaration by hand class "
                 f"and pot against the penalty\n({where}; all positions, any number of earlier seats in)")  # fmt: skip
    return fig


def pots_figures(preset: str, arms: int, players: int, tables: dict[str, pd.DataFrame]) -> dict[str, Any]:
    """fan, max_pot and balances of a pots study of ``arms`` arms (``players``: the largest table)."""
    from loo_sim.plots.balances import balance_distribution
    from loo_sim.plots.pots import fan_grid, largest_pot_chart, pot_fan_chart

    rows, cols = fan_grid(arms)
    figures = {
        "fan": figure((4.6 * cols + 0.6, 3.4 * rows + 1.2)),
        "max_pot": figure((8.0, 1.9 + 0.75 * arms)),  # a row per arm, the legend below
        "balances": figure((min(max(7.0, 0.42 * players * max(1, arms) + 2.5), 13.0), 5.6)),
    }
    title = f"{preset}: pot at the start of each deal (median, 50%, 90%)"
    pot_fan_chart(figures["fan"], tables["pot_by_deal"], title=title)
    largest_pot_chart(figures["max_pot"].add_subplot(), tables["max_pot"], title=f"{preset}: largest pot of a session")
    title = f"{preset}: final net balance per seat"
    balance_distribution(figures["balances"].add_subplot(), tables["balances"], title=title)
    return figures


def variants_figures(table: pd.DataFrame, baseline: str, policies: str, scope: str = "") -> dict[str, Any]:
    """The headline metrics that differ between the rule sets, each against ``baseline``
    (``scope``: said in the title, e.g. that every deal is a session's first)."""
    deals = int(table.n.max())
    title = f"Rule sets against {baseline}{scope}: the same {deals:,} deals for every row, {policies}"
    return {"variants": _variant_table_figure(table, baseline, title, "deal")}


def _variant_table_figure(table: pd.DataFrame, baseline: str, title: str, unit: str, label=None):
    """One :func:`~loo_sim.plots.variants.variant_table`, its key below, sized to its cells."""
    import textwrap

    from loo_sim.plots.variants import differing_metrics, variant_table, variant_table_key

    columns = max(len(differing_metrics(table)), 1)
    width = 2.4 + 1.5 * columns
    fig = figure((width, 2.6 + 0.6 * int(table.row.nunique())))
    variant_table(fig.add_subplot(), table, baseline, label=label, unit=unit)
    fig.suptitle("\n".join(textwrap.wrap(title, int(width * 11))), fontsize="medium")
    fig.supxlabel("\n".join(textwrap.wrap(variant_table_key(baseline, unit), int(width * 15))), fontsize="small")
    return fig


def variant_sessions_figures(tables: dict[str, pd.DataFrame], res, clean: pd.DataFrame | None,
                             policies: str) -> dict[str, Any]:  # fmt: skip
    """Variants in sessions: the headline metrics that differ between the rule sets, each
    against the baseline (``sessions``); how far the pot at the start of a measured deal
    reaches, per rule set (``session_pots``); the clean-pot figure (``variants``, the first
    deal of a session) when it ran."""
    from loo_sim.analysis.variants import session_metric_label
    from loo_sim.plots.pots import largest_pot_chart

    baseline = res.baseline
    rows = len(res.names)
    measured = f"deals {res.burn_in + 1}-{res.deals} of each session"
    title = (f"In sessions: {res.sessions:,} sessions of {res.deals} deals for every rule set on the same decks, "
             f"{measured} measured, {policies}")  # fmt: skip
    fig = _variant_table_figure(tables["sessions"], baseline, title, "session", label=session_metric_label)
    out = {"sessions": fig}
    pots = tables["session_pots"]
    ccdf = []
    for name in res.names:
        t = pots[pots.row == name].sort_values("pot")
        at_least = t["share"][::-1].cumsum()[::-1] / max(float(t["share"].sum()), 1e-300)
        ccdf.append(pd.DataFrame({"arm": name, "pot": t["pot"].to_numpy(), "share_at_least": at_least.to_numpy()}))
    fig = figure((9, 1.9 + 0.6 * rows))
    ax = fig.add_subplot()
    title = f"Pot at the start of a deal in sessions ({measured})"
    largest_pot_chart(ax, pd.concat(ccdf, ignore_index=True), title=title, counted="measured deals",
                      quantity="pot at the start of a deal")  # fmt: skip
    out["session_pots"] = fig
    if clean is not None:
        out.update(variants_figures(clean, baseline, policies, scope=" on the first deal of a session (a clean pot)"))
    return out
