"""``loo_sim.advise``: the one entry point behind ``loo-sim advise`` and the Python API.
It reads the question as a player writes it (cards as ``replay`` takes them, positions
from the dealer's left, declarations as words), asks the library, and returns the answer
as a table with its verdict."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import pandas as pd

from loo_sim.analysis.advise import advice_frame, verdict
from loo_sim.analysis.advise_canned import Canned, canned_answers
from loo_sim.base import checks
from loo_sim.base.errors import LooError
from loo_sim.game.deal_input import parse_card_list
from loo_sim.game.policy import Policy, parse_table
from loo_sim.game.rules import Rules
from loo_sim.run.advice import Advice
from loo_sim.run.advise import DeclarationQuestion, Offer, check_question, declaration_advice
from loo_sim.run.rounds import ProgressFn


@dataclass
class CardQuestion:
    """What the seat at ``position`` knows when it is to play a card."""

    rules: Rules
    position: int
    hand: list[int]  # as dealt
    table: list[Policy]
    declarations: dict[int, str]  # seat -> declaration, every seat
    play: list  # game.deal_input.Play, by seat
    indicator: int | None = None
    then: str = "basic"
    carried: float = 0.0
    known: dict[int, list[int]] = field(default_factory=dict)  # other hands as dealt, where known
    miss: list[int] | None = None


@dataclass
class Answer:
    """A question and its answer: the actions' table, the verdict, what the run did and
    what the shipped results say."""

    question: DeclarationQuestion | CardQuestion
    advice: Advice
    frame: pd.DataFrame
    verdict: str
    offer: Offer | None = None
    canned: list[Canned] = field(default_factory=list)
    kind: str = "declaration"  # or "card"


def parse_earlier(earlier: str | Sequence[str] | None) -> tuple[str, ...]:
    """``"play,pass,miss"`` or a list of words, as the declarations of positions 1, 2, ..."""
    if earlier is None:
        return ()
    items = earlier.replace(";", ",").split(",") if isinstance(earlier, str) else list(earlier)
    words = tuple(str(w).strip().lower() for w in items)
    if any(not w for w in words) and words != ("",):
        raise LooError("--earlier: an empty declaration; give one word per earlier seat, e.g. play,pass,miss")
    return () if words == ("",) else words


def one_card(text: str | None, what: str) -> int | None:
    if text is None:
        return None
    cards = parse_card_list(text, what)
    if len(cards) != 1:
        raise LooError(f"{what}: one card, got {len(cards)}")
    return cards[0]


def build_question(rules: Rules, position: int, hand: str | Sequence[str], *, indicator: str | None = None,
                   earlier: str | Sequence[str] | None = None, carried: float = 0.0,
                   table: str | Policy | Sequence[str | Policy] = "basic") -> DeclarationQuestion:  # fmt: skip
    """The question, read and checked field by field (each error names its flag)."""
    n = rules.players
    position = checks.whole_number("--position", position, 1)  # beyond the table: check_question says so
    try:
        policies = parse_table(table, n)
    except LooError as e:
        raise LooError(f"--table: {e}") from None
    return DeclarationQuestion(rules, position, parse_card_list(hand, "--hand"), policies,
                               one_card(indicator, "--indicator"), parse_earlier(earlier),
                               checks.chips("carried", carried))  # fmt: skip


def ask(q: DeclarationQuestion, *, precision: float = 0.05, deals: int = 1_000_000, seed: int = 0,
        progress: ProgressFn | None = None) -> Answer:  # fmt: skip
    """Answer a declaration question: the run, its table, its verdict and the canned answers."""
    precision = checks.chips("precision", precision)
    if precision <= 0:
        raise LooError("precision: must be > 0 chips (a 95% half-width)")
    deals = checks.whole_number("deals", deals, 1, checks.MAX_DEALS)
    seed = checks.seed(seed)
    offer = check_question(q)
    advice = declaration_advice(q, precision=precision, max_deals=deals, seed=seed, progress=progress, offer=offer)
    frame = advice_frame(advice)
    return Answer(q, advice, frame, verdict(frame), offer, canned_answers(q, offer))


def build_card_question(rules: Rules, position: int, hand: str | Sequence[str], *, declare: str,
                        play: str | Sequence[str], indicator: str | None = None, carried: float = 0.0,
                        table: str | Policy | Sequence[str | Policy] = "basic", then: str = "basic",
                        known: Sequence[str] | None = None, miss: str | None = None) -> CardQuestion:  # fmt: skip
    """A card question, read field by field (positions, not seats, in --declare, --play and --known)."""
    from loo_sim.run.advise_sight import parse_position, parse_positions_declare, parse_positions_play

    n = rules.players
    q = build_question(rules, position, hand, indicator=indicator, carried=carried, table=table)
    if q.position > n:
        raise LooError(f"--position {q.position}: there is no position {q.position} at a table of {n} "
                       f"(1 = the eldest hand ... {n} = the dealer)")  # fmt: skip
    then_policy = Policy.parse(f"basic/{then}")  # a PLAY family: basic, high, low, random, perfect, pimc:N
    others: dict[int, list[int]] = {}
    for item in known or []:
        where, eq, cards = str(item).partition("=")
        if not eq:
            raise LooError(f'--known {item!r}: expected POSITION=CARDS, e.g. 3="AH 7H KC"')
        others[parse_position(where, n, "--known")] = parse_card_list(cards, f"--known {where.strip()}")
    return CardQuestion(rules, q.position, q.hand, q.table, parse_positions_declare(declare, n),
                        parse_positions_play(play, n), q.indicator, then_policy.play_name, q.carried, others,
                        None if miss is None else parse_card_list(miss, "--miss"))  # fmt: skip


def ask_card(q: CardQuestion, *, precision: float = 0.05, deals: int = 1_000_000, seed: int = 0,
             progress: ProgressFn | None = None) -> Answer:  # fmt: skip
    """Answer a card question: each legal card's net chips, paired, and the verdict."""
    from loo_sim.run.advise_cards import card_advice

    precision = checks.chips("precision", precision)
    if precision <= 0:
        raise LooError("precision: must be > 0 chips (a 95% half-width)")
    advice = card_advice(q.rules, q.position, q.hand, indicator=q.indicator, declarations=q.declarations,
                         play=q.play, table=q.table, then=q.then, carried=q.carried, known=q.known, miss=q.miss,
                         precision=precision, max_samples=checks.whole_number("deals", deals, 1, checks.MAX_DEALS),
                         seed=checks.seed(seed), progress=progress)  # fmt: skip
    frame = advice_frame(advice)
    return Answer(q, advice, frame, verdict(frame), kind="card")


