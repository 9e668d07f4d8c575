"""A readable trace of one deal, for ``loo-sim replay`` (text only, no I/O)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from loo_sim.game.cards import SUITS, card_str, deck_str
from loo_sim.game.deal_input import DealInput
from loo_sim.game.policy import Policy
from loo_sim.game.record import DealRecord
from loo_sim.game.rules import Rules

SUIT_NAMES = {"C": "clubs ♣", "D": "diamonds ♦", "H": "hearts ♥", "S": "spades ♠"}


def chips(x: float) -> str:
    """Chips as a person writes them: 12, 4.5, 3.3333."""
    if float(x).is_integer():
        return str(int(x))
    return f"{x:.4f}".rstrip("0")


def _cards(cards: Sequence[int]) -> str:
    return " ".join(card_str(c) for c in cards)


def next_antes(rules: Rules) -> float:
    """R3: what the next deal's antes add to the carried pot."""
    return rules.ante * (rules.players if rules.ante_payer == "each" else 1)


def render_deal(rules: Rules, rec: DealRecord, policies: Sequence[Policy], title: str = "",
                notes: Mapping[int, Sequence[str]] | None = None, next_pot: bool = False) -> str:  # fmt: skip
    """The deal as text. ``notes[t]``: lines printed under trick ``t`` (``replay --why``);
    ``next_pot``: end with the next deal's pot, the carry plus the next antes (R3)."""
    tr = rec.trace
    assert tr is not None, "render_deal needs a record with its trace"
    n = rules.players
    order = [(tr.dealer + 1 + i) % n for i in range(n)]
    out: list[str] = []
    pot_kind = "single pot (clean, R8)" if rec.single_pot else ("clean pot" if tr.carried == 0 else "pot carried in")
    out.append(f"{title}{n} players, dealer seat {tr.dealer}, {pot_kind}: carried {chips(tr.carried)}")
    antes = ", ".join(f"seat {s} {chips(a)}" for s, a in enumerate(rec.antes) if a)
    out.append(f"Antes: {antes or 'none'} -> pot {chips(rec.pot_start)}")
    out.append("")
    out.append("Hands as dealt (declaring order, from the dealer's left):")
    for s in order:
        tag = " (dealer)" if s == tr.dealer else ""
        out.append(f"  seat {s}{tag:<9} {_cards(tr.hands[s]):<15}  policy {policies[s]}")
    if tr.miss:
        out.append(f"  miss            {_cards(tr.miss)}")
    if tr.reveal_trick is not None:
        out.append("Trumps unknown: the next card is turned at the first renounce (R6 first_renounce).")
    elif rec.indicator is not None:
        out.append(f"Indicator {card_str(rec.indicator)}: trumps are {SUIT_NAMES[rec.trump or 'C']} (R6 turn_up)")
    elif rec.single_pot or rules.trump == "first_renounce":
        never = " Nobody renounced: trumps were never revealed." if rec.tricks else ""
        out.append(f"Trumps unknown until the first renounce (R6 first_renounce).{never}")
    elif rec.trump is not None:
        out.append(f"Trumps: {SUIT_NAMES[rec.trump]}, the suit of the first card led (R6 first_lead).")
    else:
        out.append("Trumps: the first card led would set them (R6 first_lead); no card was led.")
    out.append("")
    out.append("Declarations:")
    for s in order:
        d = rec.declarations[s]
        note = {"miss": " (takes the miss blind)", "defend": " (defends with the miss, R8)"}.get(d, "")
        out.append(f"  seat {s}: {d}{note}")
    if tr.outcome == "nobody":
        out.append("Nobody is in: the whole pot is carried to the next deal (R4).")
    elif tr.outcome == "lone":
        out.append(f"Seat {tr.lone_seat} is alone in the deal and takes the pot without play (R4/R8).")
    at_turn = rules.exchange_timing == "at_turn"  # R9c: each exchange came at the seat's declaration
    for seat, thrown, drawn in tr.exchanges:
        when = " as it declared (R9c at_turn)" if at_turn else ""
        dead = "; dead cards, the lone player takes the pot" if tr.outcome == "lone" else ""
        out.append(f"Exchange: seat {seat} throws {_cards(thrown)}, draws {_cards(drawn)}{when}{dead}")
    if tr.outcome == "flush":
        out.append(f"Flush: seat {rec.flush_winner} shows the best flush and takes the pot (R9).")
    if rec.tricks:
        out.append("")
        out.append("Tricks (seat card, in play order):")
        for i, t in enumerate(rec.tricks):
            played = ", ".join(f"{s} {card_str(c)}" for s, c in t.cards)
            extra = " [Pam be civil]" if i in tr.civil_tricks else ""
            out.append(f"  {i + 1}. seat {t.leader} leads: {played} -> seat {t.winner}{extra}")
            if tr.reveal_trick == i and rec.indicator is not None:
                out.append(f"     renounce: indicator {card_str(rec.indicator)} turned, trumps are "
                           f"{SUIT_NAMES[SUITS[rec.indicator // 13]]}; this trick is judged with them")  # fmt: skip
            for line in (notes or {}).get(i, ()):
                out.append(f"     {line}")
    out.append("")
    out.append("  seat  declared  tricks  shares  antes  penalty     net")
    for s in range(n):
        looed = " looed" if s in rec.looed else ""
        out.append(
            f"  {s:>4}  {rec.declarations[s]:<8}  {rec.tricks_won[s]:>6}  {chips(rec.shares[s]):>6}"
            f"  {chips(rec.antes[s]):>5}  {chips(rec.penalties[s]):>7}  {chips(rec.net()[s]):>6}{looed}"
        )
    out.append(f"Pot carried to the next deal: {chips(rec.pot_next)}")
    if next_pot:
        ante = next_antes(rules)
        who = "every seat's ante" if rules.ante_payer == "each" else "the next dealer's ante"
        out.append(f"Next deal's pot: {chips(rec.pot_next)} carried + {who} {chips(ante)} = "
                   f"{chips(rec.pot_next + ante)} (R3)")  # fmt: skip
    return "\n".join(out)


def entered_header(inp: DealInput, dealer: int, carried: float, filled: str | None, deck: Sequence[int]) -> str:
    """The lines ``loo-sim replay`` prints before an entered deal: what was entered as given
    and where R2 placed it, ``filled`` (which cards were not given and where they came from,
    if any), and the whole deck, which ``--deck`` deals again."""
    given = [f"seat {s}" for s in sorted(inp.hands)] + ["the miss"] * (inp.miss is not None)
    given += ["the indicator"] * (inp.indicator is not None) + ["the front of the stock"] * bool(inp.stock)
    lines = [f"Entered as given: {', '.join(given) or 'nothing'} (placed by R2 deal order for dealer {dealer}, "
             f"carried {chips(carried)}).", *([filled] if filled else []),
             "Deck (R2 deal order; --deck with the same --dealer and --carried deals it again): "
             + deck_str(deck)]  # fmt: skip
    return "\n".join(lines)
