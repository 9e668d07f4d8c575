"""P3 `flush-aware`: as `basic`, with a flush (R9, the `pam_flush` reading) and, where
`exchange` is on, four cards of one suit (Pam counting towards any suit) worth playing;
both clauses need `flush = true`; in R8 case 2 it is `basic`.

Each check is worked out from docs/policies.md P2/P3 and docs/rules.md R9 by hand, and
each runs in both engines: the reference's ``engine.policies.declare`` and the kernel's
``kernel.policies.declare`` (``declare_flush_aware``) for a single declaration, ``play_deals`` for whole deals.

Five-card preset: 5 players, ante 5 each (pot 25), unlimited penalty, Pam, exchange,
flushes. With dealer 0 the seats declare S1, S2, S3, S4, then the dealer S0.
"""

from __future__ import annotations

import pytest

from loo_sim import Rules, play_deals
from loo_sim.engine.policies import DeclareChoice, declare, flush_clause, four_of_a_suit
from loo_sim.game import abi as L
from loo_sim.game.cards import parse_cards
from loo_sim.game.legality import flush_rank, pam_flush
from loo_sim.game.policy import Policy
from loo_sim.game.ranking import TrumpState
from loo_sim.kernel import policies as K
from loo_sim.kernel.bits import POS
from loo_sim.run.args import rules_arrays
from tests.dealgen import deals_for
from tests.deckbuild import build_deck

FIVE = Rules.preset("five-card")
NO_EXCHANGE = Rules.preset("five-card", exchange=False)
FREE = DeclareChoice(may_pass=True, miss_on_offer=False)
KERNEL_DECL = {L.DECL_PASS: "pass", L.DECL_PLAY: "play", L.DECL_MISS: "miss", L.DECL_DEFEND: "defend"}


def both(family: str, hand: str, trump: str | None, rules: Rules, choice: DeclareChoice = FREE) -> str:
    """The declaration of ``family`` for ``hand`` (trump suit letter, or None while
    unknown) in the reference engine, asserted equal to the kernel's."""
    cards = parse_cards(hand)
    t = None if trump is None else "CDHS".index(trump)
    ref = declare(Policy(family), cards, TrumpState(t, rules.pam), choice, rules=rules)
    ri, _ = rules_arrays(rules)
    mask = sum(1 << int(POS[c]) for c in cards)
    code = L.DECLARE_CODES[family]
    args = (mask, -1 if t is None else t, int(rules.pam), choice.may_pass, choice.miss_on_offer, choice.dealer_case)
    # the kernel decides flush-aware in a function of its own
    flush_aware = code == L.D_FLUSH_AWARE
    ker = K.declare_flush_aware(*args, K.flush_clauses(ri)) if flush_aware else K.declare(code, *args)
    assert KERNEL_DECL[int(ker)] == ref, (family, hand, trump)
    return ref


def test_plain_flush_without_trump_or_ace_plays():
    # Spades trumps. 2D 5D 7D 9D KD: no trump, no ace -> basic does not find it worth
    # playing (no miss in five-card, so it passes); it is a flush (five diamonds, R9), so
    # flush-aware plays it, with exchange on or off.
    hand = "2D 5D 7D 9D KD"
    assert both("basic", hand, "S", FIVE) == "pass"
    assert both("flush-aware", hand, "S", FIVE) == "play"
    assert both("flush-aware", hand, "S", NO_EXCHANGE) == "play"
    assert flush_clause(parse_cards(hand), TrumpState(3, True), FIVE) == "flush"


def test_plain_flush_deal_takes_the_pot_where_basic_passes():
    # Indicator 2S (spades trumps), dealer 0. S1 2D 5D 7D 9D KD (a plain diamond flush,
    # no trump, no ace); S2 3S 4C 6H 8C TC holds the trump 3S, so basic plays it; S3, S4
    # and S0 hold no trump and no ace and pass. Nobody exchanges ("none").
    # - flush-aware at S1: S1 and S2 are in; at the show S1 holds the flush -> S1 takes
    #   the pot 25 at once; S2, in the deal without a flush, is looed and pays 25.
    # - basic at S1: S1 passes; S2 is the lone player and takes the 25.
    # (S0's five hearts are a flush too, but S0 is basic: no trump, no ace -> pass.)
    hands = {1: "2D 5D 7D 9D KD", 2: "3S 4C 6H 8C TC", 3: "2C 3C 4D 6D 7H", 4: "5C 7C 9C 8D 2H", 0: "3H 4H 5H 8H 9H"}
    deck = build_deck(5, 0, hands, indicator="2S")
    for family, decl, shares, penalties in (
        ("flush-aware", ["pass", "play", "play", "pass", "pass"], [0, 25, 0, 0, 0], [0, 0, 25, 0, 0]),
        ("basic", ["pass", "pass", "play", "pass", "pass"], [0, 0, 25, 0, 0], [0] * 5),
    ):
        policy = ["basic/basic/none"] * 5
        policy[1] = f"{family}/basic/none"
        records = [play_deals(FIVE, [deck], [0], [0.0], policy, engine=e)[0].to_dict() for e in ("reference", "kernel")]
        assert records[0] == records[1]
        d = records[0]
        assert d["declarations"] == decl
        assert d["shares"] == [float(x) for x in shares]
        assert d["penalties"] == [float(x) for x in penalties]
        assert d["flush_winner"] == (1 if family == "flush-aware" else None)


