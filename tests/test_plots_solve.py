"""The plots of ``loo-sim solve``'s tables (plots/strategy.py, plots/solve.py) on synthetic tables."""

import io

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.colors import to_rgb  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from loo_sim.base.errors import LooError  # noqa: E402
from loo_sim.game.classes import N_CLASSES, class_label  # noqa: E402
from loo_sim.game.decl import Decl  # noqa: E402
from loo_sim.plots import solve as solve_plots  # noqa: E402
from loo_sim.plots import strategy as eq  # noqa: E402
from loo_sim.plots._common import DECL_COLOURS  # noqa: E402


def row(cls, pos, earlier, options, pass_=0.0, play=0.0, miss=0.0, defend=0.0, reach=1.0, pot="pot <= 1 penalty"):
    return {
        "class": cls,
        "hand": class_label(cls),
        "position": pos,
        "earlier_in": earlier,
        "options": options,
        "miss_on_offer": "miss" in options or "defend" in options,
        "pot": pot,
        "p_pass": pass_,
        "p_play": play,
        "p_miss": miss,
        "p_defend": defend,
        "reach": reach,
    }


@pytest.fixture
def strategy() -> pd.DataFrame:
    return pd.DataFrame(
        [
            # class 7 listed first on purpose: rows come out in class order
            row(7, 1, 0, "play/pass/miss", miss=1.0),
            # one cell, two pot buckets: reach 3 play, reach 1 pass -> play .75, pass .25
            row(2, 1, 0, "play/pass/miss", play=1.0, reach=3.0, pot="small"),
            row(2, 1, 0, "play/pass/miss", pass_=1.0, reach=1.0, pot="big"),
            # zero reach: the plain mean, .5 pass and .5 play
            row(2, 3, 0, "play/pass/miss", play=1.0, reach=0.0, pot="small"),
            row(2, 3, 0, "play/pass/miss", pass_=1.0, reach=0.0, pot="big"),
            row(7, 3, 0, "play/defend", play=0.4, defend=0.6),
            row(2, 2, 1, "play/pass", play=1.0),
            row(7, 1, 3, "play/pass", pass_=1.0),
        ]
    )


def _png(fig, dpi=60) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    data = buf.getvalue()
    assert data.startswith(b"\x89PNG")
    return data


def _colour_counts(ax, i, j) -> dict[str, int]:
    """How many image columns of cell (i, j) have each declaration's colour (and the pale
    colour of an empty cell)."""
    (image,) = [im for im in ax.images if im.get_gid() == eq.GID_STRATEGY_IMAGE]
    cell = np.asarray(image.get_array())[i, j * eq.SUBCELLS : (j + 1) * eq.SUBCELLS]
    named = {d.label: DECL_COLOURS[d] for d in Decl} | {"none": eq.NO_INFOSET_COLOUR}
    return {n: int(np.isclose(cell, to_rgb(c)).all(axis=1).sum()) for n, c in named.items()}


def _texts(ax) -> dict[tuple[float, float], str]:
    return {t.get_position(): t.get_text() for t in ax.texts}


def test_heatmap_panels_titles_rows_and_cells(strategy):
    fig = Figure(figsize=eq.strategy_heatmap_size(2, 3, 3), layout="constrained")
    axes = eq.strategy_heatmap(fig, strategy)
    titles = [" ".join(ax.get_title().split()) for ax in axes]
    assert titles == [
        "0 earlier seats in, miss on offer",
        "1 earlier seat in, miss not on offer",
        "3 earlier seats in, miss not on offer",  # three players: bin 3 is exactly 3
    ]
    first = axes[0]
    assert [t.get_text() for t in first.get_yticklabels()] == [class_label(2), class_label(7)]
    assert [t.get_text() for t in first.get_xticklabels()] == ["1", "2", "D"]
    # the reach-weighted cell: 75 columns play, 25 pass; it mixes, so its top action's percentage is written
    assert _colour_counts(first, 0, 0) == {"pass": 25, "play": 75, "miss": 0, "defend": 0, "none": 0}
    texts = _texts(first)
    assert texts[(0, 0)] == "75"
    assert (0, 1) not in texts  # a pure miss: the colour says it, no number
    assert texts[(2, 1)] == "60"
    assert _colour_counts(first, 1, 2)["defend"] == 60
    # the unreached cell: the plain mean, hatched
    assert texts[(2, 0)] == "50"
    assert _colour_counts(first, 0, 2)["play"] == 50
    hatched = [p for p in first.patches if p.get_gid() == eq.GID_NOT_REACHED]
    assert [(p.get_x(), p.get_y()) for p in hatched] == [(1.5, -0.5)]
    # no information set at (class 2, position 2) in this panel: pale, no text
    assert _colour_counts(first, 0, 1)["none"] == eq.SUBCELLS
    assert (1, 0) not in texts
    assert fig.legends and "not reached (plain mean)" in [t.get_text() for t in fig.legends[0].get_texts()]
    _png(fig)


