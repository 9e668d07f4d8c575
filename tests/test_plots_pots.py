import io
import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import PathPatch  # noqa: E402

from loo_sim import LooError  # noqa: E402
from loo_sim.plots import balances as balance_plots  # noqa: E402
from loo_sim.plots import pots as plots  # noqa: E402

UNLIMITED = "penalty=unlimited, policy=ev"
LIMITED = "penalty=limited"


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    data = buf.getvalue()
    assert data.startswith(b"\x89PNG")
    return data


def _by_gid(artists, gid: str) -> list:
    return [a for a in artists if a.get_gid() == gid]


def _band_limits(band: PolyCollection) -> tuple[float, float]:
    ys = np.concatenate([path.vertices[:, 1] for path in band.get_paths()])
    return float(ys.min()), float(ys.max())


# ---- pot_fan_chart ----------------------------------------------------------------------------


@pytest.fixture
def pot_by_deal() -> pd.DataFrame:
    rows = []
    for deal in range(12):
        # the unlimited arm grows geometrically (wide range) and loses sessions to ruin/overflow
        g = 3.0 * 2.0**deal
        rows.append(
            dict(arm=UNLIMITED, deal=deal, sessions=1000 - 50 * deal, q05=g / 4, q25=g / 2, q50=g, q75=2 * g, q95=8 * g)
        )
        # the limited arm stays within tens of chips, every session running
        rows.append(dict(arm=LIMITED, deal=deal, sessions=1000, q05=3, q25=5, q50=8 + deal % 3, q75=14, q95=40))
    # deals listed out of order on purpose; panels must be drawn in deal order
    return pd.DataFrame(rows).sample(frac=1.0, random_state=3).reset_index(drop=True)


def test_pot_fan_chart_panels_scales_median_and_bands(pot_by_deal):
    fig = Figure(figsize=(10, 4), layout="constrained")
    axes = plots.pot_fan_chart(fig, pot_by_deal)
    assert len(axes) == 2
    # arms in order of first appearance in the (shuffled) table
    first_arms = list(dict.fromkeys(pot_by_deal["arm"]))
    assert [ax.get_title() for ax in axes] == first_arms
    assert fig.get_suptitle() == "Pot at the start of each deal"
    # one y scale for the figure: log, as the pots of all arms together span more than a factor 100,
    # the same limits in every panel, said once on the first panel
    assert pot_by_deal["q95"].max() / pot_by_deal["q05"].min() > 100
    assert [ax.get_yscale() for ax in axes] == ["log", "log"]
    assert axes[0].get_ylim() == axes[1].get_ylim()
    assert axes[0].get_ylim()[0] <= pot_by_deal["q05"].min() and axes[0].get_ylim()[1] >= pot_by_deal["q95"].max()
    assert axes[0].get_ylabel() == "pot at the start of the deal, chips\n(log scale, the same in every panel)"
    assert axes[1].get_ylabel() == "" and not any(t.get_visible() for t in axes[1].get_yticklabels())
    assert axes[0].get_xlim() == axes[1].get_xlim() == (0.0, 11.0)
    for ax in axes:
        arm = ax.get_title()
        expected = pot_by_deal[pot_by_deal["arm"] == arm].sort_values("deal")
        (median,) = _by_gid(ax.lines, "pot-median")
        assert list(median.get_xdata()) == list(range(12))
        assert list(median.get_ydata()) == pytest.approx(expected["q50"].tolist())
        (band50,) = _by_gid(ax.collections, "pot-band-50")
        (band90,) = _by_gid(ax.collections, "pot-band-90")
        assert _band_limits(band50) == pytest.approx((expected["q25"].min(), expected["q75"].max()))
        assert _band_limits(band90) == pytest.approx((expected["q05"].min(), expected["q95"].max()))
        # the 90% band is the lighter one
        assert band90.get_alpha() < band50.get_alpha()
    assert len(fig.legends) == 1
    _png(fig)


