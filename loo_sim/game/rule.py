"""Reading a ``rule:`` declaration (docs/policies.md P3b): a recursive-descent parser from
the tokens of ``game/rule_syntax.py`` to its immutable tree, with the checks a person can
act on (an unknown feature or action, a bad comparison, a rank where a count is wanted, a
rule that leaves a seat without an answer), each one LooError line that quotes the rule
with a caret ``^`` put before the offending column.

Grammar (``not`` binds tighter than ``and``, ``and`` than ``or``; a comparison tighter
than all three, as in Python)::

    rule       := clause (';' clause)*          (empty clauses are skipped)
    clause     := ACTION ['if' condition]
    condition  := conjunct ('or' conjunct)*
    conjunct   := negation ('and' negation)*
    negation   := 'not' negation | '(' condition ')' | operand [COMPARISON operand]
    operand    := FEATURE | WHOLE NUMBER | RANK (T J Q K A)

An operand standing alone must be a flag feature (``not trumps_known``).
"""

from __future__ import annotations

import difflib
from functools import lru_cache
from pathlib import Path

from loo_sim.base.errors import LooError
from loo_sim.game.rule_syntax import (
    ACTIONS,
    CASE,
    COMPARISONS,
    END,
    FEATURE_BY_NAME,
    FEATURES,
    FLAG,
    KEYWORDS,
    KIND_EXAMPLES,
    KIND_WORDS,
    LPAREN,
    MAX_NUMBER,
    NAME,
    NUMBER,
    OP,
    OPTION_SETS,
    RANK,
    RANK_LETTERS,
    RANK_TOKEN,
    RPAREN,
    SEP,
    And,
    Clause,
    Compare,
    Condition,
    Flag,
    Name,
    Not,
    Number,
    Operand,
    Or,
    Rank,
    Rule,
    Token,
    TokenError,
    tokenize,
)

PREFIX = "rule:"
FILE_SUFFIX = ".rule"
MAX_FILE_BYTES = 64 * 1024  # a rule file is a few lines; anything larger is not one
MAX_TEXT = 10_000  # characters of a rule
EXAMPLE = "play if trumps >= 1 or aces >= 1; defend; miss; pass; play"
FEATURE_LIST = ", ".join(f.name for f in FEATURES)


class _Problem(Exception):
    """A problem at a token; ``parse_rule`` turns it into one LooError line."""

    def __init__(self, message: str, token: Token) -> None:
        super().__init__(message)
        self.message, self.token = message, token


def _did_you_mean(word: str, names: list[str] | tuple[str, ...]) -> str:
    close = difflib.get_close_matches(word, names, n=1, cutoff=0.7)
    return f" (did you mean {close[0]}?)" if close else ""


def _operand_kind(x: Operand) -> str:
    if isinstance(x, Name):
        return FEATURE_BY_NAME[x.name].kind
    return RANK if isinstance(x, Rank) else "number"


