"""Strategy tables (docs/policies.md P6): the CSV round trip, every refusal as one line
naming the row or value, the draw of a mixed row at its frequencies (kernel and reference
alike), a pure table that copies ``basic`` and an empty one that falls back to it, and
``table:PATH`` from the command line."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from loo_sim import play_deals
from loo_sim.base.errors import LooError
from loo_sim.cli import main
from loo_sim.game.classes import N_CLASSES, N_COLS, ROW_NONE, ROW_UNKNOWN
from loo_sim.game.decl import Decl
from loo_sim.game.infosets import (
    N_INFOSETS,
    POT_LABELS,
    SITUATION_LABELS,
    SITUATION_MASKS,
    infoset_parts,
)
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules
from loo_sim.game.strategy import empty_table, header_line, rules_hash, table_frame
from loo_sim.run.records import shuffled_decks
from loo_sim.run.tables import parse_table_text, read_table, table_text

RULES = Rules.preset("three-card")  # 5 players, the miss, bold stand for the last two
PLAYERS = RULES.players
PLAY_PASS = SITUATION_LABELS.index("play/pass")
PASS, PLAY, MISS, DEFEND = (int(d) for d in (Decl.PASS, Decl.PLAY, Decl.MISS, Decl.DEFEND))
PARTS = np.array([infoset_parts(i) for i in range(N_INFOSETS)])  # class, position, earlier, situation, bucket


def seated(players: int) -> np.ndarray:
    """The keys a table of ``players`` can meet (positions 1..players)."""
    return np.flatnonzero((PARTS[:, 1] >= 1) & (PARTS[:, 1] <= players))


SEATED = seated(PLAYERS)


def one_line(e: pytest.ExceptionInfo) -> str:
    text = str(e.value)
    assert "\n" not in text and "Traceback" not in text, text
    return text


def pure(action_of: np.ndarray) -> np.ndarray:
    """The table [N_INFOSETS, ACTIONS] that takes ``action_of[key]`` (-1: NaN row, unknown)."""
    table = empty_table()
    known = np.flatnonzero(action_of >= 0)
    table[known] = 0.0
    table[known, action_of[known]] = 1.0
    return table


def random_table(seed: int, share: float = 0.5, players: int = PLAYERS) -> np.ndarray:
    """About ``share`` of the keys of ``players`` known, each a random row over what is on offer
    (some pure, some mixed), probabilities with few digits so that the CSV keeps them."""
    rng = np.random.default_rng(seed)
    table = empty_table()
    keys = seated(players)
    for key in keys[rng.random(len(keys)) < share]:
        offered = [a for a in range(4) if (SITUATION_MASKS[PARTS[key, 3]] >> a) & 1]
        if rng.random() < 0.3:
            row = np.zeros(4)
            row[rng.choice(offered)] = 1.0
        else:
            weights = rng.integers(1, 9, size=len(offered)).astype(float)
            row = np.zeros(4)
            row[offered] = weights / weights.sum()
        table[key] = row
    return table


def text_of(table: np.ndarray, rules: Rules = RULES) -> str:
    rows = np.flatnonzero(~np.isnan(table[:, 0]))
    return table_text(table_frame(table, rows), rules)


def frame_text(frame: pd.DataFrame, rules: Rules = RULES) -> str:
    return table_text(frame, rules)


SMALL = random_table(1, share=0.02)  # a few dozen rows


def small_frame() -> pd.DataFrame:
    rows = np.flatnonzero(~np.isnan(SMALL[:, 0]))
    return table_frame(SMALL, rows)


# ---- the round trip ------------------------------------------------------------------------
def test_round_trip_gives_the_same_array_nan_where_absent():
    table = random_table(7)
    back = parse_table_text(text_of(table), RULES, "t")
    assert back.shape == (N_INFOSETS, 4)
    absent = np.isnan(table[:, 0])
    assert np.isnan(back[absent]).all() and not np.isnan(back[~absent]).any()
    np.testing.assert_allclose(back[~absent], table[~absent], rtol=0, atol=1e-9)
    pure_rows = (table[~absent] == 1.0).any(axis=1)
    assert ((back[~absent][pure_rows] == 1.0).sum(axis=1) == 1).all()  # pure stays exactly pure
    # extra columns (reach, decisions, ev_*) are for people and ignored when read
    rows = np.flatnonzero(~absent)
    extra = {"reach": np.linspace(0, 1, len(rows)), "ev_play": np.zeros(len(rows))}
    again = parse_table_text(table_text(table_frame(table, rows, extra), RULES), RULES, "t")
    np.testing.assert_array_equal(again, back)


def test_header_names_the_rules_hash_and_players():
    assert header_line(RULES) == f"# loo_sim strategy table; rules_hash={rules_hash(RULES)}; players=5"
    assert rules_hash(RULES) != rules_hash(Rules.preset("three-card", penalty="limited"))
    assert rules_hash(RULES) == rules_hash(Rules.preset("three-card", bankroll=50))  # a session option


# ---- refusals: one line each, naming the row or the value ----------------------------------
def refuse(text: str, rules: Rules = RULES) -> str:
    with pytest.raises(LooError) as e:
        parse_table_text(text, rules, "table:x.csv")
    return one_line(e)


def with_cell(column: str, value, row: int = 0) -> str:
    frame = small_frame()
    frame[column] = frame[column].astype(object)
    frame.loc[row, column] = value
    return frame_text(frame)


def test_header_missing_or_not_a_strategy_table():
    body = small_frame().to_csv(index=False)
    assert "table:x.csv: not a strategy table" in refuse(body)
    assert "not a strategy table" in refuse("")
    assert "not a strategy table" in refuse("# some other comment\n" + body)
    msg = refuse(f"# loo_sim strategy table; rules_hash={rules_hash(RULES)}\n" + body)
    assert msg.startswith("table:x.csv: a strategy table's first line lacks players= (expected '# loo_sim")
    msg = refuse("# loo_sim strategy table;\n" + body)
    assert msg.startswith("table:x.csv: a strategy table's first line lacks rules_hash= and players=")


def test_a_table_for_other_rules_or_another_player_count():
    text = text_of(SMALL)
    msg = refuse(text, Rules.preset("three-card", penalty="limited"))
    assert "table:x.csv: a strategy table for other rules" in msg and rules_hash(RULES) in msg
    msg = refuse(text, Rules.preset("three-card", players=4))
    assert msg == "table:x.csv: a strategy table for 5 players; these rules have 4"


def test_missing_column():
    msg = refuse(frame_text(small_frame().drop(columns=["p_miss"])))
    assert msg.startswith("table:x.csv: lacks column(s) p_miss;")


@pytest.mark.parametrize(
    "column, value, words",
    [
        ("class", N_CLASSES, ["row 3", "class", repr(N_CLASSES)]),
        ("class", "abc", ["row 3", "class", "'abc'"]),
        ("hand", "a strong hand", ["row 3", "hand 'a strong hand'"]),
        ("position", 0, ["row 3", "position", "1..5"]),
        ("position", PLAYERS + 1, ["row 3", "position", "6", "1..5"]),
        ("earlier_in", 4, ["row 3", "earlier_in", "0..3"]),
        ("earlier_in", -1, ["row 3", "earlier_in", "0..3"]),
        ("options", "play/fold", ["row 3", "options", "'play/fold'", "play/pass/miss"]),
        ("pot", "a big pot", ["row 3", "pot", "'a big pot'", POT_LABELS[0]]),
    ],
)
def test_unknown_information_set_keys(column, value, words):
    msg = refuse(with_cell(column, value, row=2))
    assert msg.startswith("table:x.csv row 3: unknown information-set key")
    for w in words:
        assert w in msg, (w, msg)


def test_hand_label_must_match_class():
    frame = small_frame()
    other = frame.loc[1, "hand"] if frame.loc[1, "class"] != frame.loc[0, "class"] else "no trump | A"
    frame.loc[0, "hand"] = other
    msg = refuse(frame_text(frame))
    assert msg.startswith("table:x.csv row 1: unknown information-set key: hand") and "is not class" in msg


def test_duplicate_information_set():
    frame = small_frame()
    frame = pd.concat([frame, frame.iloc[[3]]], ignore_index=True)
    msg = refuse(frame_text(frame))
    assert msg.startswith(f"table:x.csv row {len(frame)}: information set given twice")


def _row_with(options: str) -> int:
    frame = small_frame()
    return int(np.flatnonzero(frame["options"] == options)[0])


def test_probabilities_not_summing_to_one():
    frame = small_frame()
    r = _row_with("play/pass")
    frame.loc[r, ["p_pass", "p_play"]] = [0.5, 0.4]
    msg = refuse(frame_text(frame))
    assert msg == f"table:x.csv row {r + 1}: probabilities sum to 0.9, not 1"


def test_probability_on_an_action_not_on_offer():
    frame = small_frame()
    r = _row_with("play/pass")
    frame.loc[r, ["p_pass", "p_play", "p_miss", "p_defend"]] = [0.2, 0.6, 0.2, 0.0]
    msg = refuse(frame_text(frame))
    assert msg == f"table:x.csv row {r + 1}: probability on miss, which is not on offer (play/pass)"


@pytest.mark.parametrize(
    "value, shown", [(-0.25, "-0.25"), ("abc", "'abc'"), (1.5, "1.5"), ("", "(empty)"), ("0.7x", "'0.7x'")]
)
def test_negative_non_numeric_or_out_of_range_probability(value, shown):
    frame = small_frame()
    r = _row_with("play/pass")
    frame["p_pass"] = frame["p_pass"].astype(object)
    frame.loc[r, "p_pass"] = value
    msg = refuse(frame_text(frame))
    assert msg == f"table:x.csv row {r + 1}: probabilities must be numbers 0..1, got p_pass {shown}"


def test_an_empty_table():
    empty = frame_text(small_frame().iloc[:0])
    assert refuse(empty) == "table:x.csv: a strategy table with no rows"
    assert "not a readable CSV" in refuse(header_line(RULES) + "\n")


def test_read_table_of_a_missing_or_unreadable_file(tmp_path):
    with pytest.raises(LooError) as e:
        read_table(tmp_path / "nope.csv", RULES)
    assert one_line(e) == f"table:{tmp_path / 'nope.csv'}: no such file"
    path = tmp_path / "t.csv"
    path.write_text(text_of(SMALL))
    np.testing.assert_array_equal(read_table(path, RULES), parse_table_text(text_of(SMALL), RULES, "t"))
    with pytest.raises(LooError) as e:
        read_table(path, Rules.preset("three-card", players=6))
    assert one_line(e).startswith(f"table:{path}: a strategy table for 5 players")


# ---- a mixed row is drawn at its frequencies -------------------------------------------------
MIX_DEALS = 6000
P_PLAY = 0.3


def mixed_table() -> np.ndarray:
    """Every play/pass information set: play 0.3, pass 0.7; every other: pure play."""
    table = np.full((N_INFOSETS, 4), np.nan)
    table[SEATED] = 0.0
    table[SEATED, PLAY] = 1.0
    mixed = SEATED[PARTS[SEATED, 3] == PLAY_PASS]
    table[mixed, PLAY], table[mixed, PASS] = P_PLAY, 1.0 - P_PLAY
    return table


def test_a_mixed_row_is_drawn_with_its_frequencies(tmp_path):
    path = str(tmp_path / "mixed.csv")
    table = parse_table_text(text_of(mixed_table()), RULES, path)  # through the CSV
    policy = [Policy("table", table=path)] + ["basic"] * (PLAYERS - 1)
    decks = shuffled_decks(11, MIX_DEALS)
    dealers = np.arange(MIX_DEALS) % PLAYERS  # seat 0 at every position
    kernel = play_deals(RULES, decks, dealers, None, policy, seed=11, tables={path: table})
    ref = play_deals(RULES, decks, dealers, None, policy, engine="reference", seed=11, tables={path: table})
    options = [sorted(r.trace.options[0]) for r in ref]
    chose = [r.declarations[0] for r in kernel]
    at_play_pass = [c for o, c in zip(options, chose) if o == ["pass", "play"]]
    n = len(at_play_pass)
    assert n > 1000, n
    share = sum(c == "play" for c in at_play_pass) / n
    assert abs(share - P_PLAY) < 4 * math.sqrt(P_PLAY * (1 - P_PLAY) / n), (share, n)
    assert set(at_play_pass) == {"play", "pass"}
    # every other real choice is pure play
    others = [c for o, c in zip(options, chose) if len(o) > 1 and o != ["pass", "play"]]
    assert others and set(others) == {"play"}
    # the kernel and the reference engine give the same records on these deals
    for i in range(400):
        assert kernel[i].to_dict() == ref[i].to_dict(), i
    # the draw comes from seat 0's own stream: another seed draws differently
    again = play_deals(RULES, decks[:400], dealers[:400], None, policy, seed=12, tables={path: table})
    assert [r.declarations[0] for r in again] != chose[:400]


# ---- a pure table that copies basic, and an empty one -----------------------------------------
def basic_plays(cls: int) -> bool:
    """P2 basic: a trump or an ace (the class says which)."""
    row, col = divmod(cls, N_COLS)
    if row == ROW_NONE:
        return col == 4  # best plain card an ace
    if row >= ROW_UNKNOWN:
        return row > ROW_UNKNOWN  # trumps unknown: one ace or more
    return True  # a trump


def basic_action(cls: int, situation: int) -> int:
    label = SITUATION_LABELS[situation]
    if basic_plays(cls):
        return PLAY
    return {"play/pass": PASS, "play/pass/miss": MISS, "play/miss": MISS, "play/defend": DEFEND,
            "play/miss/defend": DEFEND}[label]  # fmt: skip


def basic_copy(keep: float, seed: int, players: int = PLAYERS) -> np.ndarray:
    """A pure table taking basic's action at about ``keep`` of the keys (the rest unknown)."""
    rng = np.random.default_rng(seed)
    action = np.full(N_INFOSETS, -1)
    for key in seated(players):
        if rng.random() < keep:
            action[key] = basic_action(int(PARTS[key, 0]), int(PARTS[key, 3]))
    return pure(action)


