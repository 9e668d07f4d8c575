"""Benchmarks of the perfect-information solver (docs/policies.md P7) and of the solver
families (P8), for scripts/bench.py (``--solver``). Figures are ratios measured in one run,
on one core: the machine is shared, so every before / after pair is timed in turns, in
the same process, and the best round of each kept, and each round's ratio (their median is
the steadier figure where the clock drifts); the time is the process's CPU time
(``time.process_time``), which the other work on the machine does not stretch the way
it does the wall clock (a rate is per CPU second).

- ``solver_report``: solves/s from the first lead, five seats in the deal, three-card and
  five-card: the kernel (kernel/solver.py) with every shortcut, the same kernel with the
  newer ones turned off (``OLD_SEARCH``: shallow pruning, the table's key on tricks won or
  not and on ranks, the follower's cut, the table across solves, the endgame of the last
  two tricks, the tricks lost to another seat's higher trumps, the forced followers
  without frames, the last trick judged from its mask, speculative pruning, a card searched
  again resumed, the rows of the third trick from the end, the table's slot reached by
  every bit of its key), each shortcut alone turned off, the old search with the new
  slot, the recursive twin, and the reference (engine/solver.py); nodes a solve of each;
  the table's size and the slots one solve fills.
- ``pimc_ladder_report``: deals/s of a card-play ladder (run/ladder.py) with a ``pimc:32``
  entrant at a five-card table of 4 (every position), before and after, and the ladder's
  sums equal in both (the same decisions, the same streams).
- ``pimc_solves_by_trick``: pimc's solve of one sample, before and after, by the trick of
  the decision (five-card, 4 seats): where the ladder's time goes.
- ``pimc_report``: pimc:16 at every seat of a three-card table of 5: deals/s and card
  decisions/s.

``warm_in_child`` compiles these kernels in a child process first, so that the process
timing them loads them from numba's cache, as every run after the first does. A process
that compiled the solver itself ran its new search 25-30% slower than one that loaded the
same kernel from the cache (three-card first leads on a Zen 5: 205,000-209,000 solves/s
against 268,000-287,000, two pairs of runs), and its old search 3-10% slower, so the
ratios moved with whether the cache was filled (three-card 2.40-2.50x against 2.97-3.08x).
"""

from __future__ import annotations

import contextlib
import io
import statistics
import subprocess
import sys
import time


def warm_in_child() -> None:
    """Compile the kernels this module times in a child process (module docstring)."""
    subprocess.run([sys.executable, __file__, "--warm"], check=True)


def _warm() -> None:
    """Every kernel of this module's reports, on a few inputs, the output discarded."""
    from bench_before import before_report  # scripts/bench_before.py, beside this file
    from bench_infer import infer_report

    with contextlib.redirect_stdout(io.StringIO()):
        before_report(scale=0.01, ladder_deals=1)
        solver_rates(solver_first_leads("three-card", 4), 1, 1)
        pimc_ladder_report(deals=1, samples=2)
        pimc_solves_by_trick(deals=2, rounds=1)
        pimc_report(deals=25, counted=5, samples=2)
        infer_report(samples=2, counted=2, scale=0.001)


def solver_first_leads(preset: str, count: int, seed: int = 1, players: int | None = None) -> list:
    """``count`` perfect-information positions at the first lead, every seat in the deal
    (every seat declares ``always``), from reference deals of ``preset``."""
    import random

    from loo_sim import Rules
    from loo_sim.engine.deal import reference_positions
    from loo_sim.game.policy import Policy

    rules = Rules.preset(preset) if players is None else Rules.preset(preset, players=players)
    rng, out = random.Random(seed), []
    policies = [Policy.parse("always")] * rules.players
    while len(out) < count:
        deck = list(range(52))
        rng.shuffle(deck)
        positions, _ = reference_positions(rules, deck, len(out) % rules.players, 0.0, policies)
        if positions and len(positions[0].seats) == rules.players:
            out.append(positions[0])
    return out