class _Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens, self.at = tokens, 0

    @property
    def token(self) -> Token:
        return self.tokens[self.at]

    def take(self) -> Token:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def is_word(self, word: str) -> bool:
        return self.token.kind == NAME and self.token.text == word

    def rule(self) -> Rule:
        clauses = []
        while self.token.kind != END:
            if self.token.kind == SEP:
                self.take()
                continue
            clauses.append(self.clause())
            if self.token.kind not in (SEP, END):
                raise _Problem(f"expected ';' before the next clause, found {self.token.text!r}", self.token)
        if not clauses:
            raise _Problem(f"a rule needs clauses, e.g. {EXAMPLE}", self.token)
        return Rule(tuple(clauses))

    def clause(self) -> Clause:
        token = self.take()
        if token.kind != NAME or token.text not in ACTIONS:
            what = f"{token.text!r}" if token.text else "nothing"
            hint = _did_you_mean(token.text, ACTIONS) if token.kind == NAME else ""
            raise _Problem(f"a clause starts with an action, found {what}{hint}; allowed {', '.join(ACTIONS)}", token)
        if self.is_word("if"):
            self.take()
            return Clause(token.text, self.condition())
        if self.token.kind not in (SEP, END):
            raise _Problem(f"expected 'if' or ';' after the action {token.text}, found {self.token.text!r}",
                           self.token)  # fmt: skip
        return Clause(token.text)

    def condition(self) -> Condition:
        items = [self.conjunct()]
        while self.is_word("or"):
            self.take()
            items.append(self.conjunct())
        flat = tuple(x for item in items for x in (item.items if isinstance(item, Or) else (item,)))
        return flat[0] if len(flat) == 1 else Or(flat)

    def conjunct(self) -> Condition:
        items = [self.negation()]
        while self.is_word("and"):
            self.take()
            items.append(self.negation())
        flat = tuple(x for item in items for x in (item.items if isinstance(item, And) else (item,)))
        return flat[0] if len(flat) == 1 else And(flat)

    def negation(self) -> Condition:
        if self.is_word("not"):
            self.take()
            return Not(self.negation())
        if self.token.kind == LPAREN:
            opening = self.take()
            inner = self.condition()
            if self.token.kind != RPAREN:
                raise _Problem(f"expected ')' to close the '(' at column {opening.column}", self.token)
            self.take()
            return inner
        first = self.token
        left = self.operand()
        if self.token.kind == OP:
            op = self.take()
            right_token = self.token
            right = self.operand()
            self.check_compare(left, op, right, first, right_token)
            if self.token.kind == OP:
                raise _Problem("comparisons do not chain; join two with and, e.g. trumps >= 1 and trumps <= 2",
                               self.token)  # fmt: skip
            return Compare(left, op.text, right)
        if isinstance(left, Name) and FEATURE_BY_NAME[left.name].kind == FLAG:
            return Flag(left.name)
        kind = _operand_kind(left)
        what = KIND_WORDS.get(kind, "a number")
        example = KIND_EXAMPLES[kind].format(name=left.name) if isinstance(left, Name) else "e.g. trumps >= 1"
        raise _Problem(f"{what} where a condition is wanted; {example}", first)

    def operand(self) -> Operand:
        token = self.take()
        if token.kind == NUMBER:
            value = int(token.text)
            if value > MAX_NUMBER:
                raise _Problem(f"{token.text} is too large; allowed whole numbers up to {MAX_NUMBER:,}", token)
            return Number(value)
        if token.kind == RANK_TOKEN:
            return Rank(RANK_LETTERS[token.text])
        if token.kind == NAME and token.text in FEATURE_BY_NAME:
            return Name(token.text)
        if token.kind == NAME and token.text not in KEYWORDS and token.text not in ACTIONS:
            hint = _did_you_mean(token.text, list(FEATURE_BY_NAME))
            raise _Problem(f"unknown feature {token.text!r}{hint}; allowed {FEATURE_LIST}", token)
        found = f"{token.text!r}" if token.text else "the end of the rule"
        raise _Problem(f"expected a feature, a whole number or a rank (2..9, T, J, Q, K, A), found {found}", token)

    def check_compare(self, left: Operand, op: Token, right: Operand, left_token: Token, right_token: Token) -> None:
        """A comparison must have a feature on one side, and the two sides must be of one
        kind: a rank letter only against a rank, a flag only against 0 or 1, a dealer's case
        only against 0, 2 or 3, a feature only against a feature of its kind."""
        if op.text not in COMPARISONS:  # the tokenizer makes only these; kept for safety
            raise _Problem(f"unknown comparison {op.text!r}; allowed {' '.join(COMPARISONS)}", op)
        if not isinstance(left, Name) and not isinstance(right, Name):
            raise _Problem("compares two constants; one side must be a feature, e.g. trumps >= 1", op)
        feature, other, at = (left, right, right_token) if isinstance(left, Name) else (right, left, left_token)
        kind = FEATURE_BY_NAME[feature.name].kind
        example = KIND_EXAMPLES[kind].format(name=feature.name)
        if isinstance(other, Name):
            other_kind = FEATURE_BY_NAME[other.name].kind
            if other_kind != kind:
                raise _Problem(f"{KIND_WORDS[other_kind]} ({other.name}) where {KIND_WORDS[kind]} is wanted: "
                               f"{feature.name} is {KIND_WORDS[kind]}; {example}", at)  # fmt: skip
        elif isinstance(other, Rank) and kind != RANK:
            raise _Problem(f"a rank where {KIND_WORDS[kind]} is wanted: {feature.name} is {KIND_WORDS[kind]}; "
                           f"{example}", at)  # fmt: skip
        elif isinstance(other, Number) and kind == FLAG and other.value not in (0, 1):
            raise _Problem(f"{feature.name} is a flag, 0 or 1; {example}", at)
        elif isinstance(other, Number) and kind == CASE and other.value not in (0, 2, 3):
            raise _Problem(f"{feature.name} is 0, 2 or 3 (R8 case 1 never reaches a policy); {example}", at)


