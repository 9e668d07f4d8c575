"""The Python API an analyst uses: the guide's snippet (docs/python-api.md) runs as written; ``play_deals``
takes arrays of decks, returns records built when read (``DealRecords``) or a DataFrame
(``as_frame``, ``records_frame``: one row per deal and seat) that agrees with the
records field by field and with the reference engine's; ``shuffled_decks`` is
``rng.shuffled_deck`` in bulk."""

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numba import get_num_threads, set_num_threads

from loo_sim import LooError, Rules, play_deals, records_frame, shuffled_decks
from loo_sim.base.rng import HEURISTIC_SESSION, shuffled_deck
from loo_sim.game.cards import card_str
from loo_sim.run.records import DealRecords

API_PAGE = Path(__file__).resolve().parents[1] / "docs" / "python-api.md"
MIX = ["basic", "cautious/random", "always/low", "nothing-takes-miss/high", "basic/random"]


def readme_python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", API_PAGE.read_text(), re.S)


def test_the_readme_python_snippet_runs_as_written(capsys):
    # it used a `deck` and `decks` it never made (and `dealers=[...]`), so it could not run
    blocks = readme_python_blocks()
    assert blocks and "shuffled_deck" in blocks[0]
    for code in blocks:
        exec(compile(code, str(API_PAGE), "exec"), {"__name__": "readme"})
    assert "position" in capsys.readouterr().out


def batch(n=600, seed=5):
    rules = Rules.preset("three-card")
    decks = shuffled_decks(seed, n)
    dealers = np.arange(n) % rules.players
    carried = np.where(np.arange(n) % 3 == 0, 0.0, 15.0 * (np.arange(n) % 4))
    return rules, decks, dealers, carried


def test_shuffled_decks_are_the_decks_of_shuffled_deck():
    decks = shuffled_decks(7, 50, first=1000)
    assert decks.shape == (50, 52) and decks.dtype == np.int64
    assert all(decks[i].tolist() == shuffled_deck(7, 1000 + i) for i in range(50))
    other = shuffled_decks(7, 3, session=HEURISTIC_SESSION)
    assert all(other[i].tolist() == shuffled_deck(7, i, HEURISTIC_SESSION) for i in range(3))
    assert shuffled_decks(7, 0).shape == (0, 52)


def test_the_frame_has_one_row_per_deal_and_seat_with_the_records_fields():
    rules, decks, dealers, carried = batch()
    recs = play_deals(rules, decks, dealers, carried, MIX, seed=3, first_index=40)
    df = play_deals(rules, decks, dealers, carried, MIX, seed=3, first_index=40, as_frame=True)
    n = rules.players
    assert len(df) == len(decks) * n and list(df.columns)[:4] == ["deal", "seat", "dealer", "position"]
    assert df.deal.iloc[0] == 40 and df.deal.iloc[-1] == 40 + len(decks) - 1
    for i in (0, 1, 2, 7, 333, len(decks) - 1):
        rec = recs[i]
        rows = df[df.deal == 40 + i].reset_index(drop=True)
        assert rows.seat.tolist() == list(range(n)) and (rows.dealer == dealers[i]).all()
        # position: 1 = the dealer's left, n = the dealer (positions.csv, P5)
        assert rows.position.tolist() == [(s - dealers[i]) % n or n for s in range(n)]
        assert rows.declaration.astype(str).tolist() == rec.declarations
        assert rows.tricks_won.tolist() == rec.tricks_won
        assert rows.looed.tolist() == [s in rec.looed for s in range(n)]
        assert rows.share.tolist() == rec.shares and rows.ante.tolist() == rec.antes
        assert rows.penalty.tolist() == rec.penalties and rows.net.tolist() == rec.net()
        assert (rows.trump == rec.trump).all() if rec.trump else rows.trump.isna().all()
        indicator = None if rec.indicator is None else card_str(rec.indicator)
        assert (rows.indicator == indicator).all() if indicator else rows.indicator.isna().all()
        assert (rows.single_pot == rec.single_pot).all()
        assert (rows.pot_start == rec.pot_start).all() and (rows.pot_next == rec.pot_next).all()
        flush = rows.flush_winner
        assert flush.isna().all() if rec.flush_winner is None else (flush == rec.flush_winner).all()
    # chips are conserved in each deal: what the seats net plus the pot carried on is what was carried in
    per_deal = df.groupby("deal").agg(net=("net", "sum"), nxt=("pot_next", "first"))
    assert np.allclose(per_deal.net + per_deal.nxt, carried)
    assert records_frame(recs).equals(df) and recs.frame().equals(df)


