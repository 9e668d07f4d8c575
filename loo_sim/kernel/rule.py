"""The ``rule:`` family in numba (docs/policies.md P3b): the features of what a seat sees
when it declares, from its hand's bit mask, and the rule's decision from its table
(``game/rule_code.py``), read from the seat's row of the policy matrix. One compiled
function runs every rule: a new rule is new data, never a new compile. Computed
independently of the reference engine's ``engine/rule.py``; both must give the same deals
(tests/test_rule_engines.py, tests/test_differential.py)."""

import numpy as np
from numba import njit

from loo_sim.game import abi as L
from loo_sim.game.rule_code import (
    FEATURE_CODES,
    KIND_CHEAP,
    KIND_COUNTED,
    RC_ACTIONS,
    RC_CHEAP,
    RC_CLAUSES,
    RC_OFFER,
    RC_TESTS,
    TEST_WIDTH,
)
from loo_sim.kernel.bits import ACE_BITS, PAM, PAM_BIT, SUIT_MASK, has, lsb, msb, one_suit, popcount, trump_mask
from loo_sim.kernel.legality import flush_key

F = FEATURE_CODES  # numba freezes these ints as constants
F_TRUMPS, F_ACES, F_FACES, F_TRUMPS_KNOWN = F["trumps"], F["aces"], F["faces"], F["trumps_known"]
F_TOP, F_HIGHEST, F_BEST_PLAIN = F["top_trump"], F["highest_trump"], F["best_plain"]
F_LONGEST, F_FLUSH, F_POT, F_PENALTY = F["longest_suit"], F["flush"], F["pot"], F["penalty"]
JQK_BITS = 0xFFF << 36  # the jacks, queens and kings of every suit (bit rank * 4 + suit, jack = rank 9)
NO_CHEAP = (0,) * 16  # CHEAP's values where no test reads them


@njit(cache=True)
def longest_suit(hand, t, pam):
    """Most cards of one suit, Pam (in play) counting in the trump suit."""
    wild = pam == 1 and has(hand, PAM) == 1
    rest = hand & ~PAM_BIT if wild else hand
    longest = 0
    for s in range(4):
        longest = max(longest, popcount(rest & SUIT_MASK[s]) + (1 if wild and s == t else 0))
    return longest


@njit(cache=True)
def holds_flush(hand, t, pam, pam_flush):
    """R9's flush test as the show reads it (under pam_flush = false, Pam only with four clubs)."""
    if flush_key(hand, t, pam) < 0:
        return 0
    return 0 if pam == 1 and has(hand, PAM) == 1 and pam_flush == 0 and not one_suit(hand) else 1


@njit(cache=True, inline="always")
def cheap_features(hand, t, tm, pam, allowed, position, players, already_in, miss_taken, dealer_case, clean):
    """The whole numbers of game.rule_code.CHEAP, in its order: hand a mask, t the trump
    suit or -1, tm its trumps (bits.trump_mask), pam 1 when Pam is in play; the seat's
    options (bits 1 << DECL_*), position, ... as it sees them at its declaration."""
    trumps = hand & tm
    plain = hand & ~tm
    top = 0 if t < 0 else has(hand, PAM if pam == 1 else 48 + t)  # P5's top trump: Pam where in play, else the ace
    highest = 0 if trumps == 0 else 15 if pam == 1 and has(trumps, PAM) == 1 else (msb(trumps) >> 2) + 2
    best_plain = 0 if plain == 0 else (msb(plain) >> 2) + 2
    return (popcount(trumps), popcount(hand & ACE_BITS), popcount(hand & JQK_BITS), 1 if t >= 0 else 0, top, highest,
            best_plain, position, players, players - position, already_in, 1 if miss_taken else 0,
            (allowed >> L.DECL_MISS) & 1, (allowed >> L.DECL_PASS) & 1, dealer_case, 1 if clean else 0)  # fmt: skip


@njit(cache=True)
def read_feature(k, hand, t, pam, pam_flush, pot, penalty):
    """A feature of game.rule_code.KERNEL_ORDER past CHEAP, as a float, computed when a test
    reads it (a call: the compiler would otherwise compute them all at every declaration)."""
    if k == F_LONGEST:
        return float(longest_suit(hand, t, pam))
    if k == F_FLUSH:
        return float(holds_flush(hand, t, pam, pam_flush))
    if k == F_POT:
        return pot
    if k == F_PENALTY:
        return penalty
    if penalty == 0.0:  # pot_ratio: 1 when both are 0, above every number when only the penalty is
        return 1.0 if pot == 0.0 else np.inf
    return pot / penalty


@njit(cache=True, inline="always")
def rule_declaration(pol, seat, hand, t, pam, pam_flush, allowed, position, players, already_in, miss_taken,
                     dealer_case, clean, pot, penalty):  # fmt: skip
    """The declaration (DECL_*) of a rule seat, from its row (pol[seat, P_RULE:], laid out in
    game/rule_code.py): the truth of each test makes the key of the table of the clauses
    that hold; of those whose action is on offer the first decides, none: play."""
    base = L.P_RULE
    tm = trump_mask(t, pam)
    n_tests = pol[seat, base + RC_TESTS]
    tests = base + RC_ACTIONS + pol[seat, base + RC_CLAUSES]
    cheap = NO_CHEAP
    if pol[seat, base + RC_CHEAP] == 1:
        cheap = cheap_features(hand, t, tm, pam, allowed, position, players, already_in, miss_taken, dealer_case,
                               clean)  # fmt: skip
    counted = (tm, ACE_BITS, JQK_BITS)  # trumps, aces, faces (F_TRUMPS, F_ACES, F_FACES)
    key = 0
    for j in range(n_tests):
        at = tests + TEST_WIDTH * j
        k, kind, other = pol[seat, at], pol[seat, at + 2], pol[seat, at + 3]
        if kind >> 1 == KIND_COUNTED:  # a count against a number, in ints
            x = popcount(hand & counted[k])
            outcome = (1 if x == other else 0) + (2 if x > other else 0)  # less 0, equal 1, greater 2
        elif kind >> 1 == KIND_CHEAP:
            x = cheap[k]
            y = cheap[other] if kind & 1 else other
            outcome = (1 if x == y else 0) + (2 if x > y else 0)
        else:  # one of them computed when read; the other a cheap number, another such feature, or a number
            fx = float(cheap[k]) if k < len(cheap) else read_feature(k, hand, t, pam, pam_flush, pot, penalty)
            fy = float(other)
            if kind & 1:
                fy = float(cheap[other]) if other < len(cheap) else read_feature(other, hand, t, pam, pam_flush, pot,
                                                                                 penalty)  # fmt: skip
            outcome = (1 if fx == fy else 0) + (2 if fx > fy else 0)
        key |= ((pol[seat, at + 1] >> outcome) & 1) << j  # whether the comparison accepts it (CMP_MASKS)
    holding = pol[seat, tests + TEST_WIDTH * n_tests + key] & pol[seat, base + RC_OFFER + allowed]
    if holding == 0:
        return L.DECL_PLAY  # no clause decided: play was the only option (P3b)
    return pol[seat, base + RC_ACTIONS + lsb(holding)]
