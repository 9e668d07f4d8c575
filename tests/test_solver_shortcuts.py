"""The solver's newer shortcuts (kernel/solver.py: shallow pruning, the table keyed on
whether each seat has won a trick and on the ranks among the cards in play, the cut of a
follower that cannot head the trick, the table kept across solves, the endgame of the
last two tricks, the cut's tricks lost to another seat's higher trumps, a follower with one
legal card played without a frame, the last trick judged from the mask of its cards, the
trick before the endgame's two searched in rows) change no answer.

On 10,000 positions of real reference deals of every preset (tests/solver_positions.py's
way: three-card with 3 to 8 players, five-card with 3 to 5, Pam be civil, classic-limited
with the indicator hidden and turned, defenders, first_lead, the lead and void options)
the search with every shortcut (one workspace, solved in deal order as ``perfect`` solves
a deal's decisions, so the table is shared) gives the same card, the same counts and the
same value of every legal card as the search before them (``OLD_SEARCH``: a fresh table
each solve, none of them). Where trumps are still unknown under ``first_renounce`` the
position is solved again with another hidden indicator (pimc's samples differ so), in
the same shared table. Every 50th position (five-card: with three tricks or fewer left)
is also checked against the reference engine (engine/solver.py).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from loo_sim.engine import solver as reference
from loo_sim.engine.deal import reference_positions
from loo_sim.game.rules import Rules, Trump
from loo_sim.kernel import solver as K
from loo_sim.kernel.bits import CARD, POS
from loo_sim.run.args import rules_arrays
from loo_sim.run.solver import encode_position
from tests.solver_positions import policies_for

POSITIONS = 10_000
REFERENCE_EVERY = 50
FAMILIES = ["always", "basic", "cautious"]
# (name, preset, overrides, carried pots)
PRESETS = [
    *[(f"three-card {n} players", "three-card", {"players": n}, [0.0, 3.0]) for n in range(3, 9)],
    *[(f"five-card {n} players", "five-card", {"players": n}, [0.0, 5.0]) for n in range(3, 6)],
    ("five-card lead=classic void=trump_to_win", "five-card", {"lead": "classic", "void": "trump_to_win"}, [0.0]),
    (
        "five-card no Pam lead=ace first_lead",
        "five-card",
        {"pam": False, "pam_be_civil": False, "lead": "ace", "trump": "first_lead", "players": 4},
        [0.0],
    ),
    ("classic-limited single (indicator hidden)", "classic-limited", {}, [0.0]),
    ("classic-limited double (defenders)", "classic-limited", {}, [3.0, 6.0]),
    ("irish (first_lead)", "irish", {}, [0.0, 6.0]),
    ("three-card lead=ace void=trump_to_win", "three-card", {"lead": "ace", "void": "trump_to_win"}, [0.0]),
]


def _answers(pi, pf, ri, ws) -> tuple:
    """(packed counts, card) of solve_position, then card_values_position's cards and counts."""
    packed = K.solve_position(pi, pf, ri, *ws)
    best = int(ws[1][K.ST_BEST])
    K.card_values_position(pi, pf, ri, *ws)
    st = ws[1]
    out = int(st[K.ST_OUT_N])
    return (int(packed), best, st[K.ST_OUT_CARDS : K.ST_OUT_CARDS + out].tolist(),
            st[K.ST_OUT_RES : K.ST_OUT_RES + out].tolist())  # fmt: skip


def _other_indicator(pi, rng: random.Random) -> int:
    """A card in no hand and not the indicator: a hidden indicator pimc could sample."""
    held = 0
    for i in range(int(pi[K.L.PI_N])):
        held |= int(pi[K.L.PI_HANDS + i])
    for j in range(int(pi[K.L.PI_NCARDS])):
        held |= 1 << int(pi[K.L.PI_CARDS + j])
    free = [b for b in range(52) if not (held >> b) & 1 and b != pi[K.L.PI_INDICATOR]]
    return rng.choice(free)


