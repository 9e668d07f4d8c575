"""The equilibrium in words (analysis/equilibrium_text.py): sentences checked against
synthetic strategy tables whose answers are worked out by hand in the comments."""

import math

import pandas as pd
import pytest

from loo_sim.analysis.equilibrium_text import distance_sentences, table_distance, tip_sentences
from loo_sim.base.errors import LooError
from loo_sim.game.classes import class_label

NO_TRUMP_LOW, NO_TRUMP_TJ, NO_TRUMP_Q = 6, 7, 8  # row "no trump" (1) x columns <=9, T-J, Q
UNKNOWN_LOW = 60  # row "trumps unknown, no ace" (10) x column <=9


def row(cls, pos, options, pass_=0.0, play=0.0, miss=0.0, defend=0.0, reach=1.0, earlier=0, pot="pot <= 1 penalty"):
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
def miss_taken() -> pd.DataFrame:
    return pd.DataFrame(
        [
            row(NO_TRUMP_LOW, 1, "play/pass/miss", miss=0.8, play=0.2, reach=3),
            row(NO_TRUMP_TJ, 2, "play/pass/miss", miss=0.2, play=0.2, pass_=0.6, reach=1),
            row(NO_TRUMP_Q, 1, "play/pass/miss", play=1.0, reach=10),  # not "nothing": a queen
            row(NO_TRUMP_LOW, 3, "play/pass", pass_=1.0, reach=5),  # nothing, but no miss on offer
            row(0, 4, "play/defend", play=1.0, reach=2),  # pass not on offer
        ]
    )


def test_the_miss_tip_with_the_shares_worked_out(miss_taken):
    miss_tip = tip_sentences(miss_taken, rules_has_miss=True)[0]
    # miss (3*.8 + .2)/4 = 65%, play (3*.2 + .2)/4 = 20%, pass .6/4 = 15%
    assert "takes the miss in 65% of such decisions (reach-weighted), plays in 20%, passes in 15%" in miss_tip
    assert "no trump, best plain card T-J or lower" in miss_tip
    assert "The tip holds" in miss_tip


def test_the_pass_tip_with_the_shares_worked_out(miss_taken):
    pass_tip = tip_sentences(miss_taken, rules_has_miss=True)[1]
    # pass on offer: reach 3 (0), 1 (.6), 10 (0), 5 (1) -> 5.6/19 = 29.5%; nothing: 5.6/9 = 62.2%;
    # nothing without the miss on offer: the one row, 100%
    assert "passes in 29% of decisions (reach-weighted)" in pass_tip
    assert "with nothing (no trump, best plain card T-J or lower) it passes in 62%" in pass_tip
    assert "and in 100% of those where the miss is not on offer" in pass_tip


def test_one_pot_bucket_means_the_pot_never_changes_the_decision(miss_taken):
    pot_tip = tip_sentences(miss_taken, rules_has_miss=True)[2]
    assert '"pot <= 1 penalty"' in pot_tip and "never changes the decision" in pot_tip


def test_a_table_that_never_takes_the_miss_contradicts_the_tip():
    table = pd.DataFrame(
        [
            row(NO_TRUMP_LOW, 1, "play/pass/miss", play=0.5, pass_=0.5, reach=1),
            row(UNKNOWN_LOW, 2, "play/miss", play=1.0, reach=1),
        ]
    )
    text = tip_sentences(table, rules_has_miss=True)[0]
    # play (.5 + 1)/2 = 75%, pass .5/2 = 25%
    assert "never takes the miss: it plays in 75%, passes in 25%" in text
    assert "contradicted" in text
    assert "trumps unknown, no ace" in text  # the unknown-trumps row is named when present
    assert "takes the miss in" not in text


def test_a_table_that_mostly_plays_with_nothing_says_the_tip_fails():
    table = pd.DataFrame([row(NO_TRUMP_TJ, 1, "play/miss", miss=0.3, play=0.7, reach=2)])
    text = tip_sentences(table, rules_has_miss=True)[0]
    assert "takes the miss in 30%" in text and "plays in 70%" in text and "passes in 0%" in text
    assert "does not hold" in text and "plays more often" in text


def test_without_a_miss_the_tip_does_not_apply_and_unreached_sets_are_no_evidence(miss_taken):
    assert "no miss under these rules" in tip_sentences(miss_taken, rules_has_miss=False)[0]
    unreached = pd.DataFrame([row(NO_TRUMP_LOW, 1, "play/pass/miss", miss=1.0, reach=0.0)])
    text = tip_sentences(unreached, rules_has_miss=True)[0]
    assert "no reached decision" in text and "%" not in text


