"""The variants figure (plots/variants.py, report/kinds/variants.py): a table of the metrics that differ
between the rule sets, each cell a value and its paired difference from the baseline."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from loo_sim.analysis.variants import metric_label, variant_rows  # noqa: E402
from loo_sim.base.errors import LooError  # noqa: E402
from loo_sim.game.policy import parse_table  # noqa: E402
from loo_sim.game.rules import Rules  # noqa: E402
from loo_sim.plots import variants as plots  # noqa: E402
from loo_sim.run.variants import VariantRow, run_variants  # noqa: E402


def _headings(ax) -> list[str]:
    return [" ".join(t.get_text().split()) for t in ax.get_xticklabels()]


def _cell(ax, i: int, j: int) -> str:
    (text,) = [t for t in ax.texts if t.get_position() == (j, i)]
    return text.get_text()


def _table(rows: dict[str, dict[str, tuple[float, float, float]]]) -> pd.DataFrame:
    """rows: name -> metric -> (value, difference, half-width of its interval)."""
    out = []
    for name, metrics in rows.items():
        for metric, (value, diff, half) in metrics.items():
            out.append(dict(row=name, metric=metric, value=value, diff_vs_baseline=diff, diff_se=half / 1.96,
                            diff_ci_low=diff - half, diff_ci_high=diff + half, n=1000))  # fmt: skip
    return pd.DataFrame(out)


@pytest.fixture
def same_loo_rate() -> pd.DataFrame:
    """Three rule sets whose loo rate is the same on every deal, their pots and variance not."""
    return _table({
        "three-card": {"loo_rate": (0.42, 0, 0), "pot_growth": (32.0, 0, 0), "net_variance": (110.0, 0, 0),
                       "net_position_1": (-8.0, 0, 0)},
        "limited": {"loo_rate": (0.42, 0, 0), "pot_growth": (6.4, -25.6, 0.02), "net_variance": (27.0, -83.0, 0.1),
                    "net_position_1": (-1.4, 6.6, 0.01)},
        "doubled": {"loo_rate": (0.42, 0, 0), "pot_growth": (64.0, 32.0, 0.05), "net_variance": (110.0, 0.0, 0.3),
                    "net_position_1": (-8.0, 0, 0)},
    })  # fmt: skip


def test_the_columns_are_the_metrics_that_differ_not_the_loo_rate_that_does_not(same_loo_rate):
    ax = Figure(figsize=(8, 4)).add_subplot()
    plots.variant_table(ax, same_loo_rate, "three-card")
    # the loo rate is the same in every row: no column; the positions' net chips stay in the CSV
    assert _headings(ax) == [metric_label("pot_growth"), metric_label("net_variance")]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["three-card\n(baseline)", "limited", "doubled"]
    assert _cell(ax, 0, 0) == "32\nbaseline"
    assert _cell(ax, 1, 0) == "6.4\n-25.6"
    assert _cell(ax, 2, 1) == "110\n0?"  # a paired difference of 0 whose interval includes 0
    # the colour: (value - baseline) / (|value| + |baseline|), so twice the baseline is a third of full red
    (image,) = [im for im in ax.images if im.get_gid() == plots.GID_VARIANT_CELLS]
    colours = np.asarray(image.get_array())
    assert colours[2, 0] == pytest.approx(1 / 3) and colours[0, 0] == 0.0
    assert colours[1, 1] == pytest.approx((27 - 110) / (27 + 110))


def test_same_on_every_deal_and_nothing_differs(same_loo_rate):
    ax = Figure().add_subplot()
    plots.variant_table(ax, same_loo_rate, "three-card", ["loo_rate"], unit="session")
    assert _cell(ax, 1, 0) == "0.42\nsame in every session"  # difference 0 with standard error 0
    # when no headline metric differs, the loo rate alone
    flat = same_loo_rate[same_loo_rate.metric == "loo_rate"]
    ax = Figure().add_subplot()
    plots.variant_table(ax, flat, "three-card")
    assert _headings(ax) == [metric_label("loo_rate")]


def test_bad_input(same_loo_rate):
    ax = Figure().add_subplot()
    with pytest.raises(LooError, match="no row 'irish'"):
        plots.variant_table(ax, same_loo_rate, "irish")
    with pytest.raises(LooError, match="no metric 'mean_pot'"):
        plots.variant_table(ax, same_loo_rate, "three-card", ["mean_pot"])
    with pytest.raises(LooError, match="diff_se"):
        plots.variant_table(ax, same_loo_rate.drop(columns="diff_se"), "three-card")


def _row(name: str, preset: str) -> VariantRow:
    rules = Rules.preset(preset)
    return VariantRow(name, rules, parse_table("basic", rules.players))


def test_the_report_figure_names_what_it_compares_on_a_real_run(tmp_path):
    """limited pays a loo less than three-card on the same deals, so its loo rate is the same
    on every deal and its pot growth is not; five-card deals other hands, so its loo rate differs."""
    from loo_sim.report.kinds.variants import variants_figures
    from loo_sim.report.outputs import save_png

    rows = [_row("three-card", "three-card"), _row("limited", "limited"), _row("five-card", "five-card")]
    table = variant_rows(run_variants(rows, "three-card", 3000, 11, threads=2))
    fig = variants_figures(table, "three-card", "policy basic at every seat")["variants"]
    (ax,) = fig.axes
    headings = _headings(ax)
    assert metric_label("loo_rate") in headings and metric_label("pot_growth") in headings
    assert not any("_" in h for h in headings)  # labels, not column names
    loo, growth = headings.index(metric_label("loo_rate")), headings.index(metric_label("pot_growth"))
    assert _cell(ax, 1, loo).endswith("same in every deal")
    assert not _cell(ax, 1, growth).endswith("same in every deal") and "?" not in _cell(ax, 1, growth)
    title = fig.get_suptitle().replace("\n", " ")
    assert "against three-card" in title and "the same 3,000 deals" in title
    assert "paired difference from three-card" in fig.get_supxlabel().replace("\n", " ")
    save_png(fig, tmp_path / "variants.png")
    assert (tmp_path / "variants.png").read_bytes().startswith(b"\x89PNG")