def test_pot_fan_chart_share_of_sessions_running(pot_by_deal):
    fig = Figure(figsize=(10, 4), layout="constrained")
    axes = plots.pot_fan_chart(fig, pot_by_deal)
    # only the arm that loses sessions gets a twin axis with the share still running
    assert len(fig.axes) == 3
    (twin,) = [ax for ax in fig.axes if ax not in axes]
    assert twin.get_ylabel() == "share of sessions still running"
    (running,) = _by_gid(twin.lines, "sessions-running")
    assert running.get_ydata()[0] == pytest.approx(1.0)
    assert running.get_ydata()[-1] == pytest.approx((1000 - 50 * 11) / 1000)
    (unlimited,) = [ax for ax in axes if ax.get_title() == UNLIMITED]
    assert twin.get_shared_x_axes().joined(twin, unlimited)
    assert "share still running" in [t.get_text() for t in fig.legends[0].get_texts()]
    # with no session stopped there is no twin axis and no legend entry for it
    fig = Figure()
    axes = plots.pot_fan_chart(fig, pot_by_deal[pot_by_deal["arm"] == LIMITED], title="limited only")
    assert len(axes) == len(fig.axes) == 1
    assert fig.get_suptitle() == "limited only"
    assert "share still running" not in [t.get_text() for t in fig.legends[0].get_texts()]
    _png(fig)


def test_pot_fan_chart_grid_for_more_than_three_arms(pot_by_deal):
    tables = [pot_by_deal.assign(arm=pot_by_deal["arm"] + f" #{i}") for i in range(3)]
    table = pd.concat(tables, ignore_index=True)  # six arms
    fig = Figure(figsize=(12, 7))
    axes = plots.pot_fan_chart(fig, table)
    assert len(axes) == 6
    assert [ax.get_title() for ax in axes] == list(dict.fromkeys(table["arm"]))
    # a 2 x 3 grid, not one row of six
    rows = {round(ax.get_position().y0, 3) for ax in axes}
    assert len(rows) == 2
    _png(fig)
    # five arms: the sixth grid cell is removed, not left empty
    five = table[table["arm"] != axes[-1].get_title()]
    fig = Figure(figsize=(12, 7))
    axes = plots.pot_fan_chart(fig, five)
    assert len(axes) == 5
    assert len([ax for ax in fig.axes if ax in axes]) == 5
    assert all(ax in axes or ax.get_ylabel() == "share of sessions still running" for ax in fig.axes)
    _png(fig)


def test_pot_fan_chart_linear_when_a_pot_is_zero_or_range_narrow(pot_by_deal):
    arm = pot_by_deal[pot_by_deal["arm"] == UNLIMITED]
    with_zero = arm.assign(q05=arm["q05"].where(arm["deal"] != 0, 0.0))
    ax = plots.pot_fan_chart(Figure(), with_zero)[0]
    assert ax.get_yscale() == "linear"
    # each arm alone spans less than a factor 100, together more: one log scale for both
    a = pd.DataFrame(dict(arm="a", deal=[0, 1], sessions=10, q05=1.0, q25=2.0, q50=3.0, q75=5.0, q95=9.0))
    b = a.assign(arm="b", q05=50.0, q25=60.0, q50=70.0, q75=80.0, q95=200.0)
    axes = plots.pot_fan_chart(Figure(), pd.concat([a, b]))
    assert [ax.get_yscale() for ax in axes] == ["log", "log"] and axes[0].get_ylim() == axes[1].get_ylim()
    # a ratio of exactly 100 is not "wide"
    narrow = pd.DataFrame(dict(arm="a", deal=[0, 1], sessions=10, q05=1.0, q25=2.0, q50=3.0, q75=50.0, q95=100.0))
    assert plots.pot_fan_chart(Figure(), narrow)[0].get_yscale() == "linear"
    wide = narrow.assign(q95=[100.0, 100.5])
    assert plots.pot_fan_chart(Figure(), wide)[0].get_yscale() == "log"


