"""Sessions (docs/rules.md R10) played by the reference engine: a sequence of deals at one
table, the dealer rotating left, each deal's ``pot_next`` carried into the next."""

from __future__ import annotations

from dataclasses import dataclass, field

from loo_sim.base.errors import LooError
from loo_sim.base.rng import PURPOSE_DECK, below, seat_streams, shuffled_deck, stream_key, word
from loo_sim.engine.deal import play_deal_reference
from loo_sim.game.policy import parse_table
from loo_sim.game.record import EXACT_LIMIT, OVERFLOW_LIMIT, DealRecord
from loo_sim.game.rules import FinalPot, Rules


@dataclass
class SessionResult:
    deals: list[DealRecord]
    dealers: list[int]
    balances: list[float]  # net balances at the end, after the final pot (R10)
    final_pot: float  # what was left in the pot after the last deal
    ruined: int | None = None  # the first seat whose balance fell below -bankroll
    inexact_from: int | None = None  # first deal index where an amount passed 2**53
    overflow_at: int | None = None  # the deal after which the pot passed OVERFLOW_LIMIT (session stopped)
    history: list[list[float]] = field(default_factory=list)  # balances after each deal


def first_dealer(seed: int, session: int, players: int) -> int:
    """R2: the first dealer of a session, drawn from its own stream."""
    key = stream_key(seed, session, -1, PURPOSE_DECK)
    return below(word(key, 0) >> 32, players)


def play_session(
    rules: Rules,
    policy: object = "basic",
    deals: int = 10,
    seed: int = 0,
    session: int = 0,
    dealer: int | None = None,
    strength=None,
) -> SessionResult:
    """Play session ``session`` of a run with ``seed``: deal ``j`` is shuffled from the
    stream (seed, session, j). Ends after ``deals`` deals, at ruin (``rules.bankroll``),
    or, flagged, when the pot passes OVERFLOW_LIMIT (float64 would soon overflow)."""
    if deals <= 0:
        raise LooError(f"deals: {deals} is not allowed; allowed a whole number >= 1")
    n = rules.players
    if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n):
        raise LooError(f"dealer: {dealer!r} is not a seat; allowed 0..{n - 1}")
    table = parse_table(policy, n)  # type: ignore[arg-type]
    if strength is None and any(p.declare in ("threshold", "ev") for p in table):
        raise LooError("threshold and ev seats need a strength table: use loo_sim.play_session, which finds one")
    seat = first_dealer(seed, session, n) if dealer is None else dealer
    balances = [0.0] * n
    carried = 0.0
    result = SessionResult(deals=[], dealers=[], balances=balances, final_pot=0.0)
    for j in range(deals):
        deck = shuffled_deck(seed, j, session)
        draws = seat_streams(seed, j, table, session)
        rec = play_deal_reference(rules, deck, seat, carried, table, draws, strength)
        result.deals.append(rec)
        result.dealers.append(seat)
        for s, net in enumerate(rec.net()):
            balances[s] += net
        result.history.append(list(balances))
        if result.inexact_from is None and (not rec.exact or max(map(abs, balances)) > EXACT_LIMIT):
            result.inexact_from = j
        carried = rec.pot_next
        seat = (seat + 1) % n
        if rules.bankroll is not None and min(balances) < -rules.bankroll:
            result.ruined = min(range(n), key=lambda s: balances[s])
            break
        if carried > OVERFLOW_LIMIT:
            result.overflow_at = j
            break
    result.final_pot = carried
    if rules.final_pot is FinalPot.SHARE:
        for s in range(n):
            balances[s] += carried / n
    return result
