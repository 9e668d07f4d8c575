"""The boundary between the kernel's record rows and the Python API
(``play_deals(..., engine="kernel")``), built for batches of 10^5 deals and more: decks,
dealers and pots are checked as arrays, the kernel plays the deals in parallel and keys
the seats' streams itself, and the records stay rows of two arrays until they are read
(:class:`DealRecords`) or become one DataFrame (:func:`records_frame`).
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Sequence
from typing import Any, overload

import numpy as np

from loo_sim.base import checks
from loo_sim.base.rng import MASK64
from loo_sim.game import abi as L
from loo_sim.game.cards import N_CARDS, SUITS, card_str, parse_deck
from loo_sim.game.policy import Policy
from loo_sim.game.record import DealRecord, Trick
from loo_sim.game.rules import Rules
from loo_sim.run.args import kernel_args

CARD_NAMES = np.array([card_str(c) for c in range(N_CARDS)] + [None], dtype=object)  # index -1: none
TRUMP_NAMES = np.array(list(SUITS) + [None], dtype=object)
FRAME_COLUMNS = (
    "deal", "seat", "dealer", "position", "declaration", "tricks_won", "looed", "share", "ante", "penalty", "net",
    "trump", "indicator", "single_pot", "flush_winner", "pot_start", "pot_next",
)  # fmt: skip


# ---- checking a batch's inputs as arrays -------------------------------------------------------
def deck_rows(decks: Any) -> np.ndarray:
    """int64 [N, 52]: the decks in canonical deal order (R2), each checked to hold every
    card once. An integer array (or nested lists of ints) is checked in one pass; any
    other form (card strings, one string a deck) is parsed deck by deck, and any deck
    that fails is parsed again to raise the same error as ``parse_deck``."""
    if not isinstance(decks, str) and len(decks) == 0:
        return np.zeros((0, N_CARDS), dtype=np.int64)
    rows = None
    if not isinstance(decks, str):
        try:
            arr = np.asarray(decks)
        except (ValueError, TypeError):  # ragged, or objects numpy cannot hold
            arr = None
        if arr is not None and np.issubdtype(arr.dtype, np.integer):
            if arr.ndim == 2 and arr.shape[1] == N_CARDS:
                rows = arr.astype(np.int64, copy=True)
            else:
                decks = arr.tolist()  # Python ints: parse_deck says what is wrong
    if rows is None:
        return np.array([parse_deck(d) for d in decks], dtype=np.int64).reshape(-1, N_CARDS)
    bad = ((rows < 0) | (rows >= N_CARDS)).any(axis=1)
    bad[~bad] = (np.sort(rows[~bad], axis=1) != np.arange(N_CARDS)).any(axis=1)
    if bad.any():
        parse_deck(rows[int(np.argmax(bad))].tolist())  # raises the error of that deck
    return rows


def seat_rows(name: str, values: Any, count: int, players: int) -> np.ndarray:
    """int64 [count]: seat numbers 0..players-1 (as ``checks.seat`` for each)."""
    arr = np.asarray(values) if not isinstance(values, np.ndarray) else values
    if arr.shape == (count,) and np.issubdtype(arr.dtype, np.integer) and (count == 0 or (
            arr.min() >= 0 and arr.max() < players)):  # fmt: skip
        return arr.astype(np.int64)
    items = values.tolist() if isinstance(values, np.ndarray) else values  # Python numbers in the messages
    return np.array([checks.seat(name, v, players) for v in items], dtype=np.int64)


def chip_rows(name: str, values: Any, count: int) -> np.ndarray:
    """float64 [count]: finite amounts of chips >= 0 (as ``checks.chips`` for each)."""
    arr = np.asarray(values) if not isinstance(values, np.ndarray) else values
    if arr.shape == (count,) and arr.dtype.kind in "iuf":
        out = arr.astype(np.float64)
        if np.isfinite(out).all() and (out >= 0).all():
            return out
    items = values.tolist() if isinstance(values, np.ndarray) else values
    return np.array([checks.chips(name, v) for v in items], dtype=np.float64)


# ---- the kernel batch ------------------------------------------------------------------------
NO_SCRIPT = np.zeros(0, dtype=np.int64)  # play_rows: no card scripted


def play_batch(args, keys: tuple, decks: np.ndarray, dealers: np.ndarray, carried: np.ndarray,
               deal_ids: np.ndarray, forced_seat: int = L.NO_FORCING, forced_action: int = 0,
               script: np.ndarray = NO_SCRIPT) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Decks [N, 52] played by ``kernel.chunks.play_rows`` on all numba threads, block by
    block: the records' rows (oi, of). ``args``: kernel_args; ``keys``: (seed, session) as
    uint64; deal i's seat streams keyed by ``deal_ids[i]``; ``forced_seat`` declares
    ``forced_action`` in every deal, and every deal's first cards are ``script``'s."""
    from loo_sim.base.config import BLOCK
    from loo_sim.kernel.chunks import play_rows  # numba compiles on first use
    from loo_sim.run.tasks import each_block

    count = decks.shape[0]
    oi = np.empty((count, L.O_LEN), dtype=np.int64)
    of = np.empty((count, L.F_LEN), dtype=np.float64)
    decks = np.ascontiguousarray(decks, dtype=np.int64)

    def block(b: int) -> None:  # deals b*BLOCK.. of the batch, each row depending on its deal alone
        lo = b * BLOCK
        play_rows(*args, decks, dealers, carried, *keys, deal_ids, lo, min(lo + BLOCK, count), forced_seat,
                  forced_action, script, oi, of)  # fmt: skip

    each_block(block, (count + BLOCK - 1) // BLOCK, play_rows)
    return oi, of


def play_deals_kernel(
    rules: Rules,
    decks: np.ndarray,
    dealers: np.ndarray,
    carried: np.ndarray,
    table: Sequence[Policy],
    seed: int,
    first_index: int,
    session: int,
    strength=None,
    chart: np.ndarray | None = None,
    tables=None,
) -> DealRecords:
    """Play checked decks [N, 52] with the kernel (all numba threads); the records, built
    when read. Seat s's own stream in deal i is keyed (seed, session, first_index + i).
    ``tables``: the strategy tables of table seats (path -> probabilities; read when None)."""
    args = kernel_args(rules, table, strength, chart, tables)
    count = decks.shape[0]
    u64 = np.uint64
    keys = (u64(seed & MASK64), u64(session & MASK64))
    deal_ids = np.arange(count, dtype=np.uint64) + u64(first_index & MASK64)  # wraps past 2**64, as the kernel's
    oi, of = play_batch(args, keys, decks, dealers, carried, deal_ids)
    return DealRecords(oi, of, rules.players, dealers, np.arange(count, dtype=np.int64) + first_index)


def shuffled_decks(seed: int, count: int, first: int = 0, session: int = (1 << 64) - 1) -> np.ndarray:
    """int64 [count, 52]: row i is ``rng.shuffled_deck(seed, first + i, session)``, the
    deck of deal first + i of a run with this seed (and of ``simulate``'s run, with the
    default session), shuffled by the kernel in parallel."""
    from loo_sim.kernel.chunks import shuffle_many

    count = checks.whole_number("count", count, 0)
    out = np.empty((count, N_CARDS), dtype=np.int64)
    shuffle_many(np.uint64(seed & MASK64), np.uint64(session & MASK64), np.uint64(first & MASK64), out)
    return out


def record_from_arrays(oi: np.ndarray, of: np.ndarray, players: int) -> DealRecord:
    """The ``DealRecord`` of one kernel record row (``abi.O_*`` ints, ``abi.F_*`` floats)."""
    n = players
    o = oi.tolist()  # Python ints in one call: much faster than indexing the array slot by slot
    f = of.tolist()
    m = o[L.O_NIN]
    tricks = []
    for t in range(o[L.O_NTRICKS]):
        base = t * L.MAX_PLAYERS
        seats = o[L.O_SEATS + base : L.O_SEATS + base + m]
        cards = o[L.O_CARDS + base : L.O_CARDS + base + m]
        tricks.append(Trick(leader=o[L.O_LEADER + t], cards=list(zip(seats, cards)), winner=o[L.O_WINNER + t]))
    trump = o[L.O_TRUMP]
    indicator = o[L.O_INDICATOR]
    flush_winner = o[L.O_FLUSH_WINNER]
    looed = o[L.O_LOOED : L.O_LOOED + n]
    return DealRecord(
        trump=SUITS[trump] if trump >= 0 else None,
        indicator=indicator if indicator >= 0 else None,
        single_pot=bool(o[L.O_SINGLE]),
        declarations=[L.DECL_NAMES[d] for d in o[L.O_DECL : L.O_DECL + n]],
        tricks=tricks,
        tricks_won=o[L.O_WON : L.O_WON + n],
        flush_winner=flush_winner if flush_winner >= 0 else None,
        looed=[s for s in range(n) if looed[s]],
        shares=f[L.F_SHARES : L.F_SHARES + n],
        penalties=f[L.F_PENALTIES : L.F_PENALTIES + n],
        antes=f[L.F_ANTES : L.F_ANTES + n],
        pot_start=f[L.F_POT_START],
        pot_next=f[L.F_POT_NEXT],
    )


class DealRecords(Sequence[DealRecord]):
    """The records of a kernel batch (``play_deals``): a read-only sequence of
    ``DealRecord`` that keeps the kernel's rows and builds a record each time one is read
    (``recs[i]``, iteration, slices give another ``DealRecords``), so a batch of 10^6 deals
    costs two arrays, not 10^6 objects. ``frame()`` is ``records_frame(recs)``. It compares
    equal to a list of the same records; ``list(recs)`` makes the list."""

    def __init__(self, oi: np.ndarray, of: np.ndarray, players: int, dealers: np.ndarray, deals: np.ndarray):
        self._oi, self._of = oi, of
        self.players = players
        self.dealers = dealers  # int64 [N]: each deal's dealer
        self.deals = deals  # int64 [N]: each deal's index (first_index + i): its streams' key

    def __len__(self) -> int:
        return self._oi.shape[0]

    @overload
    def __getitem__(self, i: int) -> DealRecord: ...

    @overload
    def __getitem__(self, i: slice) -> DealRecords: ...

    def __getitem__(self, i):
        if isinstance(i, slice):
            return DealRecords(self._oi[i], self._of[i], self.players, self.dealers[i], self.deals[i])
        k = operator.index(i)
        if k < 0:
            k += len(self)
        if not 0 <= k < len(self):
            raise IndexError(f"deal {i} of a batch of {len(self)}")
        return record_from_arrays(self._oi[k], self._of[k], self.players)

    def __iter__(self) -> Iterator[DealRecord]:
        for k in range(len(self)):
            yield record_from_arrays(self._oi[k], self._of[k], self.players)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DealRecords | list | tuple):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  (a sequence compared by value)

    def __repr__(self) -> str:
        return f"<DealRecords: {len(self):,} deals at {self.players} seats; .frame() for a DataFrame>"

    def frame(self):
        """The DataFrame of :func:`records_frame`."""
        return records_frame(self)


