"""The risk curve (plots/risk.py): the 1% and 5% lines labelled, the policies named with the
bankroll each risk needs, and the x axis cut where the curves have flattened."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from loo_sim.plots import risk as plots  # noqa: E402

GRID = 3.0 * 1.12 ** np.arange(90)  # 3 to about 80,000 chips, as run.risk's grid steps


def _curve(zero_at: dict[str, float]) -> pd.DataFrame:
    """Risk falling linearly in log(bankroll) from 0.9 at 3 chips toward 0 at ``zero_at[arm]``;
    below 2% no session of the sample is ruined (0), as in a run of a few thousand sessions."""
    rows = []
    for arm, end in zero_at.items():
        risk = 0.9 * np.log(end / GRID) / np.log(end / 3.0)
        risk = np.where(risk < 0.02, 0.0, risk)
        rows += [dict(arm=arm, bankroll=b, risk=r, ci_low=max(r - 0.01, 0.0), ci_high=r + 0.01, sessions=4000)
                 for b, r in zip(GRID, risk)]  # fmt: skip
    return pd.DataFrame(rows)


def _need(curve: pd.DataFrame) -> pd.DataFrame:
    """The smallest bankroll of the grid whose risk is at most each target (analysis.risk's rule)."""
    return pd.DataFrame([dict(arm=arm, risk=t, bankroll=rows[rows.risk <= t].bankroll.min())
                         for arm, rows in curve.groupby("arm", sort=False) for t in (0.01, 0.05)])  # fmt: skip


def _draw(curve, need=None, labels=None):
    ax = Figure(figsize=(8, 4.5), layout="constrained").add_subplot()
    return plots.risk_curve_plot(ax, curve, need, labels, title="risk")


def test_the_one_and_five_percent_lines_are_drawn_and_labelled():
    ax = _draw(_curve({"policy": 150.0, "basic": 300.0}))
    lines = [line for line in ax.lines if line.get_gid() == plots.GID_RISK_LINE]
    assert sorted(line.get_ydata()[0] for line in lines) == [0.01, 0.05]
    labels = {t.get_text(): t.xy[1] for t in ax.texts}
    assert labels == {"1% risk": 0.01, "5% risk": 0.05}


def test_the_legend_names_the_policies_and_the_bankroll_each_risk_needs():
    curve = _curve({"policy": 150.0, "basic": 300.0})
    need = _need(curve)
    ax = _draw(curve, need, {"policy": "ev at seat 0", "basic": "basic at seat 0, same decks"})
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    five, one = (need[(need.arm == "policy") & (need.risk == r)].bankroll.iloc[0] for r in (0.05, 0.01))
    assert texts[0] == f"ev at seat 0: 5% risk at {five:,.0f}, 1% at {one:,.0f} chips"
    assert texts[1].startswith("basic at seat 0, same decks: 5% risk at ")
    marks = [line for line in ax.lines if line.get_gid() == plots.GID_RISK_NEED]
    assert list(marks[0].get_xdata()) == [one, five] and list(marks[0].get_ydata()) == [0.01, 0.05]
    # without names the table's arms are in the legend
    assert [t.get_text() for t in _draw(curve).get_legend().get_texts()] == ["policy", "basic"]


def test_the_x_axis_ends_where_the_curves_have_flattened():
    curve = _curve({"policy": 150.0, "basic": 300.0})
    ax = _draw(curve)
    # where the later of the two curves reaches 0 (and stays there), read off the table
    flat = max(rows[rows.risk == 0].bankroll.min() for _, rows in curve.groupby("arm"))
    assert 250 < flat < 300
    assert ax.get_xlim() == pytest.approx((3.0, 1.5 * flat))
    assert ax.get_xlim()[1] < 0.01 * GRID.max()  # not the grid's 80,000 chips of flat zero
    # a curve still falling at the grid's end: the whole grid
    ax = _draw(_curve({"policy": 150.0, "basic": 1e6}))
    assert ax.get_xlim()[1] == pytest.approx(GRID.max())


def test_the_cut_reads_the_committed_report():
    """On reports/risk: both curves are 0 from the bankroll the CSV says, the axis ends 1.5 times beyond."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "reports/risk/limited-5-ev/risk_curve.csv"
    curve = pd.read_csv(path)
    zero = max(rows[rows.risk <= plots.FLAT_TOLERANCE].bankroll.min() for _, rows in curve.groupby("arm"))
    assert _draw(curve).get_xlim()[1] == pytest.approx(1.5 * zero)
