"""The solve summary's sentence on the solved table's NashConv (report/kinds/solve_run.py
``nashconv_verdict``): the 1%-of-the-ante-pool target judged at the upper end of the 95%
interval, and an interval wholly below zero, which no true NashConv can be, explained."""

from types import SimpleNamespace

from loo_sim.report.kinds.solve_run import nashconv_verdict


def _row(total: float, se: float, pool: float = 15.0) -> SimpleNamespace:
    return SimpleNamespace(total=total, total_se=se, share=total / pool, ante_pool=pool)


def test_below_the_target_only_when_the_upper_end_is():
    # 1% of a 15-chip pool is 0.15; 0.10 + 1.96 * 0.02 = 0.139 is below it, 0.10 + 1.96 * 0.03 = 0.159 is not
    assert ": below 1% of the ante pool (0.150)" in nashconv_verdict(_row(0.10, 0.02), None)
    assert "not shown to be below 1%" in nashconv_verdict(_row(0.10, 0.03), None)


def test_basic_is_set_beside_it_as_a_ratio_when_both_are_positive():
    line = nashconv_verdict(_row(0.01, 0.001), SimpleNamespace(total=2.5))
    assert "`basic`'s is 2.50, 250 times larger." in line
    assert "times larger" not in nashconv_verdict(_row(-0.01, 0.004), SimpleNamespace(total=2.5))


def test_an_interval_wholly_below_zero_is_explained_and_one_reaching_zero_is_not():
    # classic-limited under pimc:8: -0.020 +- 0.013 (1.96 * 0.0066), a 3-chip pool
    below = nashconv_verdict(_row(-0.020, 0.0066, pool=3.0), None)
    assert "Its interval lies below zero, where no true NashConv is" in below and "--eval-deals" in below
    assert "below zero" not in nashconv_verdict(_row(-0.012, 0.0087), None)  # -0.012 + 0.017 > 0