# ---- one DataFrame of records --------------------------------------------------------------------
def records_frame(records: Sequence[DealRecord], dealers: Sequence[int] | None = None, first_index: int = 0):
    """A pandas DataFrame of deal records, **one row per deal and seat** (deal-major,
    seat 0 first), so that a seat's outcomes group and filter directly
    (``df.groupby("position").net.mean()``, ``df[df.declaration == "miss"].looed.mean()``).

    Columns: ``deal`` (first_index + the record's place; for a ``DealRecords`` batch, the
    deal index its streams were keyed by), ``seat``, ``dealer`` and ``position`` (1 = the
    dealer's left ... players = the dealer; both left out when the dealers are unknown:
    give ``dealers``, or records of the reference engine carry theirs), the seat's
    ``declaration`` (pass, play, miss, defend), ``tricks_won``, ``looed`` (bool),
    ``share``, ``ante``, ``penalty`` and ``net`` (= share - ante - penalty, P4), and the
    deal's ``trump`` (suit letter, None while unknown), ``indicator`` (card, None when not
    turned), ``single_pot``, ``flush_winner`` (nullable Int64), ``pot_start`` and
    ``pot_next``, repeated on each seat's row. The tricks' cards are not in the frame
    (read ``records[i].tricks``).

    A ``DealRecords`` batch (``play_deals`` with the kernel) becomes a frame straight
    from its arrays, without building a record; any other sequence is read record by record.
    """
    import pandas as pd

    if isinstance(records, DealRecords):
        return _frame_of_rows(records, pd)
    recs = list(records)
    n_deals = len(recs)
    players = len(recs[0].declarations) if recs else 0
    if dealers is None and recs and all(r.trace is not None for r in recs):
        dealers = [r.trace.dealer for r in recs]
    looed = np.zeros((n_deals, players), dtype=bool)
    for i, r in enumerate(recs):
        looed[i, r.looed] = True
    cols = {
        "declarations": np.array([r.declarations for r in recs], dtype=object).reshape(n_deals, players),
        "tricks_won": np.array([r.tricks_won for r in recs], dtype=np.int64).reshape(n_deals, players),
        "looed": looed,
        "shares": np.array([r.shares for r in recs], dtype=np.float64).reshape(n_deals, players),
        "antes": np.array([r.antes for r in recs], dtype=np.float64).reshape(n_deals, players),
        "penalties": np.array([r.penalties for r in recs], dtype=np.float64).reshape(n_deals, players),
    }
    per_deal = {
        "trump": np.array([r.trump for r in recs], dtype=object),
        "indicator": np.array([None if r.indicator is None else card_str(r.indicator) for r in recs], dtype=object),
        "single_pot": np.array([r.single_pot for r in recs], dtype=bool),
        "flush_winner": np.array([-1 if r.flush_winner is None else r.flush_winner for r in recs], dtype=np.int64),
        "pot_start": np.array([r.pot_start for r in recs], dtype=np.float64),
        "pot_next": np.array([r.pot_next for r in recs], dtype=np.float64),
    }
    deals = np.arange(n_deals, dtype=np.int64) + first_index
    dealer_arr = None if dealers is None else np.asarray(dealers, dtype=np.int64)
    return _assemble(pd, deals, players, dealer_arr, cols, per_deal)


