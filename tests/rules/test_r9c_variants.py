"""R9c: the rule books' variants, one option at a time (golden deals)."""

from __future__ import annotations

import numpy as np
import pytest

from loo_sim import LooError, Rules, play_deal, play_deals
from loo_sim.game.cards import card_str
from loo_sim.game.decl import Decl
from loo_sim.game.infosets import ACTIONS, N_INFOSETS, SITUATION_MASKS, infoset_parts
from loo_sim.game.policy import Policy
from tests.deckbuild import build_deck
from tests.rules.golden import MONEY, outcome, run, table, trick
from tests.rules.test_r3_r12_worked_example import R12_DECK, R12_POLICY, R12_TRICKS

# --------------------------------------------------------------------------------------
# R9c penalty = capped: each looed player pays min(pot_start, penalty_amount)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("amount", "loo"), [(3, 3.0), (20, 12.0), (12, 12.0)])
def test_r9c_capped_penalty_is_the_smaller_of_pot_and_amount(amount, loo):
    # The R12 deal (pot 12, C = S3 looed): capped pays the fixed amount while it is below
    # the pot (3), and the pot where the amount is above it (20 -> 12); equal: 12.
    d = run("classic-limited", R12_DECK, dealer=0, carried=9, policy=R12_POLICY, penalty="capped",
            penalty_amount=amount)  # fmt: skip
    assert d["tricks"] == R12_TRICKS
    assert outcome(d, *MONEY) == {
        "shares": [0.0, 8.0, 4.0, 0.0, 0.0],
        "penalties": [0.0, 0.0, 0.0, loo, 0.0],
        "looed": [3],
        "antes": [3.0, 0.0, 0.0, 0.0, 0.0],
        "pot_start": 12.0,
        "pot_next": loo,
    }


def test_r9c_capped_penalty_applies_to_flush_loos():
    # five-card, pot 25 (5 antes of 5). S2's trump flush (hearts, 2H turned) takes the pot;
    # S1 and S3 are in the deal and looed by the flush: capped at 25 with penalty_amount
    # 40 (the pot, not 40), and 5 with penalty_amount 5 (the preset's amount).
    deck = build_deck(
        5,
        0,
        {1: "AS KS QS JS TS", 2: "3H 4H 5H 6H 7H", 3: "8H AC 9D 2C 3D", 4: "4C 5C 6D 7D 8D", 0: "6C 7C 9C TD JD"},
        indicator="2H",
    )
    pol = table(5, "cautious/basic/none", s1="always/basic/none", s2="always/basic/none", s3="always/basic/none")
    for amount, loo in ((40, 25.0), (5, 5.0)):
        d = run("five-card", deck, policy=pol, penalty="capped", penalty_amount=amount)
        assert d["flush_winner"] == 2
        assert outcome(d, "looed", "shares", "penalties", "pot_next") == {
            "looed": [1, 3],
            "shares": [0.0, 0.0, 25.0, 0.0, 0.0],
            "penalties": [0.0, loo, 0.0, loo, 0.0],
            "pot_next": 2 * loo,
        }


# --------------------------------------------------------------------------------------
# R9c ace_lead_king = true (with lead = ace): the ace of trumps turned up, a first-trick
# leader holding the king of trumps must lead it
# --------------------------------------------------------------------------------------

# three-card, carried 3 (not clean: no bold stand), dealer S0, indicator AH (hearts
# trumps, the ace out of play). S1 and S2 play "always/low" (lowest-power legal card);
# the others are cautious with no trump and pass.
KING_DECK = build_deck(
    5, 0, {1: "KH 2C 3D", 2: "5H 4C 6D", 3: "2S 3S 4S", 4: "5S 6S 7S", 0: "8S 9S TS"}, miss="7C 8C 9C", indicator="AH"
)
KING_POLICY = table(5, "cautious", s1="always/low", s2="always/low")


@pytest.mark.parametrize(
    ("ace_lead_king", "first"),
    [
        # the king must be led: S2 follows hearts with its only heart, 5H, and KH wins
        (True, trick(1, "1:KH 2:5H", 1)),
        # without the variant lead = ace asks nothing here: S1 leads its lowest, 2C; S2
        # follows clubs and heads it with 4C
        (False, trick(1, "1:2C 2:4C", 2)),
    ],
)
def test_r9c_ace_lead_king_king_led_first_when_the_ace_is_turned_up(ace_lead_king, first):
    d = run("three-card", KING_DECK, carried=3, policy=KING_POLICY, lead="ace", ace_lead_king=ace_lead_king)
    assert d["declarations"] == ["pass", "play", "play", "pass", "pass"]
    assert d["tricks"][0] == first