@pytest.mark.parametrize("entry", PRESETS, ids=[e[0] for e in PRESETS])
def test_new_shortcuts_give_the_old_answers(entry):
    name, preset, overrides, carried = entry
    rules = Rules.preset(preset, **overrides)
    ri, _ = rules_arrays(rules)
    rng = random.Random(len(name) * 7919 + 17)
    new, old = K.workspace(), K.workspace()
    old[1][K.ST_FLAGS] = K.OLD_SEARCH
    done = resampled = referenced = first_leads = 0
    while done < POSITIONS:
        deck = list(range(52))
        rng.shuffle(deck)
        dealer, pot = rng.randrange(rules.players), rng.choice(carried)
        positions, _ = reference_positions(rules, deck, dealer, pot, policies_for(rng, FAMILIES, rules.players))
        for pos in positions[: POSITIONS - done]:  # in deal order: the decisions perfect solves, one table
            pi, pf = encode_position(pos)
            where = f"{name}: {pos}"
            got = _answers(pi, pf, ri, new)
            assert got == _answers(pi, pf, ri, old), where
            if pos.trump is None and pos.mode is Trump.FIRST_RENOUNCE:
                pi2 = pi.copy()
                pi2[K.L.PI_INDICATOR] = _other_indicator(pi, rng)
                assert _answers(pi2, pf, ri, new) == _answers(pi2, pf, ri, old), f"{where}, another indicator"
                resampled += 1
            left = rules.hand_size - pos.trick_index
            if done % REFERENCE_EVERY == 0 and (rules.hand_size == 3 or left <= 3):
                assert got[1] == POS[reference.best_card(pos)], where
                tricks = reference.solve(pos)
                assert K.counts(got[0], len(pos.seats)) == [tricks[s] for s in pos.seats], where
                values = reference.card_values(pos)
                assert [int(CARD[c]) for c in got[2]] == list(values), where
                referenced += 1
            first_leads += pos.trick_index == 0 and not pos.trick
            done += 1
    assert referenced >= POSITIONS // REFERENCE_EVERY // 3 and first_leads >= 100
    if rules.trump is not Trump.FIRST_LEAD and "single" in name:
        assert resampled >= 500


def test_each_new_shortcut_alone_changes_nothing():
    """Each shortcut turned off alone (and all of them) gives the same card and counts, on
    whole five-card deals of five seats from the first lead."""
    rng = random.Random(33)
    rules = Rules.preset("five-card")
    encoded = []
    while len(encoded) < 30:
        deck = list(range(52))
        rng.shuffle(deck)
        positions, _ = reference_positions(rules, deck, len(encoded) % 5, 0.0, policies_for(rng, ["always"], 5))
        if positions and len(positions[0].seats) == 5:
            encoded.append(encode_position(positions[0]))
    pis, pfs = np.array([e[0] for e in encoded]), np.array([e[1] for e in encoded])
    ri, _ = rules_arrays(rules)
    ws = K.workspace()
    answers, nodes = [], []
    switches = (K.NO_SHALLOW, K.NO_FUTURE, K.NO_RANKS, K.NO_UPPER, K.NO_ENDGAME, K.NO_TRUMPS, K.NO_FORCED,
                K.NO_MASKED, K.NO_SPEC, K.NO_RESUME, K.NO_THREE, K.NO_SPEC | K.NO_THREE, K.NO_MIX, K.OLD_SEARCH)
    for flags in (0, *switches):
        ws[1][K.ST_FLAGS] = flags
        out = np.zeros((len(encoded), 3), dtype=np.int64)
        K.solve_many(pis, pfs, ri, *ws, out)
        answers.append(out[:, :2].copy())
        nodes.append(int(out[:, 2].sum()))
    for flags, other in zip(switches, answers[1:]):
        assert (other == answers[0]).all(), flags
    assert nodes[0] < nodes[-1] / 2  # they do save work: the search with all of them, against none
    assert nodes[0] < nodes[switches.index(K.NO_TRUMPS) + 1]  # a tighter cap stops more frames
    # a forced follower still counts as a node; pruning past it can only stop more
    assert nodes[0] <= nodes[switches.index(K.NO_FORCED) + 1]
    # speculative pruning stops frames shallow pruning cannot, net of the frames it searches again
    assert nodes[0] < nodes[switches.index(K.NO_SPEC) + 1]
    # a card searched again goes on from where its first search stopped: fewer frames than from nothing
    assert nodes[0] < nodes[switches.index(K.NO_RESUME) + 1]
    # the endgame (solver_endgame.py) tries the same cards as the search's frames would, a node a seat
    # (without it, the trick before it goes to the frames too, as without the rows of solver_three.py)
    assert nodes[switches.index(K.NO_ENDGAME) + 1] == nodes[switches.index(K.NO_THREE) + 1]
    # so do the rows of the trick before it (solver_three.py), which leave speculative pruning out:
    # without it, the frames of that trick search the same nodes
    assert nodes[switches.index(K.NO_SPEC) + 1] == nodes[switches.index(K.NO_SPEC | K.NO_THREE) + 1]


