"""The ``loo-sim`` command line: ``rules`` and ``replay`` (docs/rules.md R2, R11, R13), and bad
input as one ``error:`` line on stderr with a non-zero exit (docs/design.md property 8)."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from loo_sim.base.rng import shuffled_deck
from loo_sim.cli import main
from loo_sim.game.cards import card_str, deck_str

PRESET_NAMES = [
    "three-card", "five-card", "irish", "irish-classic", "classic-limited",
    "limited", "unlimited", "bold-stand", "mississippi", "pam-loo",
]  # fmt: skip
RECORD_KEYS = {
    "trump", "indicator", "single_pot", "declarations", "tricks", "tricks_won", "flush_winner",
    "looed", "shares", "penalties", "antes", "pot_start", "pot_next",
}  # fmt: skip
# Every option of docs/rules.md (R11 table and R10).
ALL_OPTIONS = (
    "players", "hand_size", "miss", "trump", "ante", "ante_payer", "penalty", "penalty_amount", "bold_stand",
    "single_pot", "dealer_defends", "lead", "void", "pam", "pam_be_civil", "exchange", "flush", "club_law",
    "ace_lead_king", "dealer_takes_all_pass", "dealer_takes_miss", "pam_flush", "flush_spares_pam",
    "flush_spares_flushes", "flush_loos_all", "flush_tie", "exchange_timing", "bankroll",
    "final_pot",
)  # fmt: skip
CARD = re.compile(r"^[2-9TJQKA][CDHS]$")


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    captured = capsys.readouterr()
    return rc, captured.out, captured.err


def replay_json(capsys, *argv: str) -> dict:
    rc, out, err = cli(capsys, "replay", *argv, "--json")
    assert rc == 0, err
    return json.loads(out)


def canonical_deal(deck: list[int], dealer: int, players: int, hand_size: int, miss: bool):
    """R2: round by round from the dealer's left, the miss just before the dealer, then
    the indicator."""
    order = [(dealer + 1 + i) % players for i in range(players)]
    hands: dict[int, list[int]] = {s: [] for s in order}
    miss_cards: list[int] = []
    cards = iter(deck)
    for _ in range(hand_size):
        for seat in order:
            if seat == dealer and miss:
                miss_cards.append(next(cards))
            hands[seat].append(next(cards))
    return hands, miss_cards, next(cards)


# ---- rules ------------------------------------------------------------------------------
def test_r11_rules_lists_all_ten_presets(capsys):
    rc, out, err = cli(capsys, "rules")
    assert rc == 0 and err == ""
    listed = {line.split()[0] for line in out.splitlines()[1:] if line.strip()}
    assert listed == set(PRESET_NAMES)


def option_rows(text: str) -> dict[str, str]:
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^\s+([a-z_]+)\s+(\S+)", line)
        if m:
            rows[m.group(1)] = m.group(2)
    return rows


def test_r11_rules_classic_limited_with_players_6(capsys):
    rc, out, err = cli(capsys, "rules", "classic-limited", "--set", "players=6")
    assert rc == 0, err
    rows = option_rows(out)
    assert rows["players"] == "6"
    # the rest is classic-limited as in the R11 table
    assert rows["ante_payer"] == "dealer"
    assert rows["penalty"] == "limited"
    assert rows["single_pot"] == "true"
    assert rows["dealer_defends"] == "true"
    assert rows["lead"] == "trump"
    assert rows["void"] == "trump_to_win"


def test_r11_rules_with_several_sets(capsys):
    rc, out, err = cli(capsys, "rules", "three-card", "--set", "penalty=limited", "--set", "lead=classic")
    assert rc == 0, err
    rows = option_rows(out)
    assert rows["penalty"] == "limited" and rows["lead"] == "classic"


@pytest.mark.parametrize(
    ("argv", "warning"),
    [
        # R9c: seed 001 plays classic-limited with 5 to 8 players
        (["classic-limited", "--set", "players=4"],
         "warning: classic-limited is played by 5 to 8 players (seed 001); playing with 4"),
        (["classic-limited", "--set", "players=3"],
         "warning: classic-limited is played by 5 to 8 players (seed 001); playing with 3"),
        # seed 000's five-card antes go in fives
        (["five-card", "--set", "ante=3"],
         "warning: five-card antes are a multiple of 5 (seed 000); playing with ante 3"),
        (["pam-loo", "--set", "ante=7.5"],
         "warning: pam-loo antes are a multiple of 5 (seed 000); playing with ante 7.5"),
    ],
)  # fmt: skip
def test_r9c_a_setting_outside_the_seed_profile_warns_in_one_line_and_plays_on(capsys, argv, warning):
    rc, out, err = cli(capsys, "rules", *argv)
    assert rc == 0, err
    assert err.strip() == warning  # one line, on stderr
    assert "warning" not in out and option_rows(out)  # the rule set is shown as set


@pytest.mark.parametrize(
    "argv",
    [
        ["classic-limited"],  # 5 players
        ["classic-limited", "--set", "players=8"],
        ["five-card", "--set", "ante=10"],
        ["five-card", "--set", "ante=0"],
        ["three-card", "--set", "players=3"],  # no profile range for three-card's players
        ["three-card", "--set", "ante=2"],  # nor for its antes
        ["five-card", "--set", "players=3"],
    ],
)
def test_r9c_no_warning_inside_the_seed_profile(capsys, argv):
    rc, out, err = cli(capsys, "rules", *argv)
    assert rc == 0, err
    assert err == ""


def test_r9c_the_profile_warning_also_comes_from_the_study_commands(capsys):
    # simulate builds its rule set in the study runner, not in build_rules: warned there too
    rc, out, err = cli(capsys, "simulate", "--preset", "classic-limited", "--set", "players=4", "--deals", "200",
                       "--threads", "1")  # fmt: skip
    assert rc == 0, err
    assert err.count("warning: classic-limited is played by 5 to 8 players (seed 001); playing with 4") == 1
    rc, out, err = cli(capsys, "simulate", "--preset", "classic-limited", "--deals", "200", "--threads", "1")
    assert rc == 0 and "warning" not in err


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_r11_rules_of_each_preset_shows_every_option(capsys, name):
    rc, out, err = cli(capsys, "rules", name)
    assert rc == 0, err
    rows = option_rows(out)
    for option in ALL_OPTIONS:
        assert option in rows, option


# ---- replay -----------------------------------------------------------------------------
def test_r2_replay_trace_three_card_seed_1(capsys):
    rc, out, err = cli(capsys, "replay", "--preset", "three-card", "--seed", "1")
    assert rc == 0 and err == ""
    lines = out.splitlines()
    # --seed 1 --deal 0: the deck of stream (1, 0), dealer 0 (deal index 0 mod 5)
    deck = shuffled_deck(1, 0)
    hands, miss, indicator = canonical_deal(deck, 0, 5, 3, True)
    shown = {}
    for line in lines:
        if "policy" in line and line.strip().startswith("seat"):
            tokens = line.split()
            shown[int(tokens[1])] = [t for t in tokens if CARD.match(t)]
    assert {s: sorted(c) for s, c in shown.items()} == {s: sorted(card_str(c) for c in h) for s, h in hands.items()}
    miss_line = [line for line in lines if line.strip().startswith("miss")]
    assert len(miss_line) == 1
    assert sorted(miss_line[0].split()[1:]) == sorted(card_str(c) for c in miss)
    assert any(f"Indicator {card_str(indicator)}" in line for line in lines)

    rec = replay_json(capsys, "--preset", "three-card", "--seed", "1")
    # declarations, one a seat
    start = lines.index("Declarations:")
    declared = {}
    for line in lines[start + 1 :]:
        m = re.match(r"^\s+seat (\d+): (play|pass|miss|defend)\b", line)
        if not m:
            break
        declared[int(m.group(1))] = m.group(2)
    assert declared == dict(enumerate(rec["declarations"]))
    # tricks (this deal is played out: three tricks of three-card Loo)
    assert len(rec["tricks"]) == 3
    trick_lines = [line for line in lines if re.match(r"^\s+\d+\. seat \d+ leads:", line)]
    assert len(trick_lines) == 3
    for line, trick in zip(trick_lines, rec["tricks"]):
        assert f"seat {trick['leader']} leads:" in line
        assert line.rstrip().endswith(f"-> seat {trick['winner']}")
        for seat, card in trick["cards"]:
            assert f"{seat} {card}" in line
    pot_line = [line for line in lines if line.startswith("Pot carried to the next deal:")]
    assert len(pot_line) == 1
    assert float(pot_line[0].split(":")[1]) == rec["pot_next"]


def test_r13_replay_json_has_exactly_the_record_keys(capsys):
    rec = replay_json(capsys, "--preset", "three-card", "--seed", "1")
    assert set(rec) == RECORD_KEYS
    assert len(rec) == 13


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_r3_replay_json_is_consistent_with_the_rules(capsys, preset):
    rec = replay_json(capsys, "--preset", preset, "--seed", "4", "--carried", "6")
    assert set(rec) == RECORD_KEYS
    n = len(rec["declarations"])
    assert n == 5
    for key in ("tricks_won", "shares", "penalties", "antes"):
        assert len(rec[key]) == n
    assert rec["pot_start"] == pytest.approx(6 + sum(rec["antes"]))  # R3
    # chips conserved within the deal: carried + antes = shares + pot_next - penalties
    assert sum(rec["shares"]) + rec["pot_next"] - sum(rec["penalties"]) == pytest.approx(rec["pot_start"])


def test_r2_replay_indicator_is_the_card_after_the_hands(capsys):
    for preset, hand_size, miss in [("three-card", 3, True), ("five-card", 5, False), ("irish-classic", 3, False)]:
        deck = shuffled_deck(12, 2)
        rec = replay_json(capsys, "--preset", preset, "--seed", "12", "--deal", "2", "--dealer", "3")
        _, _, indicator = canonical_deal(deck, 3, 5, hand_size, miss)
        assert rec["indicator"] == card_str(indicator), preset


@pytest.mark.parametrize(
    "preset, seed, deal, extra",
    [
        ("three-card", 1, 0, []),
        ("five-card", 7, 0, []),
        ("classic-limited", 3, 2, ["--carried", "6"]),
        ("irish", 5, 4, ["--policy", "cautious/high"]),
        ("three-card", 9, 1, ["--seat-policy", "2=always/low", "--set", "players=6"]),
    ],
)
def test_r13_replay_deck_equals_replay_seed(capsys, preset, seed, deal, extra):
    players = 6 if "players=6" in extra else 5
    dealer = str(deal % players)
    by_seed = replay_json(capsys, "--preset", preset, "--seed", str(seed), "--deal", str(deal), *extra)
    deck = deck_str(shuffled_deck(seed, deal))
    by_deck = replay_json(capsys, "--preset", preset, "--deck", deck, "--dealer", dealer, *extra)
    assert by_deck == by_seed
    explicit = replay_json(
        capsys, "--preset", preset, "--seed", str(seed), "--deal", str(deal), "--dealer", dealer, *extra
    )
    assert explicit == by_seed


def test_r13_replay_deck_in_lower_case_and_with_10(capsys):
    deck = deck_str(shuffled_deck(2, 0))
    a = replay_json(capsys, "--deck", deck)
    b = replay_json(capsys, "--deck", deck.lower().replace("t", "10"))
    assert a == b


def test_replay_text_with_seed_names_the_deck(capsys):
    rc, out, _ = cli(capsys, "replay", "--seed", "3", "--deal", "1")
    assert rc == 0
    assert deck_str(shuffled_deck(3, 1)) in out


def test_r3_replay_says_when_chips_pass_2_53(capsys):
    # R3: the engine must say plainly (flag or error, never silently) when amounts pass
    # 2**53 and stop being exact. A pot carried in of 1e16 > 2**53.
    rc, out, err = cli(capsys, "replay", "--seed", "1", "--carried", "1e16")
    if rc != 0:
        assert err.startswith("error:") and "Traceback" not in err
    else:
        text = (out + err).lower()
        assert "exact" in text or "2**53" in text or "2^53" in text, "amounts past 2**53 shown silently"


# ---- bad input: one error line, no traceback, non-zero exit ------------------------------
def _deck_cards() -> list[str]:
    return deck_str(shuffled_deck(1, 0)).split()


def _bad_card_deck() -> str:
    cards = _deck_cards()
    cards[7] = "XZ"
    return " ".join(cards)


def _duplicate_deck() -> str:
    cards = _deck_cards()
    cards[-1] = cards[0]
    return " ".join(cards)


BAD = [
    # (argv, a fragment the message must contain)
    pytest.param(["rules", "four-card"], "four-card", id="unknown_preset_rules"),
    pytest.param(["replay", "--preset", "four-card", "--seed", "1"], "four-card", id="unknown_preset_replay"),
    pytest.param(["rules", "three-card", "--set", "colour=red"], "colour", id="unknown_set_option"),
    pytest.param(["replay", "--seed", "1", "--set", "colour=red"], "colour", id="unknown_set_option_replay"),
    pytest.param(["rules", "three-card", "--set", "penalty=unlimted"], "penalty", id="bad_value"),
    pytest.param(["replay", "--seed", "1", "--set", "penalty=unlimted"], "penalty", id="bad_value_replay"),
    pytest.param(["rules", "three-card", "--set", "players=five"], "players", id="bad_number"),
    pytest.param(["rules", "three-card", "--set", "players"], "players", id="set_without_equals"),
    pytest.param(["replay", "--seed", "1", "--set", "penalty"], "penalty", id="set_without_equals_replay"),
    pytest.param(["rules", "--set", "players=6"], "preset", id="set_without_preset"),
    # every refused combination of R1 / R11
    pytest.param(["rules", "three-card", "--set", "players=2"], "players", id="r11_players_2"),
    pytest.param(["rules", "three-card", "--set", "players=9"], "players", id="r11_players_9"),
    pytest.param(["replay", "--seed", "1", "--set", "players=9"], "players", id="r11_players_9_replay"),
    pytest.param(["rules", "three-card", "--set", "hand_size=4"], "hand_size", id="r11_hand_size_4"),
    pytest.param(["rules", "five-card", "--set", "miss=true"], "miss", id="r11_miss_five_card"),
    pytest.param(["rules", "three-card", "--set", "exchange=true"], "miss", id="r11_miss_with_exchange"),
    pytest.param(["rules", "irish-classic", "--set", "miss=true"], "miss", id="r11_irish_classic_miss"),
    pytest.param(["rules", "three-card", "--set", "pam=true"], "pam", id="r1_pam_three_card"),
    pytest.param(["rules", "three-card", "--set", "flush=true"], "flush", id="r9_flush_three_card"),
    pytest.param(["rules", "five-card", "--set", "trump=first_lead"], "pam", id="r1_pam_without_turn_up"),
    pytest.param(
        ["replay", "-p", "five-card", "--seed", "1", "--set", "trump=first_renounce"],
        "pam",
        id="r1_pam_first_renounce_replay",
    ),
    pytest.param(["rules", "five-card", "--set", "single_pot=true"], "pam", id="r1_pam_with_single_pot"),
    pytest.param(
        ["rules", "three-card", "--set", "miss=false", "--set", "dealer_defends=true"],
        "dealer_defends",
        id="r8_dealer_defends_without_miss",
    ),
    pytest.param(["rules", "classic-limited", "--set", "miss=false"], "dealer_defends", id="r8_classic_no_miss"),
    pytest.param(["rules", "irish", "--set", "club_law=true"], "club_law", id="r9b_club_law_without_turn_up"),
    pytest.param(["rules", "irish-classic", "--set", "trump=first_lead"], "club_law", id="r9b_irish_classic_lead"),
    # decks
    pytest.param(["replay", "--deck", _bad_card_deck()], "XZ", id="deck_bad_card"),
    pytest.param(["replay", "--deck", "AS KS 1H"], "1H", id="deck_bad_card_short"),
    pytest.param(["replay", "--deck", " ".join(_deck_cards()[:51])], "52", id="deck_51_cards"),
    pytest.param(["replay", "--deck", " ".join(_deck_cards() + ["AS"])], "52", id="deck_53_cards"),
    pytest.param(["replay", "--deck", _duplicate_deck()], "duplicate", id="deck_duplicate"),
    pytest.param(["replay", "--deck", ""], "52", id="deck_empty"),
    # seats and policies
    pytest.param(["replay", "--seed", "1", "--dealer", "9"], "dealer", id="dealer_9"),
    pytest.param(["replay", "--seed", "1", "--dealer", "5"], "dealer", id="dealer_5_of_5"),
    pytest.param(["replay", "--seed", "1", "--dealer", "x"], "dealer", id="dealer_x"),
    pytest.param(["replay", "--seed", "1", "--dealer", "-1"], "dealer", id="dealer_negative"),
    pytest.param(["replay", "--deck", " ".join(_deck_cards()), "--dealer", "9"], "dealer", id="dealer_9_deck"),
    pytest.param(["replay", "--seed", "1", "--seat-policy", "9=basic"], "9", id="seat_policy_bad_seat"),
    pytest.param(["replay", "--seed", "1", "--seat-policy", "x=basic"], "x", id="seat_policy_seat_x"),
    pytest.param(["replay", "--seed", "1", "--seat-policy", "2:cautious"], "SEAT=POLICY", id="seat_policy_format"),
    pytest.param(["replay", "--seed", "1", "--seat-policy", "2=bogus"], "bogus", id="seat_policy_bad_family"),
    pytest.param(["replay", "--seed", "1", "--policy", "bogus/low"], "bogus", id="policy_bad_family"),
    # --deck / --seed
    pytest.param(["replay", "--seed", "1", "--deck", " ".join(_deck_cards())], "--seed", id="deck_and_seed"),
    pytest.param(["replay"], "--seed", id="neither_deck_nor_seed"),
    pytest.param(["replay", "--preset", "five-card"], "--deck", id="neither_with_preset"),
    pytest.param(["replay", "--seed", "x"], "--seed", id="seed_not_a_number"),
    pytest.param(["replay", "--seed", "-1"], "--seed", id="seed_negative"),
    pytest.param(["replay", "--seed", "1", "--deal", "-2"], "--deal", id="deal_negative"),
    # chips
    pytest.param(["replay", "--seed", "1", "--carried", "-3"], "carried", id="carried_negative"),
    pytest.param(["replay", "--seed", "1", "--carried=-0.5"], "carried", id="carried_negative_eq"),
    pytest.param(["replay", "--seed", "1", "--carried", "lots"], "carried", id="carried_not_a_number"),
    pytest.param(["replay", "--seed", "1", "--carried", "nan"], "carried", id="carried_nan"),
    pytest.param(["replay", "--seed", "1", "--carried", "inf"], "carried", id="carried_inf"),
    # the CLI framework's own usage errors
    pytest.param(["replay", "--seed", "1", "--frobnicate"], "frobnicate", id="unknown_flag"),
    pytest.param(["rules", "--bogus"], "bogus", id="unknown_flag_rules"),
    pytest.param(["replay", "--seed"], "seed", id="flag_without_value"),
    pytest.param(["frobnicate"], "frobnicate", id="unknown_command"),
]


@pytest.mark.parametrize("argv, fragment", BAD)
def test_bad_input_is_one_error_line(capsys, argv, fragment):
    rc, out, err = cli(capsys, *argv)
    assert rc != 0
    assert rc == 2
    assert "Traceback" not in err and "Traceback" not in out
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error:"), err
    assert fragment in lines[0], lines[0]


def test_r11_error_names_the_allowed_values(capsys):
    rc, _, err = cli(capsys, "rules", "three-card", "--set", "penalty=unlimted")
    assert rc == 2
    assert "unlimited" in err and "limited" in err
    rc, _, err = cli(capsys, "rules", "three-card", "--set", "players=9")
    assert "3" in err and "8" in err
    rc, _, err = cli(capsys, "rules", "four-card")
    for name in PRESET_NAMES:
        assert name in err


def test_help_exits_zero(capsys):
    rc, out, _ = cli(capsys, "--help")
    assert rc == 0
    assert "rules" in out and "replay" in out


# ---- real processes ----------------------------------------------------------------------
BIN = Path(sys.executable).parent
LOO_SIM = BIN / "loo-sim"


def run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(list(argv), capture_output=True, text=True, timeout=120)


@pytest.mark.skipif(not LOO_SIM.exists(), reason="loo-sim console script not installed next to this Python")
def test_console_script_rules_and_bad_input():
    proc = run(str(LOO_SIM), "rules")
    assert proc.returncode == 0, proc.stderr
    for name in PRESET_NAMES:
        assert name in proc.stdout
    bad = run(str(LOO_SIM), "replay", "--seed", "1", "--dealer", "9")
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr
    assert len(bad.stderr.splitlines()) == 1 and bad.stderr.startswith("error:")


def test_python_dash_m_replay_json(capsys):
    proc = run(sys.executable, "-m", "loo_sim", "replay", "--preset", "three-card", "--seed", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    rec = json.loads(proc.stdout)
    assert set(rec) == RECORD_KEYS
    assert rec == replay_json(capsys, "--preset", "three-card", "--seed", "1")
    bad = run(sys.executable, "-m", "loo_sim", "replay", "--deck", "AS AS")
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr
    assert len(bad.stderr.splitlines()) == 1 and bad.stderr.startswith("error:")


EXIT_NOW = """
import atexit, sys, threading, time
from pathlib import Path
from loo_sim.cli import exit_now

