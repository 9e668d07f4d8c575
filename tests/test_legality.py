"""game/legality.py, the R7 and R9 predicates, checked directly against the independent
reading of R7 in tests/legality.py: for any hand, trick and state of trumps, the cards
the engine offers are exactly the cards the checker allows."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from loo_sim import Rules
from loo_sim.game.cards import ACE, KING, PAM, make_card
from loo_sim.game.cards import parse_cards as cards
from loo_sim.game.legality import flush_rank, follow_options, lead_options
from loo_sim.game.ranking import TrumpState
from tests.legality import PlayContext, TrumpView, why_illegal

LEADS = ["free", "ace", "trump", "classic"]
VOIDS = ["must_trump", "trump_to_win"]
RULES = {(lead, void): Rules.preset("five-card", lead=lead, void=void) for lead in LEADS for void in VOIDS}


@st.composite
def situations(draw):
    """A hand, the trick so far, trumps (or none), Pam, the turned indicator, the options;
    the cards R7 names (Pam, the ace and king of trumps, an ace turned up) often held."""
    trump = draw(st.one_of(st.none(), st.integers(0, 3)))
    pam = trump is not None and draw(st.booleans())
    indicator, wanted = None, []
    if trump is not None:
        ace, king = make_card(ACE, trump), make_card(KING, trump)
        indicator = draw(st.sampled_from([None, ace, make_card(draw(st.integers(0, 10)), trump)]))
        wanted = [c for c in (ace, king, PAM) if c != indicator and (c != PAM or pam) and draw(st.booleans())]
    rest = [c for c in draw(st.permutations(range(52))) if c not in wanted and c != indicator]
    size = draw(st.integers(max(1, len(wanted)), 5))
    hand = wanted + rest[: size - len(wanted)]
    trick = rest[size - len(wanted) :][: draw(st.integers(0, 7))]
    lead, void = draw(st.sampled_from(LEADS)), draw(st.sampled_from(VOIDS))
    return dict(hand=hand, trick=trick, trump=trump, pam=pam, indicator=indicator, lead=lead, void=void,
                first_trick=draw(st.booleans()), single_pot=draw(st.booleans()))  # fmt: skip


def allowed(s: dict) -> set[int]:
    view = TrumpView(s["trump"], s["pam"])
    ctx = PlayContext(view=view, lead=s["lead"], void=s["void"], first_trick=s["first_trick"],
                      double_pot=not s["single_pot"], indicator=s["indicator"])  # fmt: skip
    return {c for c in s["hand"] if why_illegal(c, s["hand"], s["trick"], ctx) is None}


def offered(s: dict) -> list[int]:
    ts, rules = TrumpState(s["trump"], s["pam"]), RULES[s["lead"], s["void"]]
    if s["trick"]:
        return follow_options(s["hand"], s["trick"], ts, rules).cards
    return lead_options(s["hand"], ts, rules, first_trick=s["first_trick"], single_pot=s["single_pot"],
                        turned_up=s["indicator"]).cards  # fmt: skip


@settings(max_examples=1500, deadline=None)
@given(situations())
def test_options_are_exactly_the_cards_r7_allows(s):
    got = offered(s)
    assert got and set(got) <= set(s["hand"])
    assert set(got) == allowed(s)


def test_an_option_comes_with_the_path_that_decided_it():
    ts, rules = TrumpState(3), RULES["trump", "must_trump"]
    hand = cards("AS 2S 3H")
    opts = lead_options(hand, ts, rules, first_trick=True, single_pot=False, turned_up=None)
    assert opts.cards == cards("AS") and opts.path == "R7 trump: ace led first"
    opts = lead_options(hand, ts, rules, first_trick=True, single_pot=True, turned_up=None)
    assert opts.cards == cards("AS 2S") and opts.path == "R7 trump: a trump led"
    free = lead_options(hand, TrumpState(None), rules, first_trick=True, single_pot=False, turned_up=None)
    assert free.cards == hand and free.path is None
    follow = follow_options(cards("2H KH 4C"), cards("5H"), ts, rules)
    assert follow.cards == cards("KH") and follow.path == "R7 head the trick"


def test_flush_rank_orders_pam_then_trump_then_cards():
    spades = TrumpState(3, pam=True)
    pam_flush = flush_rank(cards("2H 4H 6H 8H") + [PAM], spades)
    trump_flush = flush_rank(cards("2S 4S 6S 8S TS"), spades)
    plain_ace = flush_rank(cards("2D 4D 6D 8D AD"), spades)
    plain_king = flush_rank(cards("2C 4C 6C 8C KC"), spades)
    assert pam_flush > trump_flush > plain_ace > plain_king
    assert flush_rank(cards("2H 4H 6H 8H 9S"), spades) is None
    assert flush_rank(cards("2H 4H 6H"), spades) is None
    assert flush_rank(cards("2S 4S 6S 8S TS"), TrumpState(None))[1] is False  # trumps unknown: no trump flush
