"""``pimc:N``'s draw (docs/policies.md P8) on positions worked out by hand, in both engines.

Two small positions, three seats of which two are in the deal (seat 2 passed), dealer 0,
so seat 1 leads the first trick and seat 0 (the seat that draws) plays second. Everything
but a few cards is made known to seat 0, so the unseen cards are few and every sample
can be listed by hand.

**JOINT** (``lead = classic``, hearts trumps, 9H turned up): seat 1 led 2C to the first
trick and seat 0 won it with KC; seat 0 now leads trick 2 from AS 4D. Unseen: 2H and 3H,
and seat 1 holds two cards. Under ``classic`` a leader holding two trumps or more must
lead the highest, so with one of them beside 2C the lead of 2C was legal, but not with
both: each card is possible alone (the per-card filter keeps both) and not together. No
sample is consistent, so every one of the 8N attempts fails (one draw each: a shuffle of
two cards is one draw), and the seat plays as ``basic``. Without the full test of
consistency the first attempt would give seat 1 both trumps, and the solve (seat 1 trumps
both tricks whatever seat 0 leads: a tie, which goes to the lower card, 4D) would decide.

**HIDDEN** (``trump = first_renounce``, nobody has renounced, so the indicator is hidden):
seat 0 led 4D, seat 1 followed 2D and seat 0 won; seat 0 leads trick 2 from AS 6D.
Seat 1 followed diamonds without heading 4D, so it holds no diamond above 4D: of the
unseen cards it may hold the hearts, not 5D or 7D. A sample gives it two cards, and the
hidden indicator is the first card of the shuffle not taken.
"""

from __future__ import annotations

import numpy as np
import pytest

from loo_sim.base.rng import SeatStream
from loo_sim.engine.cardplay import ATTEMPTS_PER_SAMPLE, Play, Sight, sample_deals
from loo_sim.game import abi as L
from loo_sim.game.cards import parse_card, parse_cards
from loo_sim.game.rules import Rules
from loo_sim.kernel import cardplay as KC
from loo_sim.kernel.bits import CARD, POS
from loo_sim.run.args import rules_arrays

C = parse_card
HEARTS = 2
JOINT_RULES = Rules.preset("three-card", players=3, miss=False, lead="classic")
HIDDEN_RULES = Rules.preset("three-card", players=3, miss=False, trump="first_renounce")
KEY = 20240531  # seat 0's stream in the kernel positions


def all_but(*unseen: str) -> frozenset[int]:
    return frozenset(range(52)) - {C(u) for u in unseen}


# ---- the reference engine: Sight and sample_deals, with a draw written by hand --------------
def joint_sight() -> Sight:
    plays = (Play(1, C("2C"), 0, (), HEARTS, False, C("9H")), Play(0, C("KC"), 0, (C("2C"),), HEARTS, False, C("9H")))
    return Sight(JOINT_RULES, False, 0, all_but("2H", "3H"), ((1, 2),), plays, hidden_indicator=False)


def hidden_sight() -> Sight:
    plays = (Play(0, C("4D"), 0, (), None, False, None), Play(1, C("2D"), 0, (C("4D"),), None, False, None))
    return Sight(HIDDEN_RULES, False, 0, all_but("5D", "7D", "2H", "3H"), ((1, 2),), plays, hidden_indicator=True)


class Draws:
    """A draw(n) that answers ``pick(n)`` and counts its calls."""

    def __init__(self, pick=lambda n: 0) -> None:
        self.pick, self.calls = pick, 0

    def __call__(self, n: int) -> int:
        self.calls += 1
        return self.pick(n)


def test_joint_each_card_alone_may_be_held_but_not_both():
    sight = joint_sight()
    assert sight.may_hold(1, sight.unseen()) == {C("2H"), C("3H")}
    assert not sight.consistent({1: [C("2H"), C("3H")]})


@pytest.mark.parametrize("samples", [1, 3])
def test_joint_no_sample_is_consistent_after_8n_attempts_reference(samples):
    draw = Draws()
    assert sample_deals(joint_sight(), samples, draw) == [], "seat 1 may not hold both trumps: no sample"
    assert draw.calls == 8 * samples, f"{draw.calls} draws: {draw.calls} attempts of one draw, not 8N = {8 * samples}"
    assert ATTEMPTS_PER_SAMPLE == 8


def test_hidden_indicator_is_the_first_card_of_the_shuffle_not_taken_reference():
    """Unseen in card-number order: 5D, 7D, 2H, 3H (diamonds before hearts).

    - draw always 0: no swap, the order stays 5D 7D 2H 3H; seat 1 takes 2H 3H (the first
      cards it may hold), and the first card not taken, 5D, is the indicator;
    - draw always 1: swaps 0-1, 1-2, 2-3 carry 5D to the end: 7D 2H 3H 5D; seat 1 takes 2H 3H, the indicator is 7D.
    A seat that finds enough cards and a consistent sample needs one attempt: N samples,
    3 draws each (four cards)."""
    identity = Draws()
    assert sample_deals(hidden_sight(), 2, identity) == [({1: [C("2H"), C("3H")]}, C("5D"))] * 2
    assert identity.calls == 2 * 3
    ones = Draws(lambda n: 1)
    assert sample_deals(hidden_sight(), 1, ones) == [({1: [C("2H"), C("3H")]}, C("7D"))]


