"""The Python API: play one deal or many, with the engine of your choice."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from loo_sim.base.errors import LooError
from loo_sim.base.rng import NO_SESSION, seat_streams
from loo_sim.engine.deal import play_deal_reference
from loo_sim.engine.session import SessionResult
from loo_sim.engine.session import play_session as engine_session
from loo_sim.game.policy import SOLVER_PLAY, Policy, parse_table
from loo_sim.game.record import DealRecord
from loo_sim.game.rules import Rules
from loo_sim.run.args import check_chart
from loo_sim.run.records import (
    DealRecords,
    chip_rows,
    deck_rows,
    play_deals_kernel,
    records_frame,
    seat_rows,
    shuffled_decks,
)
from loo_sim.run.strength import resolve_strength
from loo_sim.run.tables import resolve_tables

__all__ = ["DealRecords", "play_deal", "play_deals", "play_session", "records_frame", "shuffled_decks"]

ENGINES = ("kernel", "reference")

PolicyArg = str | Policy | Sequence[str | Policy]


def play_deal(
    rules: Rules,
    deck: str | Sequence[str | int],
    dealer: int = 0,
    carried: float = 0.0,
    policy: PolicyArg = "basic",
    *,
    seed: int = 0,
    deal_index: int = 0,
    session: int = NO_SESSION,
    strength=None,
    chart=None,
    forced=None,
    card_hook=None,
) -> DealRecord:
    """Play one deal.

    Parameters
    ----------
    rules : the rule set (``Rules.preset(...)``).
    deck : 52 cards in canonical deal order (R2): a list of card strings/ints or one
        space-separated string.
    dealer : the dealer's seat.
    carried : chips carried in from the last deal (0 = a clean pot).
    policy : one written policy for every seat, or one per seat (seat 0 first).
    seed, deal_index, session : the key of the seats' own random streams (used only by
        the play family ``random``).

    forced, card_hook : scripted declarations and cards (``engine.deal.play_deal_reference``).

    Played by the reference engine, so the record carries its ``trace`` (hands as dealt,
    the miss, exchanges) for replays.
    """
    return play_deals(rules, [deck], [dealer], [carried], policy, engine="reference", seed=seed,
                      first_index=deal_index, session=session, strength=strength, chart=chart, forced=forced,
                      card_hook=card_hook)[0]  # fmt: skip


def play_deals(
    rules: Rules,
    decks: Sequence[str | Sequence[str | int]] | np.ndarray,
    dealers: Sequence[int] | np.ndarray | None = None,
    carried: Sequence[float] | np.ndarray | None = None,
    policy: PolicyArg = "basic",
    *,
    engine: str = "kernel",
    seed: int = 0,
    first_index: int = 0,
    session: int = NO_SESSION,
    strength=None,
    chart=None,
    tables=None,
    as_frame: bool = False,
    forced=None,
    card_hook=None,
):
    """Play many independent deals; deal ``i`` uses random streams keyed by
    ``(seed, first_index + i)``. ``dealers`` and ``carried`` default to seat 0 and 0.

    ``decks``: one deck per deal, each 52 cards in canonical deal order (R2): card
    strings, ints 0..51, or one int array [N, 52] (``shuffled_decks(seed, N)`` makes the
    decks of a run; an int array is checked in one pass, which matters for big batches).

    ``engine="kernel"`` (the default, fast: the deals run in parallel on numba's threads)
    returns a :class:`~loo_sim.run.records.DealRecords`, a sequence that builds each
    ``DealRecord`` when it is read; ``engine="reference"`` (readable; its records carry a
    ``trace`` of hands, miss and exchanges) returns a list. Both hold the same records.
    ``as_frame=True`` returns ``records_frame(...)`` instead: a pandas DataFrame with one
    row per deal and seat (see ``loo_sim.run.records.records_frame`` for its columns).
    ``tables`` (path -> [information set, action] probabilities) stands in for the files
    of ``table:PATH`` seats; by default they are read.
    """
    if not isinstance(rules, Rules):
        raise LooError("rules: expected a Rules object, e.g. Rules.preset('three-card')")
    if engine not in ENGINES:
        raise LooError(f"engine {engine!r} is not available; allowed {', '.join(ENGINES)}")
    n = len(decks)
    if dealers is not None and len(dealers) != n or carried is not None and len(carried) != n:
        n_dealers = n if dealers is None else len(dealers)
        n_carried = n if carried is None else len(carried)
        raise LooError(f"play_deals: {n} decks but {n_dealers} dealers and {n_carried} carried pots")
    table = parse_table(policy, rules.players)
    cards = deck_rows(decks)
    seats = np.zeros(n, dtype=np.int64) if dealers is None else seat_rows("dealer", dealers, n, rules.players)
    pots = np.zeros(n, dtype=np.float64) if carried is None else chip_rows("carried", carried, n)
    strength = resolve_strength(rules, table, strength)
    if chart is None and any(p.declare == "chart" for p in table):
        raise LooError("policy family 'chart' needs a decision chart (from loo-sim miss)")
    if chart is not None:
        chart = check_chart(chart)
    tables = resolve_tables(rules, table) if tables is None else tables
    if engine == "kernel" and (forced is not None or card_hook is not None):
        raise LooError("scripted declarations or cards (forced, card_hook) need engine='reference'")
    if engine == "kernel":
        records = play_deals_kernel(rules, cards, seats, pots, table, seed, first_index, session, strength, chart,
                                    tables)  # fmt: skip
        return records_frame(records) if as_frame else records
    out = []
    values = solver_values(rules, table)
    for i, deck in enumerate(cards.tolist()):
        draws = seat_streams(seed, first_index + i, table, session)
        out.append(play_deal_reference(rules, deck, int(seats[i]), float(pots[i]), table, draws, strength, chart,
                                       forced=forced, tables=tables, card_hook=card_hook,
                                       card_values=values))  # fmt: skip
    return records_frame(out, seats, first_index) if as_frame else out


def solver_values(rules: Rules, table: Sequence[Policy]):
    """The P7 solver the reference engine's ``perfect`` and ``pimc`` seats use: its own for
    three-card hands; for five-card hands the kernel's (``run.solver.card_values``, the same
    answers exactly, tests/test_kernel_solver.py), as the reference's takes about half a
    second a solve from the first lead and a pimc card needs N of them."""
    if rules.hand_size < 5 or not any(p.play in SOLVER_PLAY for p in table):
        return None
    from loo_sim.run.solver import card_values  # numba compiles the solver on first use

    return card_values


def play_session(rules: Rules, policy: PolicyArg = "basic", deals: int = 10, seed: int = 0, session: int = 0,
                 dealer: int | None = None, strength=None) -> SessionResult:  # fmt: skip
    """Play one session (R10) with the reference engine; ``threshold`` and ``ev`` seats read
    the strength table of ``rules`` (shipped, cached or calibrated now) unless one is given.
    See ``engine.session.play_session``."""
    table = parse_table(policy, rules.players) if isinstance(rules, Rules) else policy
    return engine_session(rules, table, deals, seed, session, dealer, resolve_strength(rules, table, strength))
