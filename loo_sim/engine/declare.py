"""The declarations of a deal in the reference engine (docs/rules.md R4, R5, R8, R9b): each
seat in turn from the dealer's left, what it may declare, what it declares (its policy's
choice, or the forced one of a replay or a scripted deal), why a forced one is refused,
and what a declaration does (a seat that takes the miss plays it).

A mixin of ``engine/deal.py``'s ``_Deal``, whose state it reads and writes; the twin of
``kernel/declare.py``."""

from __future__ import annotations

from loo_sim.base.errors import IllegalAction
from loo_sim.engine.policies import DeclareChoice, DeclareContext, declare, flush_clause
from loo_sim.game.cards import CLUBS, suit_of
from loo_sim.game.decl import DEFEND, MISS, PASS, PLAY
from loo_sim.game.paths import RulePath, calibrated_path, dealer_case_path, flush_aware_path
from loo_sim.game.policy import CALIBRATED, Policy
from loo_sim.game.rules import BoldStand


class Declarations:
    """R4, R5, R8, R9b: the declaration steps of ``_Deal`` (engine/deal.py holds the state)."""

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
                             uniform=getattr(stream, "declaration_uniform", None), miss_taken=self.miss_taken,
                             clean=self.carried == 0)  # fmt: skip
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