out = Path(sys.argv[1])
atexit.register(lambda: (out / "atexit").write_text("ran"))
if sys.argv[2] == "thread":  # a non-daemon thread still working: the normal exit joins it
    threading.Thread(target=lambda: (time.sleep(0.3), (out / "thread").write_text("done"))).start()
print("x" * 100_000, end="")  # a buffered stdout is flushed
exit_now(int(sys.argv[3]))
"""


@pytest.mark.parametrize("mode", ["plain", "thread"])
def test_exit_now_keeps_the_exit_code_output_atexit_and_threads(tmp_path, mode):
    proc = run(sys.executable, "-c", EXIT_NOW, str(tmp_path), mode, "3")
    assert proc.returncode == 3, proc.stderr
    assert proc.stdout == "x" * 100_000
    assert (tmp_path / "atexit").read_text() == "ran"
    if mode == "thread":
        assert (tmp_path / "thread").read_text() == "done"


# ---- library errors name the option; the CLI says the flag ------------------------------
FLAGGED = [
    (
        ["replay", "--seed", "1", "--seat-policy", "9=basic"],
        "--seat-policy '9=basic': seat 9 is not a seat; allowed 0..4",
    ),
    (
        ["replay", "--seed", "1", "--seat-policy", "1=basic", "--seat-policy", "2:x"],
        "--seat-policy '2:x': expected SEAT=POLICY",
    ),
    (
        ["replay", "--seed", "1", "--seat-policy", "2=bogus"],
        "--seat-policy '2=bogus': policy 'bogus': unknown declaration",
    ),
    (["rules", "three-card", "--set", "players"], "--set 'players': expected key=value, e.g. penalty=limited"),
    (["rules", "three-card", "--set", "colour=red"], "--set 'colour=red': unknown option 'colour'; allowed players, "),
    (["simulate", "--deals", "0"], "--deals: 0 is not allowed; allowed 1..1000000000000000"),
    (["simulate", "--deals", "2.5"], "--deals: '2.5' is not a whole number; allowed 1..1000000000000000"),
    (["simulate", "--threads", "0"], "--threads: 0 is not allowed; allowed 1.."),
    (["simulate", "--dealer", "x"], "--dealer: 'x' is not a seat number"),
    (["simulate", "--backend", "spark"], "--backend 'spark' is not one of local, dask"),
    (["simulate", "--scheduler", "tcp://127.0.0.1:1"], "--scheduler goes with --backend dask"),
    (["simulate", "--workers", "0"], "--workers: 0 is not allowed; allowed 1..512"),
    (["pots", "--compare", "colour=red"], "--compare 'colour=red': unknown option 'colour'; allowed policy, players"),
    (["miss", "--precision", "0"], "--precision: must be > 0 chips (a 95% half-width)"),
    (["miss", "--players", "4", "--focal", "4"], "--focal: seat 4 does not exist; allowed 0..3"),
]


@pytest.mark.parametrize("argv, message", FLAGGED)
def test_a_bad_value_is_said_with_its_flag(capsys, tmp_path, argv, message):
    rc, out, err = cli(capsys, *argv, *(["--out", str(tmp_path / "o")] if argv[0] in ("miss", "pots") else []))
    assert rc == 2 and out == ""
    assert err.startswith(f"error: {message}") and err.count("\n") == 1, err


def test_library_errors_name_the_option_not_the_flag(tmp_path):
    from loo_sim.base.errors import LooError
    from loo_sim.game.policy import parse_seat_policies
    from loo_sim.game.rules import parse_set
    from loo_sim.report.kinds.pots import parse_compare
    from loo_sim.report.outputs import prepare_out_dir
    from loo_sim.run.backend import make_backend

    blocker = tmp_path / "file"
    blocker.write_text("")
    cases = [
        (lambda: parse_set(["penalty=limited", "players"]), "set[1]", "set[1]: 'players': expected key=value"),
        (
            lambda: parse_seat_policies(None, ["9=basic"], 5),
            "seat_policy[0]",
            "seat_policy[0]: '9=basic': seat 9 is not",
        ),
        (
            lambda: parse_seat_policies(None, {"3": "bogus"}, 5),
            "seat_policy[3]",
            "seat_policy[3]: '3=bogus': policy 'bogus'",
        ),
        (
            lambda: parse_compare(["penalty=limited", "colour=red"]),
            "compare[1]",
            "compare[1]: 'colour=red': unknown option",
        ),
        (lambda: prepare_out_dir(blocker / "sub"), "out", "out: "),
        (lambda: make_backend("spark"), "backend", "backend: 'spark' is not one of local, dask"),
    ]
    for fn, key, start in cases:
        with pytest.raises(LooError) as e:
            fn()
        assert e.value.key == key and str(e.value).startswith(start) and "--" not in str(e.value), str(e.value)


def test_one_seat_policy_parser_for_items_and_tables():
    from loo_sim.game.policy import Policy, parse_seat_policies

    by_items = parse_seat_policies("always", ["1=cautious", "3=basic/high"], 4)
    assert by_items == parse_seat_policies("always", {1: "cautious", "3": "basic/high"}, 4)  # a TOML table: str keys
    assert by_items == [Policy("always"), Policy("cautious"), Policy("always"), Policy("basic", "high")]


def test_whole_numbers_take_exponents_and_underscores(capsys):
    assert replay_json(capsys, "--seed", "1_000", "--deal", "1e1") == replay_json(
        capsys, "--seed", "1000", "--deal", "10"
    )


def test_commands_are_listed_in_order(capsys):
    rc, out, _ = cli(capsys, "--help")
    assert rc == 0
    names = ["rules", "replay", "simulate", "calibrate", "miss", "pots", "variants", "report"]
    positions = [out.index(f" {name} ") for name in names]
    assert positions == sorted(positions)
