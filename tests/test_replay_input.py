"""A deal entered as dealt and scripted (``replay --hand/--declare/--play/--why``, ``loo-sim
check DEAL.toml``): card parsing, deck building by R2 deal order, every refusal as one
``error:`` line with exit 2, the R12 worked example (golden), and illegal actions stopped
with the rule they break (docs/rules.md R2, R4, R5, R7, R8, R12)."""

import json

import pytest

from loo_sim import Rules
from loo_sim.cli import main
from loo_sim.game.cards import card_str, parse_card, parse_cards
from loo_sim.game.deal_input import DealInput, build_deck, deal_slots, parse_play
from tests.dealgen import deal_positions

# R12 (seed 001 §08): classic-limited, dealer 0 antes 3 onto 9 carried -> a double pot of
# 12; hearts trumps (4H turned); A = seat 1 holds AH 7H KC and must lead AH; B = seat 2,
# C = seat 3; A wins 2 tricks, B 1, C none.
R12 = [
    "replay", "-p", "classic-limited", "--dealer", "0", "--carried", "9",
    "--hand", "1=A♥ 7♥ K♣", "--hand", "2=9h KH 5c", "--hand", "3=2H 2D 3D", "--indicator", "4♥",
    "--declare", "1=play,2=play,3=play,4=pass,0=pass",
]  # fmt: skip
R12_PLAY = ["--play", "1:AH 2:9H 3:2H | 1:7H 2:KH 3:2D | 2:5C 3:3D 1:KC"]


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    captured = capsys.readouterr()
    return rc, captured.out, captured.err


@pytest.mark.parametrize("text", ["AH", "ah", "A♥", "a♥", "Ah", "A♡"])
def test_r1_card_forms_ace_of_hearts(text):
    assert card_str(parse_card(text)) == "AH"


@pytest.mark.parametrize("text", ["10h", "Th", "10♥", "t♥"])
def test_r1_card_forms_ten(text):
    assert card_str(parse_card(text)) == "TH"


@pytest.mark.parametrize(("preset", "carried"), [("classic-limited", 0.0), ("classic-limited", 6.0),
                                                 ("three-card", 0.0), ("irish", 0.0), ("five-card", 3.0)])  # fmt: skip
@pytest.mark.parametrize("dealer", [0, 3])
def test_r2_slots_match_the_spec_helper(preset, carried, dealer):
    rules = Rules.preset(preset)
    assert deal_slots(rules, dealer, carried) == deal_positions(rules, dealer, carried)


@pytest.mark.parametrize(("carried", "miss"), [(0.0, False), (9.0, True)])
def test_r2_r8_deck_puts_each_card_where_it_is_dealt(carried, miss):
    """classic-limited: a clean pot is a single pot (no miss), a carried pot a double pot;
    the hands entered are dealt to their seats in both."""
    rules = Rules.preset("classic-limited")
    hands = {1: parse_cards("AH 7H KC"), 4: parse_cards("2S 3S 4S")}
    inp = DealInput(hands=hands, miss=parse_cards("5D 6D 7D") if miss else None,
                    indicator=parse_card("4H"), stock=[parse_card("QC")])  # fmt: skip
    built = build_deck(rules, 2, carried, inp, list(range(52)))
    slots = deal_positions(rules, 2, carried)
    for seat, cards in hands.items():
        assert [built.deck[i] for i, o in enumerate(slots) if o == seat] == cards
    assert [built.deck[i] for i, o in enumerate(slots) if o == "miss"] == (inp.miss or [])
    assert built.deck[slots.index("indicator")] == parse_card("4H")
    assert built.deck[slots.index("stock")] == parse_card("QC")
    assert sorted(built.deck) == list(range(52))
    assert built.unseen == 52 - 6 - 1 - 1 - (3 if miss else 0)