def _frame_of_rows(recs: DealRecords, pd):
    oi, of, n = recs._oi, recs._of, recs.players
    decl = oi[:, L.O_DECL : L.O_DECL + n]
    cols = {
        "declarations": np.asarray(L.DECL_NAMES, dtype=object)[decl],
        "tricks_won": oi[:, L.O_WON : L.O_WON + n],
        "looed": oi[:, L.O_LOOED : L.O_LOOED + n].astype(bool),
        "shares": of[:, L.F_SHARES : L.F_SHARES + n],
        "antes": of[:, L.F_ANTES : L.F_ANTES + n],
        "penalties": of[:, L.F_PENALTIES : L.F_PENALTIES + n],
    }
    per_deal = {
        "trump": TRUMP_NAMES[oi[:, L.O_TRUMP]],
        "indicator": CARD_NAMES[oi[:, L.O_INDICATOR]],
        "single_pot": oi[:, L.O_SINGLE].astype(bool),
        "flush_winner": oi[:, L.O_FLUSH_WINNER],
        "pot_start": of[:, L.F_POT_START],
        "pot_next": of[:, L.F_POT_NEXT],
    }
    return _assemble(pd, recs.deals, n, recs.dealers, cols, per_deal)


def _assemble(pd, deals: np.ndarray, n: int, dealers: np.ndarray | None, cols: dict, per_deal: dict):
    """The frame from [deal, seat] arrays (``cols``) and [deal] arrays (``per_deal``)."""
    n_deals = len(deals)
    seat = np.tile(np.arange(n, dtype=np.int64), n_deals)
    data: dict[str, Any] = {"deal": np.repeat(deals, n), "seat": seat}
    if dealers is not None:
        dealer = np.repeat(dealers, n)
        data["dealer"] = dealer
        data["position"] = (seat - dealer - 1) % n + 1  # 1 = the dealer's left ... n = the dealer
    shares, antes, penalties = (cols[k].reshape(-1) for k in ("shares", "antes", "penalties"))
    data.update(
        declaration=pd.Categorical(cols["declarations"].reshape(-1), categories=list(L.DECL_NAMES)),
        tricks_won=cols["tricks_won"].reshape(-1),
        looed=cols["looed"].reshape(-1),
        share=shares,
        ante=antes,
        penalty=penalties,
        net=shares - antes - penalties,
    )
    flush = per_deal["flush_winner"]
    data.update(
        trump=np.repeat(per_deal["trump"], n),
        indicator=np.repeat(per_deal["indicator"], n),
        single_pot=np.repeat(per_deal["single_pot"], n),
        flush_winner=pd.arrays.IntegerArray(np.repeat(flush, n), mask=np.repeat(flush, n) < 0),
        pot_start=np.repeat(per_deal["pot_start"], n),
        pot_next=np.repeat(per_deal["pot_next"], n),
    )
    return pd.DataFrame(data)
