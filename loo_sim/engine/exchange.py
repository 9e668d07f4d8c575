"""The exchange and the flushes of a deal in the reference engine (docs/rules.md R9, R9c):
the seats in the deal throw and draw from the stock, then the best flush shown takes the
pot and loos the others (with the R9c exemptions).

A mixin of ``engine/deal.py``'s ``_Deal``, whose state it reads and writes; the twin of
``kernel/exchange.py``."""

from __future__ import annotations

from loo_sim.engine.policies import choose_discards
from loo_sim.game.cards import CLUBS, PAM, suit_of
from loo_sim.game.legality import flush_rank
from loo_sim.game.paths import RulePath
from loo_sim.game.rules import FlushTie


class Exchange:
    """R9: the exchange and flush steps of ``_Deal`` (engine/deal.py holds the state)."""

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
