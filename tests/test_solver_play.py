"""The solver play families (docs/policies.md P8): ``perfect`` and ``pimc:N``.

- both engines agree deal for deal with solver seats at the table (the differential
  test's spread, a few hundred deals; five-card with the kernel's P7 solver standing in
  for the reference's, which test_kernel_solver checks equal and is too slow here);
- ``pimc`` never uses a hidden card: the unseen cards re-dealt in other ways consistent
  with what the seat knows (the same declarations and the same cards played before)
  leave its decision unchanged for the same stream;
- every sample is consistent: the right number of cards per seat, none the seat can
  place, each seat's plays legal with its sample (voids shown are respected).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from loo_sim import play_deals
from loo_sim.base import rng
from loo_sim.base.errors import IllegalAction
from loo_sim.engine.cardplay import Sight, legal_then, sample_deals
from loo_sim.engine.deal import _Deal, play_out
from loo_sim.game.decl import DEFEND, MISS
from loo_sim.game.policy import Policy
from loo_sim.game.ranking import TrumpState
from loo_sim.game.rules import Rules, Trump
from loo_sim.run import solver as kernel_solver
from tests.dealgen import random_deals

THREE_CARD = ("three-card", "irish", "limited", "unlimited", "bold-stand", "classic-limited")
FIVE_CARD = ("five-card",)


def with_solver_seats(deals: list[dict], seed: int, share: float = 0.5) -> list[dict]:
    """The same deals with about ``share`` of the seats playing pimc:N (N in 1..4) or
    perfect, their declaration and exchange kept; drawn from a stream of their own."""
    pick = random.Random(f"solver-seats-{seed}")
    out = []
    for d in deals:
        table = []
        for p in d["policy"]:
            p = Policy.parse(p)
            if pick.random() < share:
                samples = 0 if pick.random() < 0.3 else pick.randint(1, 4)
                p = replace(p, play="pimc" if samples else "perfect", samples=samples)
            table.append(p)
        out.append(d | dict(policy=table))
    return out


def reference(d: dict, values=None):
    from loo_sim.engine.deal import play_deal_reference
    from loo_sim.game.policy import parse_table
    from loo_sim.run.strength import resolve_strength
    from loo_sim.run.tables import resolve_tables

    rules, table = d["rules"], parse_table(d["policy"], d["rules"].players)
    draws = rng.seat_streams(d["seed"], 0, table)
    return play_deal_reference(rules, d["deck"], d["dealer"], d["carried"], table, draws,
                               resolve_strength(rules, table, d["strength"]), d["chart"],
                               tables=resolve_tables(rules, table) if d.get("tables") is None else d["tables"],
                               card_values=values)  # fmt: skip


def kernel(d: dict):
    return play_deals(d["rules"], [d["deck"]], [d["dealer"]], [d["carried"]], d["policy"], engine="kernel",
                      seed=d["seed"], strength=d["strength"], chart=d["chart"], tables=d.get("tables"))[0]  # fmt: skip


def solver_decisions(deals: list[dict]) -> int:
    return sum(1 for d in deals for p in d["policy"] if Policy.parse(p).play in ("pimc", "perfect"))


@pytest.mark.parametrize("preset", THREE_CARD)
def test_kernel_agrees_with_reference_at_solver_seats_p8(preset):
    deals = with_solver_seats(random_deals(2028, preset, 40), seed=2028)
    assert solver_decisions(deals) > 40
    for i, d in enumerate(deals):
        assert kernel(d).to_dict() == reference(d).to_dict(), f"{preset} deal {i}: {d['overrides']} {d['policy']}"


@pytest.mark.parametrize("preset", FIVE_CARD)
def test_kernel_agrees_with_reference_at_solver_seats_five_card_p8(preset):
    deals = with_solver_seats(random_deals(2029, preset, 16), seed=2029, share=0.4)
    for i, d in enumerate(deals):
        ref = reference(d, values=kernel_solver.card_values)
        assert kernel(d).to_dict() == ref.to_dict(), f"{preset} deal {i}: {d['overrides']} {d['policy']}"


# ---- pimc uses no hidden card -------------------------------------------------------------------
class Captured(Exception):
    pass


def run_deal(rules, deck, dealer, carried, table, seed, forced, script, target, values=None):
    """Play a deal with the reference engine: every seat declaring as ``forced`` (all
    seats; None: as its policy), the first ``target`` cards as ``script`` (None: as the
    policies), then the card at ``target`` chosen by its seat's policy. Returns (the
    deal's cards in order, the deal, the Sight of the seat to play card ``target``)."""
    deal = _Deal(rules, deck, dealer, carried, table, rng.seat_streams(seed, 0, table))
    deal.forced = dict(forced or {})
    deal.card_values = values
    deal.keep_plays = True  # the Sight is read here even at tables without a pimc seat
    seen = {}
    count = 0

    def hook(pos):
        nonlocal count
        i, count = count, count + 1
        if i == target:
            seen["sight"] = deal.sight(pos.to_move)
            seen["to_move"] = pos.to_move
        return script[i] if script is not None and i < target else None

    deal.card_hook = hook
    play_out(deal, deck)
    cards = [c for trick in deal.tricks for _, c in trick.cards]
    return cards, deal, seen.get("sight"), seen.get("to_move")


