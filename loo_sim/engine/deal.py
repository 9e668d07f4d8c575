"""The reference engine: docs/rules.md in plain Python, written to be read.

``play_deal_reference`` plays one deal, step by step in the order of the rules:

  deal (R2) -> antes (R3) -> declarations (R4, R5, R8, R9b) -> lone player / nobody
  (R4) -> exchanges (R9) -> flushes (R9) -> tricks (R6, R7) -> scoring (R3)

The rule predicates (which cards a seat may play, what a flush is) are pure functions
in ``game/legality.py``; this module keeps the state of the deal and counts each special
rule branch it takes under its ``game.paths.RulePath``. The numba kernel
(``kernel/deal.py``) must produce the same record for every deal; when a rule changes,
it changes in both, with a test.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from loo_sim.engine.cardplay import CardValues, Play, Sight, perfect_card, pimc_card
from loo_sim.engine.policies import (
    DeclareChoice,
    DeclareContext,
    choose_card,
    choose_discards,
    declare,
    flush_clause,
)
from loo_sim.errors import IllegalAction, LooError
from loo_sim.game.cards import ACE, CLUBS, PAM, SUITS, make_card, suit_of
from loo_sim.game.decl import DEFEND, MISS, PASS, PLAY
from loo_sim.game.legality import flush_rank, follow_options, lead_options
from loo_sim.game.paths import RulePath, calibrated_path, dealer_case_path, flush_aware_path
from loo_sim.game.policy import CALIBRATED, SOLVER_PLAY, Policy
from loo_sim.game.ranking import TrumpState
from loo_sim.game.record import DealRecord, DealTrace, Trick
from loo_sim.game.rules import AntePayer, BoldStand, ExchangeTiming, FlushTie, Penalty, Rules, Trump

if TYPE_CHECKING:
    from loo_sim.engine.solver import Position

Draw = Callable[[int], int]
# called before each card decision with the perfect-information Position (engine/solver.py);
# a card it returns is played instead of the policy's choice (it must be legal)
CardHook = Callable[["Position"], "int | None"]


class _Deal:
    """The state of one deal while it is played."""

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

    # ---- R4, R5, R8, R9b: declarations --------------------------------------------
    def declare_all(self) -> None:
        """Each seat in turn from the dealer's left: what it may declare, then what it does."""
        self.club_law = self.rules.club_law and self.indicator_turned and suit_of(self.indicator or 0) == CLUBS
        for i, seat in enumerate(self.order):
            choice = self.declaration_options(i, seat)
            if choice.dealer_case == 1:  # R8 case 1 (or R9c): the dealer takes the pot without play
                if self.forced.get(seat, PLAY) != PLAY:
                    raise IllegalAction(f"seat {seat} may not {self.forced[seat]}: everyone else passed, so the "
                                        "dealer takes the pot without play (R8 case 1)")  # fmt: skip
                self.declarations[seat] = PLAY
                self.mark(RulePath.R8_CASE_1 if self.defence else RulePath.R9C_DEALER_TAKES_ALL_PASS)
                break
            self.apply_declaration(seat, choice, self.decide(i, seat, choice))
            if self.at_turn and self.declarations[seat] == PLAY:  # R9c: before the next seat declares
                before = len(self.trace.exchanges)
                self.exchange_seat(seat)
                if i < self.n - 1 and len(self.trace.exchanges) > before:
                    self.mark(RulePath.R9C_AT_TURN_EXCHANGE)
        self.in_deal = [s for s in self.order if self.declarations[s] != PASS]
        if self.at_turn and len(self.in_deal) == 1 and self.trace.exchanges:
            self.mark(RulePath.R9C_AT_TURN_LONE_DEAD)  # R9c: the lone player's exchanged cards are dead
        if self.club_law:
            self.mark(RulePath.R9B_CLUB_LAW)
        if self.miss_taken:
            self.mark(RulePath.R5_MISS_PLAYED)

    def declaration_options(self, i: int, seat: int) -> DeclareChoice:
        """What the ``i``-th seat to declare may do (R4 passing and bold stand, R5 the miss,
        R8 the dealer's defence, R9b club law); it also fills the trace's options."""
        rules, n = self.rules, self.n
        clean = self.carried == 0
        may_pass = not (self.single or self.club_law)
        if clean and rules.bold_stand is BoldStand.EVERYONE:
            may_pass = False
            self.mark(RulePath.R4_BOLD_STAND_EVERYONE)
        if (clean and rules.bold_stand is BoldStand.LAST_AND_DEALER and i >= n - 2
                and all(self.declarations[s] == PASS for s in self.order[: n - 2])):  # fmt: skip
            may_pass = False  # the dealer's right-hand neighbour and the dealer
            self.mark(RulePath.R4_BOLD_STAND_LAST_AND_DEALER)
        miss_on_offer = self.miss_dealt and not self.miss_taken and not self.club_law
        choice = DeclareChoice(may_pass=may_pass, miss_on_offer=miss_on_offer)
        others = [s for s in self.order[:-1] if self.declarations[s] != PASS]
        if seat == self.dealer and rules.dealer_takes_all_pass and not others:  # R9c: as R8 case 1
            choice = DeclareChoice(may_pass=False, miss_on_offer=False, dealer_case=1)
        elif seat == self.dealer and self.defence:  # double pots only (R8)
            if not others:  # case 1: the dealer takes the pot without play
                choice = DeclareChoice(may_pass=False, miss_on_offer=False, dealer_case=1)
            elif len(others) == 1 and self.declarations[others[0]] == PLAY:  # case 2: own hand
                choice = DeclareChoice(may_pass=False, miss_on_offer=False, dealer_case=2,
                                       dealer_miss=rules.dealer_takes_miss)  # fmt: skip
            elif len(others) == 1:  # case 3: the other seat took the miss
                choice = DeclareChoice(may_pass=may_pass, miss_on_offer=False, dealer_case=3)
        if not choice.may_pass and not choice.dealer_case:
            self.mark(RulePath.R4_MAY_NOT_PASS)
        self.trace.options[seat] = choice.allowed
        return choice

    def decide(self, i: int, seat: int, choice: DeclareChoice) -> str:
        """The seat's declaration: its policy's (P2, P3), or the given one in a replay (P4)."""
        if seat in self.forced:
            action = self.forced[seat]
            if action not in choice.allowed:
                raise IllegalAction(self.refusal(i, seat, choice, action))
            return action
        n = self.n
        already_in = sum(1 for s in self.order[:i] if self.declarations[s] != PASS)
        policy, stream = self.policies[seat], self.draws[seat]
        ctx = DeclareContext(position=i + 1, already_in=already_in, later=n - 1 - i, players=n,
                             pot=self.pot_start, hand_size=self.h, penalty=self.loo_penalty(),
                             strength=self.strength, chart=self.chart, table=self.tables.get(policy.table),
                             uniform=getattr(stream, "declaration_uniform", None))  # fmt: skip
        return declare(policy, self.hands[seat], self.ts, choice, ctx, self.rules)

    def refusal(self, i: int, seat: int, choice: DeclareChoice, action: str) -> str:
        """Why ``action`` is not on offer to the ``i``-th seat to declare, with the rule."""
        rules, clean = self.rules, self.carried == 0
        head = f"seat {seat} may not {action}: "
        if action == PASS:
            if choice.dealer_case == 2:
                return head + ("exactly one other seat is in, with its own hand, so the dealer plays or defends "
                               "(R8 case 2)")  # fmt: skip
            if self.single:
                return head + "a clean pot is a single pot and nobody may pass (R8)"
            if self.club_law:
                return head + "club law: the indicator is a club and nobody may pass (R9b)"
            if clean and rules.bold_stand is BoldStand.EVERYONE:
                return head + "bold stand: nobody may pass a clean pot (R4, bold_stand = everyone)"
            return head + ("bold stand: everyone before the dealer's right-hand neighbour passed, so that neighbour "
                           "and the dealer may not pass a clean pot (R4, bold_stand = last_and_dealer)")  # fmt: skip
        if action == MISS:
            taker = next((s for s in self.order[:i] if self.declarations[s] in (MISS, DEFEND)), None)
            if not rules.miss:
                return head + "these rules deal no miss (miss = false, R5)"
            if self.single:
                return head + "a clean pot is a single pot: no miss is dealt (R8)"
            if taker is not None:
                return head + f"seat {taker} has already taken the miss (R5)"
            if self.club_law:
                return head + "club law: the indicator is a club and the miss is not offered (R9b)"
            return head + ("exactly one other seat is in, with its own hand, so the dealer plays or defends "
                           "(R8 case 2)")  # fmt: skip
        if action == DEFEND:
            if not rules.dealer_defends:
                return head + "these rules have no dealer's defence (dealer_defends = false, R8)"
            if self.single:
                return head + "the dealer defends only in a double pot (R8)"
            if seat != self.dealer:
                return head + "only the dealer defends, with the miss (R8 case 2)"
            return head + ("the dealer defends only when exactly one other seat is in, with its own hand "
                           "(R8 case 2)")  # fmt: skip
        return head + f"not on offer; allowed {', '.join(choice.allowed)} (R4)"

    def apply_declaration(self, seat: int, choice: DeclareChoice, action: str) -> None:
        """Record ``action``, which must be on offer; a seat that takes the miss (or
        defends with it, R8) plays the miss, its own hand dead (R5)."""
        assert action in choice.allowed, (seat, action, choice.allowed)
        if choice.dealer_case:
            self.mark(dealer_case_path(choice.dealer_case, action))
        family = self.policies[seat].declare
        if family in CALIBRATED:
            self.mark(calibrated_path(family, action))
        forced = seat in self.forced
        if family == "flush-aware" and action == PLAY and not forced:  # a flush clause decided, not basic's test
            clause = flush_clause(self.hands[seat], self.ts, self.rules)
            if clause is not None and declare(Policy(), self.hands[seat], self.ts, choice) != PLAY:
                self.mark(flush_aware_path(clause))
        self.declarations[seat] = action
        if action in (MISS, DEFEND):
            self.miss_taken = True
            self.hands[seat] = list(self.miss)
            if action == DEFEND:
                self.defender = seat

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

    # ---- R9: exchange ---------------------------------------------------------------
    def exchange(self) -> None:
        """R9: the seats in the deal, in declaration order, each in turn (under R9c at_turn
        they have exchanged already, each as it declared)."""
        if not self.exchanges or self.at_turn:
            return
        for seat in self.in_deal:
            if not self.exchange_seat(seat):
                break

    def exchange_seat(self, seat: int) -> bool:
        """One seat discards and draws as many from the front of the stock (R9); False
        when the stock is empty at its turn (no more exchange)."""
        if not self.stock:
            self.mark(RulePath.R9_STOCK_EMPTY)
            return False
        thrown = choose_discards(self.policies[seat], self.hands[seat], self.ts, len(self.stock))
        if len(thrown) == len(self.stock):
            self.mark(RulePath.R9_EXCHANGE_LAST_OF_STOCK)
        assert len(thrown) <= len(self.stock) and all(c in self.hands[seat] for c in thrown)
        drawn, self.stock = self.stock[: len(thrown)], self.stock[len(thrown) :]
        self.hands[seat] = [c for c in self.hands[seat] if c not in thrown] + drawn
        if thrown:
            self.trace.exchanges.append((seat, list(thrown), list(drawn)))
        return True

    # ---- R9: flushes ----------------------------------------------------------------
    def show_flushes(self) -> bool:
        if not self.rules.flush:
            return False
        best_seat, best_key = None, None
        split = self.rules.flush_tie is FlushTie.SPLIT
        keys: dict[int, tuple] = {}
        for seat in self.in_deal:  # elder hands first: an exact tie stays with them
            key = flush_rank(self.hands[seat], self.ts)
            if (
                key is not None
                and key[0]
                and not self.rules.pam_flush
                and any(suit_of(c) != CLUBS for c in self.hands[seat])
            ):  # R9c: four of a suit plus Pam (the jack of clubs) is not five of one suit
                self.mark(RulePath.R9C_NO_PAM_FLUSH)
                key = None
            if key is not None:
                self.flush_shown.append(seat)
                keys[seat] = key
            if key is not None and best_key is not None:
                if key != best_key:
                    self.mark(RulePath.R9_TWO_FLUSHES)
                elif not split:
                    self.mark(RulePath.R9_FLUSH_TIE_TO_ELDER)
            if key is not None and (best_key is None or key > best_key):
                best_seat, best_key = seat, key
        if best_seat is None:
            return False
        # R9c flush_tie = split: every seat of the best flush shares the pot, the eldest recorded
        winners = [s for s in self.flush_shown if keys[s] == best_key] if split else [best_seat]
        if len(winners) > 1:
            self.mark(RulePath.R9C_FLUSH_TIE_SPLIT)
        self.flush_winner = best_seat  # the eldest of the winners
        self.mark(RulePath.R9_PAM_FLUSH if best_key[0] else RulePath.R9_TRUMP_FLUSH if best_key[1]
                  else RulePath.R9_PLAIN_FLUSH)  # fmt: skip
        for seat in winners:
            self.shares[seat] = self.pot_start / len(winners)
        self.looed = [s for s in self.in_deal if s not in winners and not self.spared_by_flush(s)]
        if self.rules.flush_loos_all:  # R9c: the passers pay too (the exemptions are for seats in the deal)
            passers = [s for s in range(self.n) if s not in self.in_deal]
            if passers:
                self.mark(RulePath.R9C_FLUSH_LOOS_ALL)
            self.looed += passers
        self.looed.sort()
        self.trace.outcome = "flush"
        self.charge_penalties()
        return True

    def spared_by_flush(self, seat: int) -> bool:
        """R9c: a seat in the deal that another seat's flush does not loo (judged at the
        show, after the exchange)."""
        if self.rules.flush_spares_pam and self.rules.pam and PAM in self.hands[seat]:
            self.mark(RulePath.R9C_FLUSH_SPARES_PAM)
            return True
        if self.rules.flush_spares_flushes and seat in self.flush_shown:
            self.mark(RulePath.R9C_FLUSH_SPARES_FLUSHES)  # a beaten flush (or the tie an elder hand won)
            return True
        return False

    # ---- R6, R7: the tricks -----------------------------------------------------------
    def play_tricks(self) -> None:
        rules, hook = self.rules, self.card_hook
        leader = self.in_deal[0]  # the eldest hand in the deal
        for t in range(self.h):
            start = self.in_deal.index(leader)
            seats = self.in_deal[start:] + self.in_deal[:start]
            cards: list[int] = []
            played: list[tuple[int, int]] = []
            civil = False
            renounced = False
            for seat in seats:
                pick = hook(self.position(leader, t, played, civil, renounced)) if hook else None
                hand = self.hands[seat]
                if not cards:
                    options, path = lead_options(hand, self.ts, rules, first_trick=t == 0, single_pot=self.single,
                                                 turned_up=self.turned_up)  # fmt: skip
                else:
                    if civil and PAM in hand:  # R9 Pam be civil
                        if len(hand) > 1:
                            hand = [c for c in hand if c != PAM]
                        self.mark(RulePath.R9_CIVIL_HELD_BACK if len(hand) < len(self.hands[seat])
                                  else RulePath.R9_CIVIL_LAST_CARD)  # fmt: skip
                    options, path = follow_options(hand, cards, self.ts, rules)
                    if self.trump is None and all(suit_of(c) != suit_of(cards[0]) for c in hand):
                        renounced = True  # R6 first_renounce: this trick reveals trumps
                if path is not None:
                    self.mark(path)
                if pick is None and self.policies[seat].play in SOLVER_PLAY:
                    pick = self.solver_card(seat, options, cards, self.position(leader, t, played, civil, renounced))
                if pick is None:
                    pick = choose_card(self.policies[seat], options, cards, self.ts, self.draws[seat])
                card = pick
                assert card in options
                if self.keep_plays:
                    self.plays.append(Play(seat, card, t, tuple(cards), self.trump, civil, self.turned_up))
                if not cards:
                    if self.mode is Trump.FIRST_LEAD and self.trump is None:
                        self.trump = suit_of(card)  # R6 first_lead: the first card led sets trumps
                    civil = (
                        rules.pam
                        and rules.pam_be_civil
                        and self.trump is not None
                        and card == make_card(ACE, self.trump)
                    )  # every play family invokes it (P3)
                    if civil:
                        self.trace.civil_tricks.append(t)
                self.hands[seat].remove(card)
                cards.append(card)
                played.append((seat, card))
            if renounced and self.mode is Trump.FIRST_RENOUNCE:
                self.turn_indicator()  # the trick is judged with the new trumps
                self.trace.reveal_trick = t
                self.mark(RulePath.R6_FIRST_RENOUNCE_REVEALED)
            winner = seats[self.ts.winner_index(cards)]
            self.tricks.append(Trick(leader=leader, cards=played, winner=winner))
            self.tricks_won[winner] += 1
            leader = winner
        if self.mode is Trump.FIRST_RENOUNCE and self.trump is None:
            self.mark(RulePath.R6_FIRST_RENOUNCE_NEVER)
        if self.mode is Trump.FIRST_LEAD:
            self.mark(RulePath.R6_FIRST_LEAD)

    def solver_card(self, seat: int, options: list[int], cards: list[int], pos: Position) -> int:
        """P8: the card of a ``perfect`` or ``pimc:N`` seat (engine/cardplay.py)."""
        from loo_sim.engine.solver import card_values  # only the solver families need it

        policy, values = self.policies[seat], self.card_values or card_values
        if policy.play == "perfect":
            return perfect_card(pos, options, values)
        draw = self.draws[seat]
        if draw is None:
            raise LooError(f"policy {policy}: the play family pimc needs a random stream")

        def basic() -> int:
            return choose_card(Policy(), options, cards, self.ts)

        return pimc_card(pos, self.sight(seat), options, policy.samples, draw, basic, values)

    def sight(self, seat: int) -> Sight:
        """What ``seat`` knows now (P8): the cards it can place, the other seats in the deal
        with the cards each holds, the plays so far, whether the indicator is hidden."""
        known = set(self.trace.hands[seat]) | set(self.hands[seat]) | {p.card for p in self.plays}
        if self.declarations[seat] in (MISS, DEFEND):
            known |= set(self.miss)  # it took the miss: its dealt hand is dead, and it knows it
        if self.indicator_turned:
            known.add(self.indicator)
        others = tuple((s, len(self.hands[s])) for s in self.in_deal if s != seat)
        hidden = self.indicator is not None and not self.indicator_turned
        return Sight(self.rules, self.single, seat, frozenset(known), others, tuple(self.plays), hidden)

    def position(self, leader: int, t: int, played: list[tuple[int, int]], civil: bool, renounced: bool) -> Position:
        """The perfect-information Position (engine/solver.py) before the next card of trick
        ``t``, led by ``leader``, with ``played`` already in it."""
        from loo_sim.engine.solver import Position  # only card hooks need it

        return Position(
            rules=self.rules, seats=tuple(self.in_deal), hands={s: tuple(self.hands[s]) for s in self.in_deal},
            leader=leader, trick=tuple(played), trick_index=t, tricks_won={s: self.tricks_won[s] for s in self.in_deal},
            trump=self.trump, mode=self.mode, indicator=self.indicator, turned_up=self.turned_up, civil=civil,
            renounced=renounced, single_pot=self.single, pot_start=self.pot_start, penalty=self.loo_penalty(),
            defender=self.defender,
        )  # fmt: skip

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