def test_pot_fan_chart_astronomical_pots_render(pot_by_deal):
    rows = [
        dict(
            arm=UNLIMITED, deal=d, sessions=100, q05=10.0**d, q25=10.0 ** (d + 1), q50=10.0 ** (d + 2), q75=1e4, q95=1e4
        )
        for d in range(3)
    ]
    rows[-1].update(q75=1e99, q95=1e100)
    fig = Figure()
    (ax,) = plots.pot_fan_chart(fig, pd.DataFrame(rows))
    assert ax.get_yscale() == "log"
    assert ax.get_ylim()[1] >= 1e100
    _png(fig)


# ---- largest_pot_chart ------------------------------------------------------------------------


@pytest.fixture
def ccdf() -> pd.DataFrame:
    pots_u = np.logspace(0, 100, 41)
    pots_l = np.logspace(0, 1.6, 9)
    return pd.DataFrame(
        dict(
            arm=[UNLIMITED] * 41 + [LIMITED] * 9,
            pot=np.r_[pots_u[::-1], pots_l],  # one arm listed in decreasing pot on purpose
            share_at_least=np.r_[np.exp(-np.arange(41) / 10)[::-1], np.exp(-np.arange(9) / 2)],
        )
    )


def _ccdf_of(arm: str, samples: np.ndarray) -> pd.DataFrame:
    """The table analysis.pots makes: each distinct largest pot and the share of sessions at or above it."""
    pots = np.unique(samples)
    return pd.DataFrame(dict(arm=arm, pot=pots, share_at_least=[(samples >= p).mean() for p in pots]))


def _kth_largest(samples: np.ndarray, share: float) -> float:
    """The pot at least ``share`` of the sessions reach: the ceil(share n)-th largest of them."""
    return float(np.sort(samples)[::-1][int(np.ceil(share * len(samples) - 1e-9)) - 1])


def test_pot_reach_levels_from_the_sessions():
    rng = np.random.default_rng(7)
    wide = np.round(np.exp(rng.normal(5, 1.5, 1000)))  # 1,000 sessions
    capped = rng.choice([24.0, 27.0], 1000, p=[0.06, 0.94])  # a limited pot: 27 at most
    reach = plots.pot_reach(pd.concat([_ccdf_of("wide", wide), _ccdf_of("capped", capped)]))
    assert list(dict.fromkeys(reach["arm"])) == ["wide", "capped"]
    for arm, samples in (("wide", wide), ("capped", capped)):
        got = reach[reach["arm"] == arm].set_index("level")["pot"]
        assert list(got.index) == [1.0, 0.5, 0.1, 0.01, 0.0]
        for share in (1.0, 0.5, 0.1, 0.01):
            assert got[share] == _kth_largest(samples, share), (arm, share)
        assert got[0.0] == samples.max()
    assert reach[reach["arm"] == "capped"]["pot"].tolist() == [24.0, 27.0, 27.0, 27.0, 27.0]
    # 50 sessions cannot tell the pot one in a hundred reach
    few = plots.pot_reach(_ccdf_of("few", wide[:50]))
    assert 0.01 not in set(few["level"]) and 0.1 in set(few["level"])


def test_largest_pot_chart_rows_marks_and_numbers(ccdf):
    fig = Figure(figsize=(8, 4), layout="constrained")
    ax = fig.add_subplot()
    assert plots.largest_pot_chart(ax, ccdf) is ax
    # one row per arm, in order of first appearance, each on its own line (not a corner of a shared plot)
    assert [t.get_text() for t in ax.get_yticklabels()] == [UNLIMITED, LIMITED]
    lines = _by_gid(ax.lines, "reach-line")
    assert [line.get_ydata()[0] for line in lines] == [0, 1]
    reach = plots.pot_reach(ccdf)
    for y, arm in enumerate([UNLIMITED, LIMITED]):
        marks = [m for m in _by_gid(ax.lines, "reach-mark") if m.get_ydata()[0] == y]
        assert sorted(m.get_xdata()[0] for m in marks) == sorted(reach[reach["arm"] == arm]["pot"])
    # the limited arm: pot 10**(k/5) reached by exp(-k/2) of the sessions, k = 0..8. Half reach k = 1 (0.61),
    # one in ten k = 4 (0.135); the finest share of the table, exp(-4) = 0.018, cannot tell one in a hundred
    texts = [t.get_text() for t in ax.texts]
    assert texts[1] == "all \u2265 1  \u00b7  half \u2265 1.58  \u00b7  1 in 10 \u2265 6.31  \u00b7  largest 39.8"
    # one x axis, log (the pots span 1e100), from below the smallest to above the largest pot
    assert ax.get_xscale() == "log" and ax.get_xlim()[0] < 1 and ax.get_xlim()[1] > 1e100
    assert ax.get_xlabel() == "largest pot of a session (chips)"
    assert ax.get_title() == "Largest pot of a session"
    assert len(fig.legends) == 1
    _png(fig)