def test_heatmap_cells_are_averaged_with_reach(strategy):
    cells = eq.strategy_cells(strategy)
    one = cells[(cells["class"] == 2) & (cells["position"] == 1)].iloc[0]
    assert (one["p_play"], one["p_pass"], one["reach"], one["reached"]) == (0.75, 0.25, 4.0, True)
    unreached = cells[(cells["class"] == 2) & (cells["position"] == 3)].iloc[0]
    assert (unreached["p_play"], unreached["p_pass"], unreached["reached"]) == (0.5, 0.5, False)


def test_heatmap_reads_text_booleans_from_a_csv(strategy):
    text = strategy.assign(miss_on_offer=strategy["miss_on_offer"].map({True: "True", False: "False"}))
    fig = Figure(layout="constrained")
    assert len(eq.strategy_heatmap(fig, text)) == 3


@pytest.mark.parametrize("column", ["reach", "p_defend", "earlier_in", "class"])
def test_heatmap_missing_column_is_named(strategy, column):
    with pytest.raises(LooError, match=column):
        eq.strategy_heatmap(Figure(), strategy.drop(columns=column))


def test_heatmap_bad_values_are_refused(strategy):
    with pytest.raises(LooError, match="empty"):
        eq.strategy_heatmap(Figure(), strategy.iloc[:0])
    with pytest.raises(LooError, match="p_play.*above 1"):
        eq.strategy_heatmap(Figure(), strategy.assign(p_play=1.5))
    with pytest.raises(LooError, match="reach.*negative"):
        eq.strategy_heatmap(Figure(), strategy.assign(reach=-1.0))
    with pytest.raises(LooError, match="p_miss"):
        eq.strategy_heatmap(Figure(), strategy.assign(p_miss=np.nan))


def test_full_size_heatmap_renders():
    rng = np.random.default_rng(1)
    keys = [(c, p, e, m) for c in range(N_CLASSES) for p in range(1, 9) for e in range(4) for m in (True, False)]
    probs = rng.dirichlet(np.ones(4), size=len(keys))
    table = pd.DataFrame(
        {
            "class": [k[0] for k in keys],
            "position": [k[1] for k in keys],
            "earlier_in": [k[2] for k in keys],
            "miss_on_offer": [k[3] for k in keys],
            **{c: probs[:, i] for i, c in enumerate(eq.PROB_COLUMNS)},
            "reach": rng.random(len(keys)),
        }
    )
    fig = Figure(figsize=eq.strategy_heatmap_size(N_CLASSES, 8, 8), layout="constrained")
    axes = eq.strategy_heatmap(fig, table)
    assert len(axes) == 8
    assert " ".join(axes[3].get_title().split()) == "3+ earlier seats in, miss on offer"
    assert all(len(ax.get_yticks()) == N_CLASSES for ax in axes)
    _png(fig, dpi=30)
    # the class labels sit on the first panel of each row only
    assert [len(ax.get_yticklabels()) for ax in axes] == [N_CLASSES, 0, 0, 0, N_CLASSES, 0, 0, 0]


def test_heatmap_size_grows_with_the_table():
    small, big = eq.strategy_heatmap_size(10, 3, 1), eq.strategy_heatmap_size(78, 8, 8)
    assert big[1] > small[1]
    assert eq.strategy_heatmap_size(78, 8, 4)[1] < big[1]  # four panels fit one row


@pytest.mark.parametrize("players", [3, 5, 8])
def test_heatmap_is_legible_at_a_readme_width(players):
    """GitHub shows a README's images at most about 880 pixels wide: at the reports' 110 dpi
    the figure must fit in 8 inches, so it is not shrunk, and then its words must be 7 pt
    or more (10 pixels) and every number must fit inside its cell."""
    rng = np.random.default_rng(players)
    keys = [(c, p, e, m) for c in range(42) for p in range(1, players + 1) for e in range(4) for m in (True, False)]
    probs = rng.dirichlet(np.full(4, 0.3), size=len(keys))  # many mixed cells, so many numbers
    table = pd.DataFrame({"class": [k[0] for k in keys], "position": [k[1] for k in keys],
                          "earlier_in": [k[2] for k in keys], "miss_on_offer": [k[3] for k in keys],
                          **{c: probs[:, i] for i, c in enumerate(eq.PROB_COLUMNS)}, "reach": 1.0})  # fmt: skip
    size = eq.strategy_heatmap_size(42, players, 8)
    fig = Figure(figsize=size, layout="constrained", dpi=110)
    axes = eq.strategy_heatmap(fig, table, title="three-card, 5 players: the equilibrium declaration strategy "
                                                 "(start basic, card play basic)")  # fmt: skip
    png = _png(fig, dpi=110)
    assert int.from_bytes(png[16:20], "big") <= 880 + 20  # the PNG's width in pixels (bbox "tight")
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    words = [t for t in fig.findobj(Text) if t.get_text().strip() and t.get_visible()]
    assert min(t.get_fontsize() for t in words) >= 7.0
    numbers = [t for ax in axes for t in ax.texts]
    assert len(numbers) > 100
    cell = axes[0].get_window_extent(renderer).width / players  # pixels per position
    assert max(t.get_window_extent(renderer).width for t in numbers) < cell