def test_kernel_and_reference_frames_are_equal():
    rules, decks, dealers, carried = batch(300, seed=8)
    five = Rules.preset("five-card")  # flushes, exchanges, trumps unknown for a while
    for r in (rules, five):
        kernel = play_deals(r, decks, dealers, carried, MIX, seed=2, as_frame=True)
        reference = play_deals(r, decks, dealers, carried, MIX, seed=2, engine="reference", as_frame=True)
        pd.testing.assert_frame_equal(kernel, reference)
        assert records_frame(play_deals(r, decks[:5], engine="reference")).columns[2] == "dealer"  # from the traces
    no_dealers = records_frame(list(play_deals(rules, decks[:4])))
    assert "dealer" not in no_dealers and "position" not in no_dealers and len(no_dealers) == 4 * rules.players
    assert len(records_frame([])) == 0


def test_kernel_records_are_built_when_read_and_behave_like_a_list(monkeypatch):
    import loo_sim.run.records as records

    rules, decks, dealers, carried = batch(200)
    built = []
    real = records.record_from_arrays
    monkeypatch.setattr(records, "record_from_arrays", lambda *a: built.append(1) or real(*a))
    recs = play_deals(rules, decks, dealers, carried, MIX, seed=1)
    assert isinstance(recs, DealRecords) and len(recs) == 200 and built == []  # nothing built yet
    ref = play_deals(rules, decks, dealers, carried, MIX, seed=1, engine="reference")
    assert recs == ref and ref == list(recs) and recs[-1] == ref[-1] and recs[3:9] == ref[3:9]
    assert recs[3:9].deals.tolist() == list(range(3, 9)) and recs != ref[:-1]
    with pytest.raises(IndexError):
        recs[200]
    assert "200 deals" in repr(recs)


def test_records_do_not_depend_on_the_threads():
    rules, decks, dealers, carried = batch(3 * 4096 + 17)  # several parallel blocks and a short one
    before = get_num_threads()
    try:
        set_num_threads(1)
        one = play_deals(rules, decks, dealers, carried, MIX, seed=4, as_frame=True)
        set_num_threads(before)
        many = play_deals(rules, decks, dealers, carried, MIX, seed=4, as_frame=True)
    finally:
        set_num_threads(before)
    pd.testing.assert_frame_equal(one, many)


def test_decks_as_arrays_lists_or_text_give_the_same_records_and_the_same_errors():
    rules, decks, dealers, _ = batch(20)
    arr = play_deals(rules, decks, dealers)
    assert arr == play_deals(rules, decks.tolist(), dealers.tolist())
    assert arr == play_deals(rules, [" ".join(card_str(c) for c in d) for d in decks], list(dealers))
    before = decks.copy()
    play_deals(rules, decks, dealers)
    assert np.array_equal(decks, before)  # the caller's array is not touched
    bad = decks.copy()
    bad[3, 10] = bad[3, 11]
    dup = card_str(int(bad[3, 10]))
    with pytest.raises(LooError, match=f"duplicate card {dup} in the deck"):
        play_deals(rules, bad)
    bad[3, 10] = 52
    with pytest.raises(LooError, match="unknown card number 52"):
        play_deals(rules, bad)
    with pytest.raises(LooError, match="a deck must hold 52 cards, got 51"):
        play_deals(rules, decks[:, :51])
    with pytest.raises(LooError, match="dealer: seat 5 does not exist; allowed 0..4"):
        play_deals(rules, decks, dealers + 1)
    with pytest.raises(LooError, match="carried: -1.0 is not allowed"):
        play_deals(rules, decks, dealers, np.full(20, -1.0))
    with pytest.raises(LooError, match="20 decks but 19 dealers"):
        play_deals(rules, decks, dealers[:19])