@pytest.mark.parametrize(
    "rules",
    [RULES, Rules.preset("classic-limited"), Rules.preset("three-card", dealer_defends=True)],
    ids=["three-card", "classic-limited", "dealer-defends"],
)
def test_a_pure_copy_of_basic_and_an_empty_table_give_basics_records(tmp_path, rules):
    n, deals = rules.players, 1500
    decks = shuffled_decks(5, deals)
    dealers = np.arange(deals) % n
    carried = np.where(np.arange(deals) % 3 == 0, 0.0, 7.0)  # clean pots and carried ones
    basic = [r.to_dict() for r in play_deals(rules, decks, dealers, carried, "basic", seed=5)]
    copies = {"full": basic_copy(1.0, 1, n), "half": basic_copy(0.5, 2, n)}
    path = str(tmp_path / "t.csv")
    for name, table in copies.items():
        table = parse_table_text(text_of(table, rules), rules, path)
        for engine in ("kernel", "reference"):
            got = play_deals(rules, decks, dealers, carried, Policy("table", table=path), engine=engine, seed=5,
                             tables={path: table})  # fmt: skip
            assert [r.to_dict() for r in got] == basic, (name, engine)
    for engine in ("kernel", "reference"):  # no row known: every seat falls back to basic
        got = play_deals(rules, decks, dealers, carried, Policy("table", table=path), engine=engine, seed=5,
                         tables={path: empty_table()})  # fmt: skip
        assert [r.to_dict() for r in got] == basic, engine


