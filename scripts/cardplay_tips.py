"""The seeds' card-play tip on heading the trick, measured (issue #15 item 4).

"A 7 that is your highest card in a suit will often be forced under an opponent's 8;
plan discards so your lowest cards fall on tricks won by others." Under R7 a follower
who can beat the winning card must (head the trick), so a seat's high card can be spent
on a trick it did not need. This plays the same deals twice with the kernel, seat 0
playing ``basic`` and then ``pimc:N`` (declarations ``basic`` everywhere, the other
seats ``basic``), and splits the deals seat 0 played by whether, under ``basic``, it was
ever bound to head a trick with a lower card of the suit held back (the R7 path
``head_the_trick`` at one of its follows). For each group: how often ``pimc`` won more
tricks than ``basic`` on the same deal, how often fewer, the mean difference, and the
loos it saved, each with a 95% interval (the deal is the unit).

    .venv/bin/python scripts/cardplay_tips.py --deals 40000 --seed 1 --out reports/cardplay/tips
"""

from __future__ import annotations

import argparse
import csv
import math
from pathlib import Path

import numpy as np

from loo_sim import Rules, play_deals
from loo_sim.game.cards import SUITS
from loo_sim.game.legality import follow_options
from loo_sim.game.paths import RulePath
from loo_sim.game.ranking import TrumpState
from loo_sim.run.records import shuffled_decks


def bound_to_head(rec, seat: int, rules: Rules) -> bool:
    """Whether ``seat``, following, was ever made to head a trick while holding a lower card
    of the led suit (its hand then: the card and those it played later). Three-card turns
    the trumps up (R6), so they are known at every card."""
    played = [(t, k, c) for t, trick in enumerate(rec.tricks) for k, (s, c) in enumerate(trick.cards) if s == seat]
    ts = TrumpState(None if rec.trump is None else SUITS.index(rec.trump), rules.pam)
    for i, (t, k, _card) in enumerate(played):
        if k == 0:
            continue
        hand = [c for _, _, c in played[i:]]
        before = [c for _, c in rec.tricks[t].cards[:k]]
        if follow_options(hand, before, ts, rules).path is RulePath.R7_HEAD_THE_TRICK:
            return True
    return False


def interval(x: np.ndarray) -> tuple[float, float, float]:
    if len(x) == 0:
        return math.nan, math.nan, math.nan
    m = float(x.mean())
    se = float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else math.nan
    return m, m - 1.96 * se, m + 1.96 * se


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=40000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    rules = Rules.preset("three-card", players=5)
    n = rules.players
    decks = shuffled_decks(args.seed, args.deals)
    dealers = [k % n for k in range(args.deals)]
    base = play_deals(rules, decks, dealers, policy="basic", seed=args.seed)
    pimc = play_deals(rules, decks, dealers, policy=[f"basic/pimc:{args.samples}"] + ["basic"] * (n - 1),
                      seed=args.seed)  # fmt: skip
    groups: dict[bool, list[tuple[int, int]]] = {True: [], False: []}
    for k in range(args.deals):
        b, p = base[k], pimc[k]
        if not any(s == 0 for trick in b.tricks for s, _ in trick.cards):
            continue  # seat 0 played no tricks (same declarations: nor under pimc)
        diff = p.tricks_won[0] - b.tricks_won[0]
        saved = int(0 in b.looed) - int(0 in p.looed)
        groups[bound_to_head(b, 0, rules)].append((diff, saved))
    rows = []
    total = sum(len(g) for g in groups.values())
    for bound, label in ((True, "bound to head a trick under basic"), (False, "never bound to head")):
        d = np.array([x for x, _ in groups[bound]], dtype=float)
        s = np.array([y for _, y in groups[bound]], dtype=float)
        more, fewer, mean, saved = (interval((d > 0).astype(float)), interval((d < 0).astype(float)), interval(d),
                                    interval(s))  # fmt: skip
        rows.append(dict(group=label, deals=len(d), share=len(d) / total, pimc_more=more, pimc_fewer=fewer,
                         mean_diff=mean, loos_saved=saved))  # fmt: skip
    args.out.mkdir(parents=True, exist_ok=True)
    with open(args.out / "tips.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["group", "deals", "share", "p_pimc_more", "lo", "hi", "p_pimc_fewer", "lo", "hi",
                    "mean_trick_diff", "lo", "hi", "loos_saved_per_deal", "lo", "hi"])  # fmt: skip
        for r in rows:
            w.writerow([r["group"], r["deals"], f"{r['share']:.4f}", *(f"{v:.4f}" for k in
                        ("pimc_more", "pimc_fewer", "mean_diff", "loos_saved") for v in r[k])])  # fmt: skip
    lines = [f"# Heading the trick: what basic loses that pimc:{args.samples} saves", "",
             f"Three-card, 5 players, seat 0 `basic` then `pimc:{args.samples}` at a table of `basic`, the same "
             f"{args.deals:,} deals (seed {args.seed}); {total:,} of them seat 0 played. 95% intervals; the deal is "
             "the unit.", "",
             "| deals seat 0 played | share | pimc won more tricks | pimc won fewer | mean trick difference "
             "(pimc - basic) | loos saved per deal |", "|---|---|---|---|---|---|"]  # fmt: skip
    for r in rows:
        fmt = lambda t: f"{t[0]:+.4f} [{t[1]:+.4f}, {t[2]:+.4f}]"  # noqa: E731
        pct = lambda t: f"{t[0]:.1%} [{t[1]:.1%}, {t[2]:.1%}]"  # noqa: E731
        lines.append(f"| {r['group']} ({r['deals']:,}) | {r['share']:.1%} | {pct(r['pimc_more'])} | "
                     f"{pct(r['pimc_fewer'])} | {fmt(r['mean_diff'])} | {fmt(r['loos_saved'])} |")  # fmt: skip
    lines += ["", "Command: `.venv/bin/python scripts/cardplay_tips.py --deals "
              f"{args.deals} --seed {args.seed} --samples {args.samples} --out {args.out}`", ""]  # fmt: skip
    (args.out / "tips.md").write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
