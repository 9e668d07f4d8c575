"""Hand classes (docs/policies.md P5): hands a player would treat alike, relative to trumps.

The grid, printed with every chart, is ``GRID_TEXT`` below (a constant, not this
docstring, so that it survives ``python -OO``).
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

GRID_TEXT = """\
rows, trumps known (Pam counts as a trump; an honour is a queen or higher):
  top trump          holds the top trump (the ace, or Pam when Pam is in play): such a
                     hand can never be looed, since the top trump wins when it is played
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


def grid_text() -> str:
    """The grid, as printed with every chart."""
    return GRID_TEXT