def test_largest_pot_chart_narrow_pots_on_a_plain_axis(ccdf):
    narrow = pd.DataFrame(dict(arm=["a", "a", "b", "b"], pot=[24, 27, 21, 27], share_at_least=[1, 0.9, 1, 0.2]))
    ax = Figure().add_subplot()
    plots.largest_pot_chart(ax, narrow, title="narrow", counted="measured deals", quantity="pot at the start")
    assert ax.get_xscale() == "linear" and ax.get_xlim()[0] < 21 and ax.get_xlim()[1] > 27
    assert ax.get_xlabel() == "pot at the start (chips)" and ax.get_title() == "narrow"
    labels = [t.get_text() for t in ax.figure.legends[0].get_texts()]
    assert labels == ["all the measured deals", "half the measured deals", "the largest seen"]


def test_largest_pot_chart_leaves_out_points_it_cannot_place(ccdf):
    extra = pd.DataFrame(dict(arm=[LIMITED, LIMITED], pot=[0.0, 1e3], share_at_least=[1.0, 0.0]))
    ax = Figure().add_subplot()
    plots.largest_pot_chart(ax, pd.concat([ccdf, extra]), title="ccdf")
    marks = [m.get_xdata()[0] for m in _by_gid(ax.lines, "reach-mark") if m.get_ydata()[0] == 1]
    assert max(marks) == pytest.approx(10**1.6) and min(marks) == 1.0
    with pytest.raises(LooError, match="positive"):
        plots.largest_pot_chart(ax, extra.assign(pot=[0.0, 0.0]))


# ---- balance_distribution ---------------------------------------------------------------------


def _balance_rows(arm: str, scale: float, seats=(0, 1, 2)) -> list[dict]:
    rows = []
    for seat in seats:
        mean = -scale * 0.2 + seat
        se = scale * 0.01
        rows.append(
            dict(
                arm=arm,
                seat=seat,
                sessions=500,
                mean=mean,
                se=se,
                ci_low=mean - 1.96 * se,
                ci_high=mean + 1.96 * se,
                sd=scale,
                q05=-scale * 3,
                q25=-scale * 0.5 - seat,
                q50=-scale * 0.05 + seat,
                q75=scale * 0.8 + seat,
                q95=scale * 20,
            )
        )
    return rows


@pytest.fixture
def balances() -> pd.DataFrame:
    # seats listed in decreasing order for one arm on purpose
    return pd.DataFrame(_balance_rows(LIMITED, 10.0) + _balance_rows(UNLIMITED, 1e95, seats=(2, 1, 0)))


def _boxes(ax) -> list[PathPatch]:
    return [p for p in ax.patches if isinstance(p, PathPatch) and p.get_gid() == "balance-box"]


def _box_bounds(box: PathPatch) -> tuple[float, float, float, float]:
    """(x centre, width, bottom, top) of a box, in data coordinates."""
    xy = box.get_path().vertices
    assert box.get_transform() == box.axes.transData
    x0, x1, y0, y1 = xy[:, 0].min(), xy[:, 0].max(), xy[:, 1].min(), xy[:, 1].max()
    return float((x0 + x1) / 2), float(x1 - x0), float(y0), float(y1)