# ---- the kernel: pimc on the same positions, its state written by hand ---------------------------
def mask(cards: str | list[int]) -> int:
    cards = parse_cards(cards) if isinstance(cards, str) else cards
    return int(np.bitwise_or.reduce(np.int64(1) << POS[cards])) if cards else 0


def kernel_pimc(rules: Rules, known: frozenset[int], hands: dict[int, str], tricks: list[list[tuple[int, str]]],
                turned: str | None, indicator: str, trump: int, mode: int, samples: int, basic: str):  # fmt: skip
    """``kernel.cardplay.solver_card`` for seat 0 (pimc:``samples``) leading trick
    ``len(tricks)``, seats 1 and 0 in the deal in that order, ``tricks`` the cards played
    before. Returns (the card, the draws used from seat 0's stream, the last sample's
    position as the kernel left it in its scratch)."""
    ri, _ = rules_arrays(rules)
    sc = np.zeros(L.SC_LEN, dtype=np.int64)
    oi = np.zeros(L.O_LEN, dtype=np.int64)
    in_deal = [1, 0]
    for i, seat in enumerate(in_deal):
        sc[L.SC_IN_DEAL + i] = seat
        sc[L.SC_HANDS + seat] = mask(hands[seat])
        oi[L.O_DECL + seat] = L.DECL_PLAY
    oi[L.O_DECL + 2] = L.DECL_PASS
    sc[L.SC_DEALT + 0] = mask(sorted(known))  # everything seat 0 can place
    oi[L.O_INDICATOR] = -1 if turned is None else C(turned)
    oi[L.O_REVEAL] = oi[L.O_DEFENDER] = -1
    for t, trick in enumerate(tricks):
        for j, (seat, card) in enumerate(trick):
            oi[L.O_SEATS + t * L.MAX_PLAYERS + j] = seat
            oi[L.O_CARDS + t * L.MAX_PLAYERS + j] = C(card)
    ws = KC.workspace()
    got = KC.solver_card(ri, sc, oi, ws, L.PL_PIMC, samples, 0, np.uint64(KEY), int(POS[C(basic)]), len(tricks),
                         in_deal.index(0), 0, 2, False, mode, int(POS[C(indicator)]), trump, False, False, 9.0,
                         9.0)  # fmt: skip
    wi = ws[9]
    return card_name(CARD[got]), int(sc[L.SC_COUNTERS + 0]), wi[KC.W_SPI : KC.W_SPI + L.PI_LEN].copy()


def card_name(card: int) -> str:
    from loo_sim.game.cards import card_str

    return card_str(int(card))


@pytest.mark.parametrize("samples", [1, 3])
def test_joint_no_sample_is_consistent_after_8n_attempts_kernel(samples):
    card, draws, _ = kernel_pimc(JOINT_RULES, joint_sight().known, {0: "AS 4D", 1: "2H 3H"}, [[(1, "2C"), (0, "KC")]],
                                 "9H", "9H", HEARTS, L.TURN_UP, samples, basic="AS")  # fmt: skip
    assert card == "AS", f"no consistent sample: seat 0 plays as basic (AS), not {card} (a solve of a sample)"
    assert draws == 8 * samples, f"{draws} draws: {draws} attempts of one draw, not 8N = {8 * samples}"


def expected_indicators(samples: int) -> list[str]:
    """P8 step 2 by hand on seat 0's stream: each attempt shuffles 5D 7D 2H 3H (forward
    Fisher-Yates, place i swapped with i + draw(4 - i)); seat 1 takes the hearts, and the
    indicator is the first of 5D and 7D in the shuffle."""
    draw, out = SeatStream(KEY), []
    for _ in range(samples):
        order = ["5D", "7D", "2H", "3H"]
        for i in range(3):
            j = i + draw(4 - i)
            order[i], order[j] = order[j], order[i]
        out.append(next(c for c in order if c in ("5D", "7D")))
    return out


def test_hidden_indicator_of_the_kernel_sample():
    """Seat 1 may hold only 2H and 3H of the unseen cards, so every sample gives it both and
    leaves 5D and 7D; the indicator is whichever of them comes first in the shuffle, and
    every attempt succeeds (three draws each). The kernel keeps its last sample in its
    scratch (``W_SPI``)."""
    card, draws, spi = kernel_pimc(HIDDEN_RULES, hidden_sight().known, {0: "AS 6D", 1: "2H 3H"},
                                   [[(0, "4D"), (1, "2D")]], None, "5D", -1, L.FIRST_RENOUNCE, 2,
                                   basic="AS")  # fmt: skip
    assert draws == 2 * 3
    assert spi[L.PI_HANDS + 0] == mask("2H 3H"), "seat 1 (first in the deal) holds the two hearts"
    assert spi[L.PI_HANDS + 1] == mask("AS 6D")
    assert card_name(CARD[spi[L.PI_INDICATOR]]) == expected_indicators(2)[-1]
    # trumps unknown, AS 6D both take their trick whatever the indicator: a tie, to the lower card
    assert card == "6D"
