"""The perfect-information card-play solver (docs/policies.md P7) in numba: the twin of
``engine/solver.py`` (``solve``, ``card_values``, ``best_card``), exact, with the same
payoffs and tie-break, on masks.

**Input.** A position is two small vectors with the slots ``PI_*`` / ``PIF_*`` of
``game/abi.py`` (``run/solver.py`` ``encode_position`` fills them from an engine
``Position``): seats are indices 0..n-1 into the seats in the deal (the engine's
``in_deal`` order); hands are masks of bit positions (``bits.POS``), the current trick's
cards are bit positions in playing order; the trump suit is -1 while unknown; the
indicator is its bit position (-1 none) with a flag saying whether it is turned; the
trump mode is the deal's (a single pot's is FIRST_RENOUNCE); the leader and the
defender are seat indices (-1: no defender). The rules come as ``run.args.rules_arrays``'
``ri`` (hand size, Pam, Pam be civil, lead, void). A workspace (:func:`workspace`)
holds the transposition table and the scratch; nothing in the search allocates.

**Output.** The final trick counts, packed 4 bits a seat (``counts(packed, n)``
unpacks), the card max^n plays, and for ``card_values`` each legal card with the packed
counts after it. Payoffs are ``pay[i, k] = pot_start * k / hand_size``, less ``penalty``
when ``k == 0`` unless ``i`` is the defender: the same floats as the reference's.

**Rules** as ``kernel/tricks.py`` ``play_trick`` and ``engine/tricks.py`` play them: lead
obligations (``legality.lead_options``, the first-trick clauses on trick 0 unless a
single pot, the indicator as ``turned_up`` once turned), followers
(``legality.follow_options``: follow, head the trick, the void option), Pam be civil
(Pam held back unless it is the last card), ``first_lead`` (the first card led sets
trumps), ``first_renounce`` (a follower void in the led suit while trumps are unknown;
when that trick is complete the indicator is turned and the trick is judged with the new
trumps), the winner leads next.

**Search.** Depth first over an explicit stack of frames (``fr``/``fb``, one a card
played; :func:`_value`), the seat to move trying its legal cards in tie-break order
(lowest P1 power with the trumps known before the card: within one hand, the plain
cards in bit order, then the trumps, then Pam) and keeping a card only when strictly
better for itself. The same search as a numba recursion (``kernel/solver_recursive.py``,
without the newer shortcuts, kept for ``scripts/bench.py --solver``) is no faster on
five-card hands, and numba cannot cache a self-recursive function (the cached copy
crashes on load), so the stack is the one used. What makes it fast, all exact (each
can be turned off with its ``NO_*`` bit in ``st[ST_FLAGS]``; ``OLD_SEARCH`` turns off
the newer ones, every switch but ``NO_MERGE``, ``NO_TT`` and ``NO_CUT``, the search as
it was before them, node for node, though 1.2-1.6x slower than the code before them ran
it: ``scripts/bench_before.py`` times that code itself):

- the cut of the reference: once a card reaches the most the mover can still get
  (``cap``: its best payoff over every count it can still end with), stop; later cards
  could only tie, and ties keep the earlier card. A follower none of whose legal cards
  heads the trick cannot win it (unless a first_renounce reveal may judge it again), so
  its most is one trick lower (``NO_UPPER``); and once trumps are known it loses at least
  as many tricks as one other seat holds trumps above every trump of its own: each wins
  the trick it falls to, and one seat's cards fall to different tricks (``NO_TRUMPS``,
  ``solver_endgame.tricks_lost``; five-card first leads 21,467 -> 10,626 nodes a solve).
  A frame with one legal card skips the bound: it has no cut to make;
- equivalent cards: a card ``b`` is skipped when the card tried just before it, ``a``,
  is of the same suit, neither is an ace nor Pam, no card of that suit still in play
  (in a hand or in the trick) lies between them, and the mover holds no card whose bit
  lies between them. Then exchanging the names of ``a`` and ``b`` maps the game after
  ``b`` onto the game after ``a`` exactly: every comparison with a card in play (beats,
  heading, the highest trump of the classic lead) and every suit test comes out the
  same, the ace-of-trumps and Pam rules (first-lead clauses, Pam be civil) never meet
  them (the king of the first-lead clauses leaves its leader that one legal card, and
  trick 0 is never led again), and the mover's later tie-breaks order its other cards
  the same way against either (plain power is the bit order; a trump or Pam is above
  both or below both in every trump state). So ``b``'s subgame gives the same counts as
  ``a``'s, and ``b``, later in the tie-break order, could only tie;
- shallow max^n pruning (Korf 1991, ``NO_SHALLOW``; ``solver_frames._shallow``): the
  tricks left add up to a constant, so once a frame's mover has secured some tricks
  (the fewest that pay it as much as its best so far), its parent's mover can get at
  most the rest; when that cannot beat the parent's best so far (strictly better only),
  the frame stops. Its value is then inexact: the parent rejects it, and it never goes
  into the table; never under ``card_values``' root, whose cards are all reported, nor
  once the frame has no card left (nothing to save: its value is exact, and is stored);
- speculative max^n pruning (Sturtevant 2003, ``NO_SPEC``; ``solver_frames._speculate``):
  a frame takes a child's value only when its mover gets at least ``acc`` tricks (the fewest
  paying it strictly more than its best so far; 0 before it has one), and a frame's own
  mover ends with at least ``need`` (the fewest paying it as much as its best so far). Each
  seat's tricks are at least the largest of these bounds on it, and all seats' tricks add up
  to the hand's; so when the frame's ``need`` and the bounds of up to three frames above it
  add up to more, no value of this frame can be taken by every one of them up to the
  highest counted (its top): stop, and the parent leaves the value out. The parent's own
  value may then be inexact, but only in a way the top rejects; so when the parent's parent
  would take the value the parent found, the parent searches again, exactly, the cards whose
  values it does not know (its best so far kept; a tie with it then goes to the card earlier
  in the order, so pruning against it counts a tie; nothing below it prunes against a
  frame above it); otherwise the frame
  above learns the same, up to the top. An inexact value never goes into the table. Not
  under a ``card_values`` root (every card's value is reported), and not in the rows of
  the last three tricks (the endgame's, where it searched more nodes than it saved, and
  ``solver_three``'s, where it saved as many as it cost). Nodes a solve
  over the first 150 of ``bench --solver``'s five-card first leads: 10,346 -> 8,433
  (counting up to ``solver_frames.SPEC_UP`` = 3 frames up; 2 gave 8,581, 4 gave 9,552;
  searching a parent again from its first card rather than only its unknown cards, 8,628);
  a card searched again goes on from where its first search stopped (``NO_RESUME``;
  ``solver_frames._save``/``_resume``: its best so far, the cards it did not try and those
  whose values it did not know, kept in the parent's row under the card): 8,433 -> 8,149;
- the last trick is played out directly (every seat holds one card, which is legal),
  its winner the seat holding the highest trump of the cards left, or else the highest
  card of the led suit (``solver_trick.winning_card``), rather than comparing card
  by card (``NO_MASKED``: three-card solves 14 % faster); the endgame's last seat of
  the trick before finds the other seats' cards, and who holds each, once for both of
  its cards (``solver_endgame._last_seat``);
- a transposition table at trick starts (two tricks or more left; ``solver_table.py``):
  a fixed-size table of ``2**bits`` slots replaced on collision, compared in full, so a
  hit is always the same subgame. Its entries hold the tricks won from the trick start
  on, keyed on whether each seat has won a trick yet rather than on the tricks won
  (``NO_FUTURE``): a seat's payoff ``pot_start * k / hand_size`` orders its counts from
  one trick on the same way whatever it won before (the loo penalty and the defender's
  exemption sit at zero tricks; ``_setup`` checks the floats and keys on the tricks won
  when they do not). The hands are keyed in their ranks among the cards in play
  (``NO_RANKS``; ``solver_table.canonical``): each suit's order, each hand's tie-break
  order, Pam and (under Pam be civil) the aces kept, which is all a trick start's
  subgame reads; so the transpositions that differ in which of two cards, equal by
  then, went earlier meet. The rest of the key: the leader, the trick, trumps, the
  indicator turned, the indicator itself. A card's rank is one popcount (the cards of
  its suit in play below it), so the ranks cost 17 ns for ten cards where the packing
  before them, a chain from card to card, took 46 (a scratch timing), with the same
  classes (a test). Every bit of the key reaches its slot (``NO_MIX``: before, a hand's
  bits from 45 up never did, so keys differing only there shared a slot and replaced each
  other; ``bench --solver``, five-card first leads: 7,154 nodes a solve against 13,070
  with ``NO_MIX`` alone, and the old search, its keys the raw hands, 31,298 with the
  new slot against 70,814);
- the endgame (``NO_ENDGAME``; ``solver_endgame.py``): the last two tricks, every seat
  holding two cards, in a tight loop of rows of scratch rather than frames: the same
  rules, tie-break and shortcuts, so it tries exactly the cards the frames would (the
  same nodes: about half of them in five-card, 83 % in three-card) at less cost a node;
  the last seat of the trick before the last has no row (its cards, at most two, are
  played out with the last trick, without a cut). Its start is looked up in the table
  from the third trick on; after one trick no two plays reach the same hands, so there
  it is evaluated straight away;
- the trick before the endgame's two (``NO_THREE``; ``solver_three.py``): every seat
  holding three cards, searched in rows as the endgame's are, called where the table
  did not answer that trick's start: a row a seat, the same cards tried in the same
  order, the same cut and shallow pruning; each complete play of the trick goes to the
  table, then to the endgame. Without speculative pruning the rows search exactly the
  frames' nodes (a test); with it the frames of that trick stop a few more (the first
  150 five-card first leads: 8,149 nodes a solve with frames, 8,304 with rows; all 300,
  8,113 and 8,364), and the rows are still faster: a row costs less than a frame;
- a follower with a single legal card (``NO_FORCED``; ``solver_trick.play_forced``) plays
  it without a frame of its own (nor a row of the endgame): its value is its one child's, so the frame of the card
  before it takes the value straight back (and restores its hand). The node still
  counts; shallow pruning then meets the mover before it rather than a frame that has
  found nothing yet, which stops a few more (1 % fewer nodes a five-card solve);
- the table across solves (``NO_SHARE``): a solve keeps the table of the solve before
  when the rules and the payoffs are the same (the generation number counts the
  changes), so ``perfect``'s decisions of one deal and ``pimc``'s samples of one
  decision and the next share the subgames they meet (kernel/cardplay.py).
  ``solve_many`` solves unrelated positions and starts each afresh.

Measured on one core (``bash scripts/dev.sh bench --solver``, scripts/bench_solver.py,
per CPU second of the process, a shared two-core machine under load, the old search
timed in turns with the new in one process), five seats in the deal, from the first
lead: three-card 267,000 solves/s with 103 nodes a solve against 115,000 and 192 nodes
with ``OLD_SEARCH`` (2.3x; the reference 277 solves/s); five-card 1,650 solves/s with
11,098 nodes a solve against 376 and 70,814 nodes (4.4x; the reference 2.8). Each
shortcut alone turned off, five-card solves/s in that run: the tricks lost to higher
trumps 913, the follower's cut 1,138, merging 1,223, ranks 1,367, the endgame 1,471,
shallow pruning 1,545, the key on tricks won or not 1,616, the cut 793, the table 650;
the recursion (old search) 337. Where the nodes are (a scratch count over 150 five-card
first leads, a solve on average): 43 in the first trick, 745 in the second, 4,320 in the
third (244 of its starts searched, 238 answered by the table), 5,518 in the endgame
(2,077 of its starts looked up, 72 % answered); three-card: 18 in the first trick, 85 in
the endgame. Over half the frames have one legal card. pimc:32 in a five-card ladder of
4: 2.9x the deals/s of the old search (``pimc_ladder_report``, 116 against 40 deals per
CPU second). The table is 1.4 MB here (``TT_BITS``, as kernel/cardplay.py's workspaces,
``SOLVER_TT_BITS``; it was 5.5 MB, and waiting for it cost more than the few entries it
kept); a five-card first-lead solve fills about 700 slots, a
three-card one none (its only trick start below the root is the endgame's), so neither
size is a limit.

Tried and left out (node counts exact, five-card first leads): trying a likely-best card
before the tie-break order (a card replacing the best when strictly better or equal and
earlier, the cut skipping only later cards): the cheapest card heading the trick is
already first (followers must head it), the highest heading card first searched 4 %
more nodes, the leader's top trump first 11 % more; answering a trick start where one
seat's trumps win every trick left (1.5 % fewer nodes), a trick lost to a later seat
that must beat every card the mover could win it with (1.6 % fewer), shallow pruning
with the parent's own trump bound (2 % fewer) or through frames with one card (1.3 %
fewer): none faster. Bounds in the table would pay little: 4 % of the trick starts
searched are cut by shallow pruning.
"""