def test_r12_worked_example_golden(capsys):
    rc, out, err = cli(capsys, *R12, *R12_PLAY)
    assert rc == 0 and err == ""
    lines = out.splitlines()
    assert "Antes: seat 0 3 -> pot 12" in lines
    assert "Indicator 4H: trumps are hearts ♥ (R6 turn_up)" in lines
    assert "  seat 1          AH 7H KC         policy basic/basic/basic" in lines
    assert "  1. seat 1 leads: 1 AH, 2 9H, 3 2H -> seat 1" in lines
    assert "     0  pass           0       0      3        0      -3" in lines
    assert "     1  play           2       8      0        0       8" in lines
    assert "     2  play           1       4      0        0       4" in lines
    assert "     3  play           0       0      0        3      -3 looed" in lines
    assert "Pot carried to the next deal: 3" in lines
    assert lines[-1] == "Next deal's pot: 3 carried + the next dealer's ante 3 = 6 (R3)"
    assert any(line.startswith("Not given: seat 4, the miss, seat 0, the stock (42 cards)") for line in lines)
    rc, out, _ = cli(capsys, *R12, *R12_PLAY, "--json")
    rec = json.loads(out)
    assert rec["pot_start"] == 12 and rec["shares"] == [0, 8, 4, 0, 0] and rec["penalties"] == [0, 0, 0, 3, 0]
    assert rec["pot_next"] == 3 and rec["trump"] == "H" and rec["indicator"] == "4H"
    assert rec["tricks"][0]["cards"][0] == [1, "AH"]


def test_r12_the_printed_deck_replays_the_same_deal(capsys):
    _, out, _ = cli(capsys, *R12, *R12_PLAY, "--json")
    _, text, _ = cli(capsys, *R12, *R12_PLAY)
    deck = next(line for line in text.splitlines() if line.startswith("Deck (")).split(": ", 1)[1]
    rc, again, _ = cli(capsys, "replay", "-p", "classic-limited", "--deck", deck, "--dealer", "0", "--carried", "9",
                       "--declare", "1=play,2=play,3=play,4=pass,0=pass", *R12_PLAY, "--json")  # fmt: skip
    assert rc == 0 and json.loads(again) == json.loads(out)


def test_r7_illegal_lead_stops_with_the_rule(capsys):
    rc, out, err = cli(capsys, *R12, "--play", "1:7H")
    assert rc == 2 and out == ""
    assert err == ("error: illegal: trick 1, 7H: seat 1 must lead AH (R7 lead = trump: the first lead of a double "
                   "pot is the ace of trumps, if held)\n")  # fmt: skip


def test_r7_follower_must_head_the_trick(capsys):
    argv = ["replay", "-p", "classic-limited", "--carried", "9", "--hand", "1=AH 7H KC", "--hand", "2=9H 5H QH",
            "--indicator", "4H", "--declare", "1=play,2=play,3=pass,4=pass,0=pass"]  # fmt: skip
    rc, _, err = cli(capsys, *argv, "--play", "1:AH 2:9H | 1:7H 2:5H")
    assert rc == 2
    assert (
        err == "error: illegal: trick 2, 5H: seat 2 must head the trick with QH (R7: follow suit and head the trick)\n"
    )
    rc, _, err = cli(capsys, *argv, "--play", "1:AH 2:9H | 2:QH")
    assert rc == 2 and "seat 2 is not to play: it is seat 1's turn (the winner of trick 1 leads, R7)" in err
    rc, _, err = cli(capsys, *argv, "--play", "1:AH 2:KS")
    assert rc == 2 and "seat 2 does not hold KS (it holds 9H 5H QH)" in err


def test_r4_r5_r8_illegal_declarations_name_the_rule(capsys):
    rc, _, err = cli(capsys, "replay", "-p", "three-card", "--seed", "3", "--declare", "1=pass,2=pass,3=pass,4=pass")
    assert rc == 2
    assert (
        err.startswith("error: illegal: seat 4 may not pass: bold stand:")
        and "(R4, bold_stand = last_and_dealer)" in err
    )
    rc, _, err = cli(capsys, "replay", "-p", "three-card", "--seed", "3", "--declare", "1=miss,2=miss")
    assert rc == 2 and "seat 2 may not miss: seat 1 has already taken the miss (R5)" in err
    rc, _, err = cli(capsys, "replay", "-p", "classic-limited", "--seed", "3", "--declare", "1=pass")
    assert rc == 2 and "seat 1 may not pass: a clean pot is a single pot and nobody may pass (R8)" in err
    rc, _, err = cli(capsys, "replay", "-p", "classic-limited", "--seed", "3", "--carried", "6",
                     "--declare", "1=defend")  # fmt: skip
    assert rc == 2 and "seat 1 may not defend: only the dealer defends, with the miss (R8 case 2)" in err


