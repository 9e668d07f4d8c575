"""An independent brute force for the perfect-information solver (docs/policies.md P7).

It shares no code with ``loo_sim/engine/solver.py``. The rules come from the reference
engine itself: the deal is set up by ``_Deal`` (deal, antes, declarations, exchange,
flushes) and every line of trick play is played out by ``_Deal.play_tricks`` and
scored by ``_Deal.score``, with the engine's ``choose_card`` replaced by a script that
replays the cards already played and then follows a list of option indices, recording
the legal cards the engine offered at each decision. The lines are enumerated like an
odometer (the last decision that has an untried option moves on, everything after it
restarts at option 0), which gives the whole game tree; backward induction over that
tree then applies max^n with P7's payoffs and tie-break (lowest power, then lowest card).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from unittest import mock

import loo_sim.engine.tricks as tricks_module
from loo_sim.engine.deal import _Deal
from loo_sim.game.policy import Policy
from loo_sim.game.ranking import TrumpState
from loo_sim.game.rules import Rules


@dataclass
class BruteResult:
    tricks: dict[int, int]  # each seat's final tricks under max^n
    card_payoffs: dict[int, tuple[float, ...]]  # the first decision's legal card -> payoff vector
    lines: int  # complete lines of play enumerated


class TooBig(Exception):
    """More lines than the caller allowed."""


def prepared_deal(rules: Rules, deck: Sequence[int], dealer: int, carried: float,
                  policies: Sequence[Policy]) -> _Deal | None:  # fmt: skip
    """The deal up to its first card, or None where no tricks are played (lone player,
    nobody, a flush)."""
    deal = _Deal(rules, deck, dealer, carried, policies, [None] * rules.players)
    deal.deal_cards(deck)
    deal.collect_antes()
    deal.declare_all()
    if deal.settle_uncontested():
        return None
    deal.exchange()
    if deal.show_flushes():
        return None
    return deal


def brute_force(rules: Rules, deck: Sequence[int], dealer: int, carried: float, policies: Sequence[Policy],
                prefix: Sequence[int], max_lines: int = 200_000) -> BruteResult:  # fmt: skip
    """max^n from the position after the cards ``prefix`` (in playing order) of the deal."""
    base = prepared_deal(rules, deck, dealer, carried, policies)
    assert base is not None, "this deal plays no tricks"
    hands0 = [list(h) for h in base.hands]
    trump0, turned0 = base.trump, base.indicator_turned
    n, seats, pot, h = rules.players, list(base.in_deal), base.pot_start, rules.hand_size
    leaves: dict[tuple[int, ...], tuple[tuple[float, ...], tuple[int, ...]]] = {}
    nodes: dict[tuple[int, ...], tuple[int, list[int], TrumpState]] = {}
    script: list[int] = []
    offered: list[tuple[list[int], TrumpState]] = []
    calls = 0

    def scripted(policy, legal, trick, ts, draw=None) -> int:
        nonlocal calls
        i, calls = calls, calls + 1
        if i < len(prefix):
            assert prefix[i] in legal
            return prefix[i]
        j = i - len(prefix)
        if j == len(script):
            script.append(0)
        offered.append((list(legal), ts))
        return legal[script[j]]

    with mock.patch.object(tricks_module, "choose_card", scripted):
        while True:
            deal = base  # reset what play_tricks and score change
            deal.hands = [list(x) for x in hands0]
            deal.trump, deal.indicator_turned = trump0, turned0
            deal.tricks, deal.tricks_won, deal.looed = [], [0] * n, []
            deal.shares, deal.penalties, deal.pot_next = [0.0] * n, [0.0] * n, 0.0
            offered.clear()
            calls = 0
            deal.play_tricks()
            deal.score()
            movers = [seat for trick in deal.tricks for seat, _ in trick.cards][len(prefix) :]
            payoff = tuple(
                pot * deal.tricks_won[s] / h if s == deal.defender else deal.shares[s] - deal.penalties[s]
                for s in seats
            )
            path = tuple(script)
            leaves[path] = (payoff, tuple(deal.tricks_won[s] for s in seats))
            for j, (legal, ts) in enumerate(offered):
                nodes.setdefault(path[:j], (movers[j], legal, ts))
            if len(leaves) > max_lines:
                raise TooBig(len(leaves))
            j = len(script) - 1
            while j >= 0 and script[j] == len(offered[j][0]) - 1:
                j -= 1
            if j < 0:
                break
            del script[j + 1 :]
            script[j] += 1

    def induct(path: tuple[int, ...]) -> tuple[tuple[float, ...], tuple[int, ...]]:
        if path in leaves:
            return leaves[path]
        seat, legal, ts = nodes[path]
        me = seats.index(seat)
        best = None
        for i in sorted(range(len(legal)), key=lambda i: (ts.power(legal[i]), legal[i])):
            got = induct(path + (i,))
            if best is None or got[0][me] > best[0][me]:  # ties keep the lower card
                best = got
        assert best is not None
        return best

    _, tricks = induct(())
    root_seat, root_legal, _ = nodes[()]
    card_payoffs = {card: induct((i,))[0] for i, card in enumerate(root_legal)}
    return BruteResult(dict(zip(seats, tricks)), card_payoffs, len(leaves))