def test_r9c_ace_lead_king_pam_still_comes_first():
    # five-card, 3 players, dealer S0, indicator AS: S1 holds Pam (JC) and KS. With Pam,
    # lead = ace asks for Pam before anything else, and ace_lead_king does not change that:
    # S1 ("always/low/none") leads JC, not KS (nor its lowest card). S2 must follow trumps:
    # its only spade, 2S; Pam wins.
    deck = build_deck(3, 0, {1: "JC KS 2D 3D 4H", 2: "2S 5D 6D 7H 8C", 0: "9C TC 9D 5H 6H"}, indicator="AS")
    pol = ["cautious/basic/none", "always/low/none", "always/low/none"]
    d = run("five-card", deck, policy=pol, players=3, lead="ace", ace_lead_king=True)
    assert d["declarations"] == ["pass", "play", "play"]
    assert d["tricks"][0] == trick(1, "1:JC 2:2S", 1)


@pytest.mark.parametrize(
    ("options", "named"),
    [
        (dict(lead="trump", ace_lead_king=True), "ace_lead_king"),  # needs lead = ace
        (dict(dealer_takes_miss=True), "dealer_takes_miss"),  # needs dealer_defends
        (dict(pam_flush=False), "pam_flush"),  # needs flush
        (dict(flush_spares_pam=True), "flush_spares_pam"),  # needs flush
        (dict(flush_spares_flushes=True), "flush_spares_flushes"),  # needs flush
        (dict(flush_loos_all=True), "flush_loos_all"),  # needs flush
        (dict(flush_tie="split"), "flush_tie"),  # needs flush
        (dict(exchange_timing="at_turn"), "exchange_timing"),  # needs exchange
        (dict(exchange_timing="at_turn", exchange=True), "miss"),  # R5: no exchange with a miss
    ],
)
def test_r9c_refusals_name_the_option(options, named):
    with pytest.raises(LooError) as err:
        Rules.preset("three-card", **options)
    assert str(err.value).startswith(f"{named}:") and "\n" not in str(err.value)


# --------------------------------------------------------------------------------------
# R9c dealer_takes_all_pass = true: every seat before the dealer passed -> the dealer
# takes the pot without play (recorded as play)
# --------------------------------------------------------------------------------------

# three-card, carried 3 (not clean: no bold stand), 5 antes of 3 -> pot 18, dealer S0,
# indicator 2H; nobody holds a heart, so every cautious seat passes (and never takes the
# miss) -- the dealer too, left to itself.
ALL_PASS_DECK = build_deck(
    5, 0, {1: "2C 3C 4C", 2: "5C 6C 7C", 3: "2S 3S 4S", 4: "5S 6S 7S", 0: "8S 9S TS"}, miss="8C 9C TC", indicator="2H"
)


@pytest.mark.parametrize(
    ("takes_all", "dealer_declares", "dealer_share", "pot_next"),
    [
        # the dealer takes the whole pot without play: a lone player, nobody looed
        (True, "play", 18.0, 0.0),
        # without it, the cautious dealer passes too: nobody is in, the pot carries over
        (False, "pass", 0.0, 18.0),
    ],
)
def test_r9c_dealer_takes_all_pass_dealer_takes_the_pot(takes_all, dealer_declares, dealer_share, pot_next):
    d = run("three-card", ALL_PASS_DECK, carried=3, policy="cautious", dealer_takes_all_pass=takes_all)
    assert d["declarations"] == [dealer_declares, "pass", "pass", "pass", "pass"]
    assert d["tricks"] == []
    assert outcome(d, "shares", "looed", "pot_start", "pot_next") == {
        "shares": [dealer_share, 0.0, 0.0, 0.0, 0.0],
        "looed": [],
        "pot_start": 18.0,
        "pot_next": pot_next,
    }


def test_r9c_dealer_takes_all_pass_without_a_miss():
    # irish-classic has no miss (and so no dealer's defence); the dealer still takes the pot
    # (clubs are not turned, so club law does not forbid passing). Pot 3 + 15 = 18.
    deck = build_deck(5, 0, {1: "2C 3C 4C", 2: "5C 6C 7C", 3: "2S 3S 4S", 4: "5S 6S 7S", 0: "8S 9S TS"}, indicator="2H")
    d = run("irish-classic", deck, carried=3, policy="cautious", dealer_takes_all_pass=True)
    assert d["declarations"] == ["play", "pass", "pass", "pass", "pass"]
    assert d["shares"] == [18.0, 0.0, 0.0, 0.0, 0.0]


# --------------------------------------------------------------------------------------
# R9c dealer_takes_miss = true (with dealer_defends): in R8 case 2 the dealer may also take
# the miss, and plays it as an ordinary seat: wins shares, can be looed
# --------------------------------------------------------------------------------------

