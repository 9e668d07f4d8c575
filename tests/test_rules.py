"""Rule sets: the presets of docs/rules.md R11, overrides, and the refused combinations
of R1 and R11 (messages that name the option and the allowed values)."""

import pytest

from loo_sim.base.errors import LooError
from loo_sim.game.rules import (
    PRESETS,
    VARIANT_DEFAULTS,
    AntePayer,
    BoldStand,
    FinalPot,
    Lead,
    Penalty,
    Rules,
    Trump,
    Void,
)

# ---- The R11 table, copied by hand from docs/rules.md ----------------------------------------
COLUMNS = ("three-card", "five-card", "irish", "irish-classic", "classic-limited")
R11_TABLE = {
    #                  three-card         five-card          irish              irish-classic      classic-limited
    "players":        (5,                 5,                 5,                 5,                 5),
    "hand_size":      (3,                 5,                 3,                 3,                 3),
    "miss":           (True,              False,             False,             False,             True),
    "trump":          ("turn_up",         "turn_up",         "first_lead",      "turn_up",         "turn_up"),
    "ante":           (3,                 5,                 3,                 3,                 3),
    "ante_payer":     ("each",            "each",            "each",            "each",            "dealer"),
    "penalty":        ("unlimited",       "unlimited",       "unlimited",       "unlimited",       "limited"),
    "penalty_amount": (3,                 5,                 3,                 3,                 3),
    "bold_stand":     ("last_and_dealer", "last_and_dealer", "last_and_dealer", "off",             "off"),
    "single_pot":     (False,             False,             False,             False,             True),
    "dealer_defends": (False,             False,             False,             False,             True),
    "lead":           ("free",            "free",            "free",            "free",            "trump"),
    "void":           ("must_trump",      "must_trump",      "must_trump",      "must_trump",      "trump_to_win"),
    "pam":            (False,             True,              False,             False,             False),
    "pam_be_civil":   (False,             True,              False,             False,             False),
    "exchange":       (False,             True,              False,             True,              False),
    "flush":          (False,             True,              False,             False,             False),
    "club_law":       (False,             False,             False,             True,              False),
}  # fmt: skip
BASE = {name: {opt: row[i] for opt, row in R11_TABLE.items()} for i, name in enumerate(COLUMNS)}
# R9c's variants: off in every preset
R9C_DEFAULTS = {
    "ace_lead_king": False, "dealer_takes_all_pass": False, "dealer_takes_miss": False, "pam_flush": True,
    "flush_spares_pam": False, "flush_spares_flushes": False, "flush_loos_all": False,
    "flush_tie": "elder", "exchange_timing": "after_all",
}  # fmt: skip
assert R9C_DEFAULTS == VARIANT_DEFAULTS
BASE = {name: values | R9C_DEFAULTS for name, values in BASE.items()}
# Derived presets (R11: only the differences).
EXPECTED = dict(BASE)
EXPECTED["limited"] = BASE["three-card"] | {"penalty": "limited"}
EXPECTED["unlimited"] = dict(BASE["three-card"])
EXPECTED["bold-stand"] = BASE["three-card"] | {"bold_stand": "everyone"}
EXPECTED["mississippi"] = dict(BASE["three-card"])
EXPECTED["pam-loo"] = dict(BASE["five-card"])

ALL_PRESETS = sorted(EXPECTED)
# Every option of docs/rules.md: the R11 table plus R10's session options.
ALL_OPTIONS = set(R11_TABLE) | {"bankroll", "final_pot"} | set(R9C_DEFAULTS)


def test_r11_there_are_exactly_ten_presets():
    assert len(ALL_PRESETS) == 10
    assert set(PRESETS) == set(ALL_PRESETS)


@pytest.mark.parametrize("name", ALL_PRESETS)
def test_r11_preset_has_exactly_the_table_values(name):
    rules = Rules.preset(name)
    got = rules.to_dict()
    assert set(got) == ALL_OPTIONS
    for option, want in EXPECTED[name].items():
        have = got[option]
        assert have == want, f"{name}: {option} is {have!r}, R11 says {want!r}"
        if isinstance(want, bool):
            assert have is want, f"{name}: {option} should be a bool"
        assert getattr(rules, option) == want


