"""Rule sets as data: every option of docs/rules.md under its own name, presets (R11),
validation of the refused combinations (R1, R11), and a readable rendering."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from loo_sim.base.checks import MAX_CHIPS
from loo_sim.base.errors import LooError
from loo_sim.game.options import (  # noqa: F401 (the option enums are part of game.rules' interface)
    OPTION_ENUMS,
    AntePayer,
    BoldStand,
    ExchangeTiming,
    FinalPot,
    FlushTie,
    Lead,
    Penalty,
    Trump,
    Void,
)

_INTS = ("players", "hand_size")
_NUMBERS = ("ante", "penalty_amount")
_BOOLS = (
    "miss", "single_pot", "dealer_defends", "pam", "pam_be_civil", "exchange", "flush", "club_law", "ace_lead_king",
    "dealer_takes_all_pass", "dealer_takes_miss", "pam_flush", "flush_spares_pam",
    "flush_spares_flushes", "flush_loos_all",
)  # fmt: skip


@dataclass(frozen=True)
class Rules:
    """One complete rule set. Build it with :meth:`Rules.preset`.

    Every field is an option of docs/rules.md with the name and the values it gives there;
    strings (``"limited"``) and the enums of this module are both accepted.
    """

    players: int = 5  # R2
    hand_size: int = 3  # R9
    miss: bool = True  # R5
    trump: Trump = Trump.TURN_UP  # R6
    ante: float = 3.0  # R3
    ante_payer: AntePayer = AntePayer.EACH  # R3
    penalty: Penalty = Penalty.UNLIMITED  # R3
    penalty_amount: float = 3.0  # R3
    bold_stand: BoldStand = BoldStand.LAST_AND_DEALER  # R4
    single_pot: bool = False  # R8
    dealer_defends: bool = False  # R8
    lead: Lead = Lead.FREE  # R7
    void: Void = Void.MUST_TRUMP  # R7
    pam: bool = False  # R1, R9
    pam_be_civil: bool = False  # R9
    exchange: bool = False  # R9
    flush: bool = False  # R9
    club_law: bool = False  # R9b
    ace_lead_king: bool = False  # R9c: with lead = ace, the king when the ace is turned up
    dealer_takes_all_pass: bool = False  # R9c: all before the dealer passed: the dealer takes the pot
    dealer_takes_miss: bool = False  # R9c: in R8 case 2 the dealer may also take the miss
    pam_flush: bool = True  # R9c: false: four of a suit plus Pam is no flush
    flush_spares_pam: bool = False  # R9c: a seat in the deal holding Pam is not looed by a flush
    flush_spares_flushes: bool = False  # R9c: a seat that showed a beaten flush is not looed
    flush_loos_all: bool = False  # R9c: a flush loos every other player, passers included
    flush_tie: FlushTie = FlushTie.ELDER  # R9, R9c: an exact tie of the best flushes: elder hand, or split
    exchange_timing: ExchangeTiming = ExchangeTiming.AFTER_ALL  # R9, R9c: at_turn: each seat exchanges as it plays
    bankroll: float | None = None  # R10: ruin when a balance falls below -bankroll
    final_pot: FinalPot = FinalPot.SHARE  # R10

    def __post_init__(self) -> None:
        for f in fields(self):
            object.__setattr__(self, f.name, _coerce(f.name, getattr(self, f.name)))
        self._validate()

    # ---- construction -------------------------------------------------------------
    @classmethod
    def preset(cls, name: str = "three-card", **overrides: Any) -> Rules:
        """The rule set of a preset of R11, with options overridden one by one.

        >>> Rules.preset("classic-limited", players=6, lead="classic").lead
        <Lead.CLASSIC: 'classic'>
        """
        key = str(name).strip().lower()
        if key not in PRESETS:
            raise LooError(f"unknown preset {name!r}: allowed {', '.join(PRESETS)}")
        values = dict(PRESETS[key][1])
        for k, v in overrides.items():
            if k not in OPTION_NAMES:
                raise LooError(f"unknown option {k!r}: allowed {', '.join(OPTION_NAMES)}")
            values[k] = v
        return cls(**values)

    @staticmethod
    def coerce_option(name: str, value: Any) -> Any:
        """One option's value in its type, or a LooError naming the option and what is allowed."""
        if name not in OPTION_NAMES:
            raise LooError(f"unknown option {name!r}: allowed {', '.join(OPTION_NAMES)}")
        return _coerce(name, value)

    @staticmethod
    def plain_option(name: str, value: Any) -> Any:
        """One option's value in its type, JSON-ready (an enum as docs/rules.md spells it)."""
        return _plain(Rules.coerce_option(name, value))

    def replace(self, **overrides: Any) -> Rules:
        for k in overrides:
            if k not in OPTION_NAMES:
                raise LooError(f"unknown option {k!r}: allowed {', '.join(OPTION_NAMES)}")
        return dataclasses.replace(self, **overrides)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values, as docs/rules.md spells them."""
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}

    def deal_options(self) -> dict[str, Any]:
        """The options that change how a deal is played, as keys of rule sets hash them
        (strength tables, strategy tables): no session option (R10), and no R9c variant
        left at its default (such a rule set plays as before the variant existed)."""
        return {k: v for k, v in self.to_dict().items()
                if k not in SESSION_OPTIONS and not (k in VARIANT_DEFAULTS and VARIANT_DEFAULTS[k] == v)}  # fmt: skip

    # ---- derived facts ----------------------------------------------------------
    def is_single_pot(self, carried: float) -> bool:
        """R8: with ``single_pot`` on, a deal whose pot is clean is a single pot."""
        return self.single_pot and carried == 0

    def render(self) -> str:
        """A readable listing, one option a line, with the rule section it comes from."""
        lines = []
        for f in fields(self):
            value = _plain(getattr(self, f.name))
            shown = "none" if value is None else str(value).lower() if isinstance(value, bool) else value
            if isinstance(shown, float) and shown.is_integer():
                shown = int(shown)
            lines.append(f"  {f.name:<15} {shown!s:<16} {OPTION_HELP[f.name]}")
        return "\n".join(lines)

    # ---- validation (R1, R11) -----------------------------------------------------
    def _validate(self) -> None:
        if not 3 <= self.players <= 8:
            _refuse("players", self.players, "3 to 8")
        if self.hand_size not in (3, 5):
            _refuse("hand_size", self.hand_size, "3 or 5")
        if not 0 <= self.ante <= MAX_CHIPS:
            _refuse("ante", self.ante, "a number of chips 0..1e100")
        if not 0 <= self.penalty_amount <= MAX_CHIPS:
            _refuse("penalty_amount", self.penalty_amount, "a number of chips 0..1e100")
        if self.bankroll is not None and not 0 <= self.bankroll <= MAX_CHIPS:
            _refuse("bankroll", self.bankroll, "a number of chips 0..1e100 or none")
        if self.miss and self.hand_size != 3:
            raise LooError(
                "miss: true is refused with hand_size = 5 (the miss is three-card only, R5); allowed: miss=false"
            )
        if self.miss and self.exchange:
            raise LooError("miss: true is refused together with exchange = true (R5); allowed: one of them")
        if self.pam:
            if self.hand_size != 5:
                raise LooError("pam: true needs hand_size = 5 (R1); allowed with hand_size 3: pam=false")
            if self.trump is not Trump.TURN_UP:
                raise LooError(f"pam: true needs trump = turn_up, got {self.trump.value} (R1); allowed: pam=false")
            if self.single_pot:
                raise LooError("pam: true needs single_pot = false (R1); allowed: pam=false or single_pot=false")
        if self.flush and self.hand_size != 5:
            raise LooError("flush: true needs hand_size = 5 (R9); allowed with hand_size 3: flush=false")
        if self.dealer_defends and not self.miss:
            raise LooError("dealer_defends: true needs miss = true (R8); allowed: dealer_defends=false")
        if self.ace_lead_king and self.lead is not Lead.ACE:
            raise LooError(
                f"ace_lead_king: true needs lead = ace, got {self.lead.value} (R9c); allowed: ace_lead_king=false"
            )
        if self.dealer_takes_miss and not self.dealer_defends:
            raise LooError(
                "dealer_takes_miss: true needs dealer_defends = true (R9c); allowed: dealer_takes_miss=false"
            )
        if not self.pam_flush and not self.flush:
            raise LooError("pam_flush: false needs flush = true (R9c); allowed: pam_flush=true")
        if self.flush_spares_pam and not self.flush:
            raise LooError("flush_spares_pam: true needs flush = true (R9c); allowed: flush_spares_pam=false")
        if self.flush_spares_flushes and not self.flush:
            raise LooError("flush_spares_flushes: true needs flush = true (R9c); allowed: flush_spares_flushes=false")
        if self.flush_loos_all and not self.flush:
            raise LooError("flush_loos_all: true needs flush = true (R9c); allowed: flush_loos_all=false")
        if self.flush_tie is FlushTie.SPLIT and not self.flush:
            raise LooError("flush_tie: split needs flush = true (R9c); allowed: flush_tie=elder")
        if self.exchange_timing is ExchangeTiming.AT_TURN and not self.exchange:
            raise LooError("exchange_timing: at_turn needs exchange = true (R9c); allowed: exchange_timing=after_all")
        if self.club_law and self.trump is not Trump.TURN_UP:
            raise LooError(
                f"club_law: true needs trump = turn_up, got {self.trump.value} (R9b); allowed: club_law=false"
            )


def _refuse(name: str, value: Any, allowed: str) -> None:
    raise LooError(f"{name}: {value!r} is not allowed; allowed {allowed}")


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    return value


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def _coerce(name: str, value: Any) -> Any:
    """Turn an option value (as given in Python, TOML or ``--set``) into its type."""
    if name in OPTION_ENUMS:
        enum = OPTION_ENUMS[name]
        try:
            return enum(str(_plain(value)).strip().lower())
        except ValueError:
            allowed = ", ".join(e.value for e in enum)
            raise LooError(f"{name}: {value!r} is not one of {allowed}") from None
    if name in _BOOLS:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise LooError(f"{name}: {value!r} is not a boolean; allowed true or false")
    if name in _INTS:
        if isinstance(value, bool):
            raise LooError(f"{name}: {value!r} is not a whole number")
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise LooError(f"{name}: {value!r} is not a whole number") from None
        if not number.is_integer():
            raise LooError(f"{name}: {value!r} is not a whole number")
        return int(number)
    if name in _NUMBERS or name == "bankroll":
        if name == "bankroll" and (value is None or str(value).strip().lower() in ("none", "")):
            return None
        if isinstance(value, bool):
            raise LooError(f"{name}: {value!r} is not a number")
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise LooError(f"{name}: {value!r} is not a number") from None
        if number != number or number in (float("inf"), float("-inf")):
            raise LooError(f"{name}: {value!r} is not a finite number")
        return number
    raise LooError(f"unknown option {name!r}")


def profile_warnings(preset: str, rules: Rules) -> list[str]:
    """R9c: one line for each setting outside the range a preset's seed profile gives
    (classic-limited: 5 to 8 players, seed 001; five-card: antes in fives, seed 000). Such
    a rule set is played as set; the CLI prints these lines as warnings."""
    key = str(preset).strip().lower()
    lines = []
    if key == "classic-limited" and rules.players < 5:
        lines.append(f"classic-limited is played by 5 to 8 players (seed 001); playing with {rules.players}")
    if key in ("five-card", "pam-loo") and rules.hand_size == 5 and rules.ante % 5 != 0:
        ante = int(rules.ante) if float(rules.ante).is_integer() else rules.ante
        lines.append(f"{key} antes are a multiple of 5 (seed 000); playing with ante {ante}")
    return lines


def split_option(
    item: str, key: str, form: str = "key=value", example: str = "penalty=limited", also: tuple[str, ...] = ()
) -> tuple[str, str]:
    """One ``key=value`` item that names a rule option (or one of ``also``): the option's
    name (``hand-size`` is ``hand_size``) and the value text. The one parser of such items,
    for ``set`` overrides and ``compare`` arms; its errors carry ``key``."""
    name, sep, value = str(item).partition("=")
    name = name.strip().replace("-", "_")
    if not sep:
        raise LooError(f"{item!r}: expected {form}, e.g. {example}", key=key)
    if name not in OPTION_NAMES and name not in also:
        raise LooError(f"{item!r}: unknown option {name!r}; allowed {', '.join((*also, *OPTION_NAMES))}", key=key)
    return name, value.strip()


def parse_set(items: list[str] | tuple[str, ...] | None) -> dict[str, str]:
    """``key=value`` overrides (the CLI's ``--set``) as a dict; errors name ``set[i]``."""
    return dict(split_option(item, f"set[{i}]") for i, item in enumerate(items or ()))


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Rules))
SESSION_OPTIONS = ("bankroll", "final_pot")  # R10: not part of a deal
# R9c's variants and their defaults (off in every preset): a rule set that leaves them
# there plays as before they existed, so keys of rule sets (run.strength) leave them out
VARIANT_DEFAULTS: dict[str, Any] = {
    "ace_lead_king": False, "dealer_takes_all_pass": False, "dealer_takes_miss": False, "pam_flush": True,
    "flush_spares_pam": False, "flush_spares_flushes": False, "flush_loos_all": False,
    "flush_tie": "elder", "exchange_timing": "after_all",
}  # fmt: skip