# three-card, 3 players, dealer S0, carried 3 (a double pot of 3 + 9 = 12, unlimited loo),
# indicator 2H. S1 (always) holds AH KH QH and plays; S2 (cautious, no trump) passes; so
# the dealer is in R8 case 2 and may play, defend or (with the variant) take the miss.
MISS_DECK = build_deck(3, 0, {1: "AH KH QH", 2: "6D 7D 8D", 0: "9S TS JS"}, miss="3C 4C 5C", indicator="2H")
DEALER_TABLE = "dealer-takes-miss.csv"


def miss_table() -> np.ndarray:
    """A strategy table (P6) that takes the miss wherever play/miss/defend is offered."""
    table = np.full((N_INFOSETS, ACTIONS), np.nan)
    situation = SITUATION_MASKS.index(sum(1 << int(d) for d in (Decl.PLAY, Decl.MISS, Decl.DEFEND)))
    for i in range(N_INFOSETS):
        if infoset_parts(i)[3] == situation:
            table[i] = [0.0, 0.0, 1.0, 0.0]
    return table


@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_r9c_dealer_takes_miss_in_r8_case_2(engine):
    # The dealer's table takes the miss (3C 4C 5C; the own hand 9S TS JS is dead). S1 leads
    # AH, KH, QH (basic: highest power); the dealer, void of hearts with no trump, follows
    # 3C, 4C, 5C (lowest). S1 wins all three: 12. The dealer is an ordinary seat in the deal,
    # not a defender: it won nothing, so it is looed and pays the pot, 12.
    rules = Rules.preset("three-card", players=3, dealer_defends=True, dealer_takes_miss=True)
    policy = ["basic", "always", "cautious"]
    policy[0] = Policy("table", "basic", "basic", table=DEALER_TABLE)
    rec = play_deals(rules, [MISS_DECK], [0], [3.0], policy, engine=engine, tables={DEALER_TABLE: miss_table()})[0]
    d = rec.to_dict()
    assert d["declarations"] == ["miss", "play", "pass"]
    assert [[c for _, c in t["cards"]] for t in d["tricks"]] == [["AH", "3C"], ["KH", "4C"], ["QH", "5C"]]
    assert outcome(d, *MONEY) == {
        "shares": [0.0, 12.0, 0.0],
        "penalties": [12.0, 0.0, 0.0],
        "looed": [0],
        "antes": [3.0, 3.0, 3.0],
        "pot_start": 12.0,
        "pot_next": 12.0,
    }


def test_r9c_dealer_takes_miss_is_offered_only_with_the_variant():
    # R8 case 2 offers play/defend; the variant adds the miss. No P3 family takes it by
    # itself: the cautious dealer still defends (its own hand holds no trump).
    for variant, offered in ((False, ["defend", "play"]), (True, ["defend", "miss", "play"])):
        rules = Rules.preset("three-card", players=3, dealer_defends=True, dealer_takes_miss=variant)
        rec = play_deal(rules, MISS_DECK, dealer=0, carried=3, policy=["cautious", "always", "cautious"])
        assert rec.trace.options[0] == offered
        assert rec.declarations[0] == "defend"


# --------------------------------------------------------------------------------------
# R9c pam_flush = false: only five cards of one suit make a flush
# --------------------------------------------------------------------------------------


def test_r9c_pam_flush_false_four_plus_pam_is_no_flush():
    # five-card, pot 25, spades trumps (2S). S1 AS KS QS JS TS: a trump flush. S2 JC AD KD
    # QD TD: four diamonds plus Pam, a Pam-flush by default (it would win), no flush under
    # the variant: S1's flush takes the pot and S2, in the deal, is looed (25).
    deck = build_deck(
        5,
        0,
        {1: "AS KS QS JS TS", 2: "JC AD KD QD TD", 3: "2C 3C 4D 5H 6H", 4: "7C 8C 9D 2H 3H", 0: "4C 5C 6D 4H 7H"},
        indicator="2S",
    )
    pol = table(5, "cautious/basic/none", s1="always/basic/none", s2="always/basic/none")
    assert run("five-card", deck, policy=pol)["flush_winner"] == 2
    d = run("five-card", deck, policy=pol, pam_flush=False)
    assert outcome(d, "flush_winner", "looed", "shares", "penalties") == {
        "flush_winner": 1,
        "looed": [2],
        "shares": [0.0, 25.0, 0.0, 0.0, 0.0],
        "penalties": [0.0, 0.0, 25.0, 0.0, 0.0],
    }