def test_pot_buckets_compare_the_same_class_and_position():
    table = pd.DataFrame(
        [
            # (20, 1), small pot: two rows, reach .5 each, play 0 and .4 -> .2 with reach 1
            row(20, 1, "play/pass", play=0.0, pass_=1.0, reach=0.5, earlier=0, pot="small pot"),
            row(20, 1, "play/pass", play=0.4, pass_=0.6, reach=0.5, earlier=1, pot="small pot"),
            row(20, 1, "play/pass", play=0.6, pass_=0.4, reach=3.0, pot="big pot"),
            row(30, 2, "play/pass", play=1.0, reach=4.0, pot="small pot"),
            row(30, 2, "play/pass", play=1.0, reach=0.0, pot="big pot"),
            row(40, 1, "play/pass", play=0.0, pass_=1.0, reach=9.0, pot="small pot"),  # in one bucket only
        ]
    )
    text = tip_sentences(table, rules_has_miss=False)[2]
    # weights: (20, 1) 1 + 3 = 4, (30, 2) 4 + 0 = 4; small (.2*4 + 1*4)/8 = 60%, big (.6*4 + 4)/8 = 80%
    assert "plays in 60% with small pot, 80% with big pot" in text
    assert "plays more from the first bucket to the last" in text
    assert f"The largest change is {class_label(20)} at position 1: it plays in 20% with small pot" in text
    assert "60% with big pot" in text
    assert "never changes" not in text


def test_bad_tables_name_the_column(miss_taken):
    with pytest.raises(LooError, match="reach"):
        tip_sentences(miss_taken.drop(columns="reach"), rules_has_miss=True)
    with pytest.raises(LooError, match="empty"):
        tip_sentences(miss_taken.iloc[:0], rules_has_miss=True)
    with pytest.raises(LooError, match="p_play"):
        tip_sentences(miss_taken.assign(p_play="x"), rules_has_miss=True)


# ---- distances -------------------------------------------------------------------------------
def _pair():
    a = pd.DataFrame(
        [
            row(0, 1, "play/pass", play=1.0, reach=1.0),
            row(NO_TRUMP_LOW, 2, "play/pass", pass_=0.7, play=0.3, reach=1.0),
            row(9, 1, "play/pass", play=1.0, reach=1.0),  # only in a
        ]
    )
    b = pd.DataFrame(
        [
            row(0, 1, "play/pass", play=0.6, pass_=0.4, reach=3.0),  # same best, tv .4, weight 2
            row(NO_TRUMP_LOW, 2, "play/pass", play=1.0, reach=1.0),  # best differs, tv .7, weight 1
            row(10, 1, "play/pass", play=1.0, reach=1.0),  # only in b
            row(11, 1, "play/pass", play=1.0, reach=1.0),  # only in b
        ]
    )
    return a, b


def test_table_distance_worked_out():
    a, b = _pair()
    d = table_distance(a, b)
    assert d["differ_share"] == pytest.approx(1 / 3)  # weight 1 of 3
    assert d["total_variation"] == pytest.approx((2 * 0.4 + 0.7) / 3)
    assert (d["keys_only_in_a"], d["keys_only_in_b"], d["keys_in_both"]) == (1, 2, 2)
    same = table_distance(a, a)
    assert same["differ_share"] == 0 and same["total_variation"] == 0


def test_table_distance_keys_differ_by_pot_and_a_repeated_key_is_refused():
    a, _ = _pair()
    d = table_distance(a, a.assign(pot="other"))
    assert d["keys_in_both"] == 0 and math.isnan(d["differ_share"])
    with pytest.raises(LooError, match="more than one row"):
        table_distance(pd.concat([a, a.iloc[:1]]), a)
    with pytest.raises(LooError, match="pot"):
        table_distance(a.drop(columns="pot"), a)


def test_distance_sentences_name_where_the_starts_differ():
    a, b = _pair()
    text = distance_sentences(["basic", "always", "cautious"], [a, b, a])
    assert len(text) == 4
    assert text[0].startswith("basic and always: the most likely action differs on 33%")
    assert "1 information set(s) are only in basic, 2 only in always" in text[0]
    assert "differs on 0%" in text[1]
    # scores (weight * tv) summed over the pairs: (0, 1) .8 + .8 = 1.6, (6, 2) .7 + .7 = 1.4 of 3.0
    assert text[3] == (
        "The starts differ most (share of the reach-weighted total variation) at: "
        f"{class_label(0)} at position 1 (53%); {class_label(NO_TRUMP_LOW)} at position 2 (the dealer) (47%)."
    )


def test_distance_sentences_say_when_the_starts_agree():
    a, _ = _pair()
    text = distance_sentences(["basic", "always"], [a, a])
    assert text[-1] == (
        "Both starts (basic, always) reached the same table: the most likely action agrees on every shared "
        "information set."
    )
    # differ on a weight of .005 of 1: below 1%, said with the measured share
    big = a.assign(reach=[199.0, 1.0, 0.0])
    flipped = big.copy()
    flipped.loc[1, ["p_pass", "p_play"]] = [0.0, 1.0]
    text = distance_sentences(["x", "y"], [big, flipped])
    assert "reached the same table, up to 0.5% of the information-set mass" in text[-1]
    with pytest.raises(LooError, match="two or more"):
        distance_sentences(["x"], [a])
    with pytest.raises(LooError, match="names"):
        distance_sentences(["x", "y", "z"], [a, a])
