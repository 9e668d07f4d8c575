"""``loo-sim advise``'s speed (issue #25 item 4), one process, warm numba cache: seconds to
answer a question to a 95% half-width of 0.10 chips on every paired difference. Targets:
a three-card declaration question <= 2 s, a five-card one <= 5 s, a card question with
``--then basic`` <= 2 s. Each question is asked once to warm the kernel, then timed
(the best and the median of three runs, each with another seed).

Run: ``.venv/bin/python scripts/bench_advise.py`` (or ``bash scripts/dev.sh bench --advise``).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loo_sim.analysis.advise_api import build_question  # noqa: E402
from loo_sim.game.rules import Rules  # noqa: E402
from loo_sim.run.advise import declaration_advice  # noqa: E402

PRECISION = 0.10
# (name, preset, players, position, hand, indicator, earlier, target seconds)
DECLARATIONS = [
    ("three-card, 5 players, position 2 after a play", "three-card", 5, 2, "KH 7S 3D", "4H", "play", 2.0),
    ("three-card, 5 players, position 5 after four seats", "three-card", 5, 5, "QC JC 5D", "4H",
     "play,play,play,miss", 2.0),
    ("five-card, 5 players, position 3", "five-card", 5, 3, "KD QD 3S 4S 8H", "7C", "play,pass", 5.0),
]  # fmt: skip


def _timed(run) -> tuple[float, float, object]:
    times, last = [], None
    for seed in (1, 2, 3):
        t = time.perf_counter()
        last = run(seed)
        times.append(time.perf_counter() - t)
    return min(times), statistics.median(times), last


def declaration_report() -> list[dict]:
    out = []
    for name, preset, players, position, hand, indicator, earlier, target in DECLARATIONS:
        q = build_question(Rules.preset(preset, players=players), position, hand, indicator=indicator,
                           earlier=earlier)  # fmt: skip
        declaration_advice(q, precision=1.0, seed=0)  # warm: the kernel compiled or loaded
        best, median, advice = _timed(lambda seed, q=q: declaration_advice(q, precision=PRECISION, seed=seed))
        out.append({"question": name, "best_s": best, "median_s": median, "target_s": target,
                    "deals_kept": advice.accepted, "deals_drawn": advice.attempts,
                    "stopped": advice.stopped})  # fmt: skip
    return out


# (name, hand, declarations, the cards so far, then, target seconds): three-card, 5 players,
# indicator 5H, position 4 to play
CARDS = [
    ("three-card, 5 players, trick 1, position 4 to play", "KH 7H 2S", "1=play,2=miss,3=pass,4=play,5=play",
     "1:AH 2:9H", "basic", 2.0),
    ("three-card, 5 players, trick 1 after a club lead", "KH 7H 2S", "1=play,2=miss,3=pass,4=play,5=play",
     "1:2C 2:TD", "basic", 2.0),
]  # fmt: skip


def card_report() -> list[dict]:
    from loo_sim.analysis.advise_api import ask_card, build_card_question

    out = []
    for name, hand, declare, play, then, target in CARDS:
        q = build_card_question(Rules.preset("three-card", players=5), 4, hand, declare=declare, play=play,
                                indicator="5H", then=then)  # fmt: skip
        ask_card(q, precision=1.0)  # warm
        best, median, answer = _timed(lambda seed, q=q: ask_card(q, precision=PRECISION, seed=seed))
        out.append({"question": name, "best_s": best, "median_s": median, "target_s": target,
                    "deals_kept": answer.advice.accepted, "deals_drawn": answer.advice.attempts,
                    "stopped": answer.advice.stopped})  # fmt: skip
    return out


def advise_report() -> dict:
    report = {"declarations": declaration_report(), "cards": card_report()}
    print(f"advise, to a 95% half-width of {PRECISION} chips (warm; best and median of 3):")
    for r in report["declarations"] + report["cards"]:
        print(f"  {r['question']:55s} {r['best_s']:5.2f} s / {r['median_s']:5.2f} s  (target {r['target_s']:.0f} s; "
              f"{r['deals_kept']:,} deals kept of {r['deals_drawn']:,})")  # fmt: skip
    return report


if __name__ == "__main__":
    advise_report()
