import io

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from loo_sim.base.errors import LooError  # noqa: E402
from loo_sim.game.decl import Decl  # noqa: E402
from loo_sim.plots import miss as miss_plots  # noqa: E402
from loo_sim.plots import miss_chart as plots  # noqa: E402
from loo_sim.plots._common import DECL_COLOURS  # noqa: E402


def _chart_rows(position, rows):
    """rows: (hand_class, label, action, mean, best, significant)"""
    out = []
    for hc, label, action, mean, best, sig in rows:
        out.append(
            dict(
                hand_class=hc,
                label=label,
                position=position,
                action=action,
                n=100,
                mean=mean,
                se=0.1,
                ci_low=mean - 0.2,
                ci_high=mean + 0.2,
                chosen_share=0.5,
                best=best,
                significant=sig,
                runner_up="pass" if best else None,
                diff_vs_runner_up=1.0 if best else np.nan,
                diff_se=0.1 if best else np.nan,
            )
        )
    return out


@pytest.fixture
def chart() -> pd.DataFrame:
    rows = _chart_rows(
        "all",
        [
            # class 5 listed first on purpose: rows must come out in hand_class order
            (5, "one trump K | A", "pass", -3.0, False, False),
            (5, "one trump K | A", "play", 2.0, True, True),
            (5, "one trump K | A", "miss", -1.0, False, False),
            (0, "top trump | Q", "pass", -3.0, False, False),
            (0, "top trump | Q", "play", 4.5, True, True),
            (3, "one trump Q | Q", "pass", -3.0, True, False),
            (3, "one trump Q | Q", "play", -3.1, False, False),
            (3, "one trump Q | Q", "miss", -4.0, False, False),
            (3, "one trump Q | Q", "defend", -5.0, False, False),
        ],
    )
    rows += _chart_rows(
        1,
        [
            (0, "top trump | Q", "pass", -3.0, False, False),
            (0, "top trump | Q", "play", 4.0, True, False),
            (3, "one trump Q | Q", "pass", -3.0, True, True),
            (3, "one trump Q | Q", "play", -6.0, False, False),
        ],
    )
    return pd.DataFrame(rows)


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    data = buf.getvalue()
    assert data.startswith(b"\x89PNG")
    return data


def _gids(ax) -> list:
    return [p.get_gid() for p in ax.patches]


