"""The boundary between the kernel's record vectors and ``DealRecord`` objects
(``play_deals(..., engine="kernel")``)."""

from collections.abc import Sequence

import numpy as np

from loo_sim.game.cards import SUITS
from loo_sim.game.policy import Policy
from loo_sim.game.record import DealRecord, Trick
from loo_sim.game.rules import Rules
from loo_sim.kernel import abi as L
from loo_sim.kernel.deal import play_many
from loo_sim.rng import MASK64, PURPOSE_SEAT, stream_key
from loo_sim.run.args import kernel_args


def seat_key_matrix(seed: int, session: int, first_index: int, count: int, players: int) -> np.ndarray:
    """uint64 [count, players]: each seat's own stream key for deals first_index.."""
    keys = np.zeros((count, players), dtype=np.uint64)
    for i in range(count):
        for s in range(players):
            keys[i, s] = stream_key(seed, session, first_index + i, PURPOSE_SEAT + s) & MASK64
    return keys


def record_from_arrays(oi: np.ndarray, of: np.ndarray, players: int) -> DealRecord:
    n = players
    tricks = []
    m = int(oi[L.O_NIN])
    for t in range(int(oi[L.O_NTRICKS])):
        base = t * L.MAX_PLAYERS
        cards = [(int(oi[L.O_SEATS + base + k]), int(oi[L.O_CARDS + base + k])) for k in range(m)]
        tricks.append(Trick(leader=int(oi[L.O_LEADER + t]), cards=cards, winner=int(oi[L.O_WINNER + t])))
    trump = int(oi[L.O_TRUMP])
    indicator = int(oi[L.O_INDICATOR])
    flush_winner = int(oi[L.O_FLUSH_WINNER])
    return DealRecord(
        trump=SUITS[trump] if trump >= 0 else None,
        indicator=indicator if indicator >= 0 else None,
        single_pot=bool(oi[L.O_SINGLE]),
        declarations=[L.DECL_NAMES[int(oi[L.O_DECL + s])] for s in range(n)],
        tricks=tricks,
        tricks_won=[int(oi[L.O_WON + s]) for s in range(n)],
        flush_winner=flush_winner if flush_winner >= 0 else None,
        looed=[s for s in range(n) if oi[L.O_LOOED + s]],
        shares=[float(of[L.F_SHARES + s]) for s in range(n)],
        penalties=[float(of[L.F_PENALTIES + s]) for s in range(n)],
        antes=[float(of[L.F_ANTES + s]) for s in range(n)],
        pot_start=float(of[L.F_POT_START]),
        pot_next=float(of[L.F_POT_NEXT]),
    )


def play_deals_kernel(
    rules: Rules,
    decks: Sequence[Sequence[int]],
    dealers: Sequence[int],
    carried: Sequence[float],
    table: Sequence[Policy],
    seed: int,
    first_index: int,
    session: int,
    strength=None,
    chart: np.ndarray | None = None,
) -> list[DealRecord]:
    args = kernel_args(rules, table, strength, chart)
    n = rules.players
    count = len(decks)
    deck_arr = np.asarray(decks, dtype=np.int64).reshape(count, 52)
    keys = seat_key_matrix(seed, session, first_index, count, n)
    oi = np.zeros((count, L.O_LEN), dtype=np.int64)
    of = np.zeros((count, L.F_LEN), dtype=np.float64)
    play_many(*args, deck_arr, np.asarray(dealers, dtype=np.int64),
              np.asarray(carried, dtype=np.float64), keys, oi, of)  # fmt: skip
    return [record_from_arrays(oi[i], of[i], n) for i in range(count)]
