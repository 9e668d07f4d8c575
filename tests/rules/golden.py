"""Shared helpers of the golden deals (tests/rules/test_r*.py): hand-built deals, one
per situation of docs/rules.md / docs/policies.md, one module per rule section.

Every expected value there is worked out by hand from the spec (the comment above each
assertion block shows the working); nothing is copied from the engine's output.

Reading aids used in the comments:
- seats are numbered 0..n-1; "S1" is seat 1; the dealer is given per deal;
- P1 power: trump = 50 + rank, Pam = 100, other cards = rank (2 = 0 ... A = 12),
  ties broken by suit C < D < H < S; "basic" lead = highest-power legal card, "basic"
  follow = lowest-power legal card that wins as things stand, else lowest-power legal
  card (P2); "low"/"high" = lowest/highest-power legal card (P3).
"""

from __future__ import annotations

from loo_sim import Rules, play_deal


def run(preset, deck, *, dealer=0, carried=0.0, policy="basic", **options):
    rules = Rules.preset(preset, **options)
    return play_deal(rules, deck, dealer=dealer, carried=carried, policy=policy).to_dict()


def table(players, default, **seats):
    """One policy per seat: ``table(5, "cautious", s1="basic")``."""
    out = [default] * players
    for key, pol in seats.items():
        out[int(key[1:])] = pol
    return out


def trick(leader, plays, winner):
    """``trick(1, "1:AH 2:9H 3:2H", 1)`` -> the record's trick dict."""
    played = [[int(s), c] for s, c in (p.split(":") for p in plays.split())]
    return {"leader": leader, "cards": played, "winner": winner}


def outcome(d, *keys):
    return {k: d[k] for k in keys}


MONEY = ("shares", "penalties", "looed", "antes", "pot_start", "pot_next")