def _marked(line: str, column: int) -> str:
    """The line with a caret put before ``column`` (1-based; past the end: at the end)."""
    i = min(max(column - 1, 0), len(line))
    return line[:i] + "^" + line[i:]


def _error(text: str, line: int, column: int, message: str, source: str | None) -> LooError:
    if source is None:
        return LooError(f"rule {_marked(text, column)!r} (column {column}): {message}")
    lines = text.split("\n")
    shown = lines[line - 1] if 0 < line <= len(lines) else ""
    return LooError(f"rule file {source!r}, line {line} {_marked(shown, column)!r} (column {column}): {message}")


def check_coverage(rule: Rule) -> list[frozenset[str]]:
    """The option sets no clause without ``if`` decides (P3b): a rule must leave none."""
    always = {c.action for c in rule.clauses if c.condition is None}
    return [s for s in OPTION_SETS if not always & s]


def parse_rule(text: str, *, source: str | None = None) -> Rule:
    """The rule of ``text`` (clauses ``ACTION [if CONDITION]`` separated by ``;``), checked.

    Parameters
    ----------
    text : str
        The clauses. With ``source`` (a rule file's path, for the messages), ``#`` starts
        a comment and a line break outside parentheses separates clauses.
    source : str, optional
        The file the text was read from.

    Returns
    -------
    Rule
        Its tree; ``str(rule)`` is the canonical text, which parses back to the same rule.

    Raises
    ------
    LooError
        One line quoting the rule with a caret at the problem, naming what is allowed.
    """
    if len(text) > MAX_TEXT:
        raise LooError(f"rule: {len(text):,} characters is too long; allowed up to {MAX_TEXT:,}")
    try:
        rule = _Parser(tokenize(text, lines=source is not None)).rule()
    except TokenError as e:
        raise _error(text, e.line, e.column, e.message, source) from None
    except _Problem as e:
        raise _error(text, e.token.line, e.token.column, e.message, source) from None
    missing = check_coverage(rule)
    if missing:
        sets = ", ".join("/".join(a for a in ACTIONS if a in s) for s in missing)
        where = f"rule file {source!r}" if source is not None else f"rule {text!r}"
        raise LooError(f"{where}: no clause without 'if' decides for a seat whose options are {sets}; add a last "
                       "clause without 'if' (play is always on offer: '...; play')")  # fmt: skip
    return rule


def read_rule_file(path: str) -> str:
    """The text of a rule file (at most MAX_FILE_BYTES, UTF-8), or a LooError naming it."""
    try:
        with Path(path).open("rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise LooError(f"rule file {path!r} cannot be read: {e.strerror or e}") from None
    if len(data) > MAX_FILE_BYTES:
        raise LooError(f"rule file {path!r} is over {MAX_FILE_BYTES // 1024} KB; a rule file holds a few clauses")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise LooError(f"rule file {path!r} is not UTF-8 text") from None


def load_rule(path: str) -> Rule:
    """The rule of a ``.rule`` file (clauses separated by ``;`` or line breaks, ``#`` comments)."""
    return parse_rule(read_rule_file(path), source=path)


@lru_cache(maxsize=256)
def parsed(text: str) -> Rule:
    """The rule of a canonical text (``Policy.rule``), parsed once per process."""
    return parse_rule(text)