def test_r9c_pam_flush_false_pam_with_four_clubs_is_still_a_flush_with_pam():
    # S2 JC AC KC QC TC is five clubs: still a flush, one containing Pam, and it beats S1's
    # trump flush (spades) as a Pam-flush would.
    deck = build_deck(
        5,
        0,
        {1: "AS KS QS JS TS", 2: "JC AC KC QC TC", 3: "2C 3C 4D 5H 6H", 4: "7C 8C 9D 2H 3H", 0: "4C 5C 6D 4H 7H"},
        indicator="2S",
    )
    pol = table(5, "cautious/basic/none", s1="always/basic/none", s2="always/basic/none")
    d = run("five-card", deck, policy=pol, pam_flush=False)
    assert (d["flush_winner"], d["looed"]) == (2, [1])


# --------------------------------------------------------------------------------------
# R9c flush settlement (each option on its own): who a flush loos
# --------------------------------------------------------------------------------------


def both(deck, policy, *, dealer=0, carried=0.0, **options):
    """One five-card deal in both engines: the records must agree; the reference's is returned."""
    rules = Rules.preset("five-card", **options)
    recs = [
        play_deals(rules, [deck], [dealer], [carried], policy, engine=engine)[0].to_dict()
        for engine in ("reference", "kernel")
    ]
    keys = ("flush_winner", "declarations", *MONEY)
    assert outcome(recs[1], *keys) == outcome(recs[0], *keys)
    return recs[0]


# five-card, pot 25 (5 antes of 5), spades trumps (2S turned). S1 AS KS QS JS TS: a trump
# flush. S2 JC 2D 3D 4H 5H holds Pam (no flush), S3 8H AC 9D 2C 3C neither; S4 and the
# dealer S0 pass.
SETTLE_DECK = build_deck(
    5,
    0,
    {1: "AS KS QS JS TS", 2: "JC 2D 3D 4H 5H", 3: "8H AC 9D 2C 3C", 4: "4C 5C 6D 7D 8D", 0: "6C 7C 9C TD JD"},
    indicator="2S",
)
SETTLE_POLICY = table(5, "cautious/basic/none", s1="always/basic/none", s2="always/basic/none", s3="always/basic/none")


def test_r9c_flush_spares_pam_a_holder_of_pam_is_not_looed():
    d = both(SETTLE_DECK, SETTLE_POLICY)
    assert (d["flush_winner"], d["looed"]) == (1, [2, 3])
    d = both(SETTLE_DECK, SETTLE_POLICY, flush_spares_pam=True)
    assert outcome(d, "flush_winner", "looed", "shares", "penalties", "pot_next") == {
        "flush_winner": 1,
        "looed": [3],
        "shares": [0.0, 25.0, 0.0, 0.0, 0.0],
        "penalties": [0.0, 0.0, 0.0, 25.0, 0.0],
        "pot_next": 25.0,
    }


def test_r9c_flush_spares_pam_holding_pam_is_judged_after_the_exchange():
    # S2 keeps a Pam-less hand (no exchange); S3 (basic exchange) throws all but the ace of
    # clubs and draws JC first: it holds Pam at the show and is spared, S2 is looed.
    deck = build_deck(
        5,
        0,
        {1: "AS KS QS JS TS", 2: "KH 2D 3D 4H 5H", 3: "8H AC 9D 2C 3C", 4: "4C 5C 6D 7D 8D", 0: "6C 7C 9C TD JD"},
        indicator="2S",
        stock="JC 6H 7H 8C",
    )
    pol = table(5, "cautious/basic/none", s1="always/basic/none", s2="always/basic/none", s3="always/basic/basic")
    assert both(deck, pol)["looed"] == [2, 3]
    assert both(deck, pol, flush_spares_pam=True)["looed"] == [2]


def test_r9c_flush_spares_pam_does_nothing_without_pam():
    # pam = false: the jack of clubs is an ordinary card, S2 is looed as before
    d = both(SETTLE_DECK, SETTLE_POLICY, pam=False, pam_be_civil=False, flush_spares_pam=True)
    assert d["looed"] == [2, 3]


# S1's trump flush (spades, 2S turned) beats S2's plain heart flush; S3 shows none
BEATEN_DECK = build_deck(
    5,
    0,
    {1: "AS KS QS JS TS", 2: "AH KH QH 9H 7H", 3: "8H AC 9D 2C 3C", 4: "4C 5C 6D 7D 8D", 0: "6C 7C 9C TD JD"},
    indicator="2S",
)


def test_r9c_flush_spares_flushes_a_beaten_flush_is_not_looed():
    assert both(BEATEN_DECK, SETTLE_POLICY)["looed"] == [2, 3]
    d = both(BEATEN_DECK, SETTLE_POLICY, flush_spares_flushes=True)
    assert outcome(d, "flush_winner", "looed", "penalties", "pot_next") == {
        "flush_winner": 1,
        "looed": [3],
        "penalties": [0.0, 0.0, 0.0, 25.0, 0.0],
        "pot_next": 25.0,
    }


