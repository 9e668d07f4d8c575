"""The solve study's declaration table as a heatmap: action probabilities by hand class
(docs/policies.md P5) and position, one panel per (earlier seats in, miss on offer). The
declarations (play, pass, miss, and the dealer's defence) are those of R4, R5 and R8.
Object API only (no ``pyplot``); see :mod:`loo_sim.plots._common`."""

from __future__ import annotations

import math
import textwrap

import numpy as np
import pandas as pd
from matplotlib import patheffects
from matplotlib.axes import Axes
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure, SubFigure
from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.patches import Patch, Rectangle

from loo_sim.analysis._tables import numeric
from loo_sim.game.classes import class_label, earlier_in_label
from loo_sim.game.decl import Decl
from loo_sim.plots._common import DECL_COLOURS, as_bool, figure_legend, require

ACTIONS: tuple[str, ...] = ("pass", "play", "miss", "defend")
"""The declarations in :class:`Decl` order; column ``p_{action}`` of a strategy table."""
PROB_COLUMNS: tuple[str, ...] = tuple(f"p_{a}" for a in ACTIONS)

GID_STRATEGY_IMAGE = "strategy-cells"
GID_NOT_REACHED = "not-reached"
SUBCELLS = 100
"""Each heatmap cell is this many image columns wide: the bar of its probabilities is drawn
to the nearest 1/SUBCELLS (largest remainder, so the segments fill the cell exactly)."""
PANELS_PER_ROW = 4
README_WIDTH = 8.0
"""Inches: the widest figure :func:`strategy_heatmap_size` gives, 880 pixels at the reports'
110 dpi, so that a page as wide as a GitHub README shows the figure at full size."""
LABEL_WIDTH, PANEL_GAP, MIN_PANEL_WIDTH = 2.3, 0.25, 1.0
"""Inches: the class labels, the gap beside each panel, the narrowest panel."""
MAX_CELL_WIDTH, CELL_HEIGHT = 0.34, 0.17
"""Inches per position (at most) and per hand class."""
TEXT_SIZE = 7.0
"""Points: the class and position labels and the numbers in the cells (10 pixels at 110 dpi)."""
MIXED_BELOW = 0.995
"""A cell whose most likely action has a smaller probability mixes: its percentage is written on it."""
NO_INFOSET_COLOUR = "0.96"

_STRATEGY_COLUMNS = ("class", "position", "earlier_in", "miss_on_offer", *PROB_COLUMNS, "reach")
HEATMAP_KEY = (
    "columns: positions, 1 = the dealer's left, D = the dealer; "
    "each cell: a bar of the declaration probabilities, left to right pass, play, miss, defend, "
    "each as wide as its probability (reach-weighted over the options and pot buckets in the cell); "
    "a number: the cell mixes, and its most likely action has this probability in percent "
    "(none: one action with 99.5% or more; the numbers are in strategy.csv). "
    "'Miss on offer' includes the dealer's defence."
)


