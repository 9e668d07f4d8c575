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
    from loo_sim.plots.sessions import balance_distribution, fan_grid, max_pot_ccdf, pot_fan_chart

    rows, cols = fan_grid(arms)
    figures = {
        "fan": figure((4.6 * cols + 0.6, 3.4 * rows + 1.2)),
        "max_pot": figure((7.5, 5.0 + 0.25 * ((arms + 1) // 2))),  # the legend below, two arms a row
        "balances": figure((min(max(7.0, 0.42 * players * max(1, arms) + 2.5), 13.0), 5.6)),
    }
    title = f"{preset}: pot at the start of each deal (median, 50%, 90%)"
    pot_fan_chart(figures["fan"], tables["pot_by_deal"], title=title)
    max_pot_ccdf(figures["max_pot"].add_subplot(), tables["max_pot"], title=f"{preset}: largest pot of a session")
    title = f"{preset}: final net balance per seat"
    balance_distribution(figures["balances"].add_subplot(), tables["balances"], title=title)
    return figures


def variants_figures(rows: int, table: pd.DataFrame) -> dict[str, Any]:
    """The loo rate of each of ``rows`` rule variants."""
    from loo_sim.plots.decisions import variant_bars

    fig = figure((9, 0.45 * rows + 2))
    variant_bars(fig.add_subplot(), table, metric="loo_rate", title="loo rate by rule variant (95% CI)")
    return {"variants": fig}