@pytest.mark.parametrize("name", ALL_PRESETS)
def test_r10_presets_leave_bankroll_unset(name):
    rules = Rules.preset(name)
    assert rules.bankroll is None  # R10: bankroll default none
    assert rules.final_pot in ("share", "discard")


def test_r11_default_preset_is_three_card():
    assert Rules.preset() == Rules.preset("three-card")


def test_r11_derived_presets_equal_their_base():
    assert Rules.preset("unlimited") == Rules.preset("three-card")
    assert Rules.preset("mississippi") == Rules.preset("three-card")
    assert Rules.preset("pam-loo") == Rules.preset("five-card")
    assert Rules.preset("limited") == Rules.preset("three-card", penalty="limited")
    assert Rules.preset("bold-stand") == Rules.preset("three-card", bold_stand="everyone")


# ---- overrides ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "preset, option, given, want",
    [
        ("three-card", "penalty", "limited", "limited"),
        ("three-card", "penalty", Penalty.LIMITED, "limited"),
        ("irish", "trump", "turn_up", "turn_up"),
        ("irish", "trump", Trump.TURN_UP, "turn_up"),
        ("three-card", "trump", "first_renounce", "first_renounce"),
        ("irish", "miss", "true", True),
        ("three-card", "miss", "false", False),
        ("five-card", "exchange", "false", False),
        ("five-card", "pam", "false", False),
        ("three-card", "club_law", "true", True),
        ("three-card", "players", "6", 6),
        ("three-card", "players", 8, 8),
        ("three-card", "players", "3", 3),
        ("three-card", "ante", "4.5", 4.5),
        ("three-card", "ante", "0", 0),
        ("limited", "penalty_amount", "7", 7),
        ("limited", "penalty", "capped", "capped"),  # R9c
        ("three-card", "penalty", Penalty.CAPPED, "capped"),
        ("three-card", "ante_payer", "dealer", "dealer"),
        ("three-card", "ante_payer", AntePayer.DEALER, "dealer"),
        ("three-card", "bold_stand", "everyone", "everyone"),
        ("three-card", "bold_stand", BoldStand.OFF, "off"),
        ("classic-limited", "lead", "classic", "classic"),
        ("three-card", "lead", Lead.ACE, "ace"),
        ("three-card", "void", "trump_to_win", "trump_to_win"),
        ("three-card", "void", Void.TRUMP_TO_WIN, "trump_to_win"),
        ("three-card", "single_pot", "true", True),
        ("three-card", "dealer_defends", "true", True),
        ("three-card", "bankroll", "20", 20),
        ("three-card", "bankroll", "none", None),
        ("three-card", "final_pot", "discard", "discard"),
        ("three-card", "final_pot", FinalPot.SHARE, "share"),
    ],
)
def test_r11_override_by_keyword(preset, option, given, want):
    rules = Rules.preset(preset, **{option: given})
    assert getattr(rules, option) == want
    if isinstance(want, bool):
        assert getattr(rules, option) is want
    # every other option keeps the preset's value
    base = Rules.preset(preset).to_dict()
    got = rules.to_dict()
    for other in ALL_OPTIONS - {option}:
        assert got[other] == base[other], other


def test_r11_overrides_one_by_one_keep_the_rest_of_the_table():
    rules = Rules.preset("classic-limited", players=6, lead="classic")
    want = EXPECTED["classic-limited"] | {"players": 6, "lead": "classic"}
    got = rules.to_dict()
    for option, value in want.items():
        assert got[option] == value, option


def test_r11_numbers_as_strings_get_their_types():
    rules = Rules.preset("three-card", players="7", hand_size="3", ante="2", penalty_amount="1.5")
    assert rules.players == 7 and isinstance(rules.players, int)
    assert rules.hand_size == 3 and isinstance(rules.hand_size, int)
    assert rules.ante == 2
    assert rules.penalty_amount == 1.5