# ---- the strategy heatmap --------------------------------------------------------------------
def strategy_cells(strategy: pd.DataFrame) -> pd.DataFrame:
    """The strategy table averaged to the heatmap's cells.

    Parameters
    ----------
    strategy : pandas.DataFrame
        The solver's strategy table (one row per information set) with at least the
        columns ``class``, ``position``, ``earlier_in``, ``miss_on_offer``, ``p_pass``,
        ``p_play``, ``p_miss``, ``p_defend`` and ``reach``.

    Returns
    -------
    pandas.DataFrame
        One row per (``earlier_in``, ``miss_on_offer``, ``class``, ``position``) with the
        probabilities averaged over the rows of the cell (other options, pot buckets)
        with ``reach`` as weights; where the cell's total ``reach`` is 0 the plain mean,
        and ``reached`` False. Columns: the four keys, ``p_pass`` … ``p_defend``, ``reach``
        (the cell's total) and ``reached``.

    Raises
    ------
    LooError
        If a column is missing or not numeric, the table is empty, a probability is
        outside [0, 1] or a reach is negative.
    """
    require(strategy, _STRATEGY_COLUMNS, "strategy")
    data = pd.DataFrame(
        {
            "earlier_in": numeric(strategy, "earlier_in", "strategy").astype(int),
            "miss_on_offer": as_bool(strategy["miss_on_offer"]),
            "class": numeric(strategy, "class", "strategy").astype(int),
            "position": numeric(strategy, "position", "strategy").astype(int),
            "reach": numeric(strategy, "reach", "strategy", nonnegative=True),
        }
    )
    for col in PROB_COLUMNS:
        data[col] = numeric(strategy, col, "strategy", unit=True)
        data[f"_w{col}"] = data[col] * data["reach"]
    keys = ["earlier_in", "miss_on_offer", "class", "position"]
    grouped = data.groupby(keys, sort=True)
    sums = grouped.sum()
    means = grouped[list(PROB_COLUMNS)].mean()
    reached = sums["reach"].to_numpy() > 0
    out = pd.DataFrame(index=sums.index)
    for col in PROB_COLUMNS:
        weighted = sums[f"_w{col}"].to_numpy() / np.where(reached, sums["reach"].to_numpy(), 1.0)
        out[col] = np.where(reached, weighted, means[col].to_numpy())
    out["reach"] = sums["reach"].to_numpy()
    out["reached"] = reached
    return out.reset_index()


def strategy_heatmap_size(n_classes: int, n_positions: int, n_panels: int = 1) -> tuple[float, float]:
    """Figure size (inches) that keeps :func:`strategy_heatmap` readable at a README's width.

    Parameters
    ----------
    n_classes : int
        Hand-class rows per panel (up to 78).
    n_positions : int
        Position columns per panel (up to 8).
    n_panels : int, default 1
        Panels: (earlier seats in, miss on offer) combinations; they are laid out
        :data:`PANELS_PER_ROW` to a row.

    Returns
    -------
    tuple of float
        ``(width, height)`` for ``Figure(figsize=..., layout="constrained")``: the panels
        share what :data:`README_WIDTH` leaves beside the class labels (at most
        :data:`MAX_CELL_WIDTH` per position, at least :data:`MIN_PANEL_WIDTH` a panel),
        :data:`CELL_HEIGHT` per class, and room for the titles and the legend. At 8
        positions and 4 panels a row the width is :data:`README_WIDTH`.
    """
    n_panels, n_positions = max(n_panels, 1), max(n_positions, 1)
    across = min(n_panels, PANELS_PER_ROW)
    down = math.ceil(n_panels / PANELS_PER_ROW)
    cell = min(MAX_CELL_WIDTH, (README_WIDTH - LABEL_WIDTH - across * PANEL_GAP) / (across * n_positions))
    panel = max(cell * n_positions, MIN_PANEL_WIDTH)
    width = LABEL_WIDTH + across * (panel + PANEL_GAP)
    height = 2.6 + down * (CELL_HEIGHT * max(n_classes, 1) + 0.7)
    return max(width, 6.0), height