def advise(preset: str = "three-card", *, position: int, hand: str | Sequence[str], rules: Rules | None = None,
           players: int | None = None, indicator: str | None = None, earlier: str | Sequence[str] | None = None,
           carried: float = 0.0, table: str | Policy | Sequence[str | Policy] = "basic", precision: float = 0.05,
           deals: int = 1_000_000, seed: int = 0, progress: ProgressFn | None = None, declare: str | None = None,
           play: str | Sequence[str] | None = None, then: str = "basic", known: Sequence[str] | None = None,
           miss: str | None = None) -> pd.DataFrame:  # fmt: skip
    """The expected net chips of each declaration on offer to the hand you hold, or, with
    ``play``, of each card you may play now.

    Parameters
    ----------
    preset, rules, players : the rules (``rules`` wins over ``preset``; ``players`` sets
        the table size).
    position : your position from the dealer's left: 1 = the eldest hand, players = the dealer.
    hand : your cards, e.g. ``"KH 7S 3D"`` (any form ``loo-sim replay`` takes).
    indicator : the turned-up card, e.g. ``"4H"`` (drawn at random when not given).
    earlier : what positions 1 .. position-1 declared, e.g. ``"play,pass"``.
    carried : chips carried into the pot.
    table : the policy of every seat (the later seats' declarations, everyone's card play).
    precision : stop when every paired difference's 95% half-width is below this (chips).
    deals : at most this many deals kept.
    declare, play : for a card question: every position's declaration (``"1=play,2=pass"``)
        and the cards played so far (``"1:AH 2:9H | 1:7H"``), positions as above.
    then : the card play of every seat after your card: basic, high, low, perfect, pimc:N.
    known, miss : other hands as dealt that you know (``["3=AH 7H KC"]``), and the miss if you took it.

    Returns
    -------
    pandas.DataFrame
        One row per declaration on offer (or legal card), best first: ``action``, ``ev`` (net chips for
        the deal), ``se``, ``ci_low``, ``ci_high``, ``diff_vs_best`` (paired) with
        ``diff_se``, ``diff_low``, ``diff_high``, and ``best``. ``frame.attrs`` holds the
        ``verdict``, the ``deals`` kept, how the run ``stopped`` and its ``notes``.

    Example
    -------
    >>> import loo_sim
    >>> loo_sim.advise("three-card", players=5, position=2, hand="KH 7S 3D", indicator="4H",
    ...                earlier="play").attrs["verdict"]  # doctest: +SKIP
    """
    if rules is None:
        rules = Rules.preset(preset, **({} if players is None else {"players": players}))
    elif players is not None:
        rules = rules.replace(players=players)
    if play is not None:
        if declare is None:
            raise LooError("--play needs --declare: every position's declaration")
        cq = build_card_question(rules, position, hand, declare=declare, play=play, indicator=indicator,
                                 carried=carried, table=table, then=then, known=known, miss=miss)  # fmt: skip
        answer = ask_card(cq, precision=precision, deals=deals, seed=seed, progress=progress)
    else:
        q = build_question(rules, position, hand, indicator=indicator, earlier=earlier, carried=carried, table=table)
        answer = ask(q, precision=precision, deals=deals, seed=seed, progress=progress)
    frame = answer.frame
    frame.attrs.update(verdict=answer.verdict, deals=answer.advice.accepted, stopped=answer.advice.stopped,
                       notes=list(answer.advice.notes))  # fmt: skip
    return frame


