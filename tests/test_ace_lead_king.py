"""R9c ``ace_lead_king``, worked out by hand in both engines (docs/rules.md R7, R9c): when the
ace of trumps is the indicator, a leader holding the king of trumps must lead it on the
*first* trick only; at any later lead the king is a card like the others (``lead = ace``
has no duty after the first trick).

- the lead options themselves: ``game/legality.py`` and the kernel's twin;
- two whole deals, each played by both engines with every seat on ``always/low`` (the
  legal card of lowest power, P3), whose tricks follow from the rules by hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from loo_sim import play_deals
from loo_sim.game import abi as L
from loo_sim.game.cards import card_str, parse_card, parse_cards
from loo_sim.game.deal_input import DealInput, build_deck
from loo_sim.game.ranking import TrumpState
from loo_sim.game.rules import Rules
from loo_sim.kernel.bits import CARD, POS
from loo_sim.kernel.legality import lead_options as kernel_lead_options
from loo_sim.run.args import rules_arrays

RULES = Rules.preset("three-card", players=3, miss=False, lead="ace", ace_lead_king=True)
HEARTS = 2  # suit index in C D H S
AH = parse_card("AH")


def reference_options(hand: str, first: bool) -> list[str]:
    from loo_sim.game.legality import lead_options

    options = lead_options(parse_cards(hand), TrumpState(HEARTS), RULES, first_trick=first, single_pot=False,
                           turned_up=AH)  # fmt: skip
    return sorted(card_str(c) for c in options.cards)


def kernel_options(hand: str, first: bool) -> list[str]:
    ri, _ = rules_arrays(RULES)
    mask = int(np.bitwise_or.reduce(np.int64(1) << POS[parse_cards(hand)]))
    got = kernel_lead_options(mask, HEARTS, ri[L.R_PAM], ri[L.R_LEAD], first, int(POS[AH]))
    return sorted(card_str(int(CARD[b])) for b in range(52) if (got >> b) & 1)


@pytest.mark.parametrize("options", [reference_options, kernel_options], ids=["reference", "kernel"])
def test_the_king_leads_the_first_trick_only(options):
    assert options("KH 2C 3D", first=True) == ["KH"]  # the ace is turned up: the king stands in
    assert options("KH 2C 3D", first=False) == ["2C", "3D", "KH"], "after the first trick: any card"
    assert options("KH 2C", first=False) == ["2C", "KH"]
    assert options("QH 2C 3D", first=True) == ["2C", "3D", "QH"]  # no king: no duty


# Dealer 0; seat 1 (the dealer's left) leads the first trick; hearts are trumps, the ace of
# hearts is the indicator; everybody plays (always) the lowest legal card (low).
LATER = {1: "2C 3D 4S", 2: "AC KH 5D", 0: "3C 6D 7S"}
# trick 1: seat 1 leads 2C (no king: any card, the lowest); seat 2 must follow with AC and
#          wins; seat 0 follows 3C.
# trick 2: seat 2 leads holding KH 5D: not the first trick, so any card: 5D, the lowest
#          (the king, a trump, is the highest). Seat 0 must head with 6D; seat 1 follows 3D.
# trick 3: seat 0 leads 7S, seat 1 follows 4S, seat 2 (no spade) must trump: KH wins.
LATER_TRICKS = [[[1, "2C"], [2, "AC"], [0, "3C"]], [[2, "5D"], [0, "6D"], [1, "3D"]], [[0, "7S"], [1, "4S"], [2, "KH"]]]
FIRST = {1: "KH 2C 3D", 2: "AC 4C 5D", 0: "3C 6D 7S"}
# trick 1: seat 1 holds the king with the ace turned up: it must lead KH (low alone would
#          lead 2C); seats 2 and 0 have no heart and no trump: their lowest, 4C and 3C.
# trick 2: seat 1 leads 2C; seat 2 must follow and head with AC; seat 0 (no club) plays 6D.
# trick 3: seat 2 leads 5D; seat 0 (no diamond) plays 7S; seat 1 follows 3D.
FIRST_TRICKS = [[[1, "KH"], [2, "4C"], [0, "3C"]], [[1, "2C"], [2, "AC"], [0, "6D"]], [[2, "5D"], [0, "7S"], [1, "3D"]]]


def deck_of(hands: dict[int, str]) -> list[int]:
    inp = DealInput(hands={s: parse_cards(h) for s, h in hands.items()}, miss=None, indicator=AH, stock=[])
    return build_deck(RULES, 0, 0.0, inp, list(range(52))).deck


@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_a_later_lead_holding_the_king_is_free(engine):
    rec = play_deals(RULES, [deck_of(LATER)], [0], [0.0], "always/low", engine=engine, seed=3)[0].to_dict()
    assert [t["cards"] for t in rec["tricks"]] == LATER_TRICKS, "trick 2 may be led by any card, not only KH"
    assert rec["tricks_won"] == [1, 0, 2]
    # antes 3 each: a pot of 9, a trick worth 3; seat 1 took none and pays the pot (unlimited loo)
    assert rec["shares"] == [3.0, 0.0, 6.0] and rec["penalties"] == [0.0, 9.0, 0.0]


@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_the_first_lead_holding_the_king_must_be_the_king(engine):
    rec = play_deals(RULES, [deck_of(FIRST)], [0], [0.0], "always/low", engine=engine, seed=3)[0].to_dict()
    assert [t["cards"] for t in rec["tricks"]] == FIRST_TRICKS, "the first lead is KH"
    assert rec["tricks_won"] == [0, 1, 2]
    assert rec["shares"] == [0.0, 3.0, 6.0] and rec["penalties"] == [9.0, 0.0, 0.0]