def test_r9c_flush_spares_flushes_the_elder_tie_loser_showed_a_beaten_flush():
    # S1 AH KH QH 9H 7H and S2 AD KD QD 9D 7D: an exact tie (neither suit trumps), the
    # elder hand S1 takes the pot; S2 lost the tie, so it showed a beaten flush
    deck = build_deck(
        5,
        0,
        {1: "AH KH QH 9H 7H", 2: "AD KD QD 9D 7D", 3: "8H AC 9S 2C 3C", 4: "4C 5C 6D 3S 8D", 0: "6C 7C 9C TD JD"},
        indicator="2S",
    )
    assert both(deck, SETTLE_POLICY)["looed"] == [2, 3]
    d = both(deck, SETTLE_POLICY, flush_spares_flushes=True)
    assert (d["flush_winner"], d["looed"]) == (1, [3])


def test_r9c_flush_spares_flushes_four_plus_pam_under_pam_flush_false_showed_no_flush():
    # S2 JC AH KH QH 9H: a Pam-flush by default (it wins); under pam_flush = false no flush
    # at all, so flush_spares_flushes does not spare it
    deck = build_deck(
        5,
        0,
        {1: "AS KS QS JS TS", 2: "JC AH KH QH 9H", 3: "8H AC 9D 2C 3C", 4: "4C 5C 6D 7D 8D", 0: "6C 7C 9C TD JD"},
        indicator="2S",
    )
    assert both(deck, SETTLE_POLICY, flush_spares_flushes=True)["flush_winner"] == 2
    d = both(deck, SETTLE_POLICY, flush_spares_flushes=True, pam_flush=False)
    assert (d["flush_winner"], d["looed"]) == (1, [2, 3])


def test_r9c_flush_loos_all_the_passers_pay_too():
    # SETTLE_DECK: S1's flush; S2 and S3 in the deal, S4 and the dealer S0 passed: all four
    # are looed (listed in looed) and pay the pot
    d = both(SETTLE_DECK, SETTLE_POLICY, flush_loos_all=True)
    assert outcome(d, "flush_winner", "looed", "shares", "penalties", "pot_next") == {
        "flush_winner": 1,
        "looed": [0, 2, 3, 4],
        "shares": [0.0, 25.0, 0.0, 0.0, 0.0],
        "penalties": [25.0, 0.0, 25.0, 25.0, 25.0],
        "pot_next": 100.0,
    }
    # the R3 penalty, whatever it is: limited (5)
    d = both(SETTLE_DECK, SETTLE_POLICY, flush_loos_all=True, penalty="limited")
    assert (d["penalties"], d["pot_next"]) == ([5.0, 0.0, 5.0, 5.0, 5.0], 20.0)


def test_r9c_flush_loos_all_the_exemptions_protect_only_seats_in_the_deal():
    # with flush_spares_pam, S2 (in the deal, Pam) is spared; a passer holding Pam is not
    d = both(SETTLE_DECK, SETTLE_POLICY, flush_loos_all=True, flush_spares_pam=True)
    assert d["looed"] == [0, 3, 4]
    deck = build_deck(
        5,
        0,
        {1: "AS KS QS JS TS", 2: "KH 2D 3D 4H 5H", 3: "8H AC 9D 2C 3C", 4: "JC 5C 6D 7D 8D", 0: "6C 7C 9C TD JD"},
        indicator="2S",
    )
    rules = Rules.preset("five-card", flush_loos_all=True, flush_spares_pam=True)
    d = play_deal(rules, deck, 0, 0.0, SETTLE_POLICY, forced={4: "pass"}).to_dict()  # S4 holds Pam, passes
    assert (d["declarations"], d["looed"]) == (["pass", "play", "play", "play", "pass"], [0, 2, 3, 4])


def test_r9c_flush_loos_all_without_a_flush_changes_nothing():
    # nobody shows a flush: the tricks are played and only seats in the deal can be looed
    deck = build_deck(
        5,
        0,
        {1: "AS KS QS JS 9D", 2: "KH 2D 3D 4H 5H", 3: "8H AC TS 2C 3C", 4: "4C 5C 6D 7D 8D", 0: "6C 7C 9C TD JD"},
        indicator="2S",
    )
    assert both(deck, SETTLE_POLICY, flush_loos_all=True) == both(deck, SETTLE_POLICY)


