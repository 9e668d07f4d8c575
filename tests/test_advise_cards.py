"""Card advice (run/advise_cards.py, #25 item 3): open hands against the P7 solver, the
declaration filter against a brute force, the fast play-out against the reference engine,
and the bad inputs."""

from __future__ import annotations

import numpy as np
import pytest

import loo_sim.run.advise_cards as ac
from loo_sim.base.errors import LooError
from loo_sim.engine.deal import _Deal
from loo_sim.engine.script import ScriptedPlay
from loo_sim.engine.solver import Position, card_values
from loo_sim.game.cards import ACE, card_str, parse_card, parse_cards, suit_of
from loo_sim.game.deal_input import deal_slots
from loo_sim.game.policy import parse_table
from loo_sim.game.rules import Rules, Trump
from loo_sim.run.advise_sight import parse_positions_declare, parse_positions_play
from loo_sim.run.api import play_deal

RULES = Rules.preset("three-card")  # five seats, the miss, turn-up, unlimited loo, ante 3 each
N = RULES.players
TABLE = parse_table("basic", N)
HEARTS = suit_of(parse_card("AH"))
# An open deal, dealer at seat 0, indicator 5H (hearts trumps). Under basic: position 1 holds a trump
# (play), position 2 neither trump nor ace (takes the miss), position 3 neither (passes: the miss is
# gone), position 4 (seat 4, asking) and the dealer (position 5, seat 0) hold trumps (play).
OPEN = {1: "AH KS 2C", 2: "3C 4D 6S", 3: "7C 8D 9S", 4: "KH 7H 2S", 0: "QH 3S 4C"}
MISS = "9H TD JC"
DECLARE = "1=play,2=miss,3=pass,4=play,5=play"


def advise(hand: str, play: str, position: int = 4, declare: str = DECLARE, **kw):
    kw.setdefault("indicator", parse_card("5H"))
    return ac.card_advice(RULES, position, parse_cards(hand), declarations=parse_positions_declare(declare, N),
                          play=parse_positions_play(play, N), table=TABLE, **kw)  # fmt: skip


def open_kw(me: int = 4) -> dict:
    return dict(known={s: parse_cards(h) for s, h in OPEN.items() if s != me}, miss=parse_cards(MISS))


def open_position(trick, leader=1, trick_index=0, won=None, hands=None) -> Position:
    """The position written out by hand from the deal above (not from the code under test)."""
    seats = (1, 2, 4, 0)  # the seats in the deal, the eldest first
    return Position(
        rules=RULES, seats=seats, hands=hands, leader=leader, trick=trick, trick_index=trick_index,
        tricks_won=won or dict.fromkeys(seats, 0), trump=HEARTS, mode=Trump.TURN_UP, indicator=parse_card("5H"),
        turned_up=parse_card("5H"), civil=False, renounced=False, single_pot=False,
        pot_start=15.0, penalty=15.0, defender=None,  # 5 antes of 3; an unlimited loo costs the pot
    )  # fmt: skip


def test_open_hands_perfect_equals_the_p7_solver():
    """Every card known: every sample is the same deal, and each card's net chips are P7's
    payoff after it (shares - penalty, engine/solver.py) less the seat's ante of 3."""
    c = parse_cards
    adv = advise(OPEN[4], "1:AH 2:9H", then="perfect", **open_kw())
    hands = {1: tuple(c("KS 2C")), 2: tuple(c("TD JC")), 4: tuple(c("KH 7H 2S")), 0: tuple(c("QH 3S 4C"))}
    pos = open_position(((1, parse_card("AH")), (2, parse_card("9H"))), hands=hands)
    expected = {card_str(card): pay[2] - 3.0 for card, pay in card_values(pos).items()}  # seat 4 is seats[2]
    assert adv.actions == ["KH", "7H"] == sorted(expected, key=lambda a: -parse_card(a))
    assert adv.accepted >= 1 and np.ptp(adv.pay, axis=0).max() == 0  # one deal, however often drawn
    assert adv.pay[0].tolist() == [expected[a] for a in adv.actions]