def test_the_endgame_replaces_the_table_of_the_last_two_tricks():
    """Three-card from the first lead: the only trick start below the root has two tricks
    left, which the endgame evaluates without the table (after one trick no two plays meet),
    so the table stays empty; the search's frames store it there."""
    rng = random.Random(5)
    rules = Rules.preset("three-card", players=5)
    ri, _ = rules_arrays(rules)
    deck = list(range(52))
    rng.shuffle(deck)
    positions, _ = reference_positions(rules, deck, 0, 0.0, policies_for(rng, ["always"], 5))
    pi, pf = encode_position(positions[0])
    filled = {}
    for flags in (0, K.NO_ENDGAME):
        ws = K.workspace()
        ws[1][K.ST_FLAGS] = flags
        K.solve_position(pi, pf, ri, *ws)
        filled[flags] = int((ws[0][:, K.TT_GEN] == ws[1][K.ST_GEN]).sum())
    assert filled[0] == 0 and filled[K.NO_ENDGAME] > 0


def _context(n: int, pam: int) -> np.ndarray:
    st = np.zeros(K.ST_LEN, dtype=np.int64)
    st[K.ST_N], st[K.ST_PAM] = n, pam
    return st


def _hands(*held: list[int]) -> np.ndarray:
    hands = np.zeros(K.L.MAX_PLAYERS, dtype=np.int64)
    for i, bits in enumerate(held):
        for b in bits:
            hands[i] |= 1 << b
    return hands


def test_tricks_lost_counts_one_trick_for_each_higher_trump_of_one_seat():
    """Bit positions are rank * 4 + suit (rank 12 the ace); trumps are suit 0 here. Each trump
    above all of the mover's wins the trick it is played in, and one seat plays its cards
    to different tricks; two seats' higher trumps may fall to the same trick."""
    from loo_sim.kernel.bits import trump_mask
    from loo_sim.kernel.solver_endgame import tricks_lost

    t, tm = 0, trump_mask(0, 0)
    st = _context(3, 0)
    # seat 1 holds the ace and king of trumps, the mover (seat 0) only the two: two tricks lost
    hands = _hands([0, 1, 5], [48, 44, 2], [3, 6, 7])
    assert tricks_lost(hands, st, 0, 0, 0, t, tm, 0) == 2
    # the mover's queen of trumps is below both: still two; its ace is above every trump: none
    assert tricks_lost(_hands([40, 1, 5], [48, 44, 2], [3, 6, 7]), st, 0, 0, 0, t, tm, 0) == 2
    assert tricks_lost(_hands([48, 1, 5], [44, 40, 2], [3, 6, 7]), st, 0, 0, 0, t, tm, 0) == 0
    # the ace and king in two hands: only one trick is sure (both may fall to one trick)
    assert tricks_lost(_hands([0, 1, 5], [48, 2, 9], [44, 6, 7]), st, 0, 0, 0, t, tm, 0) == 1
    # seat 1 led this trick (k = 1), the mover is seat 2 and cannot head it: this trick and two later
    hands = _hands([3, 6, 10], [48, 44], [0, 1, 5])
    assert tricks_lost(hands, st, 2, 1, 1, t, tm, 1) == 3
    # trumps unknown (first_renounce before the reveal) or the switch off: only the trick at hand
    assert tricks_lost(hands, st, 2, 1, 1, -1, 0, 1) == 1
    st[K.ST_FLAGS] = K.NO_TRUMPS
    assert tricks_lost(hands, st, 2, 1, 1, t, tm, 1) == 1
    # Pam (the jack of clubs, bit 36 = rank 9 * 4 + suit 0) is above the ace of trumps (suit 1 here)
    st, tm = _context(3, 1), trump_mask(1, 1)
    assert tricks_lost(_hands([49, 0, 4], [36, 45, 2], [3, 6, 7]), st, 0, 0, 0, 1, tm, 0) == 1
    assert tricks_lost(_hands([36, 0, 4], [49, 45, 2], [3, 6, 7]), st, 0, 0, 0, 1, tm, 0) == 0