def redealt_deck(deal: _Deal, sight: Sight, alt_hands: dict, alt_indicator, shuffle: random.Random) -> list[int]:
    """A deck (R2 order) that gives the seat of ``sight`` everything it saw, each other seat
    in the deal its played cards plus ``alt_hands[seat]``, and the rest of the unseen cards
    (passers' hands, a dead hand, the miss nobody took, the stock) in a fresh order."""
    n, h = deal.n, deal.h
    took = next((s for s in range(n) if deal.declarations[s] in (MISS, DEFEND)), None)
    hands: dict[int, list[int]] = {sight.seat: list(deal.trace.hands[sight.seat])}
    miss = list(deal.trace.miss) if took == sight.seat else None
    for s, cards in alt_hands.items():
        held = [p.card for p in sight.plays if p.seat == s] + list(cards)
        if s == took:
            miss = held
        else:
            hands[s] = held
    indicator = alt_indicator if sight.hidden_indicator else deal.indicator
    used = {c for cards in hands.values() for c in cards} | set(miss or ()) | {indicator} - {None}
    rest = [c for c in range(52) if c not in used]
    shuffle.shuffle(rest)
    for s in range(n):  # passers, and a dead hand
        if s not in hands:
            hands[s] = [rest.pop() for _ in range(h)]
    if deal.miss_dealt and miss is None:
        miss = [rest.pop() for _ in range(h)]
    deck = []
    for r in range(h):  # R2: round by round from the dealer's left, the miss just before the dealer
        for seat in [(deal.dealer + 1 + i) % n for i in range(n)]:
            if seat == deal.dealer and deal.miss_dealt:
                deck.append(miss[r])
            deck.append(hands[seat][r])
    if deal.mode in (Trump.TURN_UP, Trump.FIRST_RENOUNCE):
        deck.append(indicator)
    deck += rest
    assert sorted(deck) == list(range(52))
    return deck


HIDDEN_CASES = [(p, k) for p in ("three-card", "irish", "limited", "bold-stand", "classic-limited") for k in range(14)]