def test_open_hands_perfect_at_trick_two_with_the_dealer_asking():
    """The dealer (position 5, seat 0) on trick 2, after position 1 won trick 1 and led again."""
    c = parse_cards
    adv = advise(OPEN[0], "1:AH 2:9H 4:7H 5:QH | 1:KS 2:TD 4:2S", position=5, then="perfect", **open_kw(0))
    hands = {1: tuple(c("2C")), 2: tuple(c("JC")), 4: tuple(c("KH")), 0: tuple(c("3S 4C"))}
    trick = ((1, parse_card("KS")), (2, parse_card("TD")), (4, parse_card("2S")))
    pos = open_position(trick, trick_index=1, won={1: 1, 2: 0, 4: 0, 0: 0}, hands=hands)
    expected = {card_str(card): pay[3] - 3.0 for card, pay in card_values(pos).items()}
    assert adv.actions == ["3S"]  # must follow spades (R7)
    assert adv.pay[0].tolist() == [expected["3S"]]


def scripted_net(card: str, play: str) -> float:
    """Seat 4's net chips with the whole deal open, played by the reference engine: the
    declarations, the script and ``card`` forced, then basic for everyone."""
    slots, deck = deal_slots(RULES, 0, 0.0), []
    hands = {s: parse_cards(h) for s, h in OPEN.items()} | {"miss": parse_cards(MISS)}
    for slot in slots:
        deck.append(hands[slot].pop(0) if slot in hands else None)
    deck[slots.index("indicator")] = parse_card("5H")
    rest = iter(sorted(set(range(52)) - {x for x in deck if x is not None}))
    deck = [next(rest) if x is None else x for x in deck]
    script = parse_positions_play(play, N)
    script[-1].append((4, parse_card(card)))
    rec = play_deal(RULES, deck, 0, 0.0, "basic", forced=parse_positions_declare(DECLARE, N),
                    card_hook=ScriptedPlay(script))  # fmt: skip
    return rec.shares[4] - rec.antes[4] - rec.penalties[4]


def test_open_hands_basic_equals_the_reference_engine():
    adv = advise(OPEN[4], "1:AH 2:9H", then="basic", **open_kw())
    assert adv.pay[0].tolist() == [scripted_net(a, "1:AH 2:9H") for a in adv.actions]
    assert np.ptp(adv.pay, axis=0).max() == 0


def test_fast_play_out_equals_the_engine_replay(monkeypatch):
    """The position play-out (advise_playout.play_on) and a replay of the whole deal by the
    reference engine give the same chips on the same samples, hidden hands and all."""
    kw = dict(then="basic", max_samples=60, seed=3, engine="reference")
    fast = advise(OPEN[4], "1:AH 2:9H", **kw)
    monkeypatch.setattr(ac, "FAST_FAMILIES", ())
    slow = advise(OPEN[4], "1:AH 2:9H", **kw)
    assert fast.accepted == slow.accepted == 60
    assert np.array_equal(fast.pay, slow.pay)


@pytest.mark.parametrize("hand, play, position, then", [
    (OPEN[4], "1:AH 2:9H", 4, "basic"),
    (OPEN[4], "1:AH 2:9H", 4, "high"),
    (OPEN[4], "1:AH 2:9H", 4, "perfect"),
    (OPEN[4], "1:AH 2:9H 4:7H 5:QH | 1:KS 2:TD", 4, "basic"),
    (OPEN[4], "1:AH 2:9H", 4, "low"),
    (OPEN[0], "1:AH 2:9H 4:KH", 5, "basic"),
    (OPEN[4], "1:2C 2:TD", 4, "basic"),  # position 2 shows it holds no club and no trump (R7): P8's test rejects
])  # fmt: skip
def test_the_kernel_draws_the_same_samples_as_the_reference_and_pays_the_same(hand, play, position, then):
    """The kernel path (the deals played by kernel.chunks.play_rows, the script checked there)
    and the reference path (the reference engine's declarations, P8's consistency test and a
    Python play-out) accept the same decks of the same batches and pay the same chips."""
    kw = dict(then=then, max_samples=150 if then == "perfect" else 400, seed=5, position=position,
              indicator=parse_card("5H"))  # fmt: skip
    fast = advise(hand, play, **kw)
    slow = advise(hand, play, engine="reference", **kw)
    assert fast.actions == slow.actions
    assert fast.accepted == slow.accepted == kw["max_samples"]
    assert np.array_equal(fast.pay, slow.pay)