def test_balance_distribution_boxes(balances):
    fig = Figure(figsize=(8, 4), layout="constrained")
    ax = fig.add_subplot()
    assert balance_plots.balance_distribution(ax, balances) is ax
    boxes = _boxes(ax)
    assert len(boxes) == len(ax.patches) == 6  # one per (arm, seat); legend proxies are not on the axes
    assert [t.get_text() for t in ax.get_xticklabels()] == ["seat 0", "seat 1", "seat 2"]
    assert ax.get_ylabel() == "final net balance (chips; linear within \u00b110, log beyond)"
    assert ax.get_title() == "Final net balance by seat"

    centre = {}
    for box in boxes:
        x, width, bottom, top = _box_bounds(box)
        assert 0 < width < 0.4
        seat = int(round(x))
        # which arm: the row of this seat whose lower quartile the box starts at (they differ by arm)
        (row,) = [r for r in balances.itertuples() if r.seat == seat and np.isclose(bottom, r.q25, rtol=1e-12)]
        assert bottom == pytest.approx(row.q25, rel=1e-12)
        assert top - bottom == pytest.approx(row.q75 - row.q25, rel=1e-12)
        centre[(row.arm, seat)] = x
    assert len(centre) == 6
    # arms side by side within a seat, in order of first appearance, inside the seat's slot
    for seat in range(3):
        assert seat - 0.5 < centre[(LIMITED, seat)] < centre[(UNLIMITED, seat)] < seat + 0.5
    # one colour per arm
    colour = {}
    for box in boxes:
        arm = [a for (a, s), x in centre.items() if x == _box_bounds(box)[0]][0]
        colour.setdefault(arm, set()).add(tuple(box.get_facecolor()))
    assert all(len(c) == 1 for c in colour.values())
    assert colour[LIMITED] != colour[UNLIMITED]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[:2] == [LIMITED, UNLIMITED]
    _png(fig)


def test_balance_distribution_symlog_zero_line_whiskers_median_and_mean(balances):
    fig = Figure(figsize=(8, 4))
    ax = fig.add_subplot()
    balance_plots.balance_distribution(ax, balances, title="balances")
    assert ax.get_title() == "balances"
    assert ax.get_yscale() == "symlog"
    assert ax.yaxis.get_transform().linthresh == pytest.approx(10.0)
    (zero,) = _by_gid(ax.lines, "zero-line")
    assert list(zero.get_ydata()) == [0, 0]
    # huge and small balances both inside the view
    lo, hi = ax.get_ylim()
    assert lo <= -3e95 and hi >= 2e96
    assert len(_by_gid(ax.lines, "balance-median")) == 6
    assert len(_by_gid(ax.lines, "balance-whisker")) == 6 * 4  # two whiskers and two caps per box
    whisker_ends = {float(y) for line in _by_gid(ax.lines, "balance-whisker") for y in line.get_ydata()}
    assert {-30.0, 200.0, -3e95, 2e96} <= whisker_ends
    medians = sorted(float(line.get_ydata()[0]) for line in _by_gid(ax.lines, "balance-median"))
    assert medians == pytest.approx(sorted(balances["q50"]))
    means = sorted(float(line.get_ydata()[0]) for line in _by_gid(ax.lines, "balance-mean"))
    assert means == pytest.approx(sorted(balances["mean"]))
    # error bars: one vertical segment per mean, from ci_low to ci_high
    segments = [seg for c in ax.collections for seg in c.get_segments()]
    spans = sorted((float(s[0][1]), float(s[1][1])) for s in segments if len(s) == 2 and s[0][0] == s[1][0])
    expected = sorted(zip(balances["ci_low"], balances["ci_high"]))
    assert len(spans) == len(expected)
    for got, want in zip(spans, expected):
        assert got == pytest.approx(want)
    # a readable number of y ticks, none crowding zero, even across ~200 decades
    ticks = ax.get_yticks()
    assert 0.0 in ticks and len(ticks) <= 15
    assert not any(0 < abs(t) < 1e10 for t in ticks)
    _png(fig)


