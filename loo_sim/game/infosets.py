"""Information sets of the declaration game (docs/policies.md P6): everything a seat can see
when it declares, as one integer key.

A seat sees its hand (as its class, P5), its position from the dealer's left, how many
earlier seats came in (0, 1, 2, 3+, as the decision chart bins them), what it is offered
(the *options*: whether it may pass, whether the miss is on offer, whether it is the
dealer with the defence of R8 case 2) and the pot it plays for relative to the penalty a
loo costs (under the unlimited penalty the loo is the pot, so this is always the first
bucket; under the limited penalty it grows with the pot carried in). Its options already
say everything else the rules make it see: a clean pot under bold stand or a single pot
shows as "may not pass", a miss taken earlier as no miss on offer, R8 case 3 as play/pass.

``infoset_index`` is the one formula for the key; ``kernel/infosets.py`` is its numba
twin. A strategy table (``game/strategy.py``) holds one probability per action and key.
"""

from __future__ import annotations

from loo_sim.game.classes import EARLIER_IN_BINS, N_CLASSES, earlier_in_bin
from loo_sim.game.decl import DECL_NAMES, Decl

MAX_POSITION = 8  # positions 1..8 (game.abi.MAX_PLAYERS; index 0 unused)
ACTIONS = len(Decl)  # pass, play, miss, defend: the column of each action is its code


def _mask(*decls: Decl) -> int:
    return sum(1 << int(d) for d in decls)


# the offers with a real choice (two declarations or more), as bit masks 1 << Decl
SITUATION_MASKS = (
    _mask(Decl.PLAY, Decl.PASS),
    _mask(Decl.PLAY, Decl.PASS, Decl.MISS),
    _mask(Decl.PLAY, Decl.MISS),
    _mask(Decl.PLAY, Decl.DEFEND),
    _mask(
        Decl.PLAY, Decl.MISS, Decl.DEFEND
    ),  # R9c dealer_takes_miss, R8 case 2 (appended: the others keep their index)
)
SITUATION_LABELS = tuple("/".join(DECL_NAMES[d] for d in (1, 0, 2, 3) if (m >> d) & 1) for m in SITUATION_MASKS)
N_SITUATIONS = len(SITUATION_MASKS)
SITUATION_OF_MASK = tuple(SITUATION_MASKS.index(m) if m in SITUATION_MASKS else -1 for m in range(1 << ACTIONS))

# the pot a seat plays for against the penalty: pot_start <= EDGE * penalty, else the next
POT_EDGES = (1.0, 2.0, 4.0, 8.0)
N_POT_BUCKETS = len(POT_EDGES) + 1
POT_LABELS = ("pot <= 1 penalty", "pot 1-2 penalties", "pot 2-4 penalties", "pot 4-8 penalties", "pot > 8 penalties")

N_INFOSETS = N_CLASSES * (MAX_POSITION + 1) * EARLIER_IN_BINS * N_SITUATIONS * N_POT_BUCKETS
KEY_COLUMNS = ("class", "position", "earlier_in", "options", "pot")


def pot_bucket(pot_start: float, penalty: float) -> int:
    """The bucket of the pot played for, relative to what a loo costs (``POT_EDGES``)."""
    for b, edge in enumerate(POT_EDGES):
        if pot_start <= edge * penalty:
            return b
    return len(POT_EDGES)


def infoset_index(cls: int, position: int, earlier: int, situation: int, bucket: int) -> int:
    """The key of an information set: hand class, position (1 = the dealer's left),
    earlier-in bin (0..3), situation (index into ``SITUATION_MASKS``), pot bucket."""
    return (((cls * (MAX_POSITION + 1) + position) * EARLIER_IN_BINS + earlier) * N_SITUATIONS + situation) * (
        N_POT_BUCKETS
    ) + bucket


def infoset_parts(index: int) -> tuple[int, int, int, int, int]:
    """``infoset_index`` undone: (class, position, earlier bin, situation, pot bucket)."""
    index, bucket = divmod(index, N_POT_BUCKETS)
    index, situation = divmod(index, N_SITUATIONS)
    index, earlier = divmod(index, EARLIER_IN_BINS)
    cls, position = divmod(index, MAX_POSITION + 1)
    return cls, position, earlier, situation, bucket


def seat_infoset(cls: int, position: int, already_in: int, allowed_mask: int, pot_start: float, penalty: float) -> int:
    """The key of what a seat sees, or -1 when it has no real choice (one option)."""
    situation = SITUATION_OF_MASK[allowed_mask]
    if situation < 0:
        return -1
    return infoset_index(cls, position, earlier_in_bin(already_in), situation, pot_bucket(pot_start, penalty))
