"""The variants study plays every rule set on the same deals and pairs its differences
deal by deal: each row is exactly a ``simulate`` run of that row, the pairing agrees
with the reference engine on the same decks, identical rows differ by exactly 0, and on
rules whose deals differ only in what a loo pays the paired SE is what R3 says it is."""

from __future__ import annotations

import math

import numpy as np
import pytest

import loo_sim
from loo_sim.analysis.variants import metrics, variant_rows
from loo_sim.analysis.variants_text import variants_summary
from loo_sim.base.config import VARIANT_BATCHES
from loo_sim.base.rng import shuffled_deck
from loo_sim.game.policy import parse_table
from loo_sim.game.rules import Rules
from loo_sim.run.simulate import simulate
from loo_sim.run.variants import VariantRow, run_variants

SEED = 11
DEALS = 9000  # two whole kernel blocks and part of a third


def _row(name: str, preset: str, policy: str = "basic", **options) -> VariantRow:
    rules = Rules.preset(preset, **options)
    return VariantRow(name, rules, parse_table(policy, rules.players))


def _by(table, row: str, metric: str):
    hit = table[(table.row == row) & (table.metric == metric)]
    assert len(hit) == 1, (row, metric)
    return hit.iloc[0]


@pytest.fixture(scope="module")
def mixed():
    """Rows that differ in everything the driver must handle: the deck prefix a deal needs
    (five-card; a stock for irish-classic's exchange: all 52 cards), the number of players
    (so the dealer of deal k differs: k mod 4, k mod 6) and the seats' own streams (random play)."""
    rows = [
        _row("three-card", "three-card"),
        _row("five-card", "five-card"),
        _row("irish-classic", "irish-classic"),
        _row("limited-4", "limited", players=4),
        _row("random-6", "three-card", "basic/random", players=6),
    ]
    return rows, run_variants(rows, "three-card", DEALS, SEED, threads=2)


def test_each_row_is_exactly_a_simulate_run_of_that_row(mixed):
    """Deal k of every row is deal k of ``simulate`` with the same seed (same deck, dealer
    k mod players, same seat streams), so the aggregates agree bit for bit, batches too."""
    rows, res = mixed
    table = variant_rows(res)
    for row, got in zip(rows, res.results, strict=True):
        alone = simulate(row.rules, row.policies, DEALS, SEED, threads=2, batches=VARIANT_BATCHES)
        assert np.array_equal(got.totals, alone.totals), row.name
        assert np.array_equal(got.batches, alone.batches), row.name
        for m in metrics(alone):
            r = _by(table, row.name, m["metric"])
            assert (r.value, r.se) == (m["value"], m["se"]) or (math.isnan(r.se) and math.isnan(m["se"]))


def _reference_values(row: VariantRow, deals: int, seed: int) -> np.ndarray:
    """Per deal: looed seats / players, contested (two or more seats in), pot growth and
    net chips at positions 1..8 in columns 4..11 (0 where the table has no such seat), from the reference engine."""
    n = row.rules.players
    decks = [shuffled_deck(seed, k) for k in range(deals)]
    recs = loo_sim.play_deals(row.rules, decks, dealers=[k % n for k in range(deals)], policy=row.policies,
                              engine="reference", seed=seed)  # fmt: skip
    out = np.zeros((deals, 3 + 9))
    for k, rec in enumerate(recs):
        dealer = k % n
        out[k, 0] = len(rec.looed) / n  # the seats looed
        out[k, 1] = sum(d != "pass" for d in rec.declarations) >= 2
        out[k, 2] = rec.pot_next
        for s, net in enumerate(rec.net()):
            out[k, 3 + (s - dealer if s > dealer else s - dealer + n)] = net
    return out


def test_the_kernel_pairing_agrees_with_the_reference_engine_on_the_same_decks():
    """A few hundred deals replayed one by one by the reference engine from
    ``shuffled_deck(seed, k)``: every row's means and every paired difference with its SE."""
    deals = 300
    rows = [
        _row("three-card", "three-card"),
        _row("limited", "limited"),
        _row("five-card", "five-card"),
        _row("random-4", "limited", "basic/random", players=4),
    ]
    table = variant_rows(run_variants(rows, "three-card", deals, SEED, threads=2))
    ref = {row.name: _reference_values(row, deals, SEED) for row in rows}
    columns = {"loo_rate": 0, "contested_share": 1, "pot_growth": 2}
    columns.update({f"net_position_{p}": 3 + p for p in range(1, 9)})
    for row in rows:
        seats = min(row.rules.players, 5)  # positions both this row and the baseline (5 players) have
        for metric, j in columns.items():
            if metric.startswith("net_position_") and int(metric[-1]) > seats:
                continue
            r = _by(table, row.name, metric)
            d = ref[row.name][:, j] - ref["three-card"][:, j]
            assert r.value == pytest.approx(ref[row.name][:, j].mean(), abs=1e-12)
            assert r.diff_vs_baseline == pytest.approx(d.mean(), abs=1e-12)
            assert r.diff_se == pytest.approx(d.std(ddof=1) / math.sqrt(deals), abs=1e-12)


def test_identical_rows_differ_by_exactly_zero():
    """The same rules twice play the same deals identically, so every difference is 0 on
    every deal: exactly 0 with SE 0 and interval [0, 0] (separate runs would give an SE;
    the table shows it as ``unpaired_se``). So is the loo rate of limited against unlimited
    (P2: ``basic`` never reads the penalty; with a clean pot both loo the same seats)."""
    rows = [_row("three-card", "three-card"), _row("again", "three-card"), _row("limited", "limited")]
    table = variant_rows(run_variants(rows, "three-card", DEALS, SEED, threads=2))
    again = table[table.row == "again"]
    assert len(again) == 9
    for r in again.itertuples(index=False):
        assert (r.diff_vs_baseline, r.diff_se, r.diff_ci_low, r.diff_ci_high) == (0.0, 0.0, 0.0, 0.0), r.metric
        assert r.unpaired_se > 0, r.metric
    for metric in ("loo_rate", "contested_share"):
        r = _by(table, "limited", metric)
        assert (r.diff_vs_baseline, r.diff_se, r.diff_ci_low, r.diff_ci_high) == (0.0, 0.0, 0.0, 0.0)
    text = variants_summary(table, "three-card", SEED, 0.0)
    assert "unpaired (separate runs)" not in text and "paired" in text
    assert "- again: 0.4" in text and "against three-card exactly 0" in text
    assert f"the same {DEALS:,} deals" in text


def test_paired_se_of_pot_growth_under_the_limited_penalty_follows_from_r3():
    """Clean pot of 15 (5 players ante 3): under the unlimited penalty a looed seat pays 15,
    under the limited one 3, and the same seats are looed on every deal, so the pot grows
    by exactly 12 x (looed seats) less with limited, deal by deal. Its paired SE is therefore
    12 x the SE of looed seats per deal (60 x the loo rate's), well below the SE of two separate runs."""
    rows = [_row("unlimited", "three-card"), _row("limited", "limited")]
    table = variant_rows(run_variants(rows, "unlimited", DEALS, SEED, threads=2))
    growth, loo = _by(table, "limited", "pot_growth"), _by(table, "unlimited", "loo_rate")
    assert growth.diff_vs_baseline == pytest.approx(-12 * 5 * loo.value, rel=1e-12)
    assert growth.diff_se == pytest.approx(12 * 5 * loo.se, rel=1e-9)
    assert growth.diff_se < 0.9 * growth.unpaired_se
    base = _by(table, "unlimited", "pot_growth")
    assert growth.unpaired_se == pytest.approx(math.hypot(growth.se, base.se))