# S1 AH KH QH 9H 7H, S2 AD KD QD 9D 7D, S3 AC KC QC 9C 7C: three flushes of the same ranks,
# none of trumps (spades, 2S turned): an exact three-way tie; S4 and the dealer S0 pass
TIE_DECK = build_deck(
    5,
    0,
    {1: "AH KH QH 9H 7H", 2: "AD KD QD 9D 7D", 3: "AC KC QC 9C 7C", 4: "4C 5C 6D 3S 8D", 0: "6C 2C 3C TD JD"},
    indicator="2S",
)


def test_r9c_flush_tie_elder_is_the_default():
    d = both(TIE_DECK, SETTLE_POLICY)
    assert d == both(TIE_DECK, SETTLE_POLICY, flush_tie="elder")
    assert (d["flush_winner"], d["looed"], d["shares"]) == (1, [2, 3], [0.0, 25.0, 0.0, 0.0, 0.0])


def test_r9c_flush_tie_split_shares_the_pot_among_the_tied_seats():
    d = both(TIE_DECK, SETTLE_POLICY, flush_tie="split")
    assert outcome(d, "flush_winner", "looed", "shares", "penalties", "pot_next") == {
        "flush_winner": 1,  # the eldest of the tied seats
        "looed": [],
        "shares": [0.0, 25 / 3, 25 / 3, 25 / 3, 0.0],
        "penalties": [0.0] * 5,
        "pot_next": 0.0,
    }
    # two tied seats of three in the deal: S3 (no flush) is looed
    deck = build_deck(
        5,
        0,
        {1: "AH KH QH 9H 7H", 2: "AD KD QD 9D 7D", 3: "8H AC 9S 2C 3C", 4: "4C 5C 6D 3S 8D", 0: "6C 7C 9C TD JD"},
        indicator="2S",
    )
    d = both(deck, SETTLE_POLICY, flush_tie="split")
    assert outcome(d, "flush_winner", "looed", "shares", "pot_next") == {
        "flush_winner": 1,
        "looed": [3],
        "shares": [0.0, 12.5, 12.5, 0.0, 0.0],
        "pot_next": 25.0,
    }


def test_r9c_flush_tie_split_with_flush_loos_all_the_passers_pay():
    d = both(TIE_DECK, SETTLE_POLICY, flush_tie="split", flush_loos_all=True, penalty="limited")
    assert outcome(d, "looed", "penalties", "pot_next") == {
        "looed": [0, 4],
        "penalties": [5.0, 0.0, 0.0, 0.0, 5.0],
        "pot_next": 10.0,
    }


def test_r9c_flush_tie_split_only_a_tie_of_the_best_flushes():
    # S1's trump flush beats the tie of S2 and S3 below it: S1 takes the whole pot
    deck = build_deck(
        5,
        0,
        {1: "AS KS QS JS TS", 2: "AD KD QD 9D 7D", 3: "AH KH QH 9H 7H", 4: "4C 5C 6D 3S 8D", 0: "6C 2C 3C TD JD"},
        indicator="2S",
    )
    d = both(deck, SETTLE_POLICY, flush_tie="split")
    assert (d["flush_winner"], d["looed"], d["shares"]) == (1, [2, 3], [0.0, 25.0, 0.0, 0.0, 0.0])


def test_r9c_flush_spares_pam_the_grid_no_longer_says_a_flush_loos_the_top_trump():
    from loo_sim.game.classes import top_trump_note

    assert "another seat's flush" in top_trump_note(Rules.preset("five-card"))
    note = top_trump_note(Rules.preset("five-card", flush_spares_pam=True))
    assert "another seat's flush" not in note and "exchange throws the top trump away" in note
    assert "another seat's flush" in top_trump_note(Rules.preset("five-card", pam=False, pam_be_civil=False,
                                                                 flush_spares_pam=True))  # fmt: skip


# --------------------------------------------------------------------------------------
# R9c exchange_timing = at_turn: each seat that declares play exchanges at once, before
# the next seat declares; the lone-player / nobody check still comes after all of them
# --------------------------------------------------------------------------------------


def both_engines(preset, deck, policy="basic", *, dealer=0, carried=0.0, **options):
    """One deal in both engines: every field of the records must agree; the reference's
    record (with its trace) is returned."""
    rules = Rules.preset(preset, **options)
    ref = play_deal(rules, deck, dealer=dealer, carried=carried, policy=policy)
    ker = play_deals(rules, [deck], [dealer], [carried], policy, engine="kernel")[0]
    assert ker.to_dict() == ref.to_dict()
    return ref


def exchanges(rec):
    """The trace's exchanges as text: (seat, thrown, drawn)."""
    return [(seat, " ".join(map(card_str, thrown)), " ".join(map(card_str, drawn)))
            for seat, thrown, drawn in rec.trace.exchanges]  # fmt: skip