@pytest.mark.parametrize("pam", [0, 1])
def test_winning_card_of_a_mask_is_the_card_by_card_winner(pam):
    """R7 judged from the mask of a trick's cards (solver_trick.winning_card) names the
    card that wins when the trick is judged card by card as it is played (bits.beats), for
    every trump state, on 20,000 random tricks of 2 to 8 cards."""
    from loo_sim.kernel.bits import beats, eff_suit
    from loo_sim.kernel.solver_trick import winning_card

    rng = random.Random(pam + 11)
    for _ in range(20_000):
        trick = rng.sample(range(52), rng.randrange(2, 9))
        t = rng.randrange(-1, 4)
        led = eff_suit(trick[0], t, pam)
        winning = trick[0]
        for c in trick[1:]:
            if beats(c, winning, led, t, pam):
                winning = c
        played = sum(1 << c for c in trick)
        assert winning_card(played, led, t, pam) == winning, (trick, t)


def _ranks_by_the_rule(held: list[list[int]], fixed: set[int]) -> list[set[int]]:
    """The rule the table's ranks were first made by (kernel/solver_table.canonical until
    it ranked each card by one popcount), card by card: in bit order, each card in play
    moves to the lowest bit of its suit above the card placed before it in its suit and the
    card placed before it in its hand; a fixed card (Pam, the aces under Pam be civil) stays
    where it is. So it keeps each suit's order (Pam's place among the clubs too), each
    hand's bit order and the fixed cards, and two trick starts get the same ranks by it
    exactly when those are alike."""
    owner = {c: i for i, cards in enumerate(held) for c in cards}
    out: list[set[int]] = [set() for _ in held]
    last_in_suit: dict[int, int] = {}
    last_in_hand: dict[int, int] = {}
    for c in sorted(owner):
        o, suit = owner[c], c % 4
        floor = max(last_in_suit.get(suit, -1), last_in_hand.get(o, -1))
        b = c if c in fixed else next(x for x in range(floor + 1, 52) if x % 4 == suit)
        out[o].add(b)
        last_in_suit[suit], last_in_hand[o] = b, b
    return out