def test_decision_chart_rows_columns_and_marks(chart):
    fig = Figure(figsize=plots.decision_chart_size(3))
    ax = fig.add_subplot()
    assert plots.decision_chart(ax, chart) is ax
    assert [t.get_text() for t in ax.get_yticklabels()] == ["top trump | Q", "one trump Q | Q", "one trump K | A"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["pass", "play", "miss", "defend"]
    assert ax.get_title() == "Best declaration by hand class (position all)"
    assert _gids(ax).count("best-significant") == 2
    assert _gids(ax).count("best-uncertain") == 1
    # the uncertain mark sits on class 3's pass cell (row 1, column 0) and carries a "?"
    (uncertain,) = [p for p in ax.patches if p.get_gid() == "best-uncertain"]
    assert uncertain.get_xy() == (-0.5, 0.5)
    assert uncertain.get_linestyle() == "--"
    assert "?" in [t.get_text() for t in ax.texts]
    (sig_top,) = [p for p in ax.patches if p.get_gid() == "best-significant" and p.get_xy() == (0.5, -0.5)]
    assert sig_top.get_linestyle() == "-"
    _png(fig)


def test_decision_chart_masks_missing_cells_and_centres_colours(chart):
    fig = Figure()
    ax = fig.add_subplot()
    plots.decision_chart(ax, chart)
    (image,) = ax.images
    grid = image.get_array()
    assert grid.shape == (3, 4)
    # class 0 (row 0) has no miss or defend; class 5 (row 2) has no defend
    assert grid.mask[0, 2] and grid.mask[0, 3] and grid.mask[2, 3]
    assert not grid.mask[1].any()
    assert grid[0, 1] == pytest.approx(4.5)
    # a missing cell is drawn in the "bad" colour, not the colour of 0
    cmap, norm = image.get_cmap(), image.norm
    assert np.allclose(cmap(np.ma.masked_invalid([np.nan]))[0], cmap.get_bad())
    assert not np.allclose(cmap.get_bad(), cmap(norm(0.0)))
    assert norm(0.0) == pytest.approx(0.5)  # diverging map centred at 0
    # colorbar: a second axes, labelled
    assert len(fig.axes) == 2
    assert fig.axes[1].get_ylabel() == "mean net chips per deal"
    # every cell with data is annotated with its mean to one decimal
    texts = [t.get_text() for t in ax.texts]
    for value in ("4.5", "-3.1", "-5.0", "2.0"):
        assert value in texts


def test_decision_chart_position_filter_after_csv_round_trip(chart):
    round_trip = pd.read_csv(io.StringIO(chart.to_csv(index=False)))
    assert round_trip["position"].astype(str).tolist().count("1") == 4
    for position in (1, "1"):
        fig = Figure()
        ax = fig.add_subplot()
        plots.decision_chart(ax, round_trip, position=position, title="seat one")
        assert ax.get_title() == "seat one"
        assert [t.get_text() for t in ax.get_yticklabels()] == ["top trump | Q", "one trump Q | Q"]
        # columns are every action in the table, not only those offered at this position
        assert [t.get_text() for t in ax.get_xticklabels()] == ["pass", "play", "miss", "defend"]
        assert _gids(ax).count("best-significant") == 1
        assert _gids(ax).count("best-uncertain") == 1
        _png(fig)
    fig = Figure()
    plots.decision_chart(fig.add_subplot(), round_trip, position="all")
    assert _gids(fig.axes[0]).count("best-significant") == 2


def test_decision_chart_reads_text_booleans(chart):
    text = chart.assign(best=chart["best"].map(str), significant=chart["significant"].map(str))
    fig = Figure()
    ax = fig.add_subplot()
    plots.decision_chart(ax, text)
    assert sorted(_gids(ax)) == ["best-significant", "best-significant", "best-uncertain"]


def test_decision_chart_errors(chart):
    ax = Figure().add_subplot()
    with pytest.raises(LooError, match="position 7"):
        plots.decision_chart(ax, chart, position=7)
    with pytest.raises(LooError, match="mean"):
        plots.decision_chart(ax, chart.drop(columns="mean"))
    with pytest.raises(LooError, match="more than one row"):
        plots.decision_chart(ax, pd.concat([chart, chart.iloc[:1]]))


def _sliced(chart: pd.DataFrame) -> pd.DataFrame:
    """The fixture as chart_table writes it: the rows twice, with the miss on offer and
    (values shifted, without the miss) not on offer, each pooled over earlier seats in."""
    on = chart.assign(miss_on_offer=True, earlier_in="all")
    off = chart[chart.action != "miss"].assign(miss_on_offer=False, earlier_in="all", mean=lambda d: d["mean"] - 10)
    one = chart.assign(miss_on_offer=True, earlier_in=1, mean=lambda d: d["mean"] + 100)
    return pd.concat([on, off, one], ignore_index=True)


def test_decision_chart_draws_one_slice_of_miss_on_offer_and_earlier_seats_in(chart):
    table = pd.read_csv(io.StringIO(_sliced(chart).to_csv(index=False)))
    ax = Figure().add_subplot()
    plots.decision_chart(ax, table)  # default: the miss on offer, earlier seats pooled
    assert ax.images[0].get_array()[0, 1] == pytest.approx(4.5)
    assert ax.get_title() == "Best declaration by hand class (position all, miss on offer, earlier seats in: any)"
    ax = Figure().add_subplot()
    plots.decision_chart(ax, table, miss_on_offer=False)
    assert ax.images[0].get_array()[0, 1] == pytest.approx(-5.5)
    assert ax.images[0].get_array().mask[:, 2].all()  # no miss where it is not on offer
    ax = Figure().add_subplot()
    plots.decision_chart(ax, table, earlier_in="1")
    assert ax.images[0].get_array()[0, 1] == pytest.approx(104.5)
    with pytest.raises(LooError, match="3\\+ earlier seats in"):
        plots.decision_chart(Figure().add_subplot(), table, earlier_in="3+")
    # without a miss anywhere, the default slice is the one there is
    no_miss = table[~table.miss_on_offer.astype(bool)]
    ax = Figure().add_subplot()
    plots.decision_chart(ax, no_miss)
    assert "miss not on offer" in ax.get_title()


def test_decision_charts_can_share_a_colour_scale(chart):
    table = _sliced(chart)
    limits = [plots.decision_chart_limit(table, miss_on_offer=offer) for offer in (True, False)]
    assert limits == [pytest.approx(5.0), pytest.approx(15.0)]
    fig = Figure()
    left, right = fig.subplots(1, 2)
    plots.decision_chart(left, table, miss_on_offer=True, vlim=max(limits), colorbar=False, key=False)
    plots.decision_chart(right, table, miss_on_offer=False, vlim=max(limits))
    assert [ax.images[0].norm.vmax for ax in (left, right)] == [15.0, 15.0]
    assert [ax.images[0].norm.vmin for ax in (left, right)] == [-15.0, -15.0]
    assert len(fig.axes) == 3  # one colorbar
    assert not left.texts[-1].get_text().startswith("best:") and right.texts[-1].get_text().startswith("best:")
    _png(fig)


def test_decision_chart_size_grows_with_rows():
    w1, h1 = plots.decision_chart_size(5)
    w2, h2 = plots.decision_chart_size(40)
    assert w1 == w2 and h2 > h1 > 0


@pytest.fixture
def heuristics() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "heuristic": ["basic", "always", "cautious", "ev"],
            "n": [1000] * 4,
            "net_mean": [-6.4, -9.4, -1.9, -1.9],
            "net_se": [0.05] * 4,
            "net_ci_low": [-6.5, -9.5, -2.0, -2.0],
            "net_ci_high": [-6.3, -9.3, -1.8, -1.8],
            "loo_rate": [0.43, 0.61, 0.03, 0.05],
            "loo_ci_low": [0.42, 0.60, 0.02, 0.04],
            "loo_ci_high": [0.44, 0.62, 0.04, 0.06],
            "miss_rate": [0.18, 0.0, 0.0, 0.25],
            "diff_vs_baseline": [0.0, -2.97, 4.50, 4.44],
            "diff_se_paired": [0.0, 0.034, 0.040, 0.039],
            "diff_ci_low": [0.0, -3.03, 4.42, 4.36],
            "diff_ci_high": [0.0, -2.90, 4.58, 4.51],
            "diff_se_unpaired": [0.0, 0.068, 0.051, 0.052],
        }
    )