def command_line(preset: str, sets: Sequence[str] | None, players: int | None, q: DeclarationQuestion | CardQuestion,
                 hand: str, indicator: str | None, earlier: str | None, table: str, *, declare: str | None = None,
                 play: str | None = None, then: str = "basic", known: Sequence[str] | None = None,
                 miss: str | None = None) -> str:  # fmt: skip
    """The ``loo-sim advise ...`` command line that asks the same question (the command's
    last line, its JSON's ``command``, and every answer of ``loo-sim app``)."""
    out = [] if preset == "three-card" else ["--preset", preset]
    out += sum((["--set", s] for s in sets or []), [])
    if players is not None:
        out += ["--players", str(players)]
    out += ["--position", str(q.position), "--hand", f'"{hand.strip()}"']
    if indicator:
        out += ["--indicator", indicator.strip()]
    if earlier and isinstance(q, DeclarationQuestion):
        out += ["--earlier", ",".join(q.earlier)]
    if q.carried:
        out += ["--carried", f"{q.carried:g}"]
    if table != "basic":
        out += ["--table", f"'{table}'"]
    if play is not None and declare is not None:
        out += ["--declare", declare.strip(), "--play", f'"{play.strip()}"']
        out += [] if then == "basic" else ["--then", then]
        out += sum((["--known", f'"{k}"'] for k in known or []), [])
        out += [] if miss is None else ["--miss", f'"{miss.strip()}"']
    return " ".join(["loo-sim advise", *out])


def _num(x: float) -> float | None:
    return None if isinstance(x, float) and math.isnan(x) else x


def answer_json(a: Answer, command: str) -> dict:
    """The answer as JSON (``loo-sim advise --json``, ``loo-sim app``'s endpoints): each
    action's row, the verdict, how far the run went, the shipped results, the command line."""
    rows = [{k: (_num(v) if isinstance(v, float) else v) for k, v in r.items()}
            for r in a.frame.to_dict(orient="records")]  # fmt: skip
    return {
        "command": command,
        "kind": a.kind,
        "actions": rows,
        "verdict": a.verdict,
        "deals": a.advice.accepted,
        "drawn": a.advice.attempts,
        "stopped": a.advice.stopped,
        "precision": a.advice.precision,
        "seconds": round(a.advice.seconds, 3),
        "notes": a.advice.notes,
        "canned": [vars(c) for c in a.canned],
    }
