"""The one set of rule-path names (docs/rules.md R3-R9c, docs/policies.md P3, P6).

The reference engine counts each special rule branch it takes under one of these
names (``DealTrace.paths``), and the differential test requires its spread of deals to
reach them, so a name exists exactly once. The value is the text the trace stores: it
starts with the section of the rules it comes from.
"""

from __future__ import annotations

from enum import StrEnum


class RulePath(StrEnum):
    """A rule branch the reference engine records when it takes it."""

    # R4: declaring
    R4_LONE_PLAYER = "R4 lone player"
    R4_NOBODY = "R4 nobody"
    R4_MAY_NOT_PASS = "R4 may not pass"
    R4_BOLD_STAND_EVERYONE = "R4 bold stand everyone"
    R4_BOLD_STAND_LAST_AND_DEALER = "R4 bold stand last_and_dealer"
    # R5: the miss
    R5_MISS_PLAYED = "R5 miss played"
    # R6: trumps
    R6_FIRST_LEAD = "R6 first_lead"
    R6_FIRST_RENOUNCE_REVEALED = "R6 first_renounce: trumps revealed"
    R6_FIRST_RENOUNCE_NEVER = "R6 first_renounce: never revealed"
    # R7: lead obligations
    R7_ACE_ACE_FIRST = "R7 ace: ace led first"
    R7_ACE_PAM_FIRST = "R7 ace: Pam led first"
    R7_TRUMP_A_TRUMP = "R7 trump: a trump led"
    R7_TRUMP_ACE_FIRST = "R7 trump: ace led first"
    R7_TRUMP_KING_FIRST = "R7 trump: king led first (ace turned up)"
    R7_CLASSIC_ACE_FIRST = "R7 classic: ace led first"
    R7_CLASSIC_KING_FIRST = "R7 classic: king led first (ace turned up)"
    R7_CLASSIC_HIGHEST_TRUMP = "R7 classic: highest of two or more trumps"
    # R7: followers
    R7_HEAD_THE_TRICK = "R7 head the trick"
    R7_TRICK_TRUMPED = "R7 trick trumped: any card of the suit"
    R7_MUST_TRUMP_OVER = "R7 must_trump: overtrump"
    R7_MUST_TRUMP_UNDER = "R7 must_trump: undertrump"
    R7_TRUMP_TO_WIN_WINNING = "R7 trump_to_win: winning trump"
    R7_TRUMP_TO_WIN_ANY = "R7 trump_to_win: no winning trump, any card"
    # R8: the dealer's defence (case 2: play or defend, or miss under R9c; case 3: play or pass)
    R8_CASE_1 = "R8 case 1"
    R8_CASE_2_DEFEND = "R8 case 2 defend"
    R8_CASE_2_PLAY = "R8 case 2 play"
    R8_CASE_2_MISS = "R8 case 2 miss"  # R9c dealer_takes_miss
    R8_CASE_3_PASS = "R8 case 3 pass"
    R8_CASE_3_PLAY = "R8 case 3 play"
    # R9: Pam be civil, exchange, flushes
    R9_CIVIL_HELD_BACK = "R9 Pam be civil: Pam held back"
    R9_CIVIL_LAST_CARD = "R9 Pam be civil: Pam the last card"
    R9_EXCHANGE_LAST_OF_STOCK = "R9 exchange takes the last of the stock"
    R9_STOCK_EMPTY = "R9 stock empty"
    R9_PLAIN_FLUSH = "R9 plain flush"
    R9_TRUMP_FLUSH = "R9 trump flush"
    R9_PAM_FLUSH = "R9 Pam-flush"
    R9_TWO_FLUSHES = "R9 two flushes"
    R9_FLUSH_TIE_TO_ELDER = "R9 flush tie to elder"
    # R9b: club law
    R9B_CLUB_LAW = "R9b club law"
    # R9c: the rule books' variants
    R9C_CAPPED_AT_POT = "R9c capped: a looed player pays the pot, below penalty_amount"
    R9C_ACE_LEAD_KING = "R9c ace_lead_king: king led first (ace turned up)"
    R9C_DEALER_TAKES_ALL_PASS = "R9c dealer_takes_all_pass: the dealer takes the pot"
    R9C_NO_PAM_FLUSH = "R9c pam_flush false: four of a suit plus Pam is no flush"
    R9C_FLUSH_SPARES_PAM = "R9c flush_spares_pam: a holder of Pam not looed by a flush"
    R9C_FLUSH_SPARES_FLUSHES = "R9c flush_spares_flushes: a beaten flush not looed"
    R9C_FLUSH_LOOS_ALL = "R9c flush_loos_all: a passer looed by a flush"
    R9C_FLUSH_TIE_SPLIT = "R9c flush_tie split: tied best flushes share the pot"
    R9C_AT_TURN_EXCHANGE = "R9c exchange_timing at_turn: a seat exchanges before the next declares"
    R9C_AT_TURN_LONE_DEAD = "R9c exchange_timing at_turn: a lone player's exchange is dead"
    # P3: a calibrated family's declaration (threshold, ev, chart), one per action
    P3_THRESHOLD_PLAY = "P3 threshold play"
    P3_THRESHOLD_PASS = "P3 threshold pass"
    P3_THRESHOLD_MISS = "P3 threshold miss"
    P3_THRESHOLD_DEFEND = "P3 threshold defend"
    P3_EV_PLAY = "P3 ev play"
    P3_EV_PASS = "P3 ev pass"
    P3_EV_MISS = "P3 ev miss"
    P3_EV_DEFEND = "P3 ev defend"
    P3_CHART_PLAY = "P3 chart play"
    P3_CHART_PASS = "P3 chart pass"
    P3_CHART_MISS = "P3 chart miss"
    P3_CHART_DEFEND = "P3 chart defend"
    # P3: flush-aware plays where basic would not, by one of its flush clauses
    P3_FLUSH_AWARE_FLUSH = "P3 flush-aware flush"
    P3_FLUSH_AWARE_FOUR = "P3 flush-aware four of a suit"
    # P6: a strategy table's declaration (table:PATH), one per action
    P6_TABLE_PLAY = "P6 table play"
    P6_TABLE_PASS = "P6 table pass"
    P6_TABLE_MISS = "P6 table miss"
    P6_TABLE_DEFEND = "P6 table defend"


def dealer_case_path(case: int, action: str) -> RulePath:
    """R8 case 2 or 3 and what the dealer declared; ValueError for a pair that has no path."""
    return RulePath(f"R8 case {case} {action}")


def calibrated_path(family: str, action: str) -> RulePath:
    """P3 (P6 for table): a calibrated family's declaration; ValueError for a pair that has no path."""
    return RulePath(f"{'P6' if family == 'table' else 'P3'} {family} {action}")


def flush_aware_path(clause: str) -> RulePath:
    """P3 flush-aware: the clause (``engine.policies.flush_clause``) that made a hand worth
    playing where basic would not have played it; ValueError for any other name."""
    return RulePath(f"P3 flush-aware {clause}")
