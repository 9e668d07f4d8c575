"""The figures of the miss kind (``report/kinds/miss.py``): the decision charts (one colour
scale for all of a study's charts), the charts by pot bucket of ``--carried session``, the
heuristics against basic and the sweep (``plots/miss_chart.py``, ``plots/miss.py``)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from loo_sim.report.running import figure


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