def test_four_of_a_suit_plays_only_where_exchange_is_on():
    # Spades trumps. 3H 5H 7H 9H 4C: four hearts and a club, no trump, no ace, no flush.
    # With exchange on, four of one suit is worth playing (the exchange may complete the
    # flush) -> play. Without exchange only the flush clause is left, and it fails ->
    # as basic: pass.
    hand = "3H 5H 7H 9H 4C"
    assert both("flush-aware", hand, "S", FIVE) == "play"
    assert flush_clause(parse_cards(hand), TrumpState(3, True), FIVE) == "four of a suit"
    assert both("flush-aware", hand, "S", NO_EXCHANGE) == "pass"
    assert both("basic", hand, "S", NO_EXCHANGE) == "pass"
    # "at least four": three hearts are not enough, with exchange on or not
    assert both("flush-aware", "3H 5H 7H 4C 6D", "S", FIVE) == "pass"


def test_pam_and_four_spades_is_a_flush_under_the_pam_flush_reading():
    # R9 with pam_flush (every rule set today): four of a suit plus Pam is a Pam-flush of
    # that suit. Hearts trumps: JC (Pam) 2S 5S 7S 9S is a spade Pam-flush; the show ranks it
    # as one (Pam-flush first in the key). Pam is a trump, so basic plays it too.
    assert pam_flush(FIVE)
    cards = parse_cards("JC 2S 5S 7S 9S")
    ts = TrumpState(2, True)
    assert flush_rank(cards, ts) is not None and flush_rank(cards, ts)[0]
    assert flush_clause(cards, ts, FIVE) == "flush"
    assert both("flush-aware", "JC 2S 5S 7S 9S", "H", FIVE) == "play"
    # four of a suit with Pam counting towards spades: Pam + three spades + a diamond
    assert four_of_a_suit(parse_cards("JC 2S 5S 7S 3D"), ts, FIVE)
    assert K.four_of_a_suit(sum(1 << int(POS[c]) for c in parse_cards("JC 2S 5S 7S 3D")), True)


def test_without_pam_the_jack_of_clubs_is_only_a_club():
    # Five-card without Pam (first_lead: trumps unknown at the declaration; flushes do not
    # depend on trumps, so the clauses still apply). JC 2S 5S 7S 9S is no flush and only
    # four spades; JC 2C 5C 7C 9S is four clubs; JC 2C 5C 7C 9C a club flush.
    rules = Rules.preset("five-card", pam=False, pam_be_civil=False, trump="first_lead")
    ts = TrumpState(None, False)
    assert flush_clause(parse_cards("JC 2S 5S 7S 9S"), ts, rules) == "four of a suit"
    assert flush_clause(parse_cards("JC 2C 5C 7C 9S"), ts, rules) == "four of a suit"
    assert flush_clause(parse_cards("JC 2C 5C 7C 9C"), ts, rules) == "flush"
    assert not four_of_a_suit(parse_cards("JC 2S 5S 7C 9D"), ts, rules)
    # trumps unknown: basic plays only with an ace; the flush clauses still play
    assert both("basic", "JC 2C 5C 7C 9C", None, rules) == "pass"
    assert both("flush-aware", "JC 2C 5C 7C 9C", None, rules) == "play"
    assert both("flush-aware", "JC 2C 5C 7C 9S", None, rules) == "play"
    assert both("flush-aware", "JC 2S 5C 7C 9D", None, rules) == "pass"


def test_r8_case_2_acts_as_basic():
    # R8 case 2 (the dealer, one other seat in with its own hand): basic plays a hand worth
    # playing, else defends. flush-aware's flush clauses do not count there, so a plain
    # flush without trump or ace defends. (R8 needs the miss, so three-card, where there
    # are no flushes: the case is checked at the declaration itself, in both engines.)
    case2 = DeclareChoice(may_pass=False, miss_on_offer=False, dealer_case=2)
    assert both("flush-aware", "2D 5D 7D 9D KD", "S", FIVE, case2) == "defend"
    assert both("basic", "2D 5D 7D 9D KD", "S", FIVE, case2) == "defend"
    assert both("flush-aware", "2D 5D 7D 9D AD", "S", FIVE, case2) == "play"  # an ace: basic's own test
    # R8 case 3 (play or pass) is not exempt: the flush plays
    case3 = DeclareChoice(may_pass=True, miss_on_offer=False, dealer_case=3)
    assert both("flush-aware", "2D 5D 7D 9D KD", "S", FIVE, case3) == "play"