def _timed_in_turns(runs: dict, rounds: int, turns: list | None = None) -> dict:
    """CPU seconds of the best of ``rounds`` turns of each run (name -> callable), taken in
    turns; each round's seconds (name -> seconds) appended to ``turns`` when given."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        this = {}
        for name, run in runs.items():
            start = time.process_time()
            run()
            this[name] = time.process_time() - start
            best[name] = min(best[name], this[name])
        if turns is not None:
            turns.append(this)
    return best


def solver_rates(positions: list, ref_count: int, rounds: int = 3) -> dict:
    """Solves/s from ``positions`` on one core (module docstring); the kernel's answers
    checked against the reference's on the first ``ref_count``, and the old search's and
    every variant's against the new one's on all."""
    import numpy as np
    from numba import set_num_threads

    from loo_sim.engine.solver import best_card, solve
    from loo_sim.kernel import solver as K
    from loo_sim.kernel.bits import POS
    from loo_sim.kernel.solver_recursive import solve_many_recursive
    from loo_sim.kernel.solver_table import OLD_TT_BITS, TT_BITS
    from loo_sim.run.args import rules_arrays
    from loo_sim.run.solver import encode_position

    set_num_threads(1)
    ref = positions[:ref_count]
    start = time.process_time()
    tricks = [solve(pos) for pos in ref]
    ref_rate = ref_count / (time.process_time() - start)
    expected = list(zip(tricks, [best_card(pos) for pos in ref], strict=True))
    encoded = [encode_position(pos) for pos in positions]
    pis, pfs = np.array([e[0] for e in encoded]), np.array([e[1] for e in encoded])
    ri, _ = rules_arrays(positions[0].rules)
    variants = {"new": 0, "old_search": K.OLD_SEARCH, "no_shallow": K.NO_SHALLOW, "no_future": K.NO_FUTURE,
                "no_ranks": K.NO_RANKS, "no_upper": K.NO_UPPER, "no_endgame": K.NO_ENDGAME, "no_merge": K.NO_MERGE,
                "no_tt": K.NO_TT, "no_cut": K.NO_CUT, "no_trumps": K.NO_TRUMPS,
                "no_forced": K.NO_FORCED, "no_masked": K.NO_MASKED, "no_spec": K.NO_SPEC,
                "no_resume": K.NO_RESUME, "no_three": K.NO_THREE, "no_mix": K.NO_MIX,
                "old_search_mixed": K.OLD_SEARCH & ~K.NO_MIX}  # fmt: skip
    outs = {name: np.zeros((len(positions), 3), dtype=np.int64) for name in [*variants, "recursive"]}
    old = {"old_search", "old_search_mixed", "recursive"}  # the old search with its table's size then
    spaces = {name: K.workspace(OLD_TT_BITS if name in old else TT_BITS) for name in outs}

    def run(name: str, flags: int, many=K.solve_many):
        spaces[name][1][K.ST_FLAGS] = flags
        return lambda: many(pis, pfs, ri, *spaces[name], outs[name])

    runs = {name: run(name, flags) for name, flags in variants.items()}
    runs["recursive"] = run("recursive", K.OLD_SEARCH, solve_many_recursive)
    for go in runs.values():  # compile / warm up
        go()
    turns: list = []
    main = _timed_in_turns({k: runs[k] for k in ("new", "old_search")}, rounds, turns)
    others = _timed_in_turns({k: v for k, v in runs.items() if k not in main}, 1)
    new = outs["new"]
    for j, (tricks, card) in enumerate(expected):
        seats = positions[j].seats
        assert dict(zip(seats, K.counts(new[j, 0], len(seats)), strict=True)) == tricks, "kernel != reference"
        assert new[j, 1] == POS[card], "kernel best card != reference"
    for name, out in outs.items():
        assert (out[:, :2] == new[:, :2]).all(), f"{name} != new"
    tt = spaces["new"][0]
    filled = int((tt[:, K.TT_GEN] == spaces["new"][1][K.ST_GEN]).sum())  # the last solve's entries
    rates = {name: len(positions) / s for name, s in {**main, **others}.items()}
    new_rate, old_rate = rates["new"], rates["old_search"]
    return {"positions": len(positions), "reference_solves_per_s": ref_rate,
            **{f"kernel_{k}_solves_per_s": v for k, v in rates.items()},
            "new_over_old_search": new_rate / old_rate, "kernel_over_reference": new_rate / ref_rate,
            # a round's old over new seconds: a clock that drifts between rounds cancels within one
            "new_over_old_search_rounds": sorted(t["old_search"] / t["new"] for t in turns),
            "nodes_per_solve_new": float(new[:, 2].mean()),
            "nodes_per_solve_old_search": float(outs["old_search"][:, 2].mean()),
            **{f"nodes_per_solve_{k}": float(v[:, 2].mean()) for k, v in outs.items() if k not in main},
            "table_mb": tt.nbytes / 2**20, "table_slots": tt.shape[0],
            "table_slots_filled_last_solve": filled}  # fmt: skip


def solver_report(scale: float = 1.0) -> dict:
    """The perfect-information solver (P7) on one core, five seats in the deal, from the first
    lead: three-card and five-card, the new search beside the old and the reference."""
    report = {}
    for preset, count, ref_count, rounds in (("three-card", int(4000 * scale), 300, 15),
                                             ("five-card", int(300 * scale), 3, 7)):  # fmt: skip
        r = solver_rates(solver_first_leads(preset, count), min(ref_count, count), rounds)
        report[preset] = r
        print(f"perfect-information solver, {preset} / 5 players / from the first lead, one core, per CPU second:")
        new, old = r["kernel_new_solves_per_s"], r["kernel_old_search_solves_per_s"]
        print(f"  kernel      {new:12,.0f} solves/s   ({r['nodes_per_solve_new']:,.0f} nodes a "
              f"solve, {r['positions']:,} positions, best of {rounds})")  # fmt: skip
        rounds_ratio = r["new_over_old_search_rounds"]
        print(f"  old search  {old:12,.0f} solves/s   ({r['nodes_per_solve_old_search']:,.0f}"
              f" nodes a solve; new / old = {r['new_over_old_search']:.2f}x, the same answers)")  # fmt: skip
        print(f"  new / old in each round, taken in turns: median {statistics.median(rounds_ratio):.2f}x "
              f"(from {rounds_ratio[0]:.2f} to {rounds_ratio[-1]:.2f})")  # fmt: skip
        print(f"  reference   {r['reference_solves_per_s']:12,.1f} solves/s   (kernel / reference = "
              f"{r['kernel_over_reference']:,.0f}x; same answers on {min(ref_count, count)} positions)")  # fmt: skip
        alone = ", ".join(f"{k[7:-13]} {v:,.0f}" for k, v in r.items() if k.startswith("kernel_no_"))
        print(f"  each shortcut turned off alone (solves/s): {alone}; recursive (old search) "
              f"{r['kernel_recursive_solves_per_s']:,.0f}")  # fmt: skip
        nodes = ", ".join(f"{k[16:]} {v:,.0f}" for k, v in r.items() if k.startswith("nodes_per_solve_no_"))
        print(f"  nodes a solve, each turned off alone: {nodes}")
        print(f"  the old search with the slot of the new (every bit of the key reaching it, NO_MIX off): "
              f"{r['kernel_old_search_mixed_solves_per_s']:,.0f} solves/s, "
              f"{r['nodes_per_solve_old_search_mixed']:,.0f} nodes a solve")  # fmt: skip
        print(f"  table {r['table_mb']:.1f} MB ({r['table_slots']:,} slots; the last solve filled "
              f"{r['table_slots_filled_last_solve']:,})")  # fmt: skip
    return report


def pimc_ladder_report(deals: int = 200, samples: int = 32, players: int = 4) -> dict:
    """A card-play ladder, five-card, ``players`` seats, one ``pimc:N`` entrant in every
    position at a basic table, one thread: deals/s with the solver's newer shortcuts and
    with them turned off (the solver slot's second value, kernel/cardplay.py), in turns;
    the ladder's sums must be equal."""
    from unittest import mock

    import numpy as np
    from numba import set_num_threads

    from loo_sim import Rules
    from loo_sim.game import abi as L
    from loo_sim.game.policy import Policy
    from loo_sim.kernel import solver as K
    from loo_sim.run import args as args_module
    from loo_sim.run.ladder import run_ladder, with_play

    set_num_threads(1)
    rules = Rules.preset("five-card", players=players)
    table = [Policy.parse("basic")] * players
    entrant = with_play(table[0], f"pimc:{samples}")
    sums, seconds = {}, {}
    for flags, name in ((K.OLD_SEARCH, "old_search"), (0, "new"), (K.OLD_SEARCH, "old_search"), (0, "new")):
        marker = np.array([L.SOLVER_TT_BITS, flags], dtype=np.int64)
        with mock.patch.object(args_module, "solver_marker", lambda tables, m=marker: m):
            run_ladder(rules, table, [entrant], deals=1, seed=5)  # compile / warm up
            start = time.process_time()
            res = run_ladder(rules, table, [entrant], deals=deals, seed=1)
            seconds[name] = min(seconds.get(name, float("inf")), time.process_time() - start)
        assert name not in sums or (sums[name] == res.sums).all()
        sums[name] = res.sums
    assert (sums["new"] == sums["old_search"]).all(), "the ladder's sums differ: the decisions changed"
    rates = {k: deals / v for k, v in seconds.items()}
    print(
        f"pimc:{samples} ladder, five-card / {players} players, one entrant in every position, one thread, "
        "per CPU second:"
    )
    print(f"  {rates['new']:,.3f} deals/s, old search {rates['old_search']:,.3f} deals/s "
          f"(new / old = {rates['new'] / rates['old_search']:.2f}x; {deals} deals, the same sums)")  # fmt: skip
    return {"deals": deals, "samples": samples, "players": players, "new_deals_per_s": rates["new"],
            "old_search_deals_per_s": rates["old_search"],
            "new_over_old_search": rates["new"] / rates["old_search"]}  # fmt: skip


def _every_card_rates(pis, pfs, ri, rounds: int) -> dict | None:
    """One trick's positions solved as ``card_values`` by the new search and the old one in
    turns: microseconds and nodes a solve of those with two or more legal cards."""
    import numpy as np

    from loo_sim.kernel import solver as K
    from loo_sim.kernel.solver_table import OLD_TT_BITS

    spaces = {"new": K.workspace(), "old_search": K.workspace(OLD_TT_BITS)}
    spaces["old_search"][1][K.ST_FLAGS] = K.OLD_SEARCH
    out = np.zeros((len(pis), 3), dtype=np.int64)
    K.solve_many(pis, pfs, ri, *spaces["new"], out, True)
    many = out[:, 1] >= 2
    if not many.any():
        return None
    pis, pfs = pis[many], pfs[many]
    outs = {name: np.zeros((len(pis), 3), dtype=np.int64) for name in spaces}

    def run(name: str):
        return lambda: K.solve_many(pis, pfs, ri, *spaces[name], outs[name], True)

    runs = {name: run(name) for name in spaces}
    for go in runs.values():  # warm up
        go()
    seconds = _timed_in_turns(runs, rounds)
    assert (outs["new"][:, :2] == outs["old_search"][:, :2]).all(), "the values differ"
    # the card P7 plays alone, every prune against the root: the most any pruning across a
    # decision's cards could save pimc (its sums need each card's exact value in each sample)
    played = np.zeros((len(pis), 3), dtype=np.int64)
    K.solve_many(pis, pfs, ri, *spaces["new"], played)
    return {"positions": len(pis), "new_seconds": seconds["new"],
            **{f"{k}_us": v * 1e6 / len(pis) for k, v in seconds.items()},
            **{f"{k}_nodes": float(o[:, 2].mean()) for k, o in outs.items()},
            "played_card_nodes": float(played[:, 2].mean())}  # fmt: skip


def pimc_solves_by_trick(players: int = 4, deals: int = 400, rounds: int = 3) -> dict:
    """pimc's solve of one sample (``card_values``, every legal card's value) from the
    positions of ``deals`` five-card deals played by ``basic`` at ``players`` seats, those
    with two or more legal cards (a single one is played without a solve), by the trick of
    the decision: the new search beside the old one (one core, in turns), the same values.
    Where a ladder's time goes, and what each trick's solves gain."""
    import random

    import numpy as np
    from numba import set_num_threads

    from loo_sim import Rules
    from loo_sim.engine.deal import reference_positions
    from loo_sim.game.policy import Policy
    from loo_sim.run.args import rules_arrays
    from loo_sim.run.solver import encode_position

    set_num_threads(1)
    rules = Rules.preset("five-card", players=players)
    ri, _ = rules_arrays(rules)
    rng, by_trick = random.Random(7), {}
    for deal in range(deals):
        deck = list(range(52))
        rng.shuffle(deck)
        positions, _ = reference_positions(rules, deck, deal % players, 0.0, [Policy.parse("basic")] * players)
        for pos in positions:
            by_trick.setdefault(pos.trick_index, []).append(encode_position(pos))
    rows = {}
    for tix, encoded in sorted(by_trick.items()):
        pis, pfs = np.array([e[0] for e in encoded]), np.array([e[1] for e in encoded])
        row = _every_card_rates(pis, pfs, ri, rounds)
        if row is not None:
            rows[tix + 1] = row
    total = sum(r["new_seconds"] for r in rows.values())
    print(f"pimc's solve of a sample (card_values), five-card / {players} players, positions of {deals} deals of "
          "basic play with two or more legal cards, one core, per CPU second:")  # fmt: skip
    for trick, r in rows.items():
        ratio = r["old_search_us"] / r["new_us"]
        print(f"  trick {trick}: {r['positions']:,} positions, {r['new_us']:7.1f} us a solve ({r['new_nodes']:,.0f} "
              f"nodes), old search {r['old_search_us']:7.1f} us ({r['old_search_nodes']:,.0f}): {ratio:.2f}x; "
              f"{r['new_seconds'] / total:.0%} of the new search's time; the played card alone "
              f"{r['played_card_nodes']:,.0f} nodes")  # fmt: skip
    return rows


def pimc_report(deals: int = 2000, counted: int = 200, samples: int = 16) -> dict:
    """The sampling player (P8) on one thread, three-card, 5 players, every seat on
    ``basic/pimc:N``: deals/s of the kernel, and card decisions/s, counting only the
    decisions with two or more legal cards (a single legal card is played without a
    solve). The decisions are counted by the reference engine on the first ``counted``
    deals (it makes the same decisions; the kernel's P7 solver stands in for the
    reference's, for speed) and scaled to the run."""
    from unittest import mock

    from numba import set_num_threads

    from loo_sim import Rules, play_deals
    from loo_sim.engine import tricks as tricks_module
    from loo_sim.run.records import shuffled_decks
    from loo_sim.run.solver import card_values

    set_num_threads(1)
    rules = Rules.preset("three-card", players=5)
    table = [f"basic/pimc:{samples}"] * 5
    decks = shuffled_decks(11, deals)
    dealers = [i % 5 for i in range(deals)]
    play_deals(rules, decks[:20], dealers[:20], policy=table, seed=3)  # compile / warm up, both kinds
    play_deals(rules, decks[:20], dealers[:20], policy="basic", seed=3)
    start = time.process_time()
    play_deals(rules, decks, dealers, policy=table, seed=3)
    elapsed = time.process_time() - start
    start = time.process_time()
    play_deals(rules, decks, dealers, policy="basic", seed=3)
    basic_s = time.process_time() - start
    decisions = 0
    real = tricks_module.pimc_card

    def counting(pos, sight, options, *args, **kw):
        nonlocal decisions
        decisions += len(options) > 1
        return real(pos, sight, options, *args, **kw)

    with mock.patch.object(tricks_module, "pimc_card", counting):
        from loo_sim.base.rng import seat_streams
        from loo_sim.engine.deal import play_deal_reference
        from loo_sim.game.policy import parse_table

        policies = parse_table(table, 5)
        for i in range(counted):
            play_deal_reference(rules, decks[i].tolist(), dealers[i], 0.0, policies, seat_streams(3, i, policies),
                                card_values=card_values)  # fmt: skip
    per_deal = decisions / counted
    rate = per_deal * deals / elapsed
    print(f"pimc:{samples}, three-card / 5 players / every seat, one thread, per CPU second:")
    print(f"  {deals / elapsed:,.0f} deals/s ({deals:,} deals; basic at the same table {deals / basic_s:,.0f} deals/s)")
    print(f"  {rate:,.0f} card decisions/s with two or more legal cards ({per_deal:.2f} a deal, counted on "
          f"{counted} deals), all of the run's time charged to them")  # fmt: skip
    return {"samples": samples, "deals": deals, "deals_per_s": deals / elapsed, "basic_deals_per_s": deals / basic_s,
            "decisions_per_deal": per_deal, "decisions_per_s": rate}  # fmt: skip


if __name__ == "__main__" and sys.argv[1:] == ["--warm"]:
    _warm()