# irish-classic (three-card, exchange, no miss, bold_stand off), 5 players, dealer S0,
# carried 3: pot 3 + 5 * 3 = 18; indicator 2H (hearts trumps; not a club, so no club
# law). Everyone "basic": S1 (AH) and S2 (KH) hold a trump and play, S3, S4 and S0 hold
# neither a trump nor an ace and pass. The basic exchange throws all but trumps and aces:
# S1 throws 2C 3C and draws the first two of the stock, QH 6S; S2, next, throws 4D 5D and
# draws the two after them, 7S 8S.
AT_TURN_DECK = build_deck(
    5, 0, {1: "AH 2C 3C", 2: "KH 4D 5D", 3: "2S 3S 4S", 4: "5S 9S TS", 0: "JS QS KS"}, indicator="2H",
    stock="QH 6S 7S 8S",
)  # fmt: skip
# S1 (AH QH 6S) leads its highest, AH; S2 (KH 7S 8S) must follow with KH. S1 leads QH,
# S2 has no heart nor trump left and throws its lowest, 7S. S1 leads 6S and S2 must head
# it with 8S. S1 wins 2 tricks (12 chips), S2 one (6); nobody is looed.
AT_TURN_TRICKS = [trick(1, "1:AH 2:KH", 1), trick(1, "1:QH 2:7S", 1), trick(1, "1:6S 2:8S", 2)]


@pytest.mark.parametrize("timing", ["after_all", "at_turn"])
def test_r9c_exchange_timing_at_turn_later_seats_draw_from_the_stock_left(timing):
    # the exchanges go in declaration order either way, so the two timings give one deal
    rec = both_engines("irish-classic", AT_TURN_DECK, carried=3, exchange_timing=timing)
    d = rec.to_dict()
    assert d["declarations"] == ["pass", "play", "play", "pass", "pass"]
    assert exchanges(rec) == [(1, "2C 3C", "QH 6S"), (2, "4D 5D", "7S 8S")]
    assert d["tricks"] == AT_TURN_TRICKS
    assert outcome(d, "shares", "looed", "pot_start", "pot_next") == {
        "shares": [0.0, 12.0, 6.0, 0.0, 0.0],
        "looed": [],
        "pot_start": 18.0,
        "pot_next": 0.0,
    }


@pytest.mark.parametrize(
    ("timing", "stock_seen", "s1_seen"),
    [
        # at_turn: the stock is 52 - 15 dealt - the indicator = 36 when S1 declares; S1
        # has exchanged 2 when S2 declares, and S2 2 more before S3 declares
        ("at_turn", [36, 34, 32, 32, 32], "AH QH 6S"),
        # after_all: nobody exchanges before every seat has declared
        ("after_all", [36] * 5, "AH 2C 3C"),
    ],
)
def test_r9c_exchange_timing_at_turn_exchanges_before_the_next_seat_declares(monkeypatch, timing, stock_seen,
                                                                                s1_seen):  # fmt: skip
    from loo_sim.engine.deal import _Deal

    seen = []
    decide = _Deal.decide

    def spy(self, i, seat, choice):
        seen.append((seat, len(self.stock), " ".join(map(card_str, self.hands[seat])),
                     " ".join(map(card_str, self.hands[1]))))  # fmt: skip
        return decide(self, i, seat, choice)

    monkeypatch.setattr(_Deal, "decide", spy)
    run("irish-classic", AT_TURN_DECK, carried=3, exchange_timing=timing)
    assert [s[0] for s in seen] == [1, 2, 3, 4, 0]
    assert [s[1] for s in seen] == stock_seen
    assert seen[1][2] == "KH 4D 5D"  # S2 declares on its own hand as dealt
    assert seen[1][3] == s1_seen  # S1's hand when S2 declares


# S2 now holds no trump and no ace (4D 5D 6D) and passes: S1 is the lone player.
LONE_DECK = build_deck(
    5, 0, {1: "AH 2C 3C", 2: "4D 5D 6D", 3: "2S 3S 4S", 4: "5S 9S TS", 0: "JS QS KS"}, indicator="2H",
    stock="QH 6S 7S 8S",
)  # fmt: skip