def test_why_lists_legal_cards_and_reasons(capsys):
    rc, out, _ = cli(capsys, *R12, *R12_PLAY, "--why")
    assert rc == 0
    lines = out.splitlines()
    assert ("     why: seat 1 holds AH 7H KC: must lead AH, not 7H KC (R7 lead = trump: the first lead of a double "
            "pot is the ace of trumps, if held)") in lines  # fmt: skip
    assert "     why: seat 3 holds 2H 2D 3D: must follow suit with 2H, not 2D 3D (R7: follow suit)" in lines
    assert "     why: seat 3 holds 2D 3D: any card may be played" in lines
    assert sum("why:" in line for line in lines) == 9


def test_unscripted_actions_fall_back_to_the_policy(capsys):
    rc, out, _ = cli(capsys, *R12, "--play", "1:AH", "--json")
    rec = json.loads(out)
    assert rc == 0 and len(rec["tricks"]) == 3 and rec["tricks"][0]["cards"][0] == [1, "AH"]


@pytest.mark.parametrize(("extra", "message"), [
    (["--hand", "1=AH 7H"], "--hand 1: 2 cards given; a hand holds 3 (R2)"),
    (["--hand", "9=AH 7H KC"], "--hand 9: there is no seat 9 at a table of 5 (seats 0..4)"),
    (["--hand", "x=AH 7H KC"], "--hand x: 'x' is not a seat number; seats are 0..4"),
    (["--hand", "1AH"], "--hand '1AH': expected SEAT=CARDS"),
    (["--hand", "1=AH 7H ZZ"], "--hand 1: unknown card 'ZZ'"),
    (["--hand", "1=AH 7H KC", "--hand", "1=2C 3C 4C"], "--hand 1: seat 1's hand is given twice"),
    (["--hand", "1=AH 7H KC", "--hand", "2=AH 2C 3C"], "AH is given in --hand 1 and in --hand 2"),
    (["--hand", "1=AH AH KC"], "AH is given twice in --hand 1"),
    (["--hand", "1=AH 7H KC", "--indicator", "7H"], "7H is given in --hand 1 and in --indicator"),
    (["--hand", "1=AH 7H KC", "--miss", "2C 3C 4C"], "--miss: a clean pot is a single pot: no miss is dealt (R8)"),
    (["--carried", "3", "--miss", "2C 3C"], "--miss: 2 cards given; the miss holds 3 (R5)"),
    (["--indicator", "4H 5H"], "--indicator: one card, got 2"),
    (["--stock", " ".join(["2C"] * 40)], "--stock: 40 cards given; the stock holds 36 (R2)"),
    (["--hand", "1=AH 7H KC", "--deck", "AH"], "--deck: give the whole deck or the cards seen"),
    (["--seed", "1", "--declare", "1=fold"], "--declare 1: 'fold' is not a declaration"),
    (["--seed", "1", "--declare", "1=play,1=pass"], "--declare 1: seat 1 is scripted twice"),
    (["--seed", "1", "--declare", "play"], "--declare 'play': expected SEAT=DECLARATION"),
    (["--seed", "1", "--play", "1:AH | "], "--play: trick 2 is empty"),
    (["--seed", "1", "--play", "1:AH 1:KH"], "--play trick 1: seat 1 plays twice in one trick"),
    (["--seed", "1", "--play", "7:AH"], "--play trick 1: there is no seat 7"),
    (["--seed", "1", "--play", "1:XX"], "--play trick 1: unknown card 'XX'"),
])  # fmt: skip
def test_bad_input_is_one_error_line(capsys, extra, message):
    rc, out, err = cli(capsys, "replay", "-p", "classic-limited", *extra)
    assert rc == 2 and out == ""
    assert err.startswith(f"error: {message}") and err.count("\n") == 1, err


def test_r5_irish_deals_no_miss_and_no_indicator(capsys):
    rc, _, err = cli(capsys, "replay", "-p", "irish", "--indicator", "4H")
    assert rc == 2 and err == "error: --indicator: trump = first_lead turns no indicator (R6)\n"
    rc, _, err = cli(capsys, "replay", "-p", "irish", "--miss", "2C 3C 4C")
    assert rc == 2 and err == "error: --miss: these rules deal no miss (miss = false, R5)\n"