OPTION_HELP: dict[str, str] = {
    "players": "R2  players at the table, 3-8",
    "hand_size": "R9  cards a hand: 3 or 5",
    "miss": "R5  an extra blind hand a player may take (three-card)",
    "trump": "R6  turn_up | first_lead | first_renounce",
    "ante": "R3  chips a payer antes before the deal",
    "ante_payer": "R3  each | dealer",
    "penalty": "R3  what a looed player pays: unlimited (the pot) | limited | capped (R9c)",
    "penalty_amount": "R3  the limited penalty",
    "bold_stand": "R4  off | last_and_dealer | everyone (clean pot may not be abandoned)",
    "single_pot": "R8  a clean pot is a single pot (all play, trumps at first renounce)",
    "dealer_defends": "R8  the dealer may defend with the miss",
    "lead": "R7  free | ace | trump | classic",
    "void": "R7  must_trump | trump_to_win",
    "pam": "R1  the jack of clubs is the top trump (five-card)",
    "pam_be_civil": "R9  leading the trump ace bars Pam from the trick",
    "exchange": "R9  discard and draw from the stock",
    "flush": "R9  a flush takes the pot without play (five-card)",
    "club_law": "R9b a club turn-up: nobody may pass, no miss",
    "ace_lead_king": "R9c lead = ace: the king of trumps first when the ace is turned up",
    "dealer_takes_all_pass": "R9c all others passed: the dealer takes the pot without play",
    "dealer_takes_miss": "R9c R8 case 2: the dealer may also take the miss as an ordinary seat",
    "pam_flush": "R9c four of a suit plus Pam is a flush (false: five of one suit only)",
    "flush_spares_pam": "R9c a seat in the deal holding Pam is not looed by a flush",
    "flush_spares_flushes": "R9c a seat that showed a beaten flush is not looed",
    "flush_loos_all": "R9c a flush loos every other player, passers included",
    "flush_tie": "R9c elder | split: an exact tie of the best flushes (split: shared, none looed)",
    "exchange_timing": "R9c after_all | at_turn: at_turn, each seat exchanges as soon as it declares play",
    "bankroll": "R10 sessions end when a balance falls below -bankroll",
    "final_pot": "R10 share | discard the pot left at a session's end",
}