import numpy as np
from numba import njit

from loo_sim.game import abi as L
from loo_sim.kernel.bits import beats, eff_suit, is_trump
from loo_sim.kernel.nrt import NO_REFCOUNT
from loo_sim.kernel.solver_frames import F_LEN, MAX_DEPTH, ROOT, ROOT_ALL
from loo_sim.kernel.solver_search import _value
from loo_sim.kernel.solver_table import (  # noqa: F401 (the layout is this module's interface too)
    NO_CUT,
    NO_ENDGAME,
    NO_FORCED,
    NO_FUTURE,
    NO_MASKED,
    NO_MERGE,
    NO_MIX,
    NO_RANKS,
    NO_RESUME,
    NO_SHALLOW,
    NO_SHARE,
    NO_SPEC,
    NO_THREE,
    NO_TRUMPS,
    NO_TT,
    NO_UPPER,
    OLD_SEARCH,
    ST_ACC,
    ST_BEST,
    ST_CIVIL,
    ST_CONTEXT,
    ST_FLAGS,
    ST_FUTURE,
    ST_GEN,
    ST_H,
    ST_INDICATOR,
    ST_LEAD,
    ST_LEN,
    ST_MODE,
    ST_N,
    ST_NEED,
    ST_NODES,
    ST_OUT_CARDS,
    ST_OUT_N,
    ST_OUT_RES,
    ST_PAM,
    ST_SINGLE,
    ST_TABLES,
    ST_VOID,
    TT_BITS,
    TT_COLS,
    TT_GEN,
    count_of,
)