def test_play_script_longer_than_the_deal(capsys):
    rc, _, err = cli(capsys, *R12, *R12_PLAY[:1], R12_PLAY[1] + " | 1:AS")
    assert rc == 2 and "--play scripts trick 4, but the deal has 3 tricks" in err


def test_parse_play_without_seats():
    assert parse_play("AH 9H | 7h", 5) == [[(None, parse_card("AH")), (None, parse_card("9H"))],
                                           [(None, parse_card("7H"))]]  # fmt: skip


DEALS = """
preset = "classic-limited"

[[deal]]
name = "R12 worked example"
dealer = 0
carried = 9
indicator = "4♥"
declare = "1=play,2=play,3=play,4=pass,0=pass"
play = "1:AH 2:9H 3:2H | 1:7H 2:KH 3:2D | 2:5C 3:3D 1:KC"
[deal.hands]
1 = "A♥ 7♥ K♣"
2 = "9H KH 5C"
3 = "2H 2D 3D"

[[deal]]
name = "under-played"
carried = 9
indicator = "4H"
declare = { 1 = "play", 2 = "play", 3 = "pass", 4 = "pass", 0 = "pass" }
play = ["1:AH 2:9H", "1:7H 2:5H"]
[deal.hands]
1 = "AH 7H KC"
2 = "9H 5H QH"

[[deal]]
name = "policies decide the rest"
seed = 5
declare = "1=play"
"""


def test_check_reports_each_deal(capsys, tmp_path):
    path = tmp_path / "evening.toml"
    path.write_text(DEALS, encoding="utf-8")
    rc, out, err = cli(capsys, "check", str(path))
    assert rc == 1 and err == ""
    lines = out.splitlines()
    assert lines[0] == ("deal 1 (R12 worked example): all legal (14 scripted actions); pot 12; shares: seat 1 8, "
                        "seat 2 4; looed: seat 3 pays 3; next pot 3 carried + 3 antes = 6")  # fmt: skip
    assert lines[1] == ("deal 2 (under-played): illegal: trick 2, 5H: seat 2 must head the trick with QH (R7: follow "
                        "suit and head the trick)")  # fmt: skip
    assert lines[2].startswith("deal 3 (policies decide the rest): all legal (1 scripted actions)")
    assert lines[3] == "1 of 3 deals hold an illegal action"
    path.write_text(DEALS.split('[[deal]]\nname = "under')[0], encoding="utf-8")
    rc, out, _ = cli(capsys, "check", str(path), "--trace", "--why")
    assert rc == 0 and out.splitlines()[-1] == "1 deal checked: all legal"
    assert "Next deal's pot: 3 carried + the next dealer's ante 3 = 6 (R3)" in out and "why: seat 1" in out


@pytest.mark.parametrize(("text", "message"), [
    ('[[deal]]\nhnds = 1\n', "deal 1: unknown field 'hnds'"),
    ('colour = "red"\n', "unknown field 'colour'"),
    ('x = [\n', "not valid TOML"),
    ('deal = 3\n', "'deal' must be [[deal]] tables"),
    ('[[deal]]\nname = "x"\n[deal.hands]\n1 = "AH 7H KC"\n2 = "AH 2C 3C"\n',
     "deal 1 (x): AH is given in hands.1 and in hands.2"),
    ('preset = "classic-limited"\nmiss = "2C 3C 4C"\n', "deal 1: miss: a clean pot is a single pot"),
    ('declare = "1=maybe"\n', "deal 1: declare 1: 'maybe' is not a declaration"),
    ('dealer = 7\n', "deal 1: dealer: seat 7 does not exist"),
    ('rules = { players = 9 }\n', "deal 1: players"),
    ('hands = "AH"\n', "deal 1: hands: expected a table"),
    ('seed = 5\n', "deal 1: nothing to check"),
    ('play = 3\n', "deal 1: play: expected"),
])  # fmt: skip
def test_check_bad_files_are_one_error_line(capsys, tmp_path, text, message):
    path = tmp_path / "deal.toml"
    path.write_text(text, encoding="utf-8")
    rc, out, err = cli(capsys, "check", str(path))
    assert rc == 2 and out == ""
    assert err.startswith(f"error: {path}: {message}") and err.count("\n") == 1, err


def test_check_missing_file(capsys, tmp_path):
    rc, out, err = cli(capsys, "check", str(tmp_path / "none.toml"))
    assert rc == 2 and out == "" and err.startswith("error: ") and "no such file" in err
