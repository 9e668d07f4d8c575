"""Hand classes (docs/policies.md P5): hands a player would treat alike, relative to trumps,
and the other keys of a decision chart's cells (P4): whether the miss is on offer and how
many earlier seats are in.

The grid, printed with every chart, is ``GRID_TEXT`` below (a constant, not this
docstring, so that it survives ``python -OO``); ``grid_text(rules)`` adds what holds for
the top trump under those rules.
"""

from __future__ import annotations

from collections.abc import Sequence

from loo_sim.game.cards import ACE, rank_of
from loo_sim.game.ranking import TrumpState

ROW_LABELS = (
    "top trump", "no trump", "one trump 2-9", "one trump T-J", "one trump Q", "one trump K",
    "one trump A", "two trumps, no honour", "two trumps, an honour", "three+ trumps",
    "trumps unknown, no ace", "trumps unknown, one ace", "trumps unknown, two+ aces",
)  # fmt: skip
COL_LABELS = ("best plain <=9", "T-J", "Q", "K", "A", "no plain card")
N_ROWS, N_COLS = len(ROW_LABELS), len(COL_LABELS)
N_CLASSES = N_ROWS * N_COLS
MISS_ROW = N_CLASSES  # the strength tables' extra row: playing the miss, unseen
ROW_TOP, ROW_NONE, ROW_ONE_LOW, ROW_TWO_PLAIN, ROW_THREE, ROW_UNKNOWN = 0, 1, 2, 7, 9, 10
COL_NONE = 5

# ---- the other keys of a decision chart's cells (P4) ----------------------------------------
EARLIER_IN_BINS = 4  # earlier seats in the deal: 0, 1, 2, 3 or more
EARLIER_IN_LABELS = ("0", "1", "2", "3+")


def earlier_in_bin(already_in: int) -> int:
    """The chart's bin of the number of earlier seats that came in (0, 1, 2, 3+)."""
    return min(already_in, EARLIER_IN_BINS - 1)


def earlier_in_label(b: int, players: int) -> str:
    """The label of bin ``b``: the last bin is exact ("3") where no seat can see more
    than three earlier seats (four players or fewer), else "3+"."""
    return str(b) if b < EARLIER_IN_BINS - 1 or players <= EARLIER_IN_BINS else EARLIER_IN_LABELS[b]


GRID_TEXT = """\
rows, trumps known (Pam counts as a trump; an honour is a queen or higher):
  top trump          holds the top trump (the ace, or Pam when Pam is in play)
  no trump
  one trump 2-9 / T-J / Q / K / A   (the ace here only when Pam is in play)
  two trumps, no honour / two trumps with an honour
  three+ trumps
rows, trumps unknown (first_lead, first_renounce, single pots): no ace / one ace / two+ aces
columns: the best plain (non-trump) card: <=9, T-J, Q, K, A, or none (all trumps);
  with trumps unknown, the best card that is not an ace (A is then never a column)."""


def _column(best_rank: int | None) -> int:
    if best_rank is None:
        return COL_NONE
    if best_rank <= 7:  # 2..9
        return 0
    if best_rank <= 9:  # T, J
        return 1
    return best_rank - 8  # Q 2, K 3, A 4


def hand_class(hand: Sequence[int], ts: TrumpState) -> int:
    """The class (row * N_COLS + column) of a hand, with what is known of trumps."""
    if ts.trump is None:
        aces = sum(1 for c in hand if rank_of(c) == ACE)
        others = [rank_of(c) for c in hand if rank_of(c) != ACE]
        return (ROW_UNKNOWN + min(aces, 2)) * N_COLS + _column(max(others, default=None))
    trumps = [ts.trump_order(c) for c in hand if ts.is_trump(c)]
    plain = [rank_of(c) for c in hand if not ts.is_trump(c)]
    top = ACE + 1 if ts.pam else ACE
    if top in trumps:
        row = ROW_TOP
    elif not trumps:
        row = ROW_NONE
    elif len(trumps) == 1:
        order = trumps[0]
        row = ROW_ONE_LOW if order <= 7 else ROW_ONE_LOW + 1 if order <= 9 else ROW_ONE_LOW + order - 8
    elif len(trumps) == 2:
        row = ROW_TWO_PLAIN + (1 if max(trumps) >= 10 else 0)
    else:
        row = ROW_THREE
    return row * N_COLS + _column(max(plain, default=None))


def class_label(cls: int) -> str:
    if cls == MISS_ROW:
        return "the miss (unseen)"
    return f"{ROW_LABELS[cls // N_COLS]} | {COL_LABELS[cls % N_COLS]}"


TOP_TRUMP_SAFE = """\
top trump: under these rules a hand holding it is never looed when it is played (not
swapped for the miss): the top trump wins the trick it is played to, and every card is played."""


def top_trump_note(rules) -> str:
    """What holds for a hand with the top trump under ``rules`` (a ``game.rules.Rules``):
    it wins the trick it is played to, so it is never looed, except where a flush (R9)
    ends the deal before play or a five-card exchange may throw the top trump away
    (flush-chase, which with three cards behaves as basic and keeps trumps). Under R9c
    ``flush_spares_pam`` a hand holding Pam (the top trump) at the show is not looed by a
    flush."""
    thrown = rules.exchange and rules.hand_size == 5
    flushed = rules.flush and not (rules.pam and rules.flush_spares_pam)
    if not flushed and not thrown:
        return TOP_TRUMP_SAFE
    ways = []
    if flushed:
        ways.append("by another seat's flush, shown before any trick is played")
    if thrown:
        ways.append("when an exchange throws the top trump away (flush-chase may)")
    return ("top trump: it wins the trick it is played to, but under these rules a hand holding it can\n"
            "still be looed: " + ";\n  or ".join(ways) + ".")  # fmt: skip


def grid_text(rules=None) -> str:
    """The grid, as printed with every chart; with ``rules``, followed by what holds for
    the top trump under them."""
    return GRID_TEXT if rules is None else GRID_TEXT + "\n" + top_trump_note(rules)