def test_balance_distribution_small_balances_and_missing_values(balances):
    limited = balances[balances["arm"] == LIMITED].copy()
    limited.loc[limited["seat"] == 1, ["mean", "ci_low", "ci_high"]] = np.nan  # e.g. overflowed sums
    limited.loc[limited["seat"] == 2, ["q25", "q75"]] = np.nan
    ax = Figure().add_subplot()
    balance_plots.balance_distribution(ax, limited)
    assert len(_boxes(ax)) == 2
    assert len(_by_gid(ax.lines, "balance-whisker")) == 2 * 4
    assert len(_by_gid(ax.lines, "balance-median")) == 3  # seat 2 keeps its median without a box
    assert len(_by_gid(ax.lines, "balance-mean")) == 2
    ticks = ax.get_yticks()
    assert {-10.0, 0.0, 10.0} <= set(ticks)
    _png(ax.figure)


def test_balance_distribution_leaves_out_what_is_not_finite(balances):
    limited = balances[balances["arm"] == LIMITED].copy()
    limited.loc[limited["seat"] == 0, "q05"] = np.nan
    limited.loc[limited["seat"] == 1, ["q05", "q95"]] = np.nan
    limited.loc[limited["seat"] == 1, "q75"] = 1e6  # this box reaches past every other value
    limited.loc[limited["seat"] == 2, "q50"] = np.nan
    ax = Figure().add_subplot()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        balance_plots.balance_distribution(ax, limited)
    assert len(_boxes(ax)) == 3
    whiskers = _by_gid(ax.lines, "balance-whisker")
    assert len(whiskers) == 3 * 4 - 2 - 4  # seat 0 lost its lower whisker and cap, seat 1 both pairs
    assert all(np.isfinite(line.get_ydata()).all() for line in whiskers)
    assert len(_by_gid(ax.lines, "balance-median")) == 2
    assert ax.get_ylim()[1] >= 1e6  # a box without whiskers is still in view
    _png(ax.figure)


def test_balance_distribution_reads_csv_round_trip(balances):
    round_trip = pd.read_csv(io.StringIO(balances.to_csv(index=False)))
    ax = Figure().add_subplot()
    balance_plots.balance_distribution(ax, round_trip)
    assert len(_boxes(ax)) == 6
    assert [t.get_text() for t in ax.get_xticklabels()] == ["seat 0", "seat 1", "seat 2"]


# ---- errors, pyplot, warnings -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("func", "table", "column"),
    [
        ("pot_fan_chart", "pot_by_deal", "q95"),
        ("pot_fan_chart", "pot_by_deal", "sessions"),
        ("largest_pot_chart", "ccdf", "share_at_least"),
        ("balance_distribution", "balances", "q25"),
        ("balance_distribution", "balances", "arm"),
    ],
)
def test_bad_input_raises_loo_error(request, func, table, column):
    df = request.getfixturevalue(table)
    fig = Figure()
    target = fig if func == "pot_fan_chart" else fig.add_subplot()
    draw = getattr(balance_plots if func == "balance_distribution" else plots, func)
    with pytest.raises(LooError, match=column):
        draw(target, df.drop(columns=column))
    with pytest.raises(LooError, match="empty"):
        draw(target, df.iloc[:0])
    with pytest.raises(LooError, match="non-numeric"):
        numeric = [c for c in df.columns if c != "arm"][0]
        draw(target, df.astype({numeric: object}).assign(**{numeric: ["x"] * len(df)}))


def test_duplicate_rows_raise_loo_error(pot_by_deal, balances):
    with pytest.raises(LooError, match="more than one row"):
        plots.pot_fan_chart(Figure(), pd.concat([pot_by_deal, pot_by_deal.iloc[:1]]))
    with pytest.raises(LooError, match="more than one row"):
        balance_plots.balance_distribution(Figure().add_subplot(), pd.concat([balances, balances.iloc[:1]]))


def test_pyplot_figures_and_no_warnings(pot_by_deal, ccdf, balances):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = plt.figure(figsize=(10, 4))
        try:
            assert len(plots.pot_fan_chart(fig, pot_by_deal)) == 2
            _png(fig)
        finally:
            plt.close(fig)
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4))
        try:
            plots.largest_pot_chart(a1, ccdf)
            balance_plots.balance_distribution(a2, balances)
            _png(fig)
        finally:
            plt.close(fig)