def workspace(tt_bits: int = TT_BITS) -> tuple[np.ndarray, ...]:
    """(tt, st, hands, cards, pay, cap, fr, fb): the arrays one solver thread reuses for every solve."""
    tt = np.zeros((1 << tt_bits, TT_COLS), dtype=np.int64)
    st = np.zeros(ST_LEN, dtype=np.int64)
    hands = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    cards = np.zeros(L.MAX_TRICKS * L.MAX_PLAYERS, dtype=np.int64)
    pay = np.zeros((L.MAX_PLAYERS, L.MAX_TRICKS + 1), dtype=np.float64)
    cap = np.zeros((L.MAX_PLAYERS, L.MAX_TRICKS + 1, L.MAX_TRICKS + 1), dtype=np.float64)
    fr = np.zeros((MAX_DEPTH, F_LEN), dtype=np.int64)
    fb = np.zeros((MAX_DEPTH, 2), dtype=np.float64)
    return tt, st, hands, cards, pay, cap, fr, fb


@njit(cache=True, **NO_REFCOUNT)
def _setup(pi, pf, ri, st, hands, cards, pay, cap):
    """Fill the per-solve context, the hands, the trick and the payoffs from a position; a new
    table generation unless the previous solve had the same rules and payoffs, and the
    tables of the payoffs (:func:`_payoff_tables`) only when the payoffs changed."""
    n = pi[L.PI_N]
    h = ri[L.R_HAND]
    same = (st[ST_CONTEXT] == st[ST_FLAGS] + 1 and (st[ST_FLAGS] & NO_SHARE) == 0 and st[ST_N] == n
            and st[ST_H] == h and st[ST_PAM] == ri[L.R_PAM] and st[ST_CIVIL] == ri[L.R_CIVIL]
            and st[ST_LEAD] == ri[L.R_LEAD] and st[ST_VOID] == ri[L.R_VOID] and st[ST_MODE] == pi[L.PI_MODE]
            and st[ST_SINGLE] == pi[L.PI_SINGLE])  # fmt: skip
    payoffs_kept = st[ST_TABLES] == st[ST_FLAGS] + 1 and st[ST_N] == n and st[ST_H] == h
    st[ST_N] = n
    st[ST_H] = h
    st[ST_PAM] = ri[L.R_PAM]
    st[ST_CIVIL] = ri[L.R_CIVIL]
    st[ST_LEAD] = ri[L.R_LEAD]
    st[ST_VOID] = ri[L.R_VOID]
    st[ST_MODE] = pi[L.PI_MODE]
    st[ST_INDICATOR] = pi[L.PI_INDICATOR]
    st[ST_SINGLE] = pi[L.PI_SINGLE]
    st[ST_BEST] = -1
    st[ST_OUT_N] = 0
    pot, penalty, defender = pf[L.PIF_POT_START], pf[L.PIF_PENALTY], pi[L.PI_DEFENDER]
    for i in range(n):
        hands[i] = pi[L.PI_HANDS + i]
        for k in range(h + 1):
            won = pot * k / h  # the engine's shares (R3)
            p = won - penalty if k == 0 and i != defender else won
            if pay[i, k] != p:
                payoffs_kept = False
                pay[i, k] = p
    if not payoffs_kept:
        _payoff_tables(st, pay, cap, n, h)
    if not (same and payoffs_kept):
        st[ST_GEN] += 1
    st[ST_CONTEXT] = st[ST_FLAGS] + 1
    tix = pi[L.PI_TRICK]
    for j in range(pi[L.PI_NCARDS]):
        cards[tix * L.MAX_PLAYERS + j] = pi[L.PI_CARDS + j]


