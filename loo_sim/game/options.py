"""The values of the rule options that are words, one enum each (docs/rules.md; the
``Rules`` of ``game/rules.py`` holds them), and the option each belongs to."""

from __future__ import annotations

from enum import StrEnum


class Trump(StrEnum):  # R6
    TURN_UP = "turn_up"
    FIRST_LEAD = "first_lead"
    FIRST_RENOUNCE = "first_renounce"


class AntePayer(StrEnum):  # R3
    EACH = "each"
    DEALER = "dealer"


class Penalty(StrEnum):  # R3
    UNLIMITED = "unlimited"
    LIMITED = "limited"
    CAPPED = "capped"  # R9c: min(pot_start, penalty_amount)


class BoldStand(StrEnum):  # R4
    OFF = "off"
    LAST_AND_DEALER = "last_and_dealer"
    EVERYONE = "everyone"


class Lead(StrEnum):  # R7
    FREE = "free"
    ACE = "ace"
    TRUMP = "trump"
    CLASSIC = "classic"


class Void(StrEnum):  # R7
    MUST_TRUMP = "must_trump"
    TRUMP_TO_WIN = "trump_to_win"


class FlushTie(StrEnum):  # R9, R9c
    ELDER = "elder"
    SPLIT = "split"  # R9c: the pot split equally among the tied seats


class ExchangeTiming(StrEnum):  # R9, R9c
    AFTER_ALL = "after_all"
    AT_TURN = "at_turn"  # R9c: each seat that declares play exchanges at once


class FinalPot(StrEnum):  # R10
    SHARE = "share"
    DISCARD = "discard"


OPTION_ENUMS: dict[str, type[StrEnum]] = {
    "trump": Trump,
    "ante_payer": AntePayer,
    "penalty": Penalty,
    "bold_stand": BoldStand,
    "lead": Lead,
    "void": Void,
    "flush_tie": FlushTie,
    "exchange_timing": ExchangeTiming,
    "final_pot": FinalPot,
}
