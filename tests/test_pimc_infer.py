"""``pimc:N:infer[=MODEL]`` (docs/policies.md P8, engine/infer.py, kernel/infer.py): a pimc
seat whose samples agree with the declarations too.

- both engines agree deal for deal with infer seats at the table, on the differential
  test's spread of every preset: trumps known at the first card decision (three-card,
  limited, irish-classic, five-card) and not (irish's first lead, classic-limited's single
  pots); models that are not the seats' own policies reach the fall-back to P8's draw;
- the draw is the posterior: at a handful of card decisions, how often each unseen card is
  in each other seat's sampled hand matches how often it is there in deals dealt at
  random around what the seat knows (its hand, the indicator, the cards played and who
  played them) and kept when the reference engine's declarations and the cards played are
  those seen, within 4 standard errors; P8's draw, which ignores the declarations, does
  not match in every situation (the check can fail);
- with declarations the model cannot explain, the draw is P8's, the stream going on;
- bad input is one error line that names what is allowed.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import replace

import pytest

from loo_sim.base import rng
from loo_sim.engine.cardplay import ATTEMPTS_PER_SAMPLE as P8_ATTEMPTS
from loo_sim.engine.cardplay import Sight, sample_deals, shuffled
from loo_sim.engine.deal import _Deal, play_out
from loo_sim.engine.infer import ATTEMPTS_PER_SAMPLE, Declared, infer_samples
from loo_sim.engine.policies import DeclareChoice
from loo_sim.game import abi as L
from loo_sim.game.decl import DEFEND, MISS, PASS
from loo_sim.game.policy import INFER_MODELS, Policy
from loo_sim.game.ranking import TrumpState
from loo_sim.game.rules import Rules, Trump
from loo_sim.run import solver as kernel_solver
from tests.dealgen import random_deals
from tests.test_solver_play import kernel, reference

THREE_CARD = ("three-card", "irish", "limited", "bold-stand", "irish-classic", "classic-limited")


def with_infer_seats(deals: list[dict], seed: int, share: float = 0.5) -> list[dict]:
    """The same deals with about ``share`` of the seats playing pimc:N:infer=MODEL (N in
    1..4, MODEL mostly basic), their declaration and exchange kept."""
    pick = random.Random(f"infer-seats-{seed}")
    out = []
    for d in deals:
        table = []
        for p in d["policy"]:
            p = Policy.parse(p)
            if pick.random() < share:
                model = "basic" if pick.random() < 0.6 else pick.choice(INFER_MODELS)
                p = replace(p, play="pimc", samples=pick.randint(1, 4), infer=model)
            table.append(p)
        out.append(d | dict(policy=table))
    return out


def infer_seats(deals: list[dict]) -> int:
    return sum(1 for d in deals for p in d["policy"] if Policy.parse(p).infer)


@pytest.mark.parametrize("preset", THREE_CARD)
def test_kernel_agrees_with_reference_at_infer_seats_p8(preset):
    deals = with_infer_seats(random_deals(2031, preset, 40), seed=2031)
    assert infer_seats(deals) > 40
    for i, d in enumerate(deals):
        assert kernel(d).to_dict() == reference(d).to_dict(), f"{preset} deal {i}: {d['overrides']} {d['policy']}"


def test_kernel_agrees_with_reference_at_infer_seats_five_card_p8():
    deals = with_infer_seats(random_deals(2032, "five-card", 16), seed=2032, share=0.4)
    for i, d in enumerate(deals):
        ref = reference(d, values=kernel_solver.card_values)
        assert kernel(d).to_dict() == ref.to_dict(), f"five-card deal {i}: {d['overrides']} {d['policy']}"


# ---- the draw is the posterior -----------------------------------------------------------------
class Stop(Exception):
    """Raised by a card hook: the deal has reached the card decision looked at (or left the script)."""


def play_to(rules, deck, dealer, carried, table, script, target, declared=None, model="basic"):
    """Play ``deck`` with the reference engine, the first ``target`` cards as ``script``;
    returns (the deal, the Sight and Evidence of the seat to play card ``target``), or
    None when the declarations are not ``declared`` or a scripted card is not the mover's
    to play (not held, or not legal: the engine's own test)."""
    deal = _Deal(rules, deck, dealer, carried, table, rng.seat_streams(1, 0, table))
    deal.keep_plays = True
    count = 0
    seen = {}

    def hook(pos):
        nonlocal count
        if declared is not None and deal.declarations != declared:
            raise Stop
        i, count = count, count + 1
        if i == target:
            seen.update(deal=deal, sight=deal.sight(pos.to_move), evidence=deal.evidence(pos.to_move, model))
            raise Stop
        if script is None:
            return None
        if script[i] not in pos.hands[pos.to_move]:
            raise Stop
        return script[i]

    deal.card_hook = hook
    try:
        play_out(deal, deck)
    except Stop:
        pass
    except AssertionError:  # the engine's check: a scripted card that is not legal for its seat
        return None
    return (seen["deal"], seen["sight"], seen["evidence"]) if seen else None


def deck_around(deal: _Deal, sight: Sight, shuffle: random.Random) -> list[int]:
    """A deck (R2 order) drawn uniformly among those that give the seat of ``sight`` what it
    saw: its hand as dealt (and the miss if it took it), the indicator once turned, and each
    card played in the hand it was played from (the miss for the seat that took it)."""
    n, h = deal.n, deal.h
    took = next((s for s in range(n) if deal.declarations[s] in (MISS, DEFEND)), None)
    places: dict[object, list[int]] = {s: [] for s in range(n)}
    places["miss"] = []
    places[sight.seat] = list(deal.trace.hands[sight.seat])
    if took == sight.seat:
        places["miss"] = list(deal.trace.miss)
    for p in sight.plays:
        if p.seat != sight.seat:
            places["miss" if p.seat == took else p.seat].append(p.card)
    indicator = deal.indicator if deal.indicator_turned else None
    used = {c for cards in places.values() for c in cards} | ({indicator} - {None})
    rest = [c for c in range(52) if c not in used]
    shuffle.shuffle(rest)
    for key, cards in places.items():
        if key != "miss" or deal.miss_dealt:
            cards += [rest.pop() for _ in range(h - len(cards))]
    if deal.mode in (Trump.TURN_UP, Trump.FIRST_RENOUNCE) and indicator is None:
        indicator = rest.pop()
    deck = []
    for r in range(h):
        for seat in deal.order:
            if seat == deal.dealer and deal.miss_dealt:
                deck.append(places["miss"][r])
            deck.append(places[seat][r])
    deck += ([indicator] if indicator is not None else []) + rest
    assert sorted(deck) == list(range(52))
    return deck


def situation(preset: str, k: int, carried: float):
    """A card decision of a basic table: a seat in the deal at one of its first two cards,
    after at least one card of another seat. Returns (rules, dealer, carried, the table,
    the cards before it, the deal, sight and evidence there)."""
    pick = random.Random(f"posterior-{preset}-{k}")
    rules = Rules.preset(preset)
    table = [Policy.parse("basic")] * rules.players
    while True:
        deck = list(range(52))
        pick.shuffle(deck)
        dealer = pick.randrange(rules.players)
        deal = _Deal(rules, deck, dealer, carried, table, [None] * rules.players)
        play_out(deal, deck)
        movers = [s for trick in deal.tricks for s, _ in trick.cards]
        cards = [c for trick in deal.tricks for _, c in trick.cards]
        if len(set(movers)) < 3:
            continue
        targets = [i for i in range(1, min(len(cards), 2 * len(set(movers)))) if movers[i] != movers[0]]
        if not targets:
            continue
        target = pick.choice(targets)
        found = play_to(rules, deck, dealer, carried, table, cards, target)
        assert found is not None
        return rules, dealer, carried, table, cards[:target], found


def counts_of(samples) -> tuple[Counter, int]:
    counts: Counter = Counter()
    for hands in samples:
        for seat, hand in hands.items():
            counts.update((seat, c) for c in hand)
    return counts, len(samples)


def worst_z(a: tuple[Counter, int], b: tuple[Counter, int]) -> float:
    """The largest |difference| / SE over every (seat, card) of two sets of samples."""
    (ca, na), (cb, nb) = a, b
    worst = 0.0
    for key in set(ca) | set(cb):
        pa, pb = ca[key] / na, cb[key] / nb
        p = (ca[key] + cb[key]) / (na + nb)
        se = math.sqrt(p * (1 - p) * (1 / na + 1 / nb))
        if se > 0:
            worst = max(worst, abs(pa - pb) / se)
        else:
            assert pa == pb
    return worst


POSTERIOR_CASES = [("three-card", 0, 6.0), ("three-card", 1, 0.0), ("irish", 0, 6.0), ("limited", 2, 6.0),
                   ("classic-limited", 2, 6.0), ("classic-limited", 1, 0.0)]  # fmt: skip


@pytest.mark.parametrize(("preset", "k", "carried"), POSTERIOR_CASES)
def test_infer_draw_matches_the_posterior_by_simulation_p8(preset, k, carried):
    rules, dealer, carried, table, script, (deal, sight, evidence) = situation(preset, k, carried)
    shuffle = random.Random(f"simulate-{preset}-{k}")
    simulated = []
    while len(simulated) < 1500:
        found = play_to(rules, deck_around(deal, sight, shuffle), dealer, carried, table, script, len(script),
                        declared=deal.declarations)  # fmt: skip
        if found is not None:
            assert found[1] == sight  # the seat sees the same things
            simulated.append({s: found[0].hands[s] for s, _ in sight.others})
    drawn = []
    for j in range(100):
        stream = rng.SeatStream(rng.stream_key(31, j, k, 3))
        drawn += [hands for hands, _ in infer_samples(sight, evidence, 60, stream)]
    assert worst_z(counts_of(simulated), counts_of(drawn)) < 4.0


def test_p8_draw_does_not_match_the_posterior_where_declarations_tell_p8():
    """The check above can fail: P8's draw ignores that under basic a seat in the deal
    held an ace (irish: trumps unknown at the declarations), and the posterior by simulation
    sees it."""
    rules, dealer, carried, table, script, (deal, sight, evidence) = situation("irish", 0, 6.0)
    shuffle = random.Random("simulate-p8")
    simulated = []
    while len(simulated) < 1500:
        found = play_to(rules, deck_around(deal, sight, shuffle), dealer, carried, table, script, len(script),
                        declared=deal.declarations)  # fmt: skip
        if found is not None:
            simulated.append({s: found[0].hands[s] for s, _ in sight.others})
    drawn = []
    for j in range(100):
        drawn += [hands for hands, _ in sample_deals(sight, 60, rng.SeatStream(rng.stream_key(32, j, 0, 3)))]
    assert worst_z(counts_of(simulated), counts_of(drawn)) > 6.0


def test_declarations_the_model_cannot_explain_fall_back_to_p8s_draw_p8():
    """A seat that passed with the miss on offer never exists under basic (P2 takes the
    miss): no layout is kept, and the samples are P8's from the stream after 64N shuffles."""
    rules, dealer, carried, table, script, (deal, sight, evidence) = situation("three-card", 0, 6.0)
    other = sight.others[0][0]
    impossible = Declared(other, PASS, DeclareChoice(may_pass=True, miss_on_offer=True), dead=True)
    evidence = replace(evidence, judged=(impossible,))
    samples, key = 3, rng.stream_key(33, 0, 0, 3)
    got = infer_samples(sight, evidence, samples, rng.SeatStream(key))
    stream = rng.SeatStream(key)
    for _ in range(ATTEMPTS_PER_SAMPLE * samples):
        shuffled(sight.unseen(), stream)
    assert got and got == sample_deals(sight, samples, stream)
    assert ATTEMPTS_PER_SAMPLE == L.INFER_ATTEMPTS and P8_ATTEMPTS == L.PIMC_ATTEMPTS


def test_a_seat_that_passed_holds_neither_trump_nor_ace_in_every_kept_layout_p8():
    """Under basic a seat that passed (the miss taken before it) held no trump and no ace;
    with no seat left to judge, every layout of a shuffle is kept."""
    rules, dealer, carried, table, script, (deal, sight, evidence) = situation("three-card", 1, 0.0)
    h = rules.hand_size
    passer = Declared(sight.others[0][0], PASS, DeclareChoice(may_pass=True, miss_on_offer=False), dead=True)
    ts = TrumpState(0, False)  # clubs
    weak = replace(evidence, trump=ts, judged=(passer,))
    unseen = sight.unseen()
    kept = 0
    for j in range(200):
        order = shuffled(unseen, rng.SeatStream(rng.stream_key(34, j, 0, 3)))
        hands, at = {}, 0
        for seat, count in sight.others:
            hands[seat], at = order[at : at + count], at + count
        at += sight.hidden_indicator
        dead = order[at : at + h]
        strong = any(ts.is_trump(c) or c % 13 == 12 for c in dead)
        assert weak.holds(hands, order[at:], {}) == (not strong)
        kept += not strong
    assert 0 < kept < 200
    assert replace(evidence, judged=()).holds({}, [], {})


# ---- bad input ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("basic/pimc:0:infer", "pimc:N with N in 1..1024"),
        ("basic/pimc:8:inferx", "infer or infer=MODEL with MODEL one of basic, always, cautious"),
        ("basic/pimc:8:infer=ev", "MODEL one of basic, always, cautious, nothing-takes-miss, flush-aware"),
        ("basic/pimc:8:", "infer or infer=MODEL"),
        ("basic/pimc:8:infer:2", "infer or infer=MODEL"),
        ("basic/high:infer", "only the play family pimc takes a parameter"),
    ],
)
def test_bad_infer_policies_are_one_error_line_naming_what_is_allowed(text, says, capsys):
    from loo_sim.cli import main

    assert main(["simulate", "--deals", "5", "--policy", text]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and says in err[0], err


def test_infer_policies_round_trip_and_fill_the_kernel_slot():
    from loo_sim.run.args import kernel_args

    for text, model in [("basic/pimc:8:infer", "basic"), ("cautious/pimc:3:infer=cautious/none", "cautious"),
                        ("table:a b/s.csv/pimc:2:infer=flush-aware", "flush-aware")]:  # fmt: skip
        p = Policy.parse(text)
        assert (p.play, p.infer) == ("pimc", model) and Policy.parse(str(p)) == p
    assert Policy.parse("basic/pimc:8").infer == ""
    assert str(Policy.parse("basic/PIMC:8:INFER")) == "basic/pimc:8:infer/basic"
    pol = kernel_args(Rules.preset("three-card"), [Policy.parse(f"basic/pimc:2{x}") for x in
                      ("", ":infer", ":infer=always", ":infer=nothing-takes-miss", ":infer=cautious")]).pol  # fmt: skip
    assert list(pol[:, L.P_INFER]) == [0, 1 + L.D_BASIC, 1 + L.D_ALWAYS, 1 + L.D_NOTHING, 1 + L.D_CAUTIOUS]