@njit(cache=True, **NO_REFCOUNT)
def _payoff_tables(st, pay, cap, n, h):
    """From the payoffs: ``cap`` (the best payoff over the counts a seat can still reach),
    the fewest tricks paying as much as k (shallow pruning's), and whether the table may
    key on whether each seat has won a trick (``ST_FUTURE``)."""
    future = (st[ST_FLAGS] & NO_FUTURE) == 0
    for i in range(n):
        for k in range(h + 1):
            for left in range(h + 1):
                top = pay[i, k]
                for j in range(k + 1, min(k + left, h) + 1):
                    if pay[i, j] > top:
                        top = pay[i, j]
                cap[i, k, left] = top
            need = 0
            while pay[i, need] < pay[i, k]:
                need += 1
            st[ST_NEED + i * (L.MAX_TRICKS + 1) + k] = need
            more = 0
            while more <= h and pay[i, more] <= pay[i, k]:
                more += 1
            st[ST_ACC + i * (L.MAX_TRICKS + 1) + k] = more
        # from the first trick on, the payoffs must order the tricks to come alike
        for k in range(2, h):
            step, first = pay[i, k + 1] - pay[i, k], pay[i, 2] - pay[i, 1]
            if (step > 0) != (first > 0) or (step < 0) != (first < 0):
                future = False
    st[ST_FUTURE] = future
    st[ST_TABLES] = st[ST_FLAGS] + 1


