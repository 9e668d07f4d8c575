"""Card advice at kernel speed: the same samples and the same acceptance as
``run/advise_cards.py``'s reference path, in batches of whole deals played by the kernel.

Each sampled deck (``_Facts.draw_decks``: the cards seen in their places, the rest
uniform) is played from the shuffle by ``kernel.chunks.play_rows``: the asking seat's
declaration forced, every other seat declaring by the table's policy, the cards seen
played as scripted (each checked against the hand the seat holds then in that deal:
``O_SCRIPT_BROKEN``, which is P8's consistency test), then the candidate card, then every
seat playing by ``then``. A deck is accepted when the script held and every seat declared
as seen; it is then played once more per other legal card, with the same streams, so the
cards' payoffs are paired (P4). Acceptance does not depend on the candidate: the script
and the declarations come before it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import numpy as np

from loo_sim.base.rng import MASK64
from loo_sim.game import abi as L
from loo_sim.game.decl import Decl
from loo_sim.game.policy import Policy
from loo_sim.run.advice import collect
from loo_sim.run.args import kernel_args
from loo_sim.run.strength import resolve_strength

FIRST_DECKS, MOST_DECKS = 4096, 1 << 19  # a batch of decks: the first, and the most


def batch_size(first: int) -> int:
    """The decks of the batch that starts at attempt ``first``: 4096, then doubling up to
    2^19. Both engines (this one and ``advise_cards.collect``) draw the same batches, so they
    see the same samples in the same order (tests/test_advise_cards.py compares them)."""
    return min(MOST_DECKS, max(FIRST_DECKS, first))


class _KernelPlayer:
    def __init__(self, facts, table: Sequence[Policy], then: Policy, seed: int, session: int) -> None:
        rules = facts.rules
        seats = [dataclasses.replace(p, play=then.play, samples=then.samples, infer=then.infer) for p in table]
        self.args = kernel_args(rules, seats, resolve_strength(rules, seats, None))
        self.keys = (np.uint64(seed & MASK64), np.uint64(session & MASK64))
        self.me = facts.me
        self.forced = int(Decl[facts.declarations[facts.me].upper()])
        self.carried = float(facts.carried)
        self.seen = [p.card for p in facts.walked.plays]
        self.decl = np.array([int(Decl[d.upper()]) for d in facts.declarations], dtype=np.int64)

    def play(self, decks: np.ndarray, deal_ids: np.ndarray, card: int) -> tuple[np.ndarray, np.ndarray]:
        from loo_sim.run.records import play_batch

        count = decks.shape[0]
        dealers, carried = np.zeros(count, dtype=np.int64), np.full(count, self.carried, dtype=np.float64)
        script = np.array([*self.seen, card], dtype=np.int64)
        return play_batch(self.args, self.keys, decks, dealers, carried, deal_ids, self.me, self.forced, script)

    def accepted(self, oi: np.ndarray) -> np.ndarray:
        n = self.decl.shape[0]
        keep = oi[:, L.O_SCRIPT_BROKEN] == 0
        return keep & np.all(oi[:, L.O_DECL : L.O_DECL + n] == self.decl, axis=1)

    def payoff(self, of: np.ndarray) -> np.ndarray:
        me = self.me
        return of[:, L.F_SHARES + me] - of[:, L.F_ANTES + me] - of[:, L.F_PENALTIES + me]


def collect_kernel(facts, table: Sequence[Policy], options: Sequence[int], then: Policy, seed: int, session: int,
                   precision: float, max_samples: int,
                   progress: Callable[[int, int], None] | None) -> tuple[np.ndarray, int, str]:  # fmt: skip
    """Accepted samples' payoffs [samples, cards], the deals drawn, and why it stopped."""
    player = _KernelPlayer(facts, table, then, seed, session)

    def batch(attempts: int, pay: np.ndarray) -> tuple[np.ndarray, int]:
        count = batch_size(attempts)  # both engines draw the same batches
        decks = facts.draw_decks(attempts, count, seed)
        ids = np.arange(attempts, attempts + count, dtype=np.uint64)
        oi, of = player.play(decks, ids, options[0])
        keep = player.accepted(oi)
        columns = [player.payoff(of)[keep]]
        for card in options[1:]:
            columns.append(player.payoff(player.play(decks[keep], ids[keep], card)[1]))
        return np.stack(columns, axis=1), count

    never = ("no deal of the unseen cards agrees with what was seen ({attempts:,} drawn): the declarations or the "
             "cards are not what the table's policies and the rules allow with any hands")
    return collect(batch, len(options), precision, max_samples, progress, never)
