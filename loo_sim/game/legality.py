"""Which cards a seat may play, and what a five-card hand shows: docs/rules.md R7 and R9 as
pure functions of the hand, the trick, what is known about trumps and the rules.

The reference engine (``engine/deal.py``) keeps the state of the deal and calls these;
the kernel mirrors them function for function in ``kernel/deal.py``
(``lead_options``, ``follow_options``, ``flush_key``). The two option functions return
the legal cards with the rule path that decided them (``None`` where no special rule
applied), so the engine can count it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from loo_sim.game.cards import ACE, KING, PAM, make_card, rank_of, suit_of
from loo_sim.game.paths import RulePath
from loo_sim.game.ranking import TrumpState
from loo_sim.game.rules import Lead, Rules, Void


class Options(NamedTuple):
    """The cards a seat may play, and the rule path that decided them (if any)."""

    cards: list[int]
    path: RulePath | None = None


def lead_options(hand: list[int], ts: TrumpState, rules: Rules, *, first_trick: bool, single_pot: bool,
                 turned_up: int | None) -> Options:  # fmt: skip
    """R7 lead obligations (option ``lead``); they apply only while trumps are known.

    ``first_trick``: this is the first lead of the deal; the first-lead clauses never
    apply in a single pot (R8). ``turned_up``: the indicator, once turned (R6), else None:
    an ace of trumps turned up is out of play, and the ``trump`` and ``classic`` leads
    then ask for the king.
    """
    lead = rules.lead
    if ts.trump is None or lead is Lead.FREE:
        return Options(hand)
    first = first_trick and not single_pot
    ace, king = make_card(ACE, ts.trump), make_card(KING, ts.trump)
    ace_is_indicator = turned_up == ace
    trumps = [c for c in hand if ts.is_trump(c)]
    if lead is Lead.ACE:
        if first and ts.pam and PAM in hand:
            return Options([PAM], RulePath.R7_ACE_PAM_FIRST)
        if first and ace in hand:
            return Options([ace], RulePath.R7_ACE_ACE_FIRST)
        if first and rules.ace_lead_king and ace_is_indicator and king in hand:
            return Options([king], RulePath.R9C_ACE_LEAD_KING)  # R9c: the king stands in
        return Options(hand)
    if lead is Lead.TRUMP:
        if not trumps:
            return Options(hand)
        if first and ace in hand:
            return Options([ace], RulePath.R7_TRUMP_ACE_FIRST)
        if first and ace_is_indicator and king in hand:
            return Options([king], RulePath.R7_TRUMP_KING_FIRST)
        return Options(trumps, RulePath.R7_TRUMP_A_TRUMP)
    # Lead.CLASSIC
    if first and ace in hand:
        return Options([ace], RulePath.R7_CLASSIC_ACE_FIRST)
    if first and ace_is_indicator and king in hand:
        return Options([king], RulePath.R7_CLASSIC_KING_FIRST)
    if len(trumps) >= 2:
        return Options([max(trumps, key=ts.power)], RulePath.R7_CLASSIC_HIGHEST_TRUMP)
    return Options(hand)


def follow_options(hand: list[int], trick: list[int], ts: TrumpState, rules: Rules) -> Options:
    """R7 followers, in order: follow suit, head the trick, then the void option
    (option ``void``: ``must_trump`` or ``trump_to_win``); ``trick`` is the cards played
    so far, the led card first."""
    led = ts.suit(trick[0])
    winning = trick[ts.winner_index(trick)]
    same_suit = [c for c in hand if ts.suit(c) == led]
    if same_suit:
        if ts.is_trump(winning) and not ts.is_trump(trick[0]):
            return Options(same_suit, RulePath.R7_TRICK_TRUMPED)
        heading = [c for c in same_suit if ts.beats(c, winning, led)]
        if heading and len(heading) < len(same_suit):
            return Options(heading, RulePath.R7_HEAD_THE_TRICK)
        return Options(heading or same_suit)
    trumps = [c for c in hand if ts.is_trump(c)]
    if not trumps:  # no trump, or trumps unknown
        return Options(hand)
    winning_trumps = [c for c in trumps if ts.beats(c, winning, led)]
    if rules.void is Void.MUST_TRUMP:
        if winning_trumps:
            return Options(winning_trumps, RulePath.R7_MUST_TRUMP_OVER)
        return Options(trumps, RulePath.R7_MUST_TRUMP_UNDER)
    if winning_trumps:  # Void.TRUMP_TO_WIN
        return Options(winning_trumps, RulePath.R7_TRUMP_TO_WIN_WINNING)
    return Options(hand, RulePath.R7_TRUMP_TO_WIN_ANY)


def pam_flush(rules: Rules) -> bool:
    """R9's reading of Pam in a flush (option ``pam_flush`` of R9c): True when four cards
    of one suit plus Pam form a flush of that suit (a Pam-flush), where Pam is in play.
    The show of flushes (engine ``show_flushes``, kernel ``show_flushes``) and the
    ``flush-aware`` family (docs/policies.md P3: ``engine.policies.flush_clause``, the
    kernel through ``rules_arrays``' ``R_PAM_FLUSH`` slot) read it."""
    return rules.pam_flush


def is_flush(hand: Sequence[int], ts: TrumpState, rules: Rules) -> bool:
    """Whether the show of flushes (R9, with the rules' ``pam_flush`` reading) counts the
    hand as a flush: ``flush_rank`` finds one, and under ``pam_flush = false`` a hand
    with Pam is a flush only as five clubs."""
    if flush_rank(hand, ts) is None:
        return False
    return pam_flush(rules) or not any(ts.is_pam(c) for c in hand) or all(suit_of(c) == suit_of(PAM) for c in hand)


def flush_rank(hand: Sequence[int], ts: TrumpState) -> tuple[bool, bool, list[int]] | None:
    """R9 flushes: the sort key of a five-card flush (higher wins), or None for no flush.

    Five cards of one suit, or four plus Pam (a Pam-flush of that suit). Between flushes
    a Pam-flush beats one without, then a trump flush beats a plain one (none is a trump
    flush while trumps are unknown), then the cards compare from the top, Pam above all.
    An exact tie is the caller's to settle (the elder hand keeps it).
    """
    plain = [c for c in hand if not ts.is_pam(c)]
    if len(hand) != 5 or len({suit_of(c) for c in plain}) != 1:
        return None
    has_pam = len(plain) < 5
    is_trump_flush = ts.trump is not None and suit_of(plain[0]) == ts.trump
    tops = sorted((ACE + 1 if ts.is_pam(c) else rank_of(c) for c in hand), reverse=True)
    return (has_pam, is_trump_flush, tops)