def test_flush_aware_needs_the_rules():
    from loo_sim.base.errors import LooError

    with pytest.raises(LooError, match="needs the rules"):
        declare(Policy("flush-aware"), parse_cards("2D 5D 7D 9D KD"), TrumpState(3, True), FREE)


def _as(family: str, policy: list) -> list[Policy]:
    out = []
    for p in policy:
        p = Policy.parse(p)
        out.append(Policy(family, p.play, p.exchange))
    return out


@pytest.mark.parametrize(
    "rules",
    [
        Rules.preset("five-card", flush=False),  # five-card without flushes
        Rules.preset("classic-limited"),  # three-card: no flush, the miss, R8 cases 1-3
        Rules.preset("three-card", exchange=True, miss=False),  # three-card with exchange, no flush
    ],
    ids=["five-card-no-flush", "classic-limited", "three-card-exchange"],
)
def test_without_flushes_it_is_exactly_basic(rules):
    # Both flush clauses need flush = true; without it flush-aware is basic, so every seat
    # flush-aware or every seat basic (same play and exchange parts) gives the same record
    # deal for deal, in each engine.
    deals = deals_for(rules, seed=16, count=150)
    for engine in ("reference", "kernel"):
        for d in deals:
            recs = [
                play_deals(
                    rules,
                    [d["deck"]],
                    [d["dealer"]],
                    [d["carried"]],
                    _as(f, d["policy"]),
                    engine=engine,
                    seed=d["seed"],
                )[0].to_dict()  # fmt: skip
                for f in ("flush-aware", "basic")
            ]
            assert recs[0] == recs[1], (engine, d["dealer"], d["carried"])


def test_with_flushes_it_differs_from_basic_somewhere():
    # the same comparison where flushes are on must find deals that differ (the clauses bite)
    rules = Rules.preset("five-card")
    deals = deals_for(rules, seed=16, count=300)
    differ = 0
    for d in deals:
        recs = [
            play_deals(
                rules, [d["deck"]], [d["dealer"]], [d["carried"]], _as(f, d["policy"]), engine="kernel", seed=d["seed"]
            )[0].to_dict()  # fmt: skip
            for f in ("flush-aware", "basic")
        ]
        differ += recs[0] != recs[1]
    assert differ > 0


def test_the_kernel_matches_calibrated_codes_exactly():
    # the new code comes after the calibrated ones (threshold, ev, chart, table); the
    # kernel must route it through the plain declaration, not a table or a strength table
    assert L.DECLARE_CODES["flush-aware"] == L.D_FLUSH_AWARE > L.D_TABLE


def test_the_heuristic_list_adds_flush_aware_only_with_flushes():
    # the miss study's heuristics and the solve's profiles (one list, game.policy): unchanged
    # for rules without flushes (every committed report is three-card), flush-aware last where
    # flush is on
    from loo_sim.game.policy import HEURISTICS, heuristics_for

    for preset, extra in (("three-card", []), ("classic-limited", []), ("five-card", ["flush-aware"])):
        rules = Rules.preset(preset)
        assert heuristics_for(rules) == list(HEURISTICS) + extra
    assert heuristics_for(Rules.preset("five-card", flush=False)) == list(HEURISTICS)
    assert "flush-aware" not in HEURISTICS
    assert len(set(HEURISTICS)) == len(HEURISTICS) == 8
    for text in heuristics_for(Rules.preset("five-card")):
        Policy.parse(text)  # each one a policy the parser reads


def test_the_miss_and_solve_studies_compare_the_same_heuristics(monkeypatch):
    # both studies read game.policy's list (their runners take it from the studies'
    # heuristic_policies and profiles, which add the user's own after it): a heuristic
    # added there reaches both
    import loo_sim.game.policy as policy
    from loo_sim.report.kinds import MissStudy, SolveStudy

    rules = Rules.preset("five-card")
    assert MissStudy().heuristic_policies(rules)[0] == policy.heuristics_for(rules)
    assert [name for name, _ in SolveStudy().profiles(rules)] == policy.heuristics_for(rules)
    import loo_sim.report.kinds.miss as miss
    import loo_sim.report.kinds.solve as solve

    for module in (policy, miss, solve):  # the name each study reads
        monkeypatch.setattr(module, "heuristics_for", lambda rules: ["basic", "always"])
    assert MissStudy(heuristics=["mine=cautious"]).heuristic_policies(rules)[0] == ["basic", "always", "mine"]
    assert [name for name, _ in SolveStudy().profiles(rules)] == ["basic", "always"]