def test_r11_five_card_via_overrides_of_three_card():
    rules = Rules.preset("three-card", hand_size=5, miss=False, pam=True, exchange=True, flush=True)
    assert rules.hand_size == 5 and rules.pam and rules.flush


def test_replace_validates_too():
    rules = Rules.preset("three-card")
    assert rules.replace(players=4).players == 4
    with pytest.raises(LooError, match="players"):
        rules.replace(players=9)
    with pytest.raises(LooError, match="colour"):
        rules.replace(colour="red")


# ---- refused combinations (R1, R11) ---------------------------------------------------
# (preset, overrides, the option the message must name, an allowed value it must give)
REFUSED = [
    pytest.param("three-card", {"players": 2}, "players", ["3", "8"], id="r11_players_2"),
    pytest.param("three-card", {"players": 9}, "players", ["3", "8"], id="r11_players_9"),
    pytest.param("classic-limited", {"players": "0"}, "players", ["3", "8"], id="r11_players_0"),
    pytest.param("three-card", {"hand_size": 4}, "hand_size", ["3", "5"], id="r11_hand_size_4"),
    pytest.param("irish", {"hand_size": 4}, "hand_size", ["3", "5"], id="r11_hand_size_4_no_miss"),
    pytest.param("five-card", {"miss": True}, "miss", ["false"], id="r11_miss_with_five_card"),
    pytest.param("five-card", {"miss": True, "exchange": False}, "miss", ["false"], id="r11_miss_five_no_exchange"),
    pytest.param("three-card", {"hand_size": 5}, "miss", ["false"], id="r11_three_card_hand_size_5_keeps_miss"),
    pytest.param("three-card", {"exchange": True}, "miss", ["exchange"], id="r11_miss_with_exchange"),
    pytest.param("irish-classic", {"miss": True}, "miss", ["exchange"], id="r11_irish_classic_with_miss"),
    pytest.param("three-card", {"pam": True}, "pam", ["false"], id="r1_pam_with_three_card"),
    pytest.param("irish-classic", {"pam": True}, "pam", ["false"], id="r1_pam_with_three_card_no_miss"),
    pytest.param("five-card", {"hand_size": 3, "flush": False}, "pam", ["false"], id="r1_five_card_cut_to_three"),
    pytest.param("three-card", {"flush": True}, "flush", ["false"], id="r9_flush_with_three_card"),
    pytest.param("five-card", {"hand_size": 3, "pam": False}, "flush", ["false"], id="r9_flush_five_cut_to_three"),
    pytest.param("five-card", {"trump": "first_lead"}, "pam", ["turn_up", "false"], id="r1_pam_with_first_lead"),
    pytest.param("five-card", {"trump": "first_renounce"}, "pam", ["turn_up", "false"], id="r1_pam_first_renounce"),
    pytest.param("five-card", {"single_pot": True}, "pam", ["single_pot", "false"], id="r1_pam_with_single_pot"),
    pytest.param(
        "three-card", {"miss": False, "dealer_defends": True}, "dealer_defends", ["false"], id="r8_dd_no_miss"
    ),
    pytest.param("classic-limited", {"miss": False}, "dealer_defends", ["false"], id="r8_classic_limited_no_miss"),
    pytest.param("irish", {"dealer_defends": True}, "dealer_defends", ["false"], id="r8_irish_dealer_defends"),
    pytest.param("irish", {"club_law": True}, "club_law", ["turn_up", "false"], id="r9b_club_law_first_lead"),
    pytest.param("irish-classic", {"trump": "first_lead"}, "club_law", ["turn_up"], id="r9b_irish_classic_first_lead"),
    pytest.param("irish-classic", {"trump": "first_renounce"}, "club_law", ["turn_up"], id="r9b_club_first_renounce"),
]


@pytest.mark.parametrize("preset, overrides, option, allowed", REFUSED)
def test_r11_refused_combination_names_option_and_allowed_values(preset, overrides, option, allowed):
    with pytest.raises(LooError) as e:
        Rules.preset(preset, **overrides)
    msg = str(e.value)
    assert option in msg, msg
    assert "allowed" in msg.lower(), msg
    for value in allowed:
        assert value in msg, msg
    assert "\n" not in msg


