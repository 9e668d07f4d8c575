"""The sampling player's speed with inference beside without (docs/policies.md P8):
``pimc:N:infer`` (whole-layout rejection, up to 64N attempts) and ``pimc:N`` (P8's greedy
draw, up to 8N), every seat, one thread, the kernel; card decisions/s counting only the
decisions with two or more legal cards. Run by ``scripts/bench.py --solver`` (and the full
run), or on its own: ``python scripts/bench_infer.py``.

The figures that matter are the ratios, infer over plain, on the same machine and deals.
"""

from __future__ import annotations

import time
from unittest import mock

CASES = (("three-card", 5, 2000), ("five-card", 4, 300))  # preset, players, deals timed


def decision_count(rules, table: list[str], decks, dealers, counted: int) -> float:
    """Card decisions with two or more legal cards a deal, counted by the reference engine on
    the first ``counted`` deals (it makes the kernel's decisions; the kernel's P7 solver
    stands in for the reference's, for speed)."""
    from loo_sim.base.rng import seat_streams
    from loo_sim.engine import tricks as tricks_module
    from loo_sim.engine.deal import play_deal_reference
    from loo_sim.game.policy import parse_table
    from loo_sim.run.solver import card_values

    decisions = 0
    real = tricks_module.pimc_card

    def counting(pos, sight, options, *args, **kw):
        nonlocal decisions
        decisions += len(options) > 1
        return real(pos, sight, options, *args, **kw)

    policies = parse_table(table, rules.players)
    with mock.patch.object(tricks_module, "pimc_card", counting):
        for i in range(counted):
            play_deal_reference(rules, decks[i].tolist(), dealers[i], 0.0, policies, seat_streams(3, i, policies),
                                card_values=card_values)  # fmt: skip
    return decisions / counted


def infer_report(samples: int = 16, counted: int = 60, scale: float = 1.0) -> dict:
    """Deals/s and card decisions/s of ``basic/pimc:N`` and ``basic/pimc:N:infer`` at every
    seat, three-card 5 players and five-card 4 players, and their ratios."""
    from numba import set_num_threads

    from loo_sim import Rules, play_deals
    from loo_sim.run.records import shuffled_decks

    set_num_threads(1)
    report: dict = {"samples": samples}
    for preset, players, deals in CASES:
        deals = max(counted, int(deals * scale))
        rules = Rules.preset(preset, players=players)
        decks = shuffled_decks(11, deals)
        dealers = [i % players for i in range(deals)]
        row = {}
        for name in (f"pimc:{samples}", f"pimc:{samples}:infer"):
            table = [f"basic/{name}"] * players
            play_deals(rules, decks[:10], dealers[:10], policy=table, seed=3)  # compile / warm up
            start = time.perf_counter()
            play_deals(rules, decks, dealers, policy=table, seed=3)
            elapsed = time.perf_counter() - start
            per_deal = decision_count(rules, table, decks, dealers, counted)
            row[name] = {"deals": deals, "deals_per_s": deals / elapsed, "decisions_per_deal": per_deal,
                         "decisions_per_s": per_deal * deals / elapsed}  # fmt: skip
        plain, infer = row[f"pimc:{samples}"], row[f"pimc:{samples}:infer"]
        row["infer_over_plain_decisions_per_s"] = infer["decisions_per_s"] / plain["decisions_per_s"]
        report[f"{preset}-{players}"] = row
        print(f"{preset} / {players} players / every seat, one thread ({deals:,} deals):")
        for name in (f"pimc:{samples}", f"pimc:{samples}:infer"):
            r = row[name]
            print(f"  {name:16s} {r['deals_per_s']:8,.1f} deals/s  {r['decisions_per_s']:8,.1f} card decisions/s "
                  f"({r['decisions_per_deal']:.2f} a deal, counted on {counted} deals)")  # fmt: skip
        print(f"  infer / plain: {row['infer_over_plain_decisions_per_s']:.2f}x the card decisions/s")
    return report


if __name__ == "__main__":
    infer_report()