_THREE_CARD: dict[str, Any] = dict(
    players=5, hand_size=3, miss=True, trump="turn_up", ante=3, ante_payer="each",
    penalty="unlimited", penalty_amount=3, bold_stand="last_and_dealer", single_pot=False,
    dealer_defends=False, lead="free", void="must_trump", pam=False, pam_be_civil=False,
    exchange=False, flush=False, club_law=False, ace_lead_king=False,
    dealer_takes_all_pass=False, dealer_takes_miss=False, pam_flush=True, flush_spares_pam=False,
    flush_spares_flushes=False, flush_loos_all=False, flush_tie="elder", exchange_timing="after_all",
)  # fmt: skip
_FIVE_CARD = _THREE_CARD | dict(
    hand_size=5, miss=False, ante=5, penalty_amount=5, pam=True, pam_be_civil=True, exchange=True, flush=True
)
_IRISH = _THREE_CARD | dict(miss=False, trump="first_lead")
_IRISH_CLASSIC = _THREE_CARD | dict(miss=False, bold_stand="off", exchange=True, club_law=True)
_CLASSIC_LIMITED = _THREE_CARD | dict(
    ante_payer="dealer", penalty="limited", bold_stand="off", single_pot=True, dealer_defends=True,
    lead="trump", void="trump_to_win",
)  # fmt: skip

# name -> (one-line description, options); R11 table and its derived presets.
PRESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "three-card": ("three-card Loo with the miss, unlimited loo (seed 000)", _THREE_CARD),
    "five-card": ("five-card Pam-Loo: Pam, exchange and flushes (seed 000)", _FIVE_CARD),
    "irish": ("Irish Loo: no miss, the first card led sets trumps (seed 000)", _IRISH),
    "irish-classic": ("19th-century Irish Loo: turn-up, exchange, club law", _IRISH_CLASSIC),
    "classic-limited": ("seed 001: limited loo, single and double pots, dealer's defence", _CLASSIC_LIMITED),
    "limited": ("three-card with the limited penalty", _THREE_CARD | dict(penalty="limited")),
    "unlimited": ("three-card as is (unlimited penalty)", _THREE_CARD),
    "bold-stand": ("three-card where nobody may pass a clean pot", _THREE_CARD | dict(bold_stand="everyone")),
    "mississippi": ("three-card (the seeds give it no rule of its own)", _THREE_CARD),
    "pam-loo": ("five-card Pam-Loo (same as five-card)", _FIVE_CARD),
}