# ---- readable at a glance (issue 11) ----------------------------------------------------------


def _fading(deals: int = 30) -> pd.DataFrame:
    """An arm whose sessions end fast (ruin): 1,000 at first, 1% left after deal 9."""
    rows = []
    for deal in range(deals):
        running = max(1000 - 110 * deal, 10)
        q = 100.0 * (1 + deal) * (3 if deal % 2 else 1)  # a handful of survivors zig-zag
        rows.append(dict(arm=UNLIMITED, deal=deal, sessions=running, q05=q / 4, q25=q / 2, q50=q, q75=2 * q,
                         q95=8 * q))  # fmt: skip
    return pd.DataFrame(rows)


def test_pot_fan_stops_where_fewer_than_2_percent_of_sessions_run():
    table = _fading()
    fig = Figure(figsize=(6, 4), layout="constrained")
    (ax,) = plots.pot_fan_chart(fig, table)
    last = int(table[table.sessions >= 0.02 * 1000].deal.max())
    assert last == 8
    (median,) = _by_gid(ax.lines, "pot-median")
    assert list(median.get_xdata()) == list(range(last + 1))  # nothing drawn from the few survivors
    (band90,) = _by_gid(ax.collections, "pot-band-90")
    assert max(v[0] for p in band90.get_paths() for v in p.vertices) <= last + 0.5
    (cut,) = _by_gid(ax.lines, "fan-cut")
    assert list(cut.get_xdata()) == [last, last]
    assert ax.get_xlim() == (0.0, 29.0)  # the running share goes on to the end
    (twin,) = [a for a in fig.axes if a is not ax]
    (running,) = _by_gid(twin.lines, "sessions-running")
    assert len(running.get_xdata()) == 30
    caption = fig.legends[0].get_title().get_text()
    assert "fewer than 2%" in caption and "stop" in caption
    _png(fig)
    # without a cut: no caption, no cut line
    fig = Figure()
    (ax,) = plots.pot_fan_chart(fig, table[table.deal <= 8])
    assert not _by_gid(ax.lines, "fan-cut") and fig.legends[0].get_title().get_text() == ""


def _overlaps(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def test_report_figures_have_legends_off_the_data_and_sensible_sizes():
    from loo_sim.report.kinds.pots import pots_figures

    arms = [f"penalty={p}, policy={q}" for p in ("limited", "unlimited") for q in ("basic", "ev")]
    fan = pd.concat([_fading().assign(arm=a) for a in arms], ignore_index=True)
    ccdf = pd.DataFrame(dict(arm=[arms[0]] * 2 + [arms[1]] * 2 + [arms[2]] * 3 + [arms[3]] * 3,
                             pot=[24, 27, 24, 27, 200, 1000, 3000, 45, 100, 700],
                             share_at_least=[1, 0.93, 1, 0.65, 1, 0.5, 0.01, 1, 0.3, 0.001]))  # fmt: skip
    bal = pd.DataFrame([r for i, a in enumerate(arms) for r in _balance_rows(a, 10.0 ** (i + 1), seats=range(5))])
    figs = pots_figures("three-card", 4, 5, {"pot_by_deal": fan, "max_pot": ccdf, "balances": bal})
    for name in ("max_pot", "balances"):
        fig = figs[name]
        png = _png(fig)
        width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
        assert 1.0 <= width / height <= 2.5, (name, width, height)  # not 2102 x 507
        ax = fig.axes[0]
        fig.draw_without_rendering()
        legend = (ax.get_legend() or fig.legends[0]).get_window_extent()
        assert not _overlaps(legend, ax.get_window_extent()), name  # the legend covers no data
    # the largest-pot axis starts near the smallest pot, not at 1 chip
    lo, hi = figs["max_pot"].axes[0].get_xlim()
    assert 10 < lo < 24 and 3000 < hi < 10_000
    # four arms: a 2 x 2 grid of fans
    assert len({round(ax.get_position().y0, 2) for ax in figs["fan"].axes[:4]}) == 2