def test_basic_copy_disagrees_with_a_table_that_always_plays():
    # the copy is not vacuous: a table that always plays changes the records
    decks = shuffled_decks(5, 300)
    action = np.full(N_INFOSETS, -1)
    action[SEATED] = PLAY
    table = pure(action)
    got = play_deals(RULES, decks, None, None, Policy("table", table="a.csv"), seed=5, tables={"a.csv": table})
    always = play_deals(RULES, decks, None, None, "always", seed=5)
    basic = play_deals(RULES, decks, None, None, "basic", seed=5)
    assert [r.to_dict() for r in got] == [r.to_dict() for r in always]
    assert [r.to_dict() for r in got] != [r.to_dict() for r in basic]


# ---- table:PATH from the command line ----------------------------------------------------------
def cli(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    captured = capsys.readouterr()
    return rc, captured.out, captured.err


def test_table_policy_from_the_cli(tmp_path, capsys):
    copy = tmp_path / "basic copy.csv"  # a space in the path
    copy.write_text(text_of(basic_copy(1.0, 3)))
    args = ("simulate", "--preset", "three-card", "--deals", "20000", "--seed", "2", "--json")
    rc, out, err = cli(capsys, *args, "--policy", f"table:{copy}")
    assert rc == 0, err
    by_table = json.loads(out)
    assert by_table["run"]["policies"] == [f"table:{copy}/basic/basic"] * PLAYERS
    rc, out, err = cli(capsys, *args, "--policy", "basic")
    assert rc == 0, err
    assert by_table["summary"] == json.loads(out)["summary"]  # a copy of basic plays as basic
    mixed = tmp_path / "mixed.csv"
    mixed.write_text(text_of(mixed_table()))
    rc, out, err = cli(capsys, *args, "--policy", f"table:{mixed}/high", "--seat-policy", "1=basic")
    assert rc == 0, err
    assert json.loads(out)["run"]["policies"][:2] == [f"table:{mixed}/high/basic", "basic/basic/basic"]
    # a table for 4 players on a 5-player table: one line naming the table and the counts
    four = tmp_path / "four.csv"
    four.write_text(text_of(random_table(3, share=0.05, players=4), Rules.preset("three-card", players=4)))
    rc, out, err = cli(capsys, "simulate", "--preset", "three-card", "--deals", "20000", "--policy", f"table:{four}")
    assert rc == 2 and out == ""
    assert err == f"error: --policy: table:{four}: a strategy table for 4 players; these rules have 5\n"
    rc, out, err = cli(capsys, "simulate", "--deals", "20000", "--set", "players=4", "--policy", f"table:{four}")
    assert rc == 0, err  # the same table on 4 players runs
    gone = tmp_path / "gone.csv"
    rc, out, err = cli(capsys, "simulate", "--deals", "1000", "--policy", f"table:{gone}")
    assert rc == 2 and err == f"error: --policy: table:{gone}: no such file\n"