def test_heuristic_bars(heuristics):
    fig = Figure(figsize=(7, 3))
    ax = fig.add_subplot()
    assert miss_plots.heuristic_bars(ax, heuristics) is ax
    assert len(ax.patches) == 4
    # bars are drawn in table order; barh patches keep that order
    assert [p.get_width() for p in ax.patches] == pytest.approx(heuristics["diff_vs_baseline"].tolist())
    assert [t.get_text() for t in ax.get_yticklabels()] == ["basic", "always", "cautious", "ev"]
    assert ax.get_xlabel() == "net chips per deal vs basic (paired, 95% CI)"
    # first heuristic on top
    assert ax.get_ylim()[0] > ax.get_ylim()[1]
    # vertical zero line
    assert any(list(line.get_xdata()) == [0, 0] for line in ax.lines)
    texts = [t.get_text() for t in ax.texts]
    assert "+4.50  (miss 0%)" in texts
    assert "-2.97  (miss 0%)" in texts
    assert "+4.44  (miss 25%)" in texts
    assert "baseline  (miss 18%)" in texts
    # room for the labels: the axis extends past the longest interval on both sides
    lo, hi = ax.get_xlim()
    assert lo < -3.03 and hi > 4.58
    _png(fig)


def test_heuristic_bars_other_baseline(heuristics):
    ax = Figure().add_subplot()
    miss_plots.heuristic_bars(ax, heuristics, baseline="ev", title="vs ev")
    assert ax.get_xlabel() == "net chips per deal vs ev (paired, 95% CI)"
    assert ax.get_title() == "vs ev"
    with pytest.raises(LooError, match="miss_rate"):
        miss_plots.heuristic_bars(ax, heuristics.drop(columns="miss_rate"))


@pytest.fixture
def sweep() -> pd.DataFrame:
    rows = []
    rng = np.random.default_rng(1)
    for players in (8, 3, 5):  # unsorted on purpose
        for carried in (10.0, 0.0, 5.0):
            shares = rng.dirichlet(np.ones(4))
            for action, share in zip(["defend", "miss", "play", "pass"], shares):
                rows.append(dict(players=players, carried=carried, action=action, share=share, n=50))
    return pd.DataFrame(rows)


def test_best_action_sweep(sweep):
    fig = Figure(figsize=(10, 3.5), layout="constrained")
    axes = miss_plots.best_action_sweep(fig, sweep)
    assert len(axes) == 3
    assert [ax.get_title() for ax in axes] == ["3 players", "5 players", "8 players"]
    colours = None
    for ax, players in zip(axes, (3, 5, 8)):
        assert [line.get_label() for line in ax.lines] == ["pass", "play", "miss", "defend"]
        panel_colours = [line.get_color() for line in ax.lines]
        assert colours is None or panel_colours == colours
        colours = panel_colours
        play = ax.lines[1]
        assert list(play.get_xdata()) == [0.0, 5.0, 10.0]  # sorted by carried
        expected = sweep[(sweep.players == players) & (sweep.action == "play")].sort_values("carried")["share"]
        assert list(play.get_ydata()) == pytest.approx(expected.tolist())
        assert play.get_marker() == "o"
        # lines that coincide (the miss and defend both at 0) stay visible: each action has
        # its own marker and line style, and the miss is drawn wider, with hollow markers
        assert len({line.get_marker() for line in ax.lines}) == 4
        assert len({line.get_linestyle() for line in ax.lines}) >= 3
        miss, defend = ax.lines[2], ax.lines[3]
        assert miss.get_linewidth() > defend.get_linewidth() and miss.get_markersize() > defend.get_markersize()
        assert miss.get_markerfacecolor() == "none"
    assert colours == [DECL_COLOURS[d] for d in Decl]  # one colour per declaration, in Decl order
    # shared y axis, one legend for the figure
    assert axes[0].get_shared_y_axes().joined(axes[0], axes[2])
    assert len(fig.legends) == 1
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["pass", "play", "miss", "defend"]
    assert "the miss is the wide dashed line" in fig.legends[0].get_title().get_text()
    assert all(not ax.get_legend() for ax in axes)
    _png(fig)