@njit(cache=True, inline="always")
def _root_state(pi, ri, cards):
    """The root's packed tricks won and the trick so far (its led suit, the winning card's
    place, trumped), judged card by card as play_trick does."""
    n, pam, t = pi[L.PI_N], ri[L.R_PAM], pi[L.PI_TRUMP]
    tix, k = pi[L.PI_TRICK], pi[L.PI_NCARDS]
    won = 0
    for i in range(n):
        won |= pi[L.PI_WON + i] << (4 * i)
    led = 0
    win_i = 0
    trumped = False
    if k > 0:
        base = tix * L.MAX_PLAYERS
        led = eff_suit(cards[base], t, pam)
        winning = cards[base]
        for j in range(1, k):
            if beats(cards[base + j], winning, led, t, pam):
                winning = cards[base + j]
                win_i = j
        trumped = not is_trump(cards[base], t, pam) and is_trump(winning, t, pam)
    return won, led, win_i, trumped


@njit(cache=True, **NO_REFCOUNT)
def _root(pi, pf, ri, tt, st, hands, cards, pay, cap, fr, fb, mode_r):
    _setup(pi, pf, ri, st, hands, cards, pay, cap)
    won, led, win_i, trumped = _root_state(pi, ri, cards)
    return _value(hands, cards, st, tt, pay, cap, fr, fb, pi[L.PI_LEADER], pi[L.PI_NCARDS], pi[L.PI_TRICK], won,
                  pi[L.PI_TRUMP], pi[L.PI_TURNED], pi[L.PI_CIVIL] == 1, pi[L.PI_RENOUNCED] == 1, led, win_i, trumped,
                  mode_r)  # fmt: skip


