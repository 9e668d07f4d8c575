"""The reference engine: docs/rules.md in plain Python, written to be read.

``play_deal_reference`` plays one deal, step by step in the order of the rules:

  deal (R2) -> antes (R3) -> declarations (R4, R5, R8, R9b) -> lone player / nobody
  (R4) -> exchanges (R9) -> flushes (R9) -> tricks (R6, R7) -> scoring (R3)

The rule predicates (which cards a seat may play, what a flush is) are pure functions
in ``game/legality.py``; this module keeps the state of the deal and counts each special
rule branch it takes under its ``game.paths.RulePath``. Its steps are split as the
kernel's files are: dealing, antes, settling and scoring here, the declarations in
``engine/declare.py``, exchange and flushes in ``engine/exchange.py``, the tricks in
``engine/tricks.py`` (mixins of ``_Deal``, so a caller still calls ``deal.declare_all()``). The numba kernel
(``kernel/deal.py``) must produce the same record for every deal; when a rule changes,
it changes in both, with a test.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from loo_sim.engine.cardplay import CardValues, Play
from loo_sim.engine.declare import Declarations
from loo_sim.engine.exchange import Exchange
from loo_sim.engine.tricks import TrickPlay
from loo_sim.game.cards import SUITS, suit_of
from loo_sim.game.decl import PASS
from loo_sim.game.paths import RulePath
from loo_sim.game.policy import SOLVER_PLAY, Policy
from loo_sim.game.ranking import TrumpState
from loo_sim.game.record import DealRecord, DealTrace, Trick
from loo_sim.game.rules import AntePayer, ExchangeTiming, Penalty, Rules, Trump

if TYPE_CHECKING:
    from loo_sim.engine.solver import Position

Draw = Callable[[int], int]
# called before each card decision with the perfect-information Position (engine/solver.py);
# a card it returns is played instead of the policy's choice (it must be legal)
CardHook = Callable[["Position"], "int | None"]


class _Deal(Declarations, Exchange, TrickPlay):
    """The state of one deal while it is played, and its steps: dealing, antes, settling
    an uncontested deal, scoring and the record here; declarations, exchange and flushes,
    and tricks in the mixins of ``engine/declare.py``, ``engine/exchange.py`` and
    ``engine/tricks.py``."""

    def __init__(self, rules: Rules, deck: Sequence[int], dealer: int, carried: float, policies: Sequence[Policy],
                 draws: Sequence[Draw | None], strength=None, chart=None, tables=None) -> None:  # fmt: skip
        self.rules = rules
        self.n = rules.players
        self.h = rules.hand_size
        self.dealer = dealer
        self.carried = float(carried)
        self.policies = policies
        self.draws = draws
        self.strength = strength  # for threshold / ev seats (run.strength.StrengthTable)
        self.chart = chart  # for the chart family: [class, position, miss on offer, earlier in] best declaration
        self.tables = tables or {}  # for table seats: path -> [information set, action] probabilities (P6)
        self.forced: dict[int, str] = {}  # seat -> declaration: counterfactual replays (P4), scripted deals
        self.card_hook: CardHook | None = None  # see CardHook; None costs one test per card
        self.card_values: CardValues | None = None  # the P7 solver the P8 families use (engine.solver's by default)
        self.plays: list[Play] = []  # every card played so far, with what made it legal (P8's sight) ...
        self.keep_plays = any(p.play in SOLVER_PLAY for p in policies)  # ... kept where a pimc seat reads it
        # R8: a clean pot with single_pot on is a single pot: no miss, nobody passes,
        # no exchange, trumps at the first renounce.
        self.single = rules.is_single_pot(self.carried)
        self.mode = Trump.FIRST_RENOUNCE if self.single else rules.trump
        self.miss_dealt = rules.miss and not self.single
        self.defence = rules.dealer_defends and self.miss_dealt  # R8: the dealer's defence, double pots
        # R9: an exchange, in double pots without a miss; R9c at_turn: each seat as it declares play
        self.exchanges = rules.exchange and not self.single and not self.miss_dealt
        self.at_turn = self.exchanges and rules.exchange_timing is ExchangeTiming.AT_TURN
        # R2: seats from the dealer's left, the dealer last.
        self.order = [(dealer + 1 + i) % self.n for i in range(self.n)]
        self.hands: list[list[int]] = [[] for _ in range(self.n)]
        self.miss: list[int] = []
        self.indicator: int | None = None  # the card after the hands, where used
        self.indicator_turned = False
        self.trump: int | None = None  # known trump suit
        self.stock: list[int] = []
        self.declarations = [PASS] * self.n
        self.club_law = False  # R9b: set at the declarations, once the indicator is known
        self.miss_taken = False  # R5, R8: a seat has taken the miss (or defends with it)
        self.defender: int | None = None
        self.in_deal: list[int] = []
        self.tricks: list[Trick] = []
        self.tricks_won = [0] * self.n
        self.flush_winner: int | None = None
        self.flush_shown: list[int] = []  # R9: the seats in the deal that showed a flush
        self.looed: list[int] = []
        self.shares = [0.0] * self.n
        self.penalties = [0.0] * self.n
        self.antes = [0.0] * self.n
        self.pot_start = 0.0
        self.pot_next = 0.0
        self.trace = DealTrace(dealer=dealer, carried=self.carried, hands=[], miss=[])

    def mark(self, path: RulePath) -> None:
        """Count a rule branch taken (the differential test requires each to be reached).
        A name that is not a ``RulePath`` raises ValueError."""
        self.trace.paths[RulePath(path)] += 1

    @property
    def ts(self) -> TrumpState:
        return TrumpState(self.trump, self.rules.pam)

    @property
    def turned_up(self) -> int | None:
        """The indicator once turned (R6), else None."""
        return self.indicator if self.indicator_turned else None

    # ---- R2: the deal ---------------------------------------------------------------
    def deal_cards(self, deck: Sequence[int]) -> None:
        cards = iter(deck)
        for _ in range(self.h):
            for seat in self.order:
                if seat == self.dealer and self.miss_dealt:
                    self.miss.append(next(cards))  # the miss: just before the dealer
                self.hands[seat].append(next(cards))
        if self.mode in (Trump.TURN_UP, Trump.FIRST_RENOUNCE):
            self.indicator = next(cards)
        if self.mode is Trump.TURN_UP:  # R6: turned before declaring
            self.turn_indicator()
        self.stock = list(cards)
        self.trace.hands = [list(h) for h in self.hands]
        self.trace.miss = list(self.miss)

    def turn_indicator(self) -> None:
        assert self.indicator is not None
        self.indicator_turned = True
        self.trump = suit_of(self.indicator)

    # ---- R3: antes ------------------------------------------------------------------
    def collect_antes(self) -> None:
        ante = self.rules.ante
        if self.rules.ante_payer is AntePayer.EACH:
            self.antes = [ante] * self.n
        else:
            self.antes[self.dealer] = ante
        self.pot_start = self.carried + sum(self.antes)

    def loo_penalty(self) -> float:
        """R3: what a loo costs: the whole pot (unlimited) or the fixed amount (limited);
        R9c capped: the smaller of the two."""
        if self.rules.penalty is Penalty.UNLIMITED:
            return self.pot_start
        if self.rules.penalty is Penalty.LIMITED:
            return self.rules.penalty_amount
        return min(self.pot_start, self.rules.penalty_amount)

    # ---- R4: a lone player or nobody (declarations, R4-R9b: engine/declare.py) ----------------
    def settle_uncontested(self) -> bool:
        """R4: a lone player takes the pot without play; if nobody is in, it carries over."""
        if not self.in_deal:
            self.pot_next = self.pot_start
            self.trace.outcome = "nobody"
            self.mark(RulePath.R4_NOBODY)
            return True
        if len(self.in_deal) == 1:
            self.shares[self.in_deal[0]] = self.pot_start
            self.trace.outcome, self.trace.lone_seat = "lone", self.in_deal[0]
            self.mark(RulePath.R4_LONE_PLAYER)
            return True
        return False

    # (R9 exchange and flushes: engine/exchange.py; R6, R7 tricks: engine/tricks.py)

    # ---- R3: scoring ----------------------------------------------------------------
    def score(self) -> None:
        unclaimed = 0.0
        for seat in self.in_deal:
            won = self.pot_start * self.tricks_won[seat] / self.h
            if seat == self.defender:
                unclaimed += won  # R8: a defender's shares stay in the pot
            else:
                self.shares[seat] = won
        self.looed = sorted(s for s in self.in_deal if s != self.defender and self.tricks_won[s] == 0)
        self.charge_penalties()
        self.pot_next += unclaimed

    def charge_penalties(self) -> None:
        penalty = self.loo_penalty()
        if self.looed and self.rules.penalty is Penalty.CAPPED and self.pot_start < self.rules.penalty_amount:
            self.mark(RulePath.R9C_CAPPED_AT_POT)  # R9c: the cap is the pot, below penalty_amount
        for seat in self.looed:
            self.penalties[seat] = penalty
        self.pot_next = penalty * len(self.looed)

    def record(self) -> DealRecord:
        return DealRecord(
            trump=SUITS[self.trump] if self.trump is not None else None,
            indicator=self.turned_up,
            single_pot=self.single,
            declarations=list(self.declarations),
            tricks=self.tricks,
            tricks_won=list(self.tricks_won),
            flush_winner=self.flush_winner,
            looed=list(self.looed),
            shares=list(self.shares),
            penalties=list(self.penalties),
            antes=list(self.antes),
            pot_start=self.pot_start,
            pot_next=self.pot_next,
            trace=self.trace,
        )


def play_deal_reference(
    rules: Rules,
    deck: Sequence[int],
    dealer: int,
    carried: float,
    policies: Sequence[Policy],
    draws: Sequence[Draw | None] | None = None,
    strength=None,
    chart=None,
    forced: tuple[int, str] | Mapping[int, str] | None = None,
    tables=None,
    card_hook: CardHook | None = None,
    card_values: CardValues | None = None,
) -> DealRecord:
    """Play one deal by the rules; ``deck`` is 52 card ints in canonical deal order (R2).

    ``draws[seat]`` is the seat's own random stream (only the play family ``random``
    and a mixed strategy table use it); ``strength``, ``chart`` and ``tables`` (path ->
    probabilities, for ``table:PATH`` seats) feed the calibrated declaration families;
    ``forced = (seat, declaration)`` makes that seat declare as given (P4 replays), and a
    mapping ``{seat: declaration}`` forces several (a scripted deal); a forced declaration
    that is not on offer raises ``IllegalAction`` naming the rule that forbids it;
    ``card_hook`` is called with the perfect-information Position before every card
    decision, and a card it returns is played instead of the policy's (``CardHook``);
    ``card_values`` replaces engine.solver's for the ``perfect`` and ``pimc`` seats (P8;
    tests give the kernel's, exact and faster, for five-card deals).
    """
    deal = _Deal(rules, deck, dealer, carried, policies, draws or [None] * rules.players, strength, chart, tables)
    if isinstance(forced, tuple):
        forced = {forced[0]: forced[1]}
    deal.forced = dict(forced or {})
    deal.card_hook = card_hook
    deal.card_values = card_values
    return play_out(deal, deck)


def play_out(deal: _Deal, deck: Sequence[int]) -> DealRecord:
    """A set-up deal played from the deck to its record, step by step in the order of the
    rules (the module docstring)."""
    deal.deal_cards(deck)
    deal.collect_antes()
    deal.declare_all()
    if not deal.settle_uncontested():
        deal.exchange()
        if not deal.show_flushes():
            deal.play_tricks()
            deal.score()
    return deal.record()


def reference_positions(
    rules: Rules,
    deck: Sequence[int],
    dealer: int,
    carried: float,
    policies: Sequence[Policy],
    draws: Sequence[Draw | None] | None = None,
) -> tuple[list[Position], DealRecord]:
    """Play one deal as ``play_deal_reference`` does and return the Position before each
    card decision (``positions[k]``: after k cards; ``[0]`` is the start of trick play;
    empty where no tricks are played), with the deal's record."""
    positions: list[Position] = []

    def keep(position: Position) -> None:
        positions.append(position)

    rec = play_deal_reference(rules, deck, dealer, carried, policies, draws, card_hook=keep)
    return positions, rec