def test_best_action_sweep_without_layout_engine_and_missing_action(sweep):
    fig = Figure(figsize=(10, 3.5))
    partial = sweep[~((sweep.players == 5) & (sweep.action == "defend"))]
    axes = miss_plots.best_action_sweep(fig, partial, title="sweep")
    assert fig.get_suptitle() == "sweep"
    assert len(axes[1].lines) == 3
    assert axes[0].lines[3].get_color() == axes[2].lines[3].get_color()
    _png(fig)


def test_best_action_sweep_of_one_pot_is_a_bar_per_action_not_a_line_axis(sweep):
    """A sweep of one pot value has nothing to draw along x: a +-0.04 axis round one point says
    nothing. Each panel is then a bar per action, its share and decisions written on it."""
    one = sweep[sweep.carried == 5.0]
    fig = Figure(figsize=(10, 3.5), layout="constrained")
    axes = miss_plots.best_action_sweep(fig, one)
    assert [ax.get_title() for ax in axes] == ["3 players", "5 players", "8 players"]
    for ax, players in zip(axes, (3, 5, 8)):
        assert not ax.lines  # no line through a single point
        bars = [p for p in ax.patches if p.get_gid() == miss_plots.GID_SWEEP_BAR]
        assert [t.get_text() for t in ax.get_xticklabels()] == ["pass", "play", "miss", "defend"]
        expected = one[one.players == players].set_index("action").loc[["pass", "play", "miss", "defend"], "share"]
        assert [b.get_height() for b in bars] == pytest.approx(expected.tolist())
        assert [t.get_text() for t in ax.texts] == [f"{v:.0%}\nof 50" for v in expected]
        assert ax.get_xlabel() == "best action, 5 chips carried into the deal"
        assert ax.get_ylim() == (0.0, 1.2)
    assert not fig.legends  # the actions are named on the axis
    _png(fig)


def test_works_with_pyplot_figures(chart, heuristics, sweep):
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4))
    try:
        plots.decision_chart(a1, chart)
        miss_plots.heuristic_bars(a2, heuristics)
        _png(fig)
    finally:
        plt.close(fig)
    fig = plt.figure()
    try:
        assert len(miss_plots.best_action_sweep(fig, sweep)) == 3
        _png(fig)
    finally:
        plt.close(fig)


def test_importing_plots_does_not_import_pyplot():
    import subprocess
    import sys

    code = (
        "import sys, pkgutil, importlib, loo_sim.plots as p\n"
        "names = [m.name for m in pkgutil.iter_modules(p.__path__)]\n"
        "[importlib.import_module(f'loo_sim.plots.{n}') for n in names]\n"
        "print(len(names) >= 10, 'matplotlib.pyplot' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True False"


def test_drawing_and_saving_a_png_need_neither_pyplot_nor_a_backend(tmp_path):
    import os
    import subprocess
    import sys

    code = f"""
import sys
from pathlib import Path
import pandas as pd
from matplotlib.figure import Figure
from loo_sim.plots import variants
from loo_sim.report.outputs import save_png
fig = Figure(layout="constrained")
variants.variant_table(fig.add_subplot(), pd.DataFrame(
    dict(row=["a", "b"], metric="loo_rate", value=[0.2, 0.3], diff_vs_baseline=[0.0, 0.1], diff_se=[0.0, 0.01],
         diff_ci_low=[0.0, 0.08], diff_ci_high=[0.0, 0.12])), "a", label=str)
save_png(fig, Path({str(tmp_path / "v.png")!r}))
print('matplotlib.pyplot' in sys.modules)
"""
    env = {**os.environ, "MPLBACKEND": "TkAgg"}  # an interactive backend, unusable here, is never started
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert out.stdout.strip() == "False"
    assert (tmp_path / "v.png").read_bytes().startswith(b"\x89PNG")
