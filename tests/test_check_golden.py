"""Scripted deals checked by the rules, worked out by hand (``loo-sim check``, ``replay
--play``; docs/rules.md R3, R7, R9, R12):

- R9 Pam be civil: after the ace of trumps is led, the holder of Pam plays as if Pam were
  not in the hand, *unless Pam is the last card*: Pam as the last card is legal (and, the
  highest trump, wins the trick); Pam beside another card is refused;
- a deal file's top-level fields are defaults: a ``[[deal]]``'s own fields win over them.
"""

from __future__ import annotations

import json

from loo_sim.cli import main

# Five-card Pam-Loo at three seats, without the exchange and the flushes (so the hands
# entered are the hands played); dealer 0 passes, seats 1 and 2 play; hearts are trumps
# (5H turned up). Seat 1 leads its four spades, seat 2 follows with four low spades, and
# seat 1 leads the ace of trumps to the last trick, to which seat 2's last card is Pam.
CIVIL_RULES = ["-p", "five-card", "--set", "players=3", "--set", "exchange=false", "--set", "flush=false",
               "--set", "bold_stand=off"]  # fmt: skip
LAST_CARD = dict(hands={1: "AS KS QS JS AH", 2: "2S 3S 4S 5S JC"},
                 play="1:AS 2:2S | 1:KS 2:3S | 1:QS 2:4S | 1:JS 2:5S | 1:AH 2:JC")  # fmt: skip
# the same, but seat 2 keeps 5S to the last trick: at trick 4 Pam is not its last card
NOT_LAST = dict(hands={1: "AS KS QS AH 2D", 2: "2S 3S 4S JC 5S"}, play="1:AS 2:2S | 1:KS 2:3S | 1:QS 2:4S | 1:AH 2:JC")
CIVIL = "R9: Pam be civil: the ace of trumps was led, so Pam is held back unless it is the last card"


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    captured = capsys.readouterr()
    return rc, captured.out, captured.err


def replay_args(deal: dict) -> list[str]:
    hands = [a for seat, cards in deal["hands"].items() for a in ("--hand", f"{seat}={cards}")]
    return ["replay", *CIVIL_RULES, "--dealer", "0", *hands, "--indicator", "5H", "--declare", "1=play,2=play,0=pass",
            "--play", deal["play"]]  # fmt: skip


def toml_deal(name: str, deal: dict) -> str:
    hands = "\n".join(f'{seat} = "{cards}"' for seat, cards in deal["hands"].items())
    return (f'[[deal]]\nname = "{name}"\ndealer = 0\nindicator = "5H"\ndeclare = "1=play,2=play,0=pass"\n'
            f'play = "{deal["play"]}"\n[deal.hands]\n{hands}\n')  # fmt: skip


def test_pam_as_the_last_card_may_follow_the_ace_of_trumps_r9(capsys):
    """Antes 5 each: a pot of 15, a trick worth 3. Seat 1 takes the four spade tricks
    (12); Pam, the highest trump, takes the last (3). Nobody is looed."""
    rc, out, err = cli(capsys, *replay_args(LAST_CARD), "--json")
    assert rc == 0 and err == "", err
    rec = json.loads(out)
    assert rec["tricks"][4]["cards"] == [[1, "AH"], [2, "JC"]]
    assert rec["pot_start"] == 15 and rec["shares"] == [0, 12, 3] and rec["penalties"] == [0, 0, 0]


def test_pam_beside_another_card_may_not_follow_the_ace_of_trumps_r9(capsys):
    rc, out, err = cli(capsys, *replay_args(NOT_LAST))
    assert rc == 2 and out == ""
    assert err == f"error: illegal: trick 4, JC: seat 2 may not play Pam (JC) to this trick ({CIVIL})\n"


def test_check_file_with_pam_be_civil_both_ways_r9(capsys, tmp_path):
    rules = 'preset = "five-card"\nrules = { players = 3, exchange = false, flush = false, bold_stand = "off" }\n'
    path = tmp_path / "civil.toml"
    path.write_text(rules + toml_deal("last card", LAST_CARD) + toml_deal("not the last", NOT_LAST), encoding="utf-8")
    rc, out, err = cli(capsys, "check", str(path))
    lines = out.splitlines()
    assert rc == 1 and err == ""
    assert lines[0].startswith("deal 1 (last card): all legal (13 scripted actions); pot 15; shares: seat 1 12, "
                               "seat 2 3"), lines[0]  # fmt: skip
    assert lines[1] == (
        f"deal 2 (not the last): illegal: trick 4, JC: seat 2 may not play Pam (JC) to this trick ({CIVIL})"
    )


# ---- a deal's own fields win over the file's defaults --------------------------------------------
# R12 (seed 001 §08), as tests/test_replay_input.py plays it: classic-limited, dealer 0 antes 3
# onto 9 carried (a double pot of 12); seat 1 wins 2 tricks (8), seat 2 one (4), seat 3 none
# (looed: pays the limited penalty 3, which stays in the pot for the next deal).
R12 = """
[[deal]]
name = "R12"
preset = "classic-limited"
dealer = 0
carried = 9
seed = 0
indicator = "4H"
declare = "1=play,2=play,3=play,4=pass,0=pass"
play = "1:AH 2:9H 3:2H | 1:7H 2:KH 3:2D | 2:5C 3:3D 1:KC"
[deal.hands]
1 = "AH 7H KC"
2 = "9H KH 5C"
3 = "2H 2D 3D"
"""
# defaults that differ from every field R12 sets (a three-card table, dealer 3, a clean pot,
# another seed, other declarations and cards)
DEFAULTS = """
preset = "three-card"
dealer = 3
carried = 0
seed = 77
indicator = "2C"
declare = "1=pass"
play = "1:2C"
"""


def test_a_deals_own_fields_win_over_the_files_defaults(capsys, tmp_path):
    path = tmp_path / "defaults.toml"
    path.write_text(DEFAULTS + R12, encoding="utf-8")
    rc, out, err = cli(capsys, "check", str(path))
    assert (rc, err) == (0, ""), out + err
    assert out.splitlines()[0] == ("deal 1 (R12): all legal (14 scripted actions); pot 12; shares: seat 1 8, seat 2 4; "
                                   "looed: seat 3 pays 3; next pot 3 carried + 3 antes = 6")  # fmt: skip


def test_a_deal_without_a_field_takes_the_files_default(capsys, tmp_path):
    """The same R12 deal with its preset, dealer and carried pot given once at the top."""
    top = 'preset = "classic-limited"\ndealer = 0\ncarried = 9\n'
    deal = "\n".join(line for line in R12.splitlines() if not line.startswith(("preset", "dealer", "carried")))
    path = tmp_path / "shared.toml"
    path.write_text(top + deal, encoding="utf-8")
    rc, out, err = cli(capsys, "check", str(path))
    assert (rc, err) == (0, ""), out + err
    assert out.splitlines()[0].startswith("deal 1 (R12): all legal (14 scripted actions); pot 12; shares: seat 1 8, ")
