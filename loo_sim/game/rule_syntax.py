"""The words of the ``rule:`` declaration family (docs/policies.md P3b): its actions, its
features and their kinds, the syntax tree a rule parses to, the tokens it is read from,
and the canonical text a tree prints as (``parse(str(rule)) == rule``).

The parser and its checks are in ``game/rule.py``; the kernel's form of a rule (a small
program of ints) in ``game/rule_code.py``. Both engines compute the features themselves,
from what the seat sees when it declares: ``engine/rule.py`` and ``kernel/rule.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

ACTIONS = ("play", "pass", "miss", "defend")
KEYWORDS = ("if", "and", "or", "not")
# the option sets a seat can face (P6's situations), each as a set of actions; a rule must
# decide in every one with a clause without ``if`` (P3b)
OPTION_SETS = (
    frozenset({"play", "pass"}),
    frozenset({"play", "pass", "miss"}),
    frozenset({"play", "miss"}),
    frozenset({"play", "defend"}),
    frozenset({"play", "miss", "defend"}),
)
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
RANK_LETTERS = {"T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}  # and 2..9 are whole numbers
LETTER_OF_RANK = {v: k for k, v in RANK_LETTERS.items()}
MAX_NUMBER = 10**15  # whole numbers up to this are exact in the kernel's float compare

# ---- features and their kinds ---------------------------------------------------------------
COUNT, RANK, FLAG, CASE, CHIPS, RATIO = "count", "rank", "flag", "case", "chips", "ratio"
KIND_WORDS = {  # "a rank where <this> is wanted"
    COUNT: "a count",
    RANK: "a rank",
    FLAG: "a flag (0 or 1)",
    CASE: "a dealer's case (0, 2 or 3)",
    CHIPS: "an amount of chips",
    RATIO: "a ratio of chips",
}
KIND_EXAMPLES = {  # how a feature of the kind is compared, for the messages
    COUNT: "compare it with a whole number, e.g. {name} >= 2",
    RANK: "compare it with a rank, e.g. {name} >= Q",
    FLAG: "use it alone ({name}, not {name}) or compare it with 0 or 1",
    CASE: "compare it with 0, 2 or 3, e.g. {name} == 2",
    CHIPS: "compare it with a whole number of chips or with pot or penalty, e.g. {name} >= 10",
    RATIO: "compare it with a whole number, e.g. {name} >= 2",
}


@dataclass(frozen=True)
class FeatureSpec:
    """One feature of what a seat sees when it declares (docs/policies.md P3b)."""

    name: str
    kind: str
    meaning: str


FEATURES = (
    FeatureSpec("trumps", COUNT, "trumps held, Pam counting; 0 while trumps are unknown"),
    FeatureSpec("trumps_known", FLAG, "1 once trumps are known, else 0"),
    FeatureSpec("top_trump", FLAG, "1 holding the top trump of the deck: Pam where Pam is in play, else the ace "
                                   "of trumps (P5's row; nobody when it is the indicator); 0 while trumps are unknown"),
    FeatureSpec("highest_trump", RANK, "rank of the highest trump held (2..14, Pam 15); 0 with no trump or while "
                                       "trumps are unknown"),
    FeatureSpec("aces", COUNT, "aces held, any suit (Pam is not an ace)"),
    FeatureSpec("faces", COUNT, "kings, queens and jacks held (Pam, a jack, included)"),
    FeatureSpec("best_plain", RANK, "rank of the best card that is not a trump (2..14); 0 when every card is a "
                                    "trump; while trumps are unknown every card is plain"),
    FeatureSpec("longest_suit", COUNT, "most cards of one suit, Pam counting in the trump suit"),
    FeatureSpec("flush", FLAG, "1 if the hand passes R9's flush test (five of a suit, or four plus Pam under "
                               "pam_flush), whatever the rules' flush option"),
    FeatureSpec("position", COUNT, "1 = the dealer's left ... players = the dealer"),
    FeatureSpec("players", COUNT, "players at the table"),
    FeatureSpec("later", COUNT, "seats that declare after this one (players - position)"),
    FeatureSpec("earlier_in", COUNT, "earlier seats that played or took the miss"),
    FeatureSpec("miss_taken", FLAG, "1 if an earlier seat took the miss"),
    FeatureSpec("miss_on_offer", FLAG, "1 if miss is among the seat's options"),
    FeatureSpec("can_pass", FLAG, "1 if pass is among the seat's options"),
    FeatureSpec("dealer_case", CASE, "2 or 3 for the dealer in R8 case 2 or 3, else 0"),
    FeatureSpec("clean", FLAG, "1 when no chips were carried into the deal (a clean pot, R3)"),
    FeatureSpec("pot", CHIPS, "pot_start: the carried pot plus this deal's antes"),
    FeatureSpec("penalty", CHIPS, "what a loo costs this deal: the pot (unlimited), penalty_amount (limited), the "
                                  "smaller of the two (capped)"),
    FeatureSpec("pot_ratio", RATIO, "pot / penalty: 1 when both are 0, above every number when only the penalty is 0"),
)  # fmt: skip
FEATURE_BY_NAME = {f.name: f for f in FEATURES}


# ---- the syntax tree ------------------------------------------------------------------------
@dataclass(frozen=True)
class Name:
    """A feature, as an operand."""

    name: str


@dataclass(frozen=True)
class Number:
    """A whole number (2..9 are also the ranks of those cards)."""

    value: int


@dataclass(frozen=True)
class Rank:
    """A rank written as a letter: T J Q K A (10..14)."""

    value: int


Operand = Name | Number | Rank


@dataclass(frozen=True)
class Compare:
    left: Operand
    op: str
    right: Operand


@dataclass(frozen=True)
class Flag:
    """A flag feature standing alone as a condition: true when it is 1."""

    name: str


@dataclass(frozen=True)
class Not:
    item: Condition


@dataclass(frozen=True)
class And:
    items: tuple[Condition, ...]  # two or more, none an And (the parser flattens them)


@dataclass(frozen=True)
class Or:
    items: tuple[Condition, ...]  # two or more, none an Or


Condition = Compare | Flag | Not | And | Or


@dataclass(frozen=True)
class Clause:
    action: str
    condition: Condition | None = None

    def __str__(self) -> str:
        return self.action if self.condition is None else f"{self.action} if {condition_text(self.condition)}"


@dataclass(frozen=True)
class Rule:
    """Ordered clauses: a seat takes the first whose condition holds and whose action is
    on offer (P3b). ``str()`` is the canonical text, which parses back to the same rule."""

    clauses: tuple[Clause, ...]

    def __str__(self) -> str:
        return "; ".join(str(c) for c in self.clauses)

    def features(self) -> list[str]:
        """The features the rule reads, in the order of FEATURES."""
        used: set[str] = set()
        for clause in self.clauses:
            if clause.condition is not None:
                used |= _names(clause.condition)
        return [f.name for f in FEATURES if f.name in used]


def _names(c: Condition) -> set[str]:
    if isinstance(c, Compare):
        return {x.name for x in (c.left, c.right) if isinstance(x, Name)}
    if isinstance(c, Flag):
        return {c.name}
    if isinstance(c, Not):
        return _names(c.item)
    return set().union(*(_names(x) for x in c.items))


# ---- the canonical printer ------------------------------------------------------------------
def operand_text(x: Operand) -> str:
    if isinstance(x, Name):
        return x.name
    if isinstance(x, Rank):
        return LETTER_OF_RANK[x.value]
    return str(x.value)


def condition_text(c: Condition) -> str:
    """The canonical text of a condition: single spaces; parentheses where they are needed
    (``not`` binds tighter than ``and``, which binds tighter than ``or``) and, for the
    reader, around an ``and`` inside an ``or`` and a comparison after ``not``."""
    if isinstance(c, Compare):
        return f"{operand_text(c.left)} {c.op} {operand_text(c.right)}"
    if isinstance(c, Flag):
        return c.name
    if isinstance(c, Not):
        inner = condition_text(c.item)
        return f"not {inner}" if isinstance(c.item, (Flag, Not)) else f"not ({inner})"
    if isinstance(c, And):
        return " and ".join(f"({condition_text(x)})" if isinstance(x, Or) else condition_text(x) for x in c.items)
    return " or ".join(f"({condition_text(x)})" if isinstance(x, And) else condition_text(x) for x in c.items)


# ---- tokens ---------------------------------------------------------------------------------
NAME, NUMBER, RANK_TOKEN, OP, LPAREN, RPAREN, SEP, END = "name", "number", "rank", "op", "(", ")", ";", "end"


@dataclass(frozen=True)
class Token:
    kind: str
    text: str
    line: int  # 1-based
    column: int  # 1-based, in its line


class TokenError(Exception):
    """A character the language does not know; ``game/rule.py`` turns it into a LooError."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.message, self.line, self.column = message, line, column


