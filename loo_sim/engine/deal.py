"""The reference engine: RULES.md in plain Python, written to be read.

``play_deal_reference`` plays one deal, step by step in the order of the rules:

  deal (R2) -> antes (R3) -> declarations (R4, R5, R8, R9b) -> lone player / nobody
  (R4) -> exchanges (R9) -> flushes (R9) -> tricks (R6, R7) -> scoring (R3)

The numba kernel (kernel.py) must produce the same record for every deal; when a
rule changes, it changes in both, with a test.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from loo_sim.engine.policies import DeclareChoice, DeclareContext, choose_card, choose_discards, declare
from loo_sim.game.cards import ACE, CLUBS, KING, PAM, SUITS, make_card, rank_of, suit_of
from loo_sim.game.decl import DEFEND, MISS, PASS, PLAY
from loo_sim.game.policy import CALIBRATED, Policy
from loo_sim.game.ranking import TrumpState
from loo_sim.game.record import DealRecord, DealTrace, Trick
from loo_sim.game.rules import AntePayer, BoldStand, Lead, Penalty, Rules, Trump, Void

Draw = Callable[[int], int]


class _Deal:
    """The state of one deal while it is played."""

    def __init__(self, rules: Rules, deck: Sequence[int], dealer: int, carried: float, policies: Sequence[Policy],
                 draws: Sequence[Draw | None], strength=None, chart=None) -> None:  # fmt: skip
        self.rules = rules
        self.n = rules.players
        self.h = rules.hand_size
        self.dealer = dealer
        self.carried = float(carried)
        self.policies = policies
        self.draws = draws
        self.strength = strength  # for threshold / ev seats (strength.StrengthTable)
        self.chart = chart  # for the chart family: [class, position] best declaration
        self.forced: tuple[int, str] | None = None  # (seat, declaration) in counterfactual replays
        # R8: a clean pot with single_pot on is a single pot: no miss, nobody passes,
        # no exchange, trumps at the first renounce.
        self.single = rules.is_single_pot(self.carried)
        self.mode = Trump.FIRST_RENOUNCE if self.single else rules.trump
        self.miss_dealt = rules.miss and not self.single
        # R2: seats from the dealer's left, the dealer last.
        self.order = [(dealer + 1 + i) % self.n for i in range(self.n)]
        self.hands: list[list[int]] = [[] for _ in range(self.n)]
        self.miss: list[int] = []
        self.indicator: int | None = None  # the card after the hands, where used
        self.indicator_turned = False
        self.trump: int | None = None  # known trump suit
        self.stock: list[int] = []
        self.declarations = [PASS] * self.n
        self.defender: int | None = None
        self.in_deal: list[int] = []
        self.tricks: list[Trick] = []
        self.tricks_won = [0] * self.n
        self.flush_winner: int | None = None
        self.looed: list[int] = []
        self.shares = [0.0] * self.n
        self.penalties = [0.0] * self.n
        self.antes = [0.0] * self.n
        self.pot_start = 0.0
        self.pot_next = 0.0
        self.trace = DealTrace(dealer=dealer, carried=self.carried, hands=[], miss=[])

    def mark(self, path: str) -> None:
        """Count a rule branch taken (tests check every special path is reached)."""
        self.trace.paths[path] += 1

    @property
    def ts(self) -> TrumpState:
        return TrumpState(self.trump, self.rules.pam)

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

    # ---- R4, R5, R8, R9b: declarations --------------------------------------------
    def declare_all(self) -> None:
        rules, n = self.rules, self.n
        clean = self.carried == 0
        club_law = rules.club_law and self.indicator_turned and suit_of(self.indicator or 0) == CLUBS
        defence = rules.dealer_defends and self.miss_dealt  # double pots only (R8)
        miss_taken = False
        penalty = self.pot_start if rules.penalty is Penalty.UNLIMITED else rules.penalty_amount
        for i, seat in enumerate(self.order):
            may_pass = not (self.single or club_law)
            if clean and rules.bold_stand is BoldStand.EVERYONE:
                may_pass = False
                self.mark("R4 bold stand everyone")
            if (clean and rules.bold_stand is BoldStand.LAST_AND_DEALER and i >= n - 2
                    and all(self.declarations[s] == PASS for s in self.order[: n - 2])):  # fmt: skip
                may_pass = False  # the dealer's right-hand neighbour and the dealer
                self.mark("R4 bold stand last_and_dealer")
            miss_on_offer = self.miss_dealt and not miss_taken and not club_law
            dealer_case = 0
            if seat == self.dealer and defence:
                others = [s for s in self.order[:-1] if self.declarations[s] != PASS]
                if not others:  # R8 case 1: the dealer takes the pot without play
                    self.declarations[seat] = PLAY
                    self.trace.options[seat] = [PLAY]
                    self.mark("R8 case 1")
                    break
                if len(others) == 1:  # R8 case 2 (own hand) or case 3 (took the miss)
                    dealer_case = 2 if self.declarations[others[0]] == PLAY else 3
            if dealer_case == 2:
                choice = DeclareChoice(may_pass=False, miss_on_offer=False, dealer_case=2)
                allowed = {PLAY, DEFEND}
            elif dealer_case == 3:
                choice = DeclareChoice(may_pass=may_pass, miss_on_offer=False, dealer_case=3)
                allowed = {PLAY, PASS} if may_pass else {PLAY}
            else:
                choice = DeclareChoice(may_pass=may_pass, miss_on_offer=miss_on_offer)
                allowed = {PLAY} | ({PASS} if may_pass else set()) | ({MISS} if miss_on_offer else set())
            already_in = sum(1 for s in self.order[:i] if self.declarations[s] != PASS)
            ctx = DeclareContext(position=i + 1, already_in=already_in, later=n - 1 - i, players=n,
                                 pot=self.pot_start, hand_size=self.h, penalty=penalty,
                                 strength=self.strength, chart=self.chart)  # fmt: skip
            self.trace.options[seat] = sorted(allowed)
            if self.forced is not None and self.forced[0] == seat:
                action = self.forced[1]  # a counterfactual replay (P4): this seat's declaration is given
            else:
                action = declare(self.policies[seat], self.hands[seat], self.ts, choice, ctx)
            assert action in allowed, (seat, action, allowed)
            if dealer_case:
                self.mark(f"R8 case {dealer_case} {action}")
            if self.policies[seat].declare in CALIBRATED:
                self.mark(f"P3 {self.policies[seat].declare} {action}")
            if not may_pass and not dealer_case:
                self.mark("R4 may not pass")
            self.declarations[seat] = action
            if action in (MISS, DEFEND):  # the own hand is dead; the miss is played
                miss_taken = True
                self.hands[seat] = list(self.miss)
                if action == DEFEND:
                    self.defender = seat
        self.in_deal = [s for s in self.order if self.declarations[s] != PASS]
        if club_law:
            self.mark("R9b club law")
        if miss_taken:
            self.mark("R5 miss played")

    def settle_uncontested(self) -> bool:
        """R4: a lone player takes the pot without play; if nobody is in, it carries over."""
        if not self.in_deal:
            self.pot_next = self.pot_start
            self.trace.outcome = "nobody"
            self.mark("R4 nobody")
            return True
        if len(self.in_deal) == 1:
            self.shares[self.in_deal[0]] = self.pot_start
            self.trace.outcome, self.trace.lone_seat = "lone", self.in_deal[0]
            self.mark("R4 lone player")
            return True
        return False

    # ---- R9: exchange ---------------------------------------------------------------
    def exchange(self) -> None:
        if not (self.rules.exchange and not self.single and not self.miss_dealt):
            return
        for seat in self.in_deal:
            if not self.stock:
                self.mark("R9 stock empty")
                break
            thrown = choose_discards(self.policies[seat], self.hands[seat], self.ts, len(self.stock))
            if len(thrown) == len(self.stock):
                self.mark("R9 exchange takes the last of the stock")
            assert len(thrown) <= len(self.stock) and all(c in self.hands[seat] for c in thrown)
            drawn, self.stock = self.stock[: len(thrown)], self.stock[len(thrown) :]
            self.hands[seat] = [c for c in self.hands[seat] if c not in thrown] + drawn
            if thrown:
                self.trace.exchanges.append((seat, list(thrown), list(drawn)))

    # ---- R9: flushes ----------------------------------------------------------------
    def flush_rank(self, hand: list[int]) -> tuple | None:
        """Sort key of a flush (higher wins), or None: Pam-flush, trump flush, cards."""
        ts = self.ts
        plain = [c for c in hand if not ts.is_pam(c)]
        if len(hand) != 5 or len({suit_of(c) for c in plain}) != 1:
            return None
        has_pam = len(plain) < 5
        is_trump_flush = ts.trump is not None and suit_of(plain[0]) == ts.trump
        tops = sorted((ACE + 1 if ts.is_pam(c) else rank_of(c) for c in hand), reverse=True)
        return (has_pam, is_trump_flush, tops)

    def show_flushes(self) -> bool:
        if not self.rules.flush:
            return False
        best_seat, best_key = None, None
        for seat in self.in_deal:  # elder hands first: an exact tie stays with them
            key = self.flush_rank(self.hands[seat])
            if key is not None and best_key is not None:
                self.mark("R9 flush tie to elder" if key == best_key else "R9 two flushes")
            if key is not None and (best_key is None or key > best_key):
                best_seat, best_key = seat, key
        if best_seat is None:
            return False
        self.flush_winner = best_seat
        self.mark("R9 Pam-flush" if best_key[0] else "R9 trump flush" if best_key[1] else "R9 plain flush")
        self.shares[best_seat] = self.pot_start
        self.looed = sorted(s for s in self.in_deal if s != best_seat)
        self.trace.outcome = "flush"
        self.charge_penalties()
        return True

    # ---- R6, R7: the tricks -----------------------------------------------------------
    def lead_options(self, hand: list[int], first_trick: bool) -> list[int]:
        """R7 lead obligations (only while trumps are known)."""
        ts, lead = self.ts, self.rules.lead
        if ts.trump is None or lead is Lead.FREE:
            return hand
        first = first_trick and not self.single  # the first-lead clauses never apply in a single pot
        ace, king = make_card(ACE, ts.trump), make_card(KING, ts.trump)
        ace_is_indicator = self.indicator_turned and self.indicator == ace
        trumps = [c for c in hand if ts.is_trump(c)]
        if lead is Lead.ACE:
            if first and ts.pam and PAM in hand:
                return self.obliged("R7 ace: Pam led first", [PAM])
            if first and ace in hand:
                return self.obliged("R7 ace: ace led first", [ace])
            return hand
        if lead is Lead.TRUMP:
            if not trumps:
                return hand
            if first and ace in hand:
                return self.obliged("R7 trump: ace led first", [ace])
            if first and ace_is_indicator and king in hand:
                return self.obliged("R7 trump: king led first (ace turned up)", [king])
            return self.obliged("R7 trump: a trump led", trumps)
        # Lead.CLASSIC
        if first and ace in hand:
            return self.obliged("R7 classic: ace led first", [ace])
        if first and ace_is_indicator and king in hand:
            return self.obliged("R7 classic: king led first (ace turned up)", [king])
        if len(trumps) >= 2:
            return self.obliged("R7 classic: highest of two or more trumps", [max(trumps, key=ts.power)])
        return hand

    def obliged(self, path: str, options: list[int]) -> list[int]:
        self.mark(path)
        return options

    def follow_options(self, hand: list[int], trick: list[int]) -> list[int]:
        """R7 followers: follow suit, head the trick, then the void option."""
        ts = self.ts
        led = ts.suit(trick[0])
        winning = trick[ts.winner_index(trick)]
        same_suit = [c for c in hand if ts.suit(c) == led]
        if same_suit:
            if ts.is_trump(winning) and not ts.is_trump(trick[0]):
                return self.obliged("R7 trick trumped: any card of the suit", same_suit)
            heading = [c for c in same_suit if ts.beats(c, winning, led)]
            if heading and len(heading) < len(same_suit):
                self.mark("R7 head the trick")
            return heading or same_suit
        trumps = [c for c in hand if ts.is_trump(c)]
        if not trumps:  # no trump, or trumps unknown
            return hand
        winning_trumps = [c for c in trumps if ts.beats(c, winning, led)]
        if self.rules.void is Void.MUST_TRUMP:
            return self.obliged("R7 must_trump: overtrump" if winning_trumps else "R7 must_trump: undertrump",
                                winning_trumps or trumps)  # fmt: skip
        if winning_trumps:  # Void.TRUMP_TO_WIN
            return self.obliged("R7 trump_to_win: winning trump", winning_trumps)
        return self.obliged("R7 trump_to_win: no winning trump, any card", hand)

    def play_tricks(self) -> None:
        rules = self.rules
        leader = self.in_deal[0]  # the eldest hand in the deal
        for t in range(self.h):
            start = self.in_deal.index(leader)
            seats = self.in_deal[start:] + self.in_deal[:start]
            cards: list[int] = []
            played: list[tuple[int, int]] = []
            civil = False
            renounced = False
            for seat in seats:
                hand = self.hands[seat]
                if not cards:
                    options = self.lead_options(hand, first_trick=t == 0)
                else:
                    if civil and PAM in hand:  # R9 Pam be civil
                        if len(hand) > 1:
                            hand = [c for c in hand if c != PAM]
                        self.mark("R9 Pam be civil: Pam held back" if len(hand) < len(self.hands[seat])
                                  else "R9 Pam be civil: Pam the last card")  # fmt: skip
                    options = self.follow_options(hand, cards)
                    if self.trump is None and all(suit_of(c) != suit_of(cards[0]) for c in hand):
                        renounced = True  # R6 first_renounce: this trick reveals trumps
                card = choose_card(self.policies[seat], options, cards, self.ts, self.draws[seat])
                assert card in options
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
                self.mark("R6 first_renounce: trumps revealed")
            winner = seats[self.ts.winner_index(cards)]
            self.tricks.append(Trick(leader=leader, cards=played, winner=winner))
            self.tricks_won[winner] += 1
            leader = winner
        if self.mode is Trump.FIRST_RENOUNCE and self.trump is None:
            self.mark("R6 first_renounce: never revealed")
        if self.mode is Trump.FIRST_LEAD:
            self.mark("R6 first_lead")

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
        rules = self.rules
        penalty = self.pot_start if rules.penalty is Penalty.UNLIMITED else rules.penalty_amount
        for seat in self.looed:
            self.penalties[seat] = penalty
        self.pot_next = penalty * len(self.looed)

    def record(self) -> DealRecord:
        return DealRecord(
            trump=SUITS[self.trump] if self.trump is not None else None,
            indicator=self.indicator if self.indicator_turned else None,
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
    forced: tuple[int, str] | None = None,
) -> DealRecord:
    """Play one deal by the rules; ``deck`` is 52 card ints in canonical deal order (R2).

    ``draws[seat]`` is the seat's own random stream (only the play family ``random``
    uses it); ``strength`` and ``chart`` feed the calibrated declaration families;
    ``forced = (seat, declaration)`` makes that seat declare as given (P4 replays).
    """
    deal = _Deal(rules, deck, dealer, carried, policies, draws or [None] * rules.players, strength, chart)
    deal.forced = forced
    deal.deal_cards(deck)
    deal.collect_antes()
    deal.declare_all()
    if not deal.settle_uncontested():
        deal.exchange()
        if not deal.show_flushes():
            deal.play_tricks()
            deal.score()
    return deal.record()
