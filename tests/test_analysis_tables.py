"""The checks every analysis and plotting table goes through (``analysis/_tables.py``) and
the number formatting of the summaries (``analysis/text.py``): each bad table is one
LooError naming the table and the column; numbers print at the precision a reader needs."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from loo_sim.analysis._tables import numeric, require
from loo_sim.analysis.text import chips_text, per_deal_ci, percent, prose_number
from loo_sim.base.errors import LooError

TABLE = pd.DataFrame({"reach": [0.0, 0.5, 1.0], "p_play": ["0.25", "1", "0"]})


def test_require_names_the_missing_columns_and_what_an_empty_table_leaves_undone():
    require(TABLE, ["reach"], "strategy", "describe")
    with pytest.raises(LooError, match=r"strategy table lacks column\(s\) p_miss, hand; it has reach, p_play"):
        require(TABLE, ["reach", "p_miss", "hand"], "strategy", "describe")
    with pytest.raises(LooError, match="convergence table is empty; nothing to plot"):
        require(TABLE.iloc[:0], ["reach"], "convergence", "plot")


def test_numeric_reads_text_numbers_and_refuses_what_is_not_a_finite_number():
    assert numeric(TABLE, "p_play", "strategy", unit=True).tolist() == [0.25, 1.0, 0.0]
    with pytest.raises(LooError, match="column p_play is not numeric"):
        numeric(TABLE.assign(p_play=["x", "1", "0"]), "p_play", "strategy")
    with pytest.raises(LooError, match="column reach has missing or infinite values"):
        numeric(TABLE.assign(reach=[0.0, np.inf, 1.0]), "reach", "strategy")
    negative = TABLE.assign(reach=[0.0, -0.5, 1.0])
    assert numeric(negative, "reach", "strategy")[1] == -0.5  # allowed unless asked
    with pytest.raises(LooError, match=r"column reach has negative values \(min -0.5\)"):
        numeric(negative, "reach", "strategy", nonnegative=True)
    with pytest.raises(LooError, match=r"column p_play has values above 1 \(max 1.5\)"):
        numeric(TABLE.assign(p_play=[0.2, 1.5, 0.0]), "p_play", "strategy", unit=True)
    assert numeric(TABLE.assign(p_play=[0.2, 1 + 1e-12, 0.0]), "p_play", "strategy", unit=True)[1] > 1  # rounding


def test_shares_never_print_as_0_or_100_percent_unless_they_are():
    assert [percent(x) for x in (0, 1, 0.0004, 0.9996, 0.004, 0.995, 0.62)] == [
        "0%", "100%", "under 0.1%", "over 99.9%", "0.4%", "99.5%", "62%",
    ]  # fmt: skip


def test_chips_and_prose_numbers():
    assert [chips_text(x) for x in (21, 1520, 3.4e12, 2.5, math.nan)] == ["21", "1,520", "3.4e+12", "2.50", "n/a"]
    assert [prose_number(x) for x in (1234.5, 0.012345, 2.5e7)] == ["1,234", "0.01235", "2.5e+07"]
    # a mean of 1 with SE 0.5: 1 +- 1.96 * 0.5
    assert per_deal_ci(1.0, 0.5) == "+1.00 chips per deal, 95% CI [+0.02, +1.98]"
