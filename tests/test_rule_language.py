"""The ``rule:`` language (docs/policies.md P3b): parse, print, parse again to the same tree;
the errors a person can act on (one line, the rule quoted with a caret at the column,
the allowed names); the coverage check; rule files; the ``rule:`` policy family's
written form; the kernel's table of a rule (game/rule_code.py)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings

from loo_sim.base.errors import LooError
from loo_sim.game.policy import Policy
from loo_sim.game.rule import load_rule, parse_rule
from loo_sim.game.rule_code import MAX_TESTS, RC_ACTIONS, RC_CLAUSES, RC_OFFER, RC_TESTS, rule_program, rule_tests
from loo_sim.game.rule_syntax import FEATURES, And, Clause, Compare, Flag, Name, Not, Number, Or, Rank, Rule
from tests.rulegen import rules

BASIC = "play if trumps >= 1 or aces >= 1; defend; miss; pass; play"
CAUTIOUS = "play if trumps >= 2 or highest_trump >= Q or (not trumps_known and aces >= 1); defend; pass; play"
NOTHING = "miss if trumps == 0 and aces == 0 and faces == 0 and dealer_case != 2; play"


# ---- parse and print ----------------------------------------------------------------------------
def test_the_p3_families_parse_to_the_trees_p3b_means():
    assert parse_rule(BASIC) == Rule((
        Clause("play", Or((Compare(Name("trumps"), ">=", Number(1)), Compare(Name("aces"), ">=", Number(1))))),
        Clause("defend"), Clause("miss"), Clause("pass"), Clause("play"),
    ))  # fmt: skip
    cautious = parse_rule(CAUTIOUS).clauses[0].condition
    assert cautious == Or((
        Compare(Name("trumps"), ">=", Number(2)),
        Compare(Name("highest_trump"), ">=", Rank(12)),
        And((Not(Flag("trumps_known")), Compare(Name("aces"), ">=", Number(1)))),
    ))  # fmt: skip


@pytest.mark.parametrize("text", [BASIC, CAUTIOUS, NOTHING])
def test_p3b_texts_are_canonical(text):
    assert str(parse_rule(text)) == text


def test_spacing_case_and_redundant_parentheses_do_not_matter():
    loose = "PLAY IF (Trumps>=1) OR ((aces >= 1));defend ;miss;; pass;play;"
    assert parse_rule(loose) == parse_rule(BASIC)
    assert str(parse_rule("play if highest_trump >= q; pass; play")) == "play if highest_trump >= Q; pass; play"


def test_precedence_is_not_then_and_then_or():
    rule = parse_rule("play if not flush and aces >= 1 or trumps >= 2; play")
    a, b, c = Flag("flush"), Compare(Name("aces"), ">=", Number(1)), Compare(Name("trumps"), ">=", Number(2))
    assert rule.clauses[0].condition == Or((And((Not(a), b)), c))
    # a parenthesised or inside an and keeps its parentheses when printed
    rule = parse_rule("play if aces >= 1 and (trumps >= 2 or flush); play")
    assert rule.clauses[0].condition == And((b, Or((c, a))))
    assert str(rule) == "play if aces >= 1 and (trumps >= 2 or flush); play"


@settings(max_examples=400, deadline=None)
@given(rules())
def test_random_rules_print_and_parse_back_to_the_same_tree(rule):
    text = str(rule)
    assert parse_rule(text) == rule
    assert str(parse_rule(text)) == text


# ---- errors a person can fix ----------------------------------------------------------------
def error(text: str, **kw) -> str:
    with pytest.raises(LooError) as e:
        parse_rule(text, **kw)
    message = str(e.value)
    assert "\n" not in message
    return message


def test_a_rank_where_a_count_is_wanted_is_shown_at_its_column():
    message = error("play if trumps >= Q; pass; play")
    # the caret goes before the Q, the 19th character of the rule
    assert message.startswith("rule 'play if trumps >= ^Q; pass; play' (column 19): a rank where a count is wanted")
    assert "trumps >= 2" in message  # how to write it


@pytest.mark.parametrize(
    "text, column, says",
    [
        ("play if tramps >= 1; play", 9, "unknown feature 'tramps' (did you mean trumps?)"),
        ("plya if aces >= 1; play", 1, "a clause starts with an action, found 'plya' (did you mean play?)"),
        ("take if aces >= 1; play", 1, "allowed play, pass, miss, defend"),
        ("play if aces = 1; play", 14, "'=' is not a comparison; write =="),
        ("play if aces => 1; play", 14, "write >="),
        ("play if aces; play", 9, "a count where a condition is wanted"),
        ("play if 1 < 2; play", 11, "compares two constants"),
        ("play if pot > trumps; play", 15, "a count (trumps) where an amount of chips is wanted"),
        ("play if flush == 2; play", 18, "flush is a flag, 0 or 1"),
        ("play if dealer_case == 1; play", 24, "dealer_case is 0, 2 or 3"),
        ("play if highest_trump >= 1.5; play", 26, "a whole number"),
        ("play if 1 <= trumps <= 2; play", 21, "comparisons do not chain"),
        ("play if (aces >= 1; play", 19, "expected ')'"),
        ("play if aces >= 1 pass; play", 19, "expected ';'"),
        ("play if aces >= 1 and", 22, "found the end of the rule"),
        ("play if aces >= ; play", 17, "found ';'"),
    ],
)
def test_errors_quote_the_rule_with_a_caret_at_the_column(text, column, says):
    message = error(text)
    assert f"(column {column})" in message
    quoted = re.match(r"rule '(.*)' \(column", message).group(1)
    assert quoted.replace("^", "", 1) == text and quoted.index("^") == column - 1
    assert says in message


def test_an_unknown_feature_lists_every_feature():
    message = error("play if honours >= 1; play")
    assert all(f.name in message for f in FEATURES)


def test_a_rule_that_leaves_a_seat_without_an_answer_is_refused():
    message = error("play if aces >= 1; pass")  # a seat offered play/miss or play/defend: no answer
    assert "no clause without 'if' decides for a seat whose options are play/miss, play/defend, play/miss/defend" in (
        message
    )
    assert "add a last clause without 'if'" in message
    assert parse_rule("miss if aces == 0; pass; miss; defend").clauses[-1] == Clause("defend")  # covered without play


def test_an_empty_rule_is_refused():
    assert "a rule needs clauses" in error("")
    assert "a rule needs clauses" in error(" ; ;")


# ---- files ---------------------------------------------------------------------------------------
def test_a_rule_file_takes_comments_and_one_clause_a_line(tmp_path):
    path = tmp_path / "tips.rule"
    path.write_text("# basic, one clause a line\nplay if trumps >= 1   # a trump\n   or aces >= 1\n"
                    "\ndefend; miss\npass\nplay\n", encoding="utf-8")  # fmt: skip
    with pytest.raises(LooError, match=r"line 3 .* \(column 4\): a clause starts with an action, found 'or'"):
        load_rule(str(path))
    path.write_text("# basic\nplay if (trumps >= 1  # a trump\n  or aces >= 1)\ndefend; miss\npass\nplay\n")
    assert load_rule(str(path)) == parse_rule(BASIC)


def test_file_errors_name_the_file_and_line(tmp_path):
    path = tmp_path / "bad.rule"
    path.write_text("pass\nplay if trumps >= K\n", encoding="utf-8")
    with pytest.raises(LooError) as e:
        load_rule(str(path))
    assert str(e.value).startswith(f"rule file {str(path)!r}, line 2 'play if trumps >= ^K' (column 19): a rank")
    with pytest.raises(LooError, match="cannot be read"):
        load_rule(str(tmp_path / "missing.rule"))


# ---- the policy family ---------------------------------------------------------------------------
def test_a_rule_policy_keeps_its_canonical_clauses_and_round_trips():
    p = Policy.parse("rule:play if trumps>=1 or aces>=1;defend;miss;pass;play/high/none")
    assert (p.declare, p.rule, p.play, p.exchange, p.rule_path) == ("rule", BASIC, "high", "none", "")
    assert str(p) == f"rule:{BASIC}/high/none"
    assert Policy.parse(str(p)) == p
    assert Policy.parse(f"rule:{BASIC}/pimc:8").samples == 8
    assert not p.needs_stream


def test_a_rule_file_policy_keeps_its_path_and_reads_the_file(tmp_path):
    folder = tmp_path / "My Rules"
    folder.mkdir()
    (folder / "cautious.rule").write_text(CAUTIOUS.replace("; ", "\n"), encoding="utf-8")
    text = f"rule:{folder}/cautious.rule/low"
    p = Policy.parse(text)
    assert (p.rule_path, p.rule, p.play) == (f"{folder}/cautious.rule", CAUTIOUS, "low")
    assert str(p) == f"{text}/basic" and Policy.parse(str(p)) == p


@pytest.mark.parametrize(
    "text, says",
    [
        ("rule:", "a rule needs clauses"),
        ("rule:pass; play/fast", "unknown play family 'fast'"),
        ("rule:pass; play/high/hoard", "unknown exchange family 'hoard'"),
        ("rule:pass; play/high/none/x", "expected rule:CLAUSES[/PLAY[/EXCHANGE]]"),
        ("rule:.rule", "needs clauses or the path of a .rule file"),
    ],
)
def test_bad_rule_policies_say_what_is_wrong(text, says):
    with pytest.raises(LooError, match=re.escape(says)):
        Policy.parse(text)


# ---- the kernel's table of a rule ------------------------------------------------------------------
def test_the_table_of_basic_by_hand():
    row = rule_program(parse_rule(BASIC))
    assert row[RC_TESTS] == 2 and row[RC_CLAUSES] == 5
    actions = row[RC_ACTIONS : RC_ACTIONS + 5]
    assert actions == [1, 3, 2, 0, 1]  # play, defend, miss, pass, play as DECL_* codes (pass 0 ... defend 3)
    # a seat offered play, pass and miss (mask 0b0111): clauses 0 (play), 2 (miss), 3 (pass), 4 (play)
    assert row[RC_OFFER + 0b0111] == 0b11101
    table = row[RC_ACTIONS + 5 + 2 * 4 :]
    # key bit 0: trumps >= 1, bit 1: aces >= 1; the first clause holds when either does
    assert table == [0b11110, 0b11111, 0b11111, 0b11111]


def test_a_comparison_written_twice_is_one_test_and_the_limit_is_counted_in_tests():
    rule = parse_rule("play if aces >= 1 or 1 <= aces; pass if not (aces >= 1); play")
    assert rule_tests(rule) == [("aces", ">=", 1)]  # 1 <= aces is aces >= 1
    many = " or ".join(f"pot >= {k}" for k in range(MAX_TESTS + 1))
    with pytest.raises(LooError, match=f"{MAX_TESTS + 1} different comparisons"):
        rule_program(parse_rule(f"play if {many}; play"))
    rule_program(parse_rule("play if " + " or ".join(f"pot >= {k}" for k in range(MAX_TESTS)) + "; play"))