def strategy_heatmap(fig: Figure | SubFigure, strategy: pd.DataFrame, title: str | None = None) -> list[Axes]:
    """Small multiples of the equilibrium's declaration probabilities by hand class and position.

    Parameters
    ----------
    fig : matplotlib.figure.Figure or SubFigure
        Figure to add the panels to (it should be empty). Make it with
        ``figsize=strategy_heatmap_size(...)`` and ``layout="constrained"`` so that 78
        classes and 8 positions stay readable.
    strategy : pandas.DataFrame
        The solver's strategy table: one row per information set with columns ``class``,
        ``position`` (1 = the dealer's left, the highest = the dealer), ``earlier_in``
        (0..3, 3 = three or more), ``miss_on_offer``, ``p_pass``, ``p_play``, ``p_miss``,
        ``p_defend`` and ``reach``; ``hand`` (the class label) is used where present.
    title : str, optional
        Figure title; default ``"Equilibrium declarations by hand class and position"``.

    Returns
    -------
    list of matplotlib.axes.Axes
        One panel per (``earlier_in``, ``miss_on_offer``) combination present, miss on
        offer first, then by earlier seats in; titled in words ("0 earlier seats in, miss
        on offer"). Rows are the hand classes present in the table (in class order, the
        same in every panel), columns the positions. Each cell is a horizontal bar of the
        four probabilities (pass, play, miss, defend, in that order, each as wide as its
        probability, in :data:`DECL_COLOURS`) drawn as one image (gid
        ``"strategy-cells"``); where a cell mixes (its most likely action below
        :data:`MIXED_BELOW`) that action's probability is written on it in percent
        ("83"). The rows of the table that fall in one cell are averaged with
        ``reach`` as weights (:func:`strategy_cells`); a cell whose total reach is 0
        shows the plain mean, hatched (a patch with gid ``"not-reached"``). Cells with
        no information set are left pale and empty. The figure has one legend.

    Raises
    ------
    LooError
        If a column is missing or not numeric, the table is empty, a probability is
        outside [0, 1] or a reach is negative.
    """
    cells = strategy_cells(strategy)
    labels = _class_labels(strategy)
    classes = sorted(pd.unique(cells["class"]))
    positions = sorted(pd.unique(cells["position"]))
    players = max(positions)
    row_of = {c: i for i, c in enumerate(classes)}
    col_of = {p: j for j, p in enumerate(positions)}
    panels = sorted(
        {(int(e), bool(m)) for e, m in zip(cells["earlier_in"], cells["miss_on_offer"])},
        key=lambda k: (not k[1], k[0]),
    )
    across = min(len(panels), PANELS_PER_ROW)
    down = math.ceil(len(panels) / PANELS_PER_ROW)
    grid = fig.add_gridspec(down, across)
    axes: list[Axes] = []
    for k, (earlier, offer) in enumerate(panels):
        r, c = divmod(k, PANELS_PER_ROW)
        ax = fig.add_subplot(grid[r, c], sharey=axes[0] if axes else None)
        panel = cells[(cells["earlier_in"] == earlier) & (cells["miss_on_offer"] == offer)]
        _draw_panel(ax, panel, row_of, col_of)
        ax.set_xticks(range(len(positions)), labels=[_position_label(p, players) for p in positions])
        ax.set_yticks(range(len(classes)), labels=[labels[c] for c in classes])
        ax.tick_params(axis="y", labelsize=TEXT_SIZE, labelleft=c == 0)
        ax.tick_params(axis="x", labelsize=TEXT_SIZE, labeltop=True, labelbottom=len(classes) > 20)
        ax.set_title(_panel_title(earlier, offer, players), fontsize=TEXT_SIZE + 1)
        axes.append(ax)
    handles = [Patch(facecolor=DECL_COLOURS[Decl[a.upper()]], label=a) for a in ACTIONS]
    handles.append(Patch(facecolor="white", edgecolor="0.2", hatch="////", label="not reached (plain mean)"))
    handles.append(Patch(facecolor=NO_INFOSET_COLOUR, edgecolor="0.6", label="no such information set"))
    title = title if title is not None else "Equilibrium declarations by hand class and position"
    fig.suptitle("\n".join(textwrap.wrap(title, int(fig.bbox.width / fig.dpi * 10))), fontsize="medium")
    _legend(fig, handles)
    return axes


def _legend(fig: Figure | SubFigure, handles: list[Patch]) -> None:
    """The key under the panels, in three columns, the key's text wrapped to the width."""
    width = fig.bbox.width / fig.dpi
    key = "\n".join(textwrap.wrap(HEATMAP_KEY, max(50, int(width * 15))))
    engine = fig.get_layout_engine() if isinstance(fig, Figure) else None
    if not isinstance(engine, ConstrainedLayoutEngine):  # no layout to make room: figure_legend does
        figure_legend(fig, handles, title=key, bottom=0.08, top=0.95)
        return
    fig.legend(handles=handles, loc="outside lower center", ncol=3, title=key, fontsize="small",
               title_fontsize="small")  # fmt: skip


