"""``loo-sim advise``'s answer as a player reads it on a terminal, and as JSON."""

from __future__ import annotations

from loo_sim.analysis.advise import stopping_text, table_text
from loo_sim.analysis.advise_api import Answer, CardQuestion, answer_json  # answer_json: shared with loo-sim app
from loo_sim.analysis.advise_canned import Canned
from loo_sim.engine.trace import chips
from loo_sim.game.cards import card_str, suit_of

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")  # R1, in suit number order (game.cards.SUITS)

EQUILIBRIUM_TABLE = "equilibrium table"


def _situation(a: Answer) -> str:
    q = a.question
    n = q.rules.players
    hand = " ".join(card_str(c) for c in q.hand)
    head = f"You: position {q.position} of {n} ({n} = the dealer), dealt {hand}"
    if q.indicator is not None:
        head += f"; indicator {card_str(q.indicator)} ({SUIT_NAMES[suit_of(q.indicator)]} are trumps)"
    table = str(q.table[0]) if len(set(map(str, q.table))) == 1 else ", ".join(map(str, q.table))
    if isinstance(q, CardQuestion):
        said = ", ".join(f"{s if s else n} {q.declarations[s]}" for s in [*range(1, n), 0])
        return (f"{head}; declared: {said}.\nThe others declare by {table} (the samples are kept where they do "
                f"as seen); after your card every seat plays {q.then}.")  # fmt: skip
    if q.earlier:
        head += "; before you: " + ", ".join(f"{i} {w}" for i, w in enumerate(q.earlier, 1))
    pot = "" if a.offer is None else f"; pot {chips(a.offer.pot_start)}, a loo costs {chips(a.offer.penalty)}"
    return f"{head}{pot}.\nEvery seat plays by {table} (the later declarations and all card play)."


def _canned_line(c: Canned, best: str) -> str:
    if c.kind == "chart":
        sure = "" if c.significant else " (not significant)"
        others = ", ".join(f"{k} {v:+.2f}" for k, v in c.values.items() if k != c.best)
        line = f"- Decision chart ({c.source}), cell {c.cell}: best {c.best}{sure}; vs best: {others}."
        line += f" It assumes {c.assumes}."
        if c.best != best:
            line += (f" So it can disagree with the answer above ({best}), which is for this exact hand and these "
                     "declarations: for this hand, trust the answer above.")  # fmt: skip
        return line
    probs = ", ".join(f"{k} {v:.2f}" for k, v in c.values.items())
    return (f"- The {EQUILIBRIUM_TABLE} ({c.source}), information set {c.cell}: {probs}. It assumes "
            f"{c.assumes}.")  # fmt: skip


def answer_text(a: Answer, command: str) -> str:
    lines = [_situation(a), "", table_text(a.frame, "card" if a.kind == "card" else "action"), "",
             f"Verdict: {a.verdict}", f"({stopping_text(a.advice)})"]  # fmt: skip
    lines += [f"Deals: {note[:1].lower()}{note[1:].rstrip('.')}." for note in a.advice.notes]
    if a.kind == "declaration":
        best = str(a.frame.action.iloc[0])
        if a.canned:
            lines += ["", "What the shipped results say (instant, for the hand's class):"]
            lines += [_canned_line(c, best) for c in a.canned]
        else:
            lines += [
                "",
                "No shipped chart or equilibrium table matches these rules, players and pot"
                + ("" if a.question.indicator is not None else " (or the indicator is not given)")
                + ".",
            ]
    lines += ["", f"Same question: {command}"]
    return "\n".join(lines)


__all__ = ["answer_json", "answer_text"]