@njit(cache=True, inline="always", **NO_REFCOUNT)  # a wrapper: no library (and compile) of its own
def solve_position(pi, pf, ri, tt, st, hands, cards, pay, cap, fr, fb):
    """Each seat's final tricks under max^n, packed 4 bits a seat index; ``st[ST_BEST]``
    is then the card (bit position) the seat to move plays."""
    return _root(pi, pf, ri, tt, st, hands, cards, pay, cap, fr, fb, ROOT)


@njit(cache=True, inline="always", **NO_REFCOUNT)  # a wrapper: no library (and compile) of its own
def card_values_position(pi, pf, ri, tt, st, hands, cards, pay, cap, fr, fb):
    """Every legal card of the seat to move, in tie-break order: ``st[ST_OUT_N]`` cards at
    ``st[ST_OUT_CARDS:]``, the packed counts after each at ``st[ST_OUT_RES:]``, the payoff of
    seat i ending with k tricks at ``pay[i, k]``; returns the packed counts of max^n."""
    return _root(pi, pf, ri, tt, st, hands, cards, pay, cap, fr, fb, ROOT_ALL)


@njit(cache=True, **NO_REFCOUNT)
def solve_many(pis, pfs, ri, tt, st, hands, cards, pay, cap, fr, fb, out, every_card=False):
    """Solve the positions ``pis[j], pfs[j]`` one after another (one thread): the packed
    counts into ``out[j, 0]``, the chosen card (bit position) into ``out[j, 1]``, the nodes
    searched into ``out[j, 2]``. With ``every_card`` each is solved as ``card_values``
    (pimc's solve of a sample), and ``out[j, 1]`` is the number of legal cards."""
    for j in range(pis.shape[0]):
        st[ST_NODES] = 0
        st[ST_CONTEXT] = 0  # independent positions: a fresh table each (the figures of scripts/bench.py)
        out[j, 0] = _root(pis[j], pfs[j], ri, tt, st, hands, cards, pay, cap, fr, fb, ROOT_ALL if every_card else ROOT)
        out[j, 1] = st[ST_OUT_N] if every_card else st[ST_BEST]
        out[j, 2] = st[ST_NODES]


def counts(packed: int, n: int) -> list[int]:
    """Packed counts (4 bits a seat index) as a list of n ints."""
    return [(int(packed) >> (4 * i)) & 15 for i in range(n)]