_SUGGEST = {"=": "==", "!": "!=", "=<": "<=", "=>": ">=", "&": "and", "&&": "and", "|": "or", "||": "or",
            "<>": "!="}  # fmt: skip


def tokenize(text: str, *, lines: bool = False) -> list[Token]:
    """The tokens of a rule. With ``lines`` (a rule file), ``#`` starts a comment and a line
    break outside parentheses separates clauses as ``;`` does; elsewhere a line break is a
    space. Ends with an END token."""
    out: list[Token] = []
    depth = 0
    for line_no, line in enumerate(text.split("\n") if lines else [text], start=1):
        i = 0
        while i < len(line):
            ch = line[i]
            col = i + 1
            if ch == "#" and lines:
                break
            if ch.isspace():
                i += 1
            elif ch.isascii() and (ch.isalpha() or ch == "_"):
                j = i
                while j < len(line) and line[j].isascii() and (line[j].isalnum() or line[j] == "_"):
                    j += 1
                word = line[i:j]
                kind = RANK_TOKEN if word.upper() in RANK_LETTERS else NAME
                out.append(Token(kind, word.upper() if kind == RANK_TOKEN else word.lower(), line_no, col))
                i = j
            elif ch.isascii() and ch.isdigit():
                j = i
                while j < len(line) and line[j].isascii() and line[j].isdigit():
                    j += 1
                if j < len(line) and line[j].isascii() and (line[j].isalpha() or line[j] in "._"):
                    raise TokenError("a whole number was expected here (no fractions, no letters after digits)",
                                     line_no, col)  # fmt: skip
                out.append(Token(NUMBER, line[i:j], line_no, col))
                i = j
            elif line[i : i + 2] in ("==", "!=", "<=", ">="):
                out.append(Token(OP, line[i : i + 2], line_no, col))
                i += 2
            elif line[i : i + 2] in _SUGGEST:
                pair = line[i : i + 2]
                raise TokenError(f"{pair!r} is not a comparison; write {_SUGGEST[pair]}", line_no, col)
            elif ch in "<>":
                out.append(Token(OP, ch, line_no, col))
                i += 1
            elif ch in "()":
                depth += 1 if ch == "(" else -1
                out.append(Token(LPAREN if ch == "(" else RPAREN, ch, line_no, col))
                i += 1
            elif ch == ";":
                out.append(Token(SEP, ch, line_no, col))
                i += 1
            elif ch in _SUGGEST:
                raise TokenError(f"{ch!r} is not a comparison; write {_SUGGEST[ch]}", line_no, col)
            else:
                raise TokenError(f"{ch!r} is not part of a rule (actions, features, numbers, ranks, "
                                 "== != < <= > >=, and, or, not, parentheses, ;)", line_no, col)  # fmt: skip
        if lines and depth <= 0:
            out.append(Token(SEP, "", line_no, len(line) + 1))  # a line break between clauses
    last = out[-1] if out else None
    out.append(Token(END, "", last.line if last else 1, (last.column + len(last.text)) if last else 1))
    return out