@pytest.mark.parametrize(("preset", "k"), HIDDEN_CASES)
def test_pimc_never_uses_a_hidden_card_p8(preset, k):
    pick = random.Random(f"hidden-{preset}-{k}")
    rules = Rules.preset(preset)
    n = rules.players
    table = [Policy.parse(pick.choice(["basic", "always", "cautious"])) for _ in range(n)]
    observer = pick.randrange(n)
    table[observer] = Policy.parse(f"always/pimc:{pick.randint(2, 5)}")
    targets: list[int] = []
    while not targets:  # `always` declares play, so the observer soon plays a card after the first
        deck = list(range(52))
        pick.shuffle(deck)
        dealer, carried, seed = pick.randrange(n), pick.choice([0.0, 0.0, 7.0]), pick.randrange(2**31)
        cards, deal, _, _ = run_deal(rules, deck, dealer, carried, table, seed, None, None, -1)
        movers = [s for trick in deal.tricks for s, _ in trick.cards]
        targets = [i for i, s in enumerate(movers) if s == observer and i > 0]
    target = pick.choice(targets)
    forced = dict(enumerate(deal.declarations))
    base_cards, base, sight, mover = run_deal(rules, deck, dealer, carried, table, seed, forced, cards, target)
    assert mover == observer and base_cards[:target] == cards[:target]
    decided = base_cards[target]
    checked = 0
    for j in range(3):  # three re-deals drawn as pimc draws, from other streams
        drawn = sample_deals(sight, 1, rng.SeatStream(rng.stream_key(99, j, k, 7)))
        if not drawn:
            continue
        alt_hands, alt_indicator = drawn[0]
        alt_deck = redealt_deck(base, sight, alt_hands, alt_indicator, random.Random(j))
        try:
            alt_cards, _, alt_sight, _ = run_deal(rules, alt_deck, dealer, carried, table, seed, forced, cards, target)
        except IllegalAction:  # pragma: no cover - the same declarations are always on offer
            continue
        assert alt_sight == sight, "the re-dealt deal must look the same from the observer's seat"
        assert alt_cards[target] == decided, f"re-deal {j} changed the decision: {alt_cards[target]} != {decided}"
        checked += 1
    assert checked >= 1


@pytest.mark.parametrize("preset", ("three-card", "limited", "classic-limited"))
def test_every_sample_is_consistent_with_the_sight_p8(preset):
    pick = random.Random(f"samples-{preset}")
    rules = Rules.preset(preset)
    n = rules.players
    checked = plays_checked = 0
    for _ in range(40):
        deck = list(range(52))
        pick.shuffle(deck)
        table = [Policy.parse("always")] * n
        cards, deal, _, _ = run_deal(rules, deck, pick.randrange(n), 0.0, table, 1, None, None, -1)
        if len(cards) < 3:
            continue
        target = pick.randrange(1, len(cards))
        _, base, sight, _ = run_deal(rules, deck, deal.dealer, 0.0, table, 1, dict(enumerate(deal.declarations)),
                                     cards, target)  # fmt: skip
        for hands, indicator in sample_deals(sight, 6, rng.SeatStream(rng.stream_key(5, 0, checked, 1))):
            taken = [c for h in hands.values() for c in h] + ([indicator] if indicator is not None else [])
            assert len(taken) == len(set(taken)) and not set(taken) & sight.known
            for seat, count in sight.others:
                assert len(hands[seat]) == count
                for play, held in sight.history(seat):  # every play legal with the sample
                    plays_checked += 1
                    assert play.card in legal_then(play, [*hands[seat], *held], rules, sight.single_pot)
                    ts = TrumpState(play.trump, rules.pam)
                    if play.before and ts.suit(play.card) != ts.suit(play.before[0]):  # a void shown
                        assert all(ts.suit(c) != ts.suit(play.before[0]) for c in hands[seat]), "a void ignored"
            assert sight.hidden_indicator == (indicator is not None)
        checked += 1
    assert checked > 20 and plays_checked > 200


def test_reference_play_deals_uses_the_kernel_solver_for_five_card_with_the_same_record_p8():
    """run.api.play_deals' reference engine gives five-card solver seats the kernel's P7
    solver (for speed): the record is the one the reference's own solver gives."""
    from loo_sim.engine.deal import play_deal_reference
    from loo_sim.game.policy import parse_table
    from loo_sim.run.api import solver_values

    rules = Rules.preset("five-card", players=4)
    table = parse_table(["basic/perfect", "basic", "always/perfect", "basic"], 4)
    assert solver_values(rules, table) is kernel_solver.card_values
    assert solver_values(Rules.preset("three-card"), parse_table("basic/perfect", 5)) is None
    assert solver_values(rules, parse_table("basic", 4)) is None
    deck = rng.shuffled_deck(8, 2)
    fast = play_deals(rules, [deck], [1], [0.0], table, engine="reference", seed=8)[0]
    slow = play_deal_reference(rules, deck, 1, 0.0, table)
    assert fast.declarations[0] == fast.declarations[2] == "play"  # both perfect seats played their cards
    assert fast.to_dict() == slow.to_dict()
