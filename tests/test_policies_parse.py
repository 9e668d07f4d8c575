"""The written form of policies (docs/policies.md: DECLARE[/PLAY[/EXCHANGE]], omitted parts
basic; one policy for all seats or one per seat; --seat-policy SEAT=POLICY)."""

import pytest

from loo_sim.base.errors import LooError
from loo_sim.game.policy import (
    CALIBRATED,
    DECLARE_FAMILIES,
    PLAY_FAMILIES,
    Policy,
    parse_seat_policies,
    parse_table,
)

# docs/policies.md P3 (the families with a fixed written name).
DECLARE = ["always", "basic", "cautious", "nothing-takes-miss"]
PLAY = ["basic", "high", "low", "random"]
EXCHANGE = ["basic", "none", "keep-trumps", "flush-chase"]


def parts(p: Policy) -> tuple[str, str, str]:
    return (p.declare, p.play, p.exchange)


def test_basic_is_basic_everywhere():
    assert parts(Policy.parse("basic")) == ("basic", "basic", "basic")


def test_omitted_parts_are_basic():
    assert parts(Policy.parse("always/low")) == ("always", "low", "basic")
    assert parts(Policy.parse("cautious")) == ("cautious", "basic", "basic")


def test_three_parts():
    assert parts(Policy.parse("cautious/high/keep-trumps")) == ("cautious", "high", "keep-trumps")


def test_written_form_round_trips():
    for d in DECLARE:
        for p in PLAY:
            for x in EXCHANGE:
                text = f"{d}/{p}/{x}"
                assert parts(Policy.parse(text)) == (d, p, x)
                assert str(Policy.parse(text)) == text
                assert Policy.parse(str(Policy.parse(text))) == Policy.parse(text)


def test_parse_accepts_a_policy_and_spaces():
    p = Policy("cautious", "high", "none")
    assert Policy.parse(p) is p
    assert Policy.parse(" always / low ") == Policy.parse("always/low")


def test_every_family_round_trips_through_its_written_form_chart_too():
    # C7: `chart` (a miss run's best actions) is a declaration family like the others,
    # so str() of any policy parses back to the same policy.
    written = [f for f in DECLARE_FAMILIES if f not in ("threshold", "table", "rule")]
    written += ["threshold:play=0.6,miss=0.25", "table:Some Dir/solve/strategy.csv", "rule:miss if aces == 0; play"]
    for declare in written:
        for play in PLAY_FAMILIES:
            play = "pimc:12" if play == "pimc" else play
            p = Policy.parse(f"{declare}/{play}/keep-trumps")
            assert Policy.parse(str(p)) == p
    assert Policy.parse(str(Policy("chart"))) == Policy("chart") and str(Policy("chart")) == "chart/basic/basic"
    assert set(CALIBRATED) <= set(DECLARE_FAMILIES)


def test_table_family_keeps_its_path_with_slashes_and_case_p6():
    p = Policy.parse("table:Reports/Solve 5/strategy.CSV/high/none")
    assert (p.declare, p.table, p.play, p.exchange) == ("table", "Reports/Solve 5/strategy.CSV", "high", "none")
    assert p.needs_stream and not Policy.parse("basic").needs_stream and Policy.parse("basic/random").needs_stream


@pytest.mark.parametrize(
    "text, says",
    [
        ("table:strategy", "expected table:PATH.csv"),
        ("table:.csv", "needs the path of a strategy table"),
        ("table:a.csvx", "after the path"),
        ("table:a.csv/fast", "unknown play family 'fast'"),
    ],
)
def test_bad_table_policies_say_what_is_wrong_p6(text, says):
    with pytest.raises(LooError, match=says):
        Policy.parse(text)


@pytest.mark.parametrize(
    "text, which, allowed",
    [
        ("bold", "declaration", DECLARE),
        ("bold/low", "declaration", DECLARE),
        ("basic/fast", "play", PLAY),
        ("basic/high/hoard", "exchange", EXCHANGE),
        ("cautious/keep-trumps", "play", PLAY),
    ],
)
def test_bad_family_is_refused_with_the_allowed_list(text, which, allowed):
    with pytest.raises(LooError) as e:
        Policy.parse(text)
    msg = str(e.value)
    assert which in msg
    assert text in msg
    for family in allowed:
        assert family in msg


@pytest.mark.parametrize("text", ["", "/", "/low", "basic/basic/basic/basic"])
def test_malformed_policy_is_refused(text):
    with pytest.raises(LooError):
        Policy.parse(text)


def test_one_policy_for_every_seat():
    table = parse_table("always/low", 5)
    assert len(table) == 5
    assert all(p == Policy("always", "low", "basic") for p in table)
    assert parse_table(None, 4) == [Policy()] * 4
    assert parse_table(Policy("cautious"), 3) == [Policy("cautious")] * 3


def test_one_policy_per_seat_seat_0_first():
    table = parse_table(["basic", "always/low", "cautious/high/keep-trumps"], 3)
    assert [parts(p) for p in table] == [
        ("basic", "basic", "basic"),
        ("always", "low", "basic"),
        ("cautious", "high", "keep-trumps"),
    ]


@pytest.mark.parametrize("count", [2, 4, 6])
def test_wrong_number_of_policies_is_refused(count):
    with pytest.raises(LooError) as e:
        parse_table(["basic"] * count, 5)
    msg = str(e.value)
    assert str(count) in msg and "5" in msg


def test_table_with_a_bad_policy_is_refused():
    with pytest.raises(LooError, match="bogus"):
        parse_table(["basic", "bogus", "basic"], 3)


def test_seat_policy_overrides_one_seat():
    table = parse_seat_policies(None, ["2=cautious"], 5)
    assert table[2] == Policy("cautious")
    assert all(table[s] == Policy() for s in (0, 1, 3, 4))


def test_seat_policy_over_a_table_policy():
    table = parse_seat_policies("always/low", ["0=cautious/high/keep-trumps", "3=basic"], 4)
    assert table == [
        Policy("cautious", "high", "keep-trumps"),
        Policy("always", "low"),
        Policy("always", "low"),
        Policy(),
    ]


def test_later_seat_policy_wins():
    table = parse_seat_policies(None, ["1=always", "1=cautious"], 3)
    assert table[1] == Policy("cautious")


def test_seat_policy_for_the_last_seat():
    assert parse_seat_policies(None, ["7=always"], 8)[7] == Policy("always")


@pytest.mark.parametrize("item", ["5=basic", "9=basic", "-1=basic"])
def test_seat_policy_seat_out_of_range_is_refused(item):
    with pytest.raises(LooError) as e:
        parse_seat_policies(None, [item], 5)
    assert "0..4" in str(e.value)


@pytest.mark.parametrize("item", ["x=basic", "=basic", "two=cautious"])
def test_seat_policy_seat_not_a_number_is_refused(item):
    with pytest.raises(LooError) as e:
        parse_seat_policies(None, [item], 5)
    assert item in str(e.value)


@pytest.mark.parametrize("item", ["2:cautious", "cautious", "2"])
def test_seat_policy_without_equals_is_refused(item):
    with pytest.raises(LooError) as e:
        parse_seat_policies(None, [item], 5)
    assert "SEAT=POLICY" in str(e.value)


def test_seat_policy_with_a_bad_family_is_refused():
    with pytest.raises(LooError, match="bogus"):
        parse_seat_policies(None, ["2=bogus"], 5)