@pytest.mark.parametrize("pam, civil", [(0, 0), (1, 0), (1, 1)])
def test_the_tables_ranks_meet_exactly_when_the_rule_says(pam, civil):
    """solver_table.canonical (each card at 4 x its rank among the cards of its suit in play
    + its suit, Pam and the aces apart, and each hand's suits in bit order) gives two trick
    starts the same ranks exactly when the rule card by card above does: each suit's order,
    each hand's bit order and the fixed cards alike, what the table's equality relies on.
    On 20,000 random trick starts of 2 to 5 hands of 1 to 4 cards each, dealt from a few
    ranks (Pam and the aces among them) so that many meet."""
    from loo_sim.kernel.bits import PAM
    from loo_sim.kernel.solver_table import ST_CANON, canonical

    rng = random.Random(11 + pam + civil)
    fixed = ({PAM} if pam else set()) | ({48, 49, 50, 51} if civil else set())
    deck = [rank * 4 + suit for rank in (0, 1, 2, 9, 12) for suit in range(3)]
    by_rule: dict = {}
    by_kernel: dict = {}
    tried = 0
    for _ in range(20_000):
        n, size = rng.randrange(2, 6), rng.randrange(1, 5)
        if n * size > len(deck):
            continue
        cards = rng.sample(deck, n * size)
        held = [cards[i * size : (i + 1) * size] for i in range(n)]
        tried += 1
        st = _context(n, pam)
        st[K.ST_CIVIL] = civil
        canonical(_hands(*held), st, n)
        kernel = (n, tuple(int(x) for x in st[ST_CANON : ST_CANON + n]))
        rule = (n, tuple(frozenset(r) for r in _ranks_by_the_rule(held, fixed)))
        by_rule.setdefault(rule, set()).add(kernel)
        by_kernel.setdefault(kernel, set()).add(rule)
    assert all(len(v) == 1 for v in by_rule.values()), "the kernel splits trick starts the rule has alike"
    assert all(len(v) == 1 for v in by_kernel.values()), "the kernel joins trick starts the rule tells apart"
    assert len(by_rule) < 0.9 * tried  # many trick starts met: the test compares classes, not single starts


@pytest.mark.parametrize("flags", [0, K.NO_MIX])
def test_every_bit_of_a_key_reaches_its_slot(flags):
    """solver_table._slot: flipping any one bit of any hand of a key moves its slot (almost
    always: 65,536 slots); under NO_MIX, as before, the last hand's bits from 45 up never did."""
    from loo_sim.kernel.solver_table import _slot

    rng = random.Random(5)
    stuck = set()
    for i in range(5):
        for bit in range(63):
            moved = 0
            for _ in range(40):
                hands = np.array([rng.getrandbits(62) for _ in range(5)], dtype=np.int64)
                meta = rng.getrandbits(40)
                flipped = hands.copy()
                flipped[i] ^= 1 << bit
                moved += _slot(hands, 5, meta, 1 << 16, flags) != _slot(flipped, 5, meta, 1 << 16, flags)
            if moved < 38:
                stuck.add((i, bit))
    if flags == 0:
        assert stuck == set()
    else:
        assert {(4, bit) for bit in range(45, 63)} <= stuck


@pytest.mark.parametrize("pam", [0, 1])
def test_a_tie_in_a_search_again_goes_to_the_card_earlier_in_p7s_order(pam):
    """solver_frames.earlier (a frame searching its unknown cards again, after speculative
    pruning, gives a tie to the earlier card) orders any two cards of a hand as P7's
    tie-break does: the card of lowest power first (bits.lowest_in, taken again and again),
    with every trump state; the jack of clubs is Pam only when Pam is played."""
    from loo_sim.kernel.bits import lowest_in, power_masks
    from loo_sim.kernel.solver_frames import F_LEN, F_T, MAX_DEPTH, earlier

    rng = random.Random(11 + pam)
    fr = np.zeros((MAX_DEPTH, F_LEN), dtype=np.int64)
    st = _context(4, pam)
    for _ in range(2_000):
        t = rng.randrange(-1, 4)
        fr[3, F_T] = t
        hand = rng.sample(range(52), rng.randrange(2, 9))
        _, low_plain, low_trumps, _ = power_masks(t, pam)
        left, order = sum(1 << b for b in hand), []
        while left:
            c = int(lowest_in(left, low_plain, low_trumps))
            order.append(c)
            left &= ~(1 << c)
        for c in hand:
            for b in hand:
                if c != b:
                    assert bool(earlier(fr, 3, st, c, b)) == (order.index(c) < order.index(b)), (t, hand)