def accepted_decks(monkeypatch) -> list[list[int]]:
    """Record the decks the declaration filter accepts (the consistency test ran before it)."""
    kept: list[list[int]] = []
    real = ac.declares_as_seen

    def spy(deal, deck, facts):
        ok = real(deal, deck, facts)
        if ok:
            kept.append(list(deck))
        return ok

    monkeypatch.setattr(ac, "declares_as_seen", spy)
    return kept


def test_a_passed_seat_holds_no_trump_and_no_ace(monkeypatch):
    kept = accepted_decks(monkeypatch)
    adv = advise(OPEN[4], "1:AH 2:9H", max_samples=300, engine="reference")
    assert adv.accepted == len(kept) == 300
    slots = deal_slots(RULES, 0, 0.0)
    for deck in kept:
        for seat in (2, 3):  # position 2 took the miss (its dead hand), position 3 passed
            hand = [deck[i] for i, s in enumerate(slots) if s == seat]
            assert not any(suit_of(c) == HEARTS or c % 13 == ACE for c in hand), [card_str(c) for c in hand]
        miss = [deck[i] for i, s in enumerate(slots) if s == "miss"]
        assert parse_card("9H") in miss


def test_sampled_hands_match_a_brute_force(monkeypatch):
    """Position 2 asks after position 1 led AS. A brute force deals the 47 other cards at
    random (R2 places), keeps the deals where position 1 holds AS and the reference engine's
    basic seats declare as seen, and counts how often the dealer holds a trump; the
    sampler's frequency agrees within 4 standard errors."""
    declare, hand, ind = "1=play,2=play,3=miss,4=pass,5=play", parse_cards("KH 2S 3S"), parse_card("5H")
    seen = parse_positions_declare(declare, N)
    slots = deal_slots(RULES, 0, 0.0)
    mine, where = [i for i, s in enumerate(slots) if s == 2], slots.index("indicator")
    dealer, eldest = [i for i, s in enumerate(slots) if s == 0], [i for i, s in enumerate(slots) if s == 1]
    rest = np.array(sorted(set(range(52)) - {*hand, ind}))
    free = [i for i in range(52) if i not in mine and i != where]
    gen = np.random.default_rng(7)
    hits = total = 0
    while total < 1500:
        decks = np.zeros((4000, 52), dtype=np.int64)
        decks[:, mine], decks[:, where] = hand, ind
        decks[:, free] = rest[gen.random((4000, len(rest))).argsort(axis=1)]
        for deck in decks[(decks[:, eldest] == parse_card("AS")).any(axis=1)].tolist():
            deal = _Deal(RULES, deck, 0, 0.0, TABLE, [None] * N)
            deal.deal_cards(deck)
            deal.collect_antes()
            deal.declare_all()
            if deal.declarations == [seen[s] for s in range(N)]:
                total += 1
                hits += any(suit_of(deck[i]) == HEARTS for i in dealer)
    kept = accepted_decks(monkeypatch)
    adv = ac.card_advice(RULES, 2, hand, indicator=ind, declarations=seen, play=parse_positions_play("1:AS", N),
                         table=TABLE, max_samples=1500, precision=0.0, engine="reference")  # fmt: skip
    assert adv.accepted == len(kept) == 1500
    ours = np.mean([any(suit_of(deck[i]) == HEARTS for i in dealer) for deck in kept])
    brute = hits / total
    se = np.sqrt(brute * (1 - brute) / total + ours * (1 - ours) / len(kept))
    assert 0.2 < brute < 0.95  # the event is neither sure nor rare
    assert abs(ours - brute) < 4 * se, (ours, brute, se)


