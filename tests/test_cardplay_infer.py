"""What the inference adds in the card-play ladder (``loo-sim cardplay`` with a
``pimc:N:infer`` entrant): its paired difference from ``pimc:N`` of the same N (infer.csv)
against the reference engine's per-deal records, the same player twice at exactly 0, and
the summary's sentences against the CSV."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from loo_sim.analysis.cardplay import ALL, infer_sentences, infer_table
from loo_sim.base.rng import seat_streams, shuffled_deck
from loo_sim.cli import main
from loo_sim.engine.deal import play_deal_reference
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules
from loo_sim.run.ladder import infer_pairs, run_ladder, with_play

BASIC = Policy.parse("basic")


def test_infer_pairs_are_each_infer_entrant_with_its_pimc_of_the_same_n():
    entrants = [with_play(BASIC, t) for t in ("basic", "pimc:8", "pimc:8:infer", "pimc:32:infer=cautious", "perfect")]
    pairs = infer_pairs(entrants)
    assert [(e, str(ref)) for e, ref in pairs] == [(2, "basic/pimc:8/basic"), (3, "basic/pimc:32/basic")]
    assert pairs[0][1] == entrants[1]  # the reference is the plain pimc:8 entrant itself


def _paired_by_reference_engine(rules: Rules, table, pair, deals: int, seed: int) -> np.ndarray:
    """diff[k, p]: the second policy's net chips minus the first's at position p (0: the
    mean over the positions) on deal k, each deal played by the reference engine."""
    n = rules.players
    diff = np.zeros((deals, n + 1))
    for k in range(deals):
        deck, dealer = shuffled_deck(seed, k), k % n
        for p in range(1, n + 1):
            s = (dealer + p) % n
            nets = []
            for policy in pair:
                seats = list(table)
                seats[s] = policy
                rec = play_deal_reference(rules, deck, dealer, 0.0, seats, seat_streams(seed, k, seats))
                nets.append(rec.net()[s])
            diff[k, p] = nets[1] - nets[0]
        diff[k, 0] = diff[k, 1:].mean()
    return diff


def test_the_paired_difference_is_the_mean_of_the_reference_engines_per_deal_differences():
    rules = Rules.preset("three-card", players=3)
    table = [BASIC] * 3
    pair = [with_play(BASIC, "pimc:4"), with_play(BASIC, "pimc:4:infer")]
    deals, seed = 60, 9
    res = run_ladder(rules, table, pair, ["pimc:4", "pimc:4:infer"], deals=deals, seed=seed)
    got = infer_table(res, "A")
    diff = _paired_by_reference_engine(rules, table, pair, deals, seed)
    assert list(got.position.astype(str)) == [ALL, "1", "2", "3"]
    assert (got.reference == "pimc:4").all() and (got.entrant == "pimc:4:infer").all()
    mean, se = diff.mean(axis=0), diff.std(axis=0, ddof=1) / np.sqrt(deals)
    np.testing.assert_allclose(got.diff_vs_reference, mean, atol=1e-9)
    np.testing.assert_allclose(got.diff_se, se, rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(got.diff_ci_low, mean - 1.959963984540054 * se, rtol=1e-6, atol=1e-9)
    assert (diff != 0).any(), "the two draws never led to different play: the check above proves little"


def test_the_same_player_twice_differs_by_exactly_zero():
    rules = Rules.preset("three-card", players=4)
    same = [with_play(BASIC, "pimc:8"), with_play(BASIC, "pimc:8")]
    res = run_ladder(rules, [BASIC] * 4, same, ["pimc:8", "pimc:8 again"], deals=300, seed=2)
    got = infer_table(res, "B")
    assert (got.diff_vs_reference == 0).all() and (got.diff_se == 0).all() and (got.loo_diff == 0).all()
    assert (got.chips_per_deal == got.reference_chips_per_deal).all()
    text = "\n".join(infer_sentences(got))
    assert "`pimc:8 again` minus `pimc:8` on the same deals: exactly 0 on every deal" in text
    zero = "(+0.000 [+0.000, +0.000])"
    assert f"is exactly 0 at positions 1 {zero}, 2 {zero}, 3 {zero}, 4 {zero}." in text
    assert "ahead" not in text and "behind" not in text and "not significant" not in text


def _row(position, d, lo, hi, se=0.1):
    return dict(ladder="A", entrant="pimc:8:infer", reference="pimc:8", position=position, diff_vs_reference=d,
                diff_se=se, diff_ci_low=lo, diff_ci_high=hi)  # fmt: skip


def test_infer_sentences_say_only_what_the_intervals_allow():
    rows = [_row(ALL, 0.02, -0.01, 0.05), _row(1, -0.2, -0.3, -0.1), _row(2, 0.15, 0.05, 0.25), _row(3, 0.0, -0.1, 0.1),
            _row(4, 0.2, 0.1, 0.3)]  # fmt: skip
    text = "\n".join(infer_sentences(pd.DataFrame(rows)))
    assert "+0.020 chips per deal [-0.010, +0.050], not significant (the interval includes 0)" in text
    assert "ahead at positions 2 (+0.150 [+0.050, +0.250]), 4 (+0.200 [+0.100, +0.300])" in text
    assert "behind at position 1 (-0.200 [-0.300, -0.100])" in text
    assert "not significant at position 3 (+0.000 [-0.100, +0.100])" in text
    assert "ahead by" not in text.split("\n")[0]


def test_command_writes_infer_csv_and_its_sentences_agree_with_it(tmp_path):
    out = tmp_path / "ladder"
    args = ["--players", "3", "--entrants", "basic,pimc:4,pimc:4:infer", "--whole-table", "low", "--deals", "400"]
    assert main(["cardplay", *args, "--seed", "5", "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["infer.csv", "ladder.csv", "ladder.png", "run.json",
                                                     "summary.md"]  # fmt: skip
    infer = pd.read_csv(out / "infer.csv", dtype={"position": str})
    ladder = pd.read_csv(out / "ladder.csv", dtype={"position": str})
    assert list(infer.ladder.unique()) == ["A", "B"] and len(infer) == 2 * 4
    summary = (out / "summary.md").read_text()
    for r in infer.itertuples():
        section = summary.split(f"## Ladder {r.ladder}")[1].split("## Ladder")[0]
        numbers = f"{r.diff_vs_reference:+.3f} [{r.diff_ci_low:+.3f}, {r.diff_ci_high:+.3f}]"
        if r.position == ALL:
            line = next(x for x in section.splitlines() if x.startswith("`pimc:4:infer` minus `pimc:4`"))
            assert numbers.replace(" [", " chips per deal [") in line
            assert ("not significant" in line) == (r.diff_ci_low <= 0 <= r.diff_ci_high)
            continue
        line = next(x for x in section.splitlines() if x.startswith("By position (1: the eldest"))
        verdict = "ahead" if r.diff_ci_low > 0 else "behind" if r.diff_ci_high < 0 else "not significant"
        said = re.search(rf"({verdict}) at positions? [^;]*\b{r.position} \({re.escape(numbers)}\)", line)
        assert said, (line, r.position, verdict)
        # the pair ladder plays the same deals as the whole ladder: the same mean difference
        both = ladder[(ladder.ladder == r.ladder) & (ladder.position == r.position)].set_index("entrant")
        whole = both.chips_per_deal["pimc:4:infer"] - both.chips_per_deal["pimc:4"]
        assert r.diff_vs_reference == pytest.approx(whole, abs=1e-9)
