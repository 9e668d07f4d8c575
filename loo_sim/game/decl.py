"""The one vocabulary of declarations and deal outcomes: an ``IntEnum`` gives both the
code the kernel stores and the word the records and tables print (docs/rules.md R4, R8)."""

from enum import IntEnum


class Decl(IntEnum):
    """What a seat declares (R4; ``defend`` is the dealer's defence of R8)."""

    PASS = 0
    PLAY = 1
    MISS = 2
    DEFEND = 3

    @property
    def label(self) -> str:
        return self.name.lower()


class Outcome(IntEnum):
    """How a deal ended: tricks played, a lone player (R5), nobody in, a flush (R9)."""

    PLAY = 0
    LONE = 1
    NOBODY = 2
    FLUSH = 3

    @property
    def label(self) -> str:
        return self.name.lower()


DECL_NAMES = tuple(d.label for d in Decl)  # pass, play, miss, defend: index = code
OUTCOME_NAMES = tuple(o.label for o in Outcome)
PASS, PLAY, MISS, DEFEND = (d.label for d in (Decl.PASS, Decl.PLAY, Decl.MISS, Decl.DEFEND))