@pytest.mark.parametrize("preset, overrides, option, allowed", REFUSED)
def test_r11_refused_combination_refused_when_built_directly(preset, overrides, option, allowed):
    values = Rules.preset(preset).to_dict() | overrides
    with pytest.raises(LooError, match=option):
        Rules(**values)


def test_r11_pam_be_civil_without_pam_is_accepted():
    assert Rules.preset("three-card", pam_be_civil=True).pam_be_civil is True
    five_no_pam = Rules.preset("five-card", pam=False)
    assert five_no_pam.pam is False and five_no_pam.pam_be_civil is True
    assert Rules.preset("irish", pam_be_civil="true").pam_be_civil is True


def test_r11_limits_of_players_are_accepted():
    for n in range(3, 9):
        assert Rules.preset("three-card", players=n).players == n
        assert Rules.preset("classic-limited", players=n).players == n


@pytest.mark.parametrize(
    "option, value, allowed",
    [
        ("penalty", "unlimted", ["unlimited", "limited"]),
        ("trump", "up", ["turn_up", "first_lead", "first_renounce"]),
        ("ante_payer", "all", ["each", "dealer"]),
        ("bold_stand", "on", ["off", "last_and_dealer", "everyone"]),
        ("lead", "any", ["free", "ace", "trump", "classic"]),
        ("void", "trump", ["must_trump", "trump_to_win"]),
        ("final_pot", "keep", ["share", "discard"]),
        ("miss", "maybe", ["true", "false"]),
    ],
)
def test_r11_bad_value_names_option_and_allowed_values(option, value, allowed):
    with pytest.raises(LooError) as e:
        Rules.preset("three-card", **{option: value})
    msg = str(e.value)
    assert option in msg and value in msg
    for a in allowed:
        assert a in msg


@pytest.mark.parametrize(
    "option, value", [("players", "five"), ("players", "4.5"), ("hand_size", "x"), ("ante", "lots"), ("ante", "-1")]
)
def test_r11_bad_number_is_refused(option, value):
    with pytest.raises(LooError, match=option):
        Rules.preset("three-card", **{option: value})


def test_r11_unknown_option_is_refused_with_the_allowed_list():
    with pytest.raises(LooError) as e:
        Rules.preset("three-card", colour="red")
    msg = str(e.value)
    assert "colour" in msg
    for option in ("players", "penalty", "club_law"):
        assert option in msg


def test_r11_unknown_preset_is_refused_with_the_allowed_list():
    with pytest.raises(LooError) as e:
        Rules.preset("four-card")
    msg = str(e.value)
    assert "four-card" in msg
    for name in ALL_PRESETS:
        assert name in msg


# ---- render ---------------------------------------------------------------------------
def _shown(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


@pytest.mark.parametrize("name", ALL_PRESETS)
def test_r11_render_lists_every_option_with_its_value(name):
    text = Rules.preset(name).render()
    rows = {}
    for line in text.splitlines():
        parts = line.split()
        if parts:
            rows[parts[0]] = parts[1]
    assert set(rows) == ALL_OPTIONS
    for option, want in EXPECTED[name].items():
        assert rows[option] == _shown(want), f"{name}: {option}"
    assert rows["bankroll"] == "none"


def test_r11_render_shows_overrides():
    text = Rules.preset("classic-limited", players=6, lead="classic", bankroll=50).render()
    rows = {line.split()[0]: line.split()[1] for line in text.splitlines() if line.strip()}
    assert rows["players"] == "6"
    assert rows["lead"] == "classic"
    assert rows["bankroll"] == "50"


# ---- R8 derived fact --------------------------------------------------------------------
def test_r8_single_pot_only_on_a_clean_pot_with_single_pot_on():
    cl = Rules.preset("classic-limited")
    assert cl.is_single_pot(0) is True
    assert cl.is_single_pot(3) is False
    assert Rules.preset("three-card").is_single_pot(0) is False