def kernel_hands(rules, deck, dealer, carried, policy="basic"):
    """The kernel's hands after one deal (its scratch, which the record does not show)."""
    from loo_sim.game import abi as L
    from loo_sim.game.cards import parse_deck
    from loo_sim.game.policy import parse_table
    from loo_sim.kernel.bits import CARD, POS
    from loo_sim.kernel.deal import play_deal as kernel_deal
    from loo_sim.kernel.scratch import deal_scratch
    from loo_sim.run.args import kernel_args

    a = kernel_args(rules, parse_table(policy, rules.players))
    bits, sc, seat_keys, oi, of = deal_scratch()
    for i, c in enumerate(parse_deck(deck)):
        bits[i] = POS[c]
    sc[L.SC_SHUFFLED] = 52  # a given deck is final throughout
    kernel_deal(a.ri, a.rf, a.pol, a.polf, a.strength, a.tables, a.solver, bits, dealer, carried, seat_keys, sc, oi, of,
                L.NO_FORCING, L.NO_ACTION)  # fmt: skip
    return [" ".join(card_str(int(CARD[p])) for p in range(52) if (int(sc[L.SC_HANDS + s]) >> p) & 1)
            for s in range(rules.players)]  # fmt: skip


@pytest.mark.parametrize(
    ("timing", "made", "s1_after"),
    [
        # at_turn: S1 exchanged as it declared; the cards are dead, the exchange is recorded
        ("at_turn", [(1, "2C 3C", "QH 6S")], "6S QH AH"),
        # after_all: a lone player takes the pot before any exchange
        ("after_all", [], "2C 3C AH"),
    ],
)
def test_r9c_exchange_timing_at_turn_a_lone_players_exchange_is_dead(timing, made, s1_after):
    rec = both_engines("irish-classic", LONE_DECK, carried=3, exchange_timing=timing)
    d = rec.to_dict()
    assert d["declarations"] == ["pass", "play", "pass", "pass", "pass"]
    assert rec.trace.outcome == "lone" and exchanges(rec) == made
    # the lone player takes the whole pot without play, whatever it drew
    assert d["tricks"] == [] and outcome(d, "shares", "looed", "pot_next") == {
        "shares": [0.0, 18.0, 0.0, 0.0, 0.0],
        "looed": [],
        "pot_next": 0.0,
    }
    # the kernel exchanged the lone player's cards too (its hands, in bit order: by rank)
    rules = Rules.preset("irish-classic", exchange_timing=timing)
    assert kernel_hands(rules, LONE_DECK, 0, 3.0)[1] == s1_after


@pytest.mark.parametrize("takes_all", [False, True])
def test_r9c_exchange_timing_at_turn_a_dealer_who_takes_the_pot_does_not_exchange(takes_all):
    # Everyone passes to the dealer S0 ("always": plays whatever it holds, 2C 3C 4C, and
    # the basic exchange would throw all three). Declaring play, it is the lone player and
    # exchanges at its turn (dead cards, recorded); taking the pot by
    # dealer_takes_all_pass it does not declare, so it does not exchange.
    deck = build_deck(
        5, 0, {1: "2D 3D 4D", 2: "5D 6D 7D", 3: "2S 3S 4S", 4: "5S 9S TS", 0: "2C 3C 4C"}, indicator="2H",
        stock="QH 6S 7S 8S",
    )  # fmt: skip
    policy = table(5, "basic", s0="always")
    rec = both_engines("irish-classic", deck, policy, carried=3, exchange_timing="at_turn",
                       dealer_takes_all_pass=takes_all)  # fmt: skip
    d = rec.to_dict()
    assert d["declarations"] == ["play", "pass", "pass", "pass", "pass"]
    assert d["shares"] == [18.0, 0.0, 0.0, 0.0, 0.0]
    assert exchanges(rec) == ([] if takes_all else [(0, "2C 3C 4C", "QH 6S 7S")])
    # the kernel likewise (its hands in bit order: by rank)
    rules = Rules.preset("irish-classic", exchange_timing="at_turn", dealer_takes_all_pass=takes_all)
    assert kernel_hands(rules, deck, 0, 3.0, policy)[0] == ("2C 3C 4C" if takes_all else "6S 7S QH")


def test_r9c_exchange_timing_at_turn_does_nothing_in_a_single_pot():
    # single_pot on: a clean pot is a single pot, which has no exchange (R8); everyone
    # must play, nobody exchanges, and at_turn gives the deal after_all gives
    options = dict(single_pot=True)
    single = both_engines("irish-classic", AT_TURN_DECK, exchange_timing="at_turn", **options)
    assert single.to_dict()["single_pot"] is True
    assert single.to_dict()["declarations"] == ["play"] * 5
    assert exchanges(single) == []
    assert single.to_dict() == both_engines("irish-classic", AT_TURN_DECK, **options).to_dict()
    # the same deck in a double pot (carried 3) exchanges as above
    double = both_engines("irish-classic", AT_TURN_DECK, carried=3, exchange_timing="at_turn", **options)
    assert exchanges(double) == [(1, "2C 3C", "QH 6S"), (2, "4D 5D", "7S 8S")]
