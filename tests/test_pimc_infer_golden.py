"""``pimc:N:infer``'s draw (docs/policies.md P8, engine/infer.py) on a position worked out
by hand, in both engines.

Three seats, dealer 0, no miss, hearts trumps (9H turned up). Seat 1 declared play, seat 2
passed, seat 0 (the seat that draws) played. Seat 1 led KD to the first trick and seat 0
won it with AD; seat 0 now leads trick 2 from AS 4S. Everything but 2C 3C 4C 5C AC is
known to seat 0: seat 1 holds two of them, and seat 2's dead hand is the other three.
Under ``basic`` seat 2 passed with no trump and no ace, and seat 1 (dealt its two cards
and KD) played with a trump or an ace: either way AC is in seat 1's hand. So an attempt
(a shuffle of the five unseen cards, four draws) is kept exactly when AC is among its
first two cards, which seat 1 takes; P8's draw would keep every attempt.
"""

from __future__ import annotations

import numpy as np
import pytest

from loo_sim.base.rng import SeatStream
from loo_sim.engine.cardplay import Play, Sight, sample_deals
from loo_sim.engine.infer import Declared, Evidence, choice_of, infer_samples
from loo_sim.game import abi as L
from loo_sim.game.cards import parse_card
from loo_sim.game.decl import PASS, PLAY
from loo_sim.game.ranking import TrumpState
from loo_sim.game.rules import Rules
from loo_sim.kernel import cardplay as KC
from loo_sim.kernel.bits import POS
from loo_sim.run.args import rules_arrays
from tests.test_pimc_golden import mask

C = parse_card
HEARTS = 2
RULES = Rules.preset("three-card", players=3, miss=False)
KEY = 20240601
UNSEEN = ["2C", "3C", "4C", "5C", "AC"]  # in card-number order
KNOWN = frozenset(range(52)) - {C(u) for u in UNSEEN}
PLAYS = (Play(1, C("KD"), 0, (), HEARTS, False, C("9H")), Play(0, C("AD"), 0, (C("KD"),), HEARTS, False, C("9H")))


def sight() -> Sight:
    return Sight(RULES, False, 0, KNOWN, ((1, 2),), PLAYS, hidden_indicator=False)


def evidence() -> Evidence:
    offer = choice_of(["pass", "play"])
    return Evidence(RULES, "basic", TrumpState(HEARTS, False),
                    (Declared(1, PLAY, offer, dead=False), Declared(2, PASS, offer, dead=True)))  # fmt: skip


def by_hand(samples: int) -> tuple[list[list[str]], int]:
    """The draw worked by hand on seat 0's stream: shuffle the five cards (place i swapped
    with i + draw(5 - i)) and keep the attempt when AC is in its first two cards. Returns
    (seat 1's hand of each kept attempt, the attempts made)."""
    draw, kept, attempts = SeatStream(KEY), [], 0
    while len(kept) < samples:
        attempts += 1
        order = list(UNSEEN)
        for i in range(4):
            j = i + draw(5 - i)
            order[i], order[j] = order[j], order[i]
        if "AC" in order[:2]:
            kept.append(order[:2])
    return kept, attempts


@pytest.mark.parametrize("samples", [1, 4])
def test_reference_keeps_exactly_the_attempts_worked_by_hand(samples):
    kept, attempts = by_hand(samples)
    assert attempts > samples, "the stream should make at least one attempt fail here"
    stream = SeatStream(KEY)
    drawn = infer_samples(sight(), evidence(), samples, stream)
    assert drawn == [({1: [C(c) for c in hand]}, None) for hand in kept]
    assert stream.counter == 4 * attempts, "one draw a step, four steps an attempt"
    p8 = sample_deals(sight(), 40, SeatStream(KEY))
    assert any(C("AC") not in hands[1] for hands, _ in p8), "P8's draw ignores the declarations"


@pytest.mark.parametrize("samples", [1, 4])
def test_kernel_keeps_the_same_attempts_and_uses_the_same_draws(samples):
    kept, attempts = by_hand(samples)
    ri, _ = rules_arrays(RULES)
    sc = np.zeros(L.SC_LEN, dtype=np.int64)
    oi = np.zeros(L.O_LEN, dtype=np.int64)
    for i, seat in enumerate([1, 2, 0]):  # from the dealer's left
        sc[L.SC_ORDER + i] = seat
    for i, seat in enumerate([1, 0]):
        sc[L.SC_IN_DEAL + i] = seat
    sc[L.SC_HANDS + 0], sc[L.SC_HANDS + 1] = mask("AS 4S"), mask("AC 2C")  # seat 1: only its count is read
    sc[L.SC_DEALT + 0] = mask(sorted(KNOWN))  # everything seat 0 can place
    oi[L.O_DECL + 0] = oi[L.O_DECL + 1] = L.DECL_PLAY
    oi[L.O_DECL + 2] = L.DECL_PASS
    for seat in range(3):
        oi[L.O_OPTIONS + seat] = (1 << L.DECL_PLAY) | (1 << L.DECL_PASS)
    oi[L.O_T_DECL] = HEARTS
    oi[L.O_INDICATOR] = C("9H")
    oi[L.O_REVEAL] = oi[L.O_DEFENDER] = -1
    for j, (seat, card) in enumerate([(1, "KD"), (0, "AD")]):
        oi[L.O_SEATS + j] = seat
        oi[L.O_CARDS + j] = C(card)
    ws = KC.workspace()
    KC.solver_card(ri, sc, oi, ws, L.PL_PIMC, samples, 0, np.uint64(KEY), int(POS[C("AS")]), 1, 1, 0, 2, False,
                   L.TURN_UP, int(POS[C("9H")]), HEARTS, False, False, 9.0, 9.0, 1 + L.D_BASIC)  # fmt: skip
    assert sc[L.SC_COUNTERS + 0] == 4 * attempts, "one draw a step, four steps an attempt, as worked by hand"
    spi = ws[9][KC.W_SPI : KC.W_SPI + L.PI_LEN]
    assert spi[L.PI_HANDS + 0] == mask(" ".join(kept[-1])), "the last kept attempt: seat 1 holds its first two cards"
