"""The miss study's decision chart: a heatmap of the mean payoff of each declaration by hand
class, with the best action of each row boxed (solid where it is significantly better than
the runner-up, dashed with "?" where not), and the figure size that keeps it readable.
Object API only (no ``pyplot``); see :mod:`loo_sim.plots._common`."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.colors import Normalize
from matplotlib.patches import Rectangle

from loo_sim.base.errors import LooError
from loo_sim.plots._common import as_bool, decl_order, require

GID_BEST_SIGNIFICANT = "best-significant"
GID_BEST_UNCERTAIN = "best-uncertain"

_CHART_COLUMNS = ("hand_class", "label", "position", "action", "mean", "best", "significant")
_CHART_KEY = (
    "best: from paired differences on the decisions where both actions were on offer\n"
    "solid box: best, its paired 95% interval against every other action excludes 0\n"
    "dashed box + ?: best, but not significantly better\n"
    "grey: action not on offer"
)


def decision_chart_size(n_rows: int, n_cols: int = 4) -> tuple[float, float]:
    """Figure size (inches) that fits a decision chart of ``n_rows`` hand classes.

    Parameters
    ----------
    n_rows : int
        Number of hand-class rows in the chart.
    n_cols : int, default 4
        Number of action columns.

    Returns
    -------
    tuple of float
        ``(width, height)`` for ``Figure(figsize=...)``; the height grows with the rows.
    """
    return 4.5 + 1.1 * max(n_cols, 1), 1.6 + 0.3 * max(n_rows, 1)


def decision_chart(
    ax: Axes,
    chart: pd.DataFrame,
    position: str | int = "all",
    title: str | None = None,
    *,
    miss_on_offer: bool | None = None,
    earlier_in: str | int = "all",
    vlim: float | None = None,
    colorbar: bool = True,
    key: bool = True,
    pot_bucket: str = "all",
) -> Axes:
    """Heatmap of mean payoff by hand class and declaration, with the best action marked.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Axes to draw on; a colorbar is added next to it on the same figure. Size the
        figure with :func:`decision_chart_size` so the rows stay readable.
    chart : pandas.DataFrame
        Decision-chart table with at least the columns ``hand_class``, ``label``,
        ``position``, ``action``, ``mean``, ``best`` and ``significant`` (one row per hand
        class, cell and action on offer); where it has the columns ``miss_on_offer`` and
        ``earlier_in`` (``analysis.miss.chart_table``), one slice of them is drawn.
    position : str or int, default "all"
        Which position's rows to draw: ``"all"`` or a seat number 1..8. Compared as
        text, so positions read back from a CSV as strings match.
    title : str, optional
        Axes title; default ``"Best declaration by hand class ({slice})"``.
    miss_on_offer : bool, optional
        The cells where the miss was on offer (True) or not (False); default True where
        the table has such rows at this position, else False.
    earlier_in : str or int, default "all"
        Earlier seats in: ``"all"`` (pooled) or ``0``, ``1``, ``2``, ``"3+"`` (compared as text).
    vlim : float, optional
        The colour scale runs from -vlim to +vlim (share one over several charts with
        :func:`decision_chart_limit`); default the largest absolute mean drawn.
    colorbar : bool, default True
        Whether to add the colorbar.
    key : bool, default True
        Whether to write the key of the marks below the chart.
    pot_bucket : str, default "all"
        Where the table has the column ``pot_bucket`` (a chart of carried pots drawn from
        sessions): the pot against the penalty, ``"all"`` (every deal) or ``"<=1"``,
        ``"1-2"``, ``"2-4"``, ``"4-8"``, ``">8"``.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``. The best cell of each row is a :class:`~matplotlib.patches.Rectangle` in
        ``ax.patches`` with gid ``"best-significant"`` (solid) or ``"best-uncertain"``
        (dashed, with a "?": no significant winner over the runner-up). Cells of actions
        not on offer are masked and drawn grey.

    Raises
    ------
    LooError
        If a column is missing, no row has that slice, or a (class, action) pair
        appears twice in the slice.
    """
    require(chart, _CHART_COLUMNS, "decision chart")
    actions = decl_order(chart["action"])
    rows, where = _chart_rows(chart, position, miss_on_offer, earlier_in, pot_bucket)
    labels, values, cell_of = _chart_grid(rows, actions)
    lim = _heatmap(ax, values, actions, labels, vlim, colorbar)
    _cell_values(ax, values, lim)
    _best_marks(ax, rows, cell_of)
    ax.set_title(title if title is not None else f"Best declaration by hand class ({where})")
    if key:
        ax.annotate(_CHART_KEY, xy=(0.0, 0.0), xycoords="axes fraction", xytext=(0, -6), textcoords="offset points",
                    ha="left", va="top", fontsize="x-small")  # fmt: skip
    return ax


def decision_chart_limit(
    chart: pd.DataFrame,
    position: str | int = "all",
    *,
    miss_on_offer: bool | None = None,
    earlier_in: str | int = "all",
    pot_bucket: str = "all",
) -> float:
    """The colour limit :func:`decision_chart` would use for this slice (the largest
    absolute mean in it): take the largest over several charts and pass it to each as
    ``vlim`` so that their colours compare."""
    rows, _ = _chart_rows(chart, position, miss_on_offer, earlier_in, pot_bucket)
    finite = np.abs(rows["mean"].to_numpy(dtype=float))
    finite = finite[np.isfinite(finite)]
    return float(finite.max()) if finite.size and finite.max() > 0 else 1.0


def _chart_rows(
    chart: pd.DataFrame,
    position: str | int,
    miss_on_offer: bool | None,
    earlier_in: str | int,
    pot_bucket: str = "all",
) -> tuple[pd.DataFrame, str]:
    """The rows of one slice, with text actions and boolean ``_best`` / ``_sig`` columns (at
    most one row per (hand class, action)), and the slice in words."""
    pos_text = chart["position"].astype(str).str.strip()
    rows = chart[pos_text == str(position).strip()]
    if rows.empty:
        have = ", ".join(dict.fromkeys(pos_text))
        raise LooError(f"decision chart has no rows for position {position!r}; positions present: {have}")
    where = [f"position {position}"]
    if "miss_on_offer" in rows.columns:
        offer = as_bool(rows["miss_on_offer"])
        want = bool(offer.any()) if miss_on_offer is None else bool(miss_on_offer)
        rows = rows[offer == want]
        where.append("miss on offer" if want else "miss not on offer")
    if "earlier_in" in rows.columns:
        rows = rows[rows["earlier_in"].astype(str).str.strip() == str(earlier_in).strip()]
        where.append("earlier seats in: any" if str(earlier_in) == "all" else f"{earlier_in} earlier seats in")
    if "pot_bucket" in rows.columns:
        rows = rows[rows["pot_bucket"].astype(str).str.strip() == str(pot_bucket).strip()]
        where.append("any pot" if str(pot_bucket) == "all" else f"pot {pot_bucket} penalties")
    text = ", ".join(where)
    if rows.empty:
        raise LooError(f"decision chart has no rows for {text}")
    rows = rows.assign(
        action=rows["action"].astype(str),
        _best=as_bool(rows["best"]),
        _sig=as_bool(rows["significant"]),
    )
    dupes = rows.duplicated(["hand_class", "action"])
    if dupes.any():
        first = rows[dupes].iloc[0]
        raise LooError(
            f"decision chart has more than one row for hand class {first['hand_class']}, "
            f"action {first['action']!r} at {text}"
        )
    return rows, text


def _chart_grid(rows: pd.DataFrame, actions: list[str]) -> tuple[list[str], np.ndarray, dict]:
    """Row labels (hand classes in increasing order), the mean of each (class, action) cell
    (NaN where the action is not on offer), and the (row, column) of each (class, action)."""
    classes = rows.drop_duplicates("hand_class").sort_values("hand_class", kind="stable")
    row_of = {hc: i for i, hc in enumerate(classes["hand_class"])}
    col_of = {a: j for j, a in enumerate(actions)}
    values = np.full((len(row_of), len(actions)), np.nan)
    cell_of = {}
    for hc, act, mean in zip(rows["hand_class"], rows["action"], rows["mean"]):
        cell_of[hc, act] = row_of[hc], col_of[act]
        values[cell_of[hc, act]] = float(mean)
    return [str(lb) for lb in classes["label"]], values, cell_of


def _heatmap(
    ax: Axes, values: np.ndarray, actions: list[str], labels: list[str], vlim: float | None, colorbar: bool
) -> float:
    """The cells on a diverging colormap centred at 0 (missing cells grey), with a colorbar,
    actions along the top and white lines between cells; the colour limit ``lim``."""
    if vlim is None:
        finite = values[np.isfinite(values)]
        vlim = float(np.max(np.abs(finite))) if finite.size else 1.0
    lim = float(vlim) if vlim > 0 else 1.0
    norm = Normalize(vmin=-lim, vmax=lim)  # symmetric limits: 0 sits at the centre of the colormap
    cmap = colormaps["RdBu"].with_extremes(bad="0.85")
    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, norm=norm, aspect="auto", interpolation="nearest")
    if colorbar:
        cbar = ax.figure.colorbar(image, ax=ax, fraction=0.08, pad=0.03)
        cbar.set_label("mean net chips per deal")

    n_rows, n_cols = values.shape
    ax.set_xticks(range(n_cols), labels=actions)
    ax.set_yticks(range(n_rows), labels=labels)
    ax.xaxis.tick_top()
    ax.tick_params(axis="both", length=0)
    ax.tick_params(axis="y", labelsize="small")
    ax.set_xticks(np.arange(-0.5, n_cols), minor=True)
    ax.set_yticks(np.arange(-0.5, n_rows), minor=True)
    ax.grid(which="minor", color="white", linewidth=1.0)
    ax.tick_params(which="minor", length=0)
    ax.set_xlim(-0.5, n_cols - 0.5)
    ax.set_ylim(n_rows - 0.5, -0.5)
    return lim


def _cell_values(ax: Axes, values: np.ndarray, lim: float) -> None:
    """Each cell with data labelled with its mean to one decimal (white on dark cells)."""
    for (i, j), v in np.ndenumerate(values):
        if np.isfinite(v):
            colour = "white" if abs(v) > 0.6 * lim else "black"
            text = f"{v:.1f}" if round(v, 1) != 0 else "0.0"
            ax.text(j, i, text, ha="center", va="center", fontsize="x-small", color=colour)


def _best_marks(ax: Axes, rows: pd.DataFrame, cell_of: dict) -> None:
    """A box round each row's best cell: solid if significantly better than the runner-up,
    else dashed with a "?"."""
    best = rows[rows["_best"]]
    for hc, act, sig in zip(best["hand_class"], best["action"], best["_sig"]):
        i, j = cell_of[hc, act]
        ax.add_patch(
            Rectangle(
                (j - 0.5, i - 0.5),
                1.0,
                1.0,
                fill=False,
                edgecolor="black",
                linewidth=2.5 if sig else 1.6,
                linestyle="-" if sig else "--",
                gid=GID_BEST_SIGNIFICANT if sig else GID_BEST_UNCERTAIN,
                zorder=3,
            )
        )
        if not sig:
            ax.text(j + 0.42, i - 0.38, "?", ha="right", va="top", fontsize="small", fontweight="bold", zorder=4)