def test_stops_at_the_cap_and_on_ctrl_c():
    adv = advise(OPEN[4], "1:AH 2:9H", max_samples=10)
    assert (adv.stopped, adv.accepted) == ("cap", 10)
    assert adv.pay.shape == (10, 2) and adv.notes

    def stop(done, total):
        raise KeyboardInterrupt

    adv = advise(OPEN[4], "1:AH 2:9H", progress=stop)
    assert adv.stopped == "interrupted" and adv.accepted >= 1


def test_ctrl_c_before_any_sample_propagates(monkeypatch):
    def stop(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(ac, "sample_row", stop)
    with pytest.raises(KeyboardInterrupt):
        advise(OPEN[4], "1:AH 2:9H", engine="reference")


@pytest.mark.parametrize(
    "hand, play, kw, message",
    [
        ("KH 7H 2S", "1:AH 2:KH", {}, "KH is given in --hand and in --play trick 1"),
        ("KH 7H 5H", "1:AH 2:9H", {}, "5H is given in --hand and in --indicator"),
        ("KH 7H 2S", "1:AH 5:9H", {}, "position 5 is not to play: it is position 2's turn (play goes clockwise, R7)"),
        ("KH 7H 2S", "1:AH 2:9H 4:2S", {}, "trick 1, 2S: position 4 must follow suit"),
        ("KH 7H 2S", "1:AH 2:TD 4:7H 5:QH | 1:KS 2:9H", {}, "trick 1, TD: position 2 must follow suit"),
        ("KH 7H 2S", "1:AH", {}, "it is position 2's turn, not position 4's"),
        ("KH 7H 2S", "1:AH 2:9H 4:7H 5:QH | 1:KS 2:TD 4:2S 5:3S | 1:2C 2:JC 4:KH 5:4C", {}, "nobody is left to play"),
        ("7C 8D 9S", "1:AH 2:9H", {"position": 3}, "position 3 passed (R4)"),
        ("KH 7H 2S", "1:AH 2:9H", {"declare": "1=play,2=miss,3=miss,4=play,5=play"},
         "position 3 may not miss: position 2 has already taken the miss (R5)"),
        ("KH 7H 2S", "1:AH 2:9H", {"declare": "1=play,2=miss,4=play,5=play"}, "position 3's is missing"),
        ("KH 7H", "1:AH 2:9H", {}, "--hand: 2 cards given"),
    ],
)  # fmt: skip
def test_bad_input_is_one_clear_error(hand, play, kw, message):
    with pytest.raises(LooError) as err:
        advise(hand, play, **kw)
    assert message in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: parse_positions_play("6:AH", N), "'6' is not a position; positions are 1..5"),
        (lambda: parse_positions_play("1:AH 1:9H", N), "position 1 plays twice in one trick"),
        (lambda: parse_positions_declare("0=play", N), "'0' is not a position"),
        (lambda: parse_positions_declare("2=fold", N), "'fold' is not a declaration"),
    ],
)
def test_position_parsing_errors(call, message):
    with pytest.raises(LooError, match=message):
        call()


def test_positions_are_seats_mod_players():
    assert parse_positions_declare("1=play,5=pass", N) == {1: "play", 0: "pass"}
    assert parse_positions_play("5:AH 1:9H | 2C", N) == [[(0, parse_card("AH")), (1, parse_card("9H"))],
                                                         [(None, parse_card("2C"))]]  # fmt: skip


def test_no_consistent_deal_is_an_error():
    """Under basic a seat with neither trump nor ace takes the miss while it is on offer, so
    position 2 passing before anyone took it fits no deal."""
    with pytest.raises(LooError, match="no deal of the unseen cards agrees"):
        advise(OPEN[4], "1:AH", declare="1=play,2=pass,3=pass,4=play,5=play")