def _class_labels(strategy: pd.DataFrame) -> dict[int, str]:
    """Label of each class: the table's ``hand`` column where present, else
    :func:`~loo_sim.game.classes.class_label`."""
    classes = pd.to_numeric(strategy["class"]).astype(int)
    if "hand" in strategy.columns:
        return {int(c): str(h) for c, h in zip(classes, strategy["hand"])}
    return {int(c): class_label(int(c)) for c in classes}


def _position_label(position: int, players: int) -> str:
    return "D" if position == players else str(position)


def _panel_title(earlier: int, offer: bool, players: int) -> str:
    """ "0 earlier seats in,\nmiss on offer": two lines, so that a narrow panel holds it."""
    n = earlier_in_label(earlier, players)
    seats = "seat" if n == "1" else "seats"
    return f"{n} earlier {seats} in,\nmiss {'on offer' if offer else 'not on offer'}"


def _segments(probs: np.ndarray) -> np.ndarray:
    """How many of the :data:`SUBCELLS` image columns each action gets (largest remainder)."""
    total = probs.sum()
    share = probs / total if total > 0 else np.full(len(probs), 1.0 / len(probs))
    exact = share * SUBCELLS
    counts = np.floor(exact).astype(int)
    for i in np.argsort(-(exact - counts), kind="stable")[: SUBCELLS - counts.sum()]:
        counts[i] += 1
    return counts


def _draw_panel(ax: Axes, panel: pd.DataFrame, row_of: dict, col_of: dict) -> None:
    """One panel: the cells as an RGB image of probability bars, the not-reached cells
    hatched, the percentage of the most likely action on a cell that mixes, white lines
    between cells."""
    n_rows, n_cols = len(row_of), len(col_of)
    image = np.empty((n_rows, n_cols * SUBCELLS, 3))
    image[:] = to_rgb(NO_INFOSET_COLOUR)
    colours = np.array([to_rgb(DECL_COLOURS[Decl[a.upper()]]) for a in ACTIONS])
    halo = [patheffects.withStroke(linewidth=1.6, foreground="white")]
    for rec in panel.itertuples(index=False):
        i, j = row_of[rec[2]], col_of[rec[3]]
        probs = np.array([getattr(rec, c) for c in PROB_COLUMNS])
        start = j * SUBCELLS
        for colour, count in zip(colours, _segments(probs)):
            image[i, start : start + count] = colour
            start += count
        top = float(probs.max())
        if top < MIXED_BELOW:
            ax.text(j, i, f"{top:.0%}".rstrip("%"), ha="center", va="center", fontsize=TEXT_SIZE, color="black",
                    path_effects=halo, in_layout=False, clip_on=True)  # fmt: skip
        if not rec.reached:
            ax.add_patch(_hatch(i, j))
    ax.imshow(
        image,
        aspect="auto",
        interpolation="nearest",
        extent=(-0.5, n_cols - 0.5, n_rows - 0.5, -0.5),
        gid=GID_STRATEGY_IMAGE,
    )
    ax.set_xticks(np.arange(-0.5, n_cols), minor=True)
    ax.set_yticks(np.arange(-0.5, n_rows), minor=True)
    ax.grid(which="minor", color="white", linewidth=0.8)
    ax.grid(which="major", visible=False)
    ax.tick_params(which="both", length=0)
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("bottom")
    ax.set_xlim(-0.5, n_cols - 0.5)
    ax.set_ylim(n_rows - 0.5, -0.5)


def _hatch(i: int, j: int) -> Rectangle:
    return Rectangle((j - 0.5, i - 0.5), 1.0, 1.0, fill=False, hatch="////", edgecolor="0.15", linewidth=0.0,
                     gid=GID_NOT_REACHED, zorder=2)  # fmt: skip