# ---- convergence ------------------------------------------------------------------------------
@pytest.fixture
def convergence() -> pd.DataFrame:
    it = np.arange(1, 21)
    nc = 4.0 / it
    return pd.DataFrame(
        {
            "iteration": it,
            "deals": it * 1000,
            "nashconv": nc,
            "nashconv_lo": nc * 0.8,
            "nashconv_hi": nc * 1.2,
            "ante_pool": 12.0,
        }
    )


def test_convergence_log_scale_band_and_target(convergence):
    fig = Figure()
    ax = solve_plots.convergence_plot(fig.add_subplot(), convergence, target=0.12)
    assert ax.get_yscale() == "log"
    assert "log scale" in ax.get_ylabel() and "chips per deal" in ax.get_ylabel()
    assert ax.get_xlabel() == "iteration"
    line = ax.lines[0]
    assert list(line.get_xdata()) == list(range(1, 21)) and line.get_ydata()[-1] == pytest.approx(0.2)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "target 0.12 chips per deal = 1% of the ante pool" in labels
    assert any(lb.startswith("NashConv (last 0.2 [0.16, 0.24])") for lb in labels)
    target = [ln for ln in ax.lines if list(ln.get_ydata()) == [0.12, 0.12]]
    assert target
    assert ax.get_ylim()[0] < 0.12  # the target line inside the axes
    _png(fig)


def test_convergence_linear_when_a_value_is_not_positive(convergence):
    fig = Figure()
    ax = solve_plots.convergence_plot(fig.add_subplot(), convergence.assign(nashconv_lo=-0.1), x="deals")
    assert ax.get_yscale() == "symlog" and "linear within" in ax.get_ylabel()
    assert ax.get_ylim()[0] < -0.1 and ax.get_ylim()[1] > convergence["nashconv_hi"].max()  # every value inside
    assert ax.get_xlabel() == "deals played (cumulative)"
    assert ax.lines[0].get_xdata()[0] == 1000
    with pytest.raises(LooError, match="x must be"):
        solve_plots.convergence_plot(fig.add_subplot(), convergence, x="time")
    with pytest.raises(LooError, match="nashconv_hi"):
        solve_plots.convergence_plot(fig.add_subplot(), convergence.drop(columns="nashconv_hi"))
    with pytest.raises(LooError, match="empty"):
        solve_plots.convergence_plot(fig.add_subplot(), convergence.iloc[:0])


# ---- exploitability ----------------------------------------------------------------------------
@pytest.fixture
def exploitability() -> pd.DataFrame:
    profiles = ["basic", "equilibrium", "always", "cautious"]
    nc = [1.4, 0.05, 3.2, 0.9]
    rows = [dict(profile=p, seat="all", nashconv=v, lo=v * 0.8, hi=v * 1.2, share_of_ante_pool=v / 12.5)
            for p, v in zip(profiles, nc)]  # fmt: skip
    rows += [dict(profile="basic", seat="0", nashconv=9.0, lo=8.0, hi=10.0, share_of_ante_pool=0.72)]
    return pd.DataFrame(rows)


def test_exploitability_bars_sorted_with_shares(exploitability):
    fig = Figure()
    ax = solve_plots.exploitability_bars(fig.add_subplot(), exploitability)
    assert [round(p.get_width(), 6) for p in ax.patches] == [0.05, 0.9, 1.4, 3.2]  # the seat-0 row is left out
    assert [t.get_text() for t in ax.get_yticklabels()] == ["equilibrium", "cautious", "basic", "always"]
    notes = [t.get_text() for t in ax.texts]
    assert "0.05  (0.4% of the ante pool)" in notes and "3.2  (26% of the ante pool)" in notes
    assert "chips per deal" in ax.get_xlabel()
    _png(fig)


def test_exploitability_bad_input(exploitability):
    with pytest.raises(LooError, match="seat 'all'"):
        solve_plots.exploitability_bars(Figure().add_subplot(), exploitability[exploitability.seat == "0"])
    with pytest.raises(LooError, match="share_of_ante_pool"):
        solve_plots.exploitability_bars(Figure().add_subplot(), exploitability.drop(columns="share_of_ante_pool"))
