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


def miss_figures(preset: str, players: list[int], carried: float, focal: int, heuristics: int, heuristic_deals: int,
                 tables: dict[str, pd.DataFrame]) -> dict[str, Any]:  # fmt: skip
    """chart, heuristics (of ``heuristics`` candidates) and sweep of a miss study
    (``players[0]`` and ``carried``: the main run)."""
    from loo_sim.plots.decisions import best_action_sweep, decision_chart, decision_chart_size, heuristic_bars

    chart, heur = tables["chart"], tables["heuristics"]
    n_rows = int(chart[chart.position == "all"].hand_class.nunique())
    figures = {
        "chart": figure(decision_chart_size(n_rows)),
        "heuristics": figure((9, 0.5 * heuristics + 1.5)),
        "sweep": figure((3.6 * len(players) + 1, 3.8)),
    }
    title = f"{preset}, {players[0]} players, carried {carried:g}: best declaration"
    decision_chart(figures["chart"].add_subplot(), chart, "all", title=title)
    title = f"Seat {focal}'s heuristics vs basic, {heuristic_deals:,} deals"
    heuristic_bars(figures["heuristics"].add_subplot(), heur, baseline="basic", title=title)
    best_action_sweep(figures["sweep"], tables["sweep"], title=f"{preset}: share of decisions by best declaration")
    return figures


def pots_figures(preset: str, arms: int, players: int, tables: dict[str, pd.DataFrame]) -> dict[str, Any]:
    """fan, max_pot and balances of a pots study of ``arms`` arms (``players``: the largest table)."""
    from loo_sim.plots.sessions import balance_distribution, max_pot_ccdf, pot_fan_chart

    cols = min(arms, 3)
    figures = {
        "fan": figure((4.5 * cols + 0.5, 3.8 * ((arms + cols - 1) // cols))),
        "max_pot": figure((7, 4.5)),
        "balances": figure((0.8 * players * max(1, arms) + 3, 4.5)),
    }
    title = f"{preset}: pot at the start of each deal (median, 50%, 90%)"
    pot_fan_chart(figures["fan"], tables["pot_by_deal"], title=title)
    max_pot_ccdf(figures["max_pot"].add_subplot(), tables["max_pot"], title=f"{preset}: largest pot of a session")
    title = f"{preset}: final net balance per seat"
    balance_distribution(figures["balances"].add_subplot(), tables["balances"], title=title)
    return figures


def variants_figures(table: pd.DataFrame, baseline: str, policies: str) -> dict[str, Any]:
    """The loo rate of each rule variant and its paired difference from ``baseline``."""
    from loo_sim.plots.decisions import variant_bars, variant_differences

    rows = int(table.row.nunique())
    fig = figure((12, 0.55 * rows + 2.2))
    left, right = fig.subplots(1, 2, sharey=True)
    variant_bars(left, table, metric="loo_rate", title="loo rate of each rule set")
    variant_differences(right, table, baseline, metric="loo_rate", title=f"loo rate minus {baseline}'s, deal by deal")
    right.tick_params(labelleft=False)
    deals = int(table.n.max())
    fig.suptitle(f"Loo rate by rule set against {baseline}: the same {deals:,} deals for every row, {policies}")
    return {"variants": fig}
