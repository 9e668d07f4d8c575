"""Property-based tests of whole deals against docs/rules.md (R2, R3, R4, R6, R7, R8, R9).

Every example is one deal: a random preset with random valid overrides, a random deck
order, dealer, carried pot and per-seat policy mix (random play included). The deal is
replayed from ``rec.trace`` and checked with code written from docs/rules.md alone
(``tests/legality.py`` for R7), never with the engine's own rule code.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from loo_sim import DealRecord, LooError, Rules, play_deal
from loo_sim.game.cards import card_str
from loo_sim.game.rules import PRESETS
from tests.legality import PAM_CARD, PlayContext, TrumpView, why_illegal, winning_index

SUITS = "CDHS"
ACE = 12
IN_DEAL = ("play", "miss", "defend")  # R4, R8
ON_MISS = ("miss", "defend")  # these seats play the miss, their own hand is dead

# 400 deals a property by default (about 2 s each); LOO_PROPERTY_EXAMPLES=20000 for a deep run
SETTINGS = settings(
    max_examples=int(os.environ.get("LOO_PROPERTY_EXAMPLES", "400")),
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)

# ---- strategies -----------------------------------------------------------------------

OVERRIDES = {
    "hand_size": st.sampled_from([3, 5]),
    "miss": st.booleans(),
    "trump": st.sampled_from(["turn_up", "first_lead", "first_renounce"]),
    "ante": st.sampled_from([0, 1, 2.5, 3, 5]),
    "ante_payer": st.sampled_from(["each", "dealer"]),
    "penalty": st.sampled_from(["unlimited", "limited"]),
    "penalty_amount": st.sampled_from([0, 3, 5, 7.25]),
    "bold_stand": st.sampled_from(["off", "last_and_dealer", "everyone"]),
    "single_pot": st.booleans(),
    "dealer_defends": st.booleans(),
    "lead": st.sampled_from(["free", "ace", "trump", "classic"]),
    "void": st.sampled_from(["must_trump", "trump_to_win"]),
    "pam": st.booleans(),
    "pam_be_civil": st.booleans(),
    "exchange": st.booleans(),
    "flush": st.booleans(),
    "club_law": st.booleans(),
}
CARRIED = [0.0, 3.0, 0.0, 6.5, 12.0, 0.0, 30.0, 1 / 3, 1000.125]  # clean pots often: single pots (R8)
# every preset, with the ones whose rules differ most from three-card drawn more often
PRESET_POOL = sorted(PRESETS) + ["classic-limited", "classic-limited", "irish", "irish-classic"]
DECLARE = ["always", "basic", "cautious", "nothing-takes-miss"]
PLAY = ["basic", "high", "low", "random"]
EXCHANGE = ["basic", "none", "keep-trumps", "flush-chase"]
FAMILIES = (DECLARE, PLAY, EXCHANGE)


@dataclass
class Case:
    preset: str
    overrides: dict
    rules: Rules
    deck: list[int]
    dealer: int
    carried: float
    policy: list[str]
    seed: int

    def __repr__(self) -> str:  # enough to replay the deal by hand
        return (
            f"Case(preset={self.preset!r}, overrides={self.overrides!r}, deck={show(self.deck)!r}, "
            f"dealer={self.dealer}, carried={self.carried!r}, policy={self.policy!r}, seed={self.seed})"
        )


# Focused tables, drawn alongside fully random ones so rare rules get played often:
# "defence": classic-limited double pots with careful declarers (R8's dealer's defence);
# "pam": five-card Pam-Loo with only the overrides that keep Pam (R1, R9: Pam be civil).
PAM_SAFE = ("ante", "ante_payer", "penalty", "penalty_amount", "bold_stand", "pam_be_civil", "exchange", "flush")


@st.composite
def one_case(draw, focus: str = "any") -> Case:
    """A random deal: preset, valid overrides, deck, dealer, carried pot, seat policies, seed."""
    preset = {"any": None, "defence": "classic-limited", "pam": "five-card"}[focus]
    if preset is None:
        preset = draw(st.sampled_from(PRESET_POOL))
    overrides = {"players": draw(st.integers(3, 8))}
    allowed = {"any": sorted(OVERRIDES), "defence": [], "pam": list(PAM_SAFE)}[focus]
    for key in draw(st.lists(st.sampled_from(allowed), unique=True, max_size=5)) if allowed else []:
        overrides[key] = draw(OVERRIDES[key])
    # the R6/R7 options matter most to legality: vary them often (trump less, it excludes Pam)
    for key, odds in (("lead", 2), ("void", 2), ("trump", 4 if focus == "any" else 0)):
        if odds and key not in overrides and draw(st.integers(1, odds)) == 1:
            overrides[key] = draw(OVERRIDES[key])
    try:
        rules = Rules.preset(preset, **overrides)
    except LooError:
        assume(False)
    # per-seat mixes drawn from a small pool, so some tables are alike (e.g. all cautious: defences)
    pools = [draw(st.lists(st.sampled_from(fam), min_size=1, max_size=3, unique=True)) for fam in FAMILIES]
    if focus == "defence":
        pools[0] = draw(st.lists(st.sampled_from(["cautious", "basic"]), min_size=1, max_size=2, unique=True))
    policy = ["/".join(draw(st.sampled_from(pool)) for pool in pools) for _ in range(rules.players)]
    return Case(
        preset=preset,
        overrides=overrides,
        rules=rules,
        deck=list(draw(st.permutations(range(52)))),
        dealer=draw(st.integers(0, rules.players - 1)),
        carried=draw(st.sampled_from([c for c in CARRIED if c] if focus == "defence" else CARRIED)),
        policy=policy,
        seed=draw(st.integers(0, 2**32 - 1)),
    )


def cases() -> st.SearchStrategy[Case]:
    general = one_case()
    return st.one_of(general, general, one_case("defence"), one_case("pam"))


# ---- replaying a deal from the spec -------------------------------------------------


@dataclass
class Replay:
    """The deal rebuilt from the deck order by R2, and the record it must explain."""

    case: Case
    rec: DealRecord
    single: bool = False
    mode: str = ""  # trump rule in force: turn_up | first_lead | first_renounce
    hands: list[list[int]] = field(default_factory=list)
    miss: list[int] = field(default_factory=list)
    indicator: int | None = None  # the card at the indicator position (R2), None if unused
    stock: list[int] = field(default_factory=list)
    in_deal: list[int] = field(default_factory=list)
    defender: int | None = None

    @property
    def n(self) -> int:
        return self.case.rules.players

    def clockwise_from_left(self) -> list[int]:
        return [(self.case.dealer + 1 + i) % self.n for i in range(self.n)]


def replay(case: Case) -> Replay:
    rules = case.rules
    rec = play_deal(rules, case.deck, dealer=case.dealer, carried=case.carried, policy=case.policy, seed=case.seed)
    r = Replay(case, rec)
    r.single = rules.single_pot and case.carried == 0  # R8
    r.mode = "first_renounce" if r.single else str(rules.trump.value)
    miss_dealt = rules.miss and not r.single  # R5, R8
    # R2 canonical deal order: round by round from the dealer's left, the miss just before the dealer
    pos = 0
    r.hands = [[] for _ in range(r.n)]
    for _ in range(rules.hand_size):
        for seat in r.clockwise_from_left():
            if seat == case.dealer and miss_dealt:
                r.miss.append(case.deck[pos])
                pos += 1
            r.hands[seat].append(case.deck[pos])
            pos += 1
    if r.mode in ("turn_up", "first_renounce"):
        r.indicator = case.deck[pos]
        pos += 1
    r.stock = case.deck[pos:]
    decl = rec.declarations
    r.in_deal = [s for s in range(r.n) if decl[s] in IN_DEAL]
    defenders = [s for s in range(r.n) if decl[s] == "defend"]
    r.defender = defenders[0] if defenders else None
    return r


def show(cards) -> str:
    """Cards as text for messages (``play_deal`` accepts this form as the deck too)."""
    return " ".join(card_str(c) for c in cards)


def trump_suit(rec: DealRecord) -> int | None:
    return None if rec.trump is None else SUITS.index(rec.trump)


def starting_holdings(r: Replay) -> dict[int, list[int]]:
    """Each in-deal seat's cards once play starts: own hand or the miss, after exchanges."""
    decl = r.rec.declarations
    hold = {s: list(r.miss if decl[s] in ON_MISS else r.hands[s]) for s in r.in_deal}
    for seat, thrown, drawn in r.rec.trace.exchanges:
        for c in thrown:
            hold[seat].remove(c)
        hold[seat].extend(drawn)
    return hold


def approx(a: float, b: float, scale: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9 * max(1.0, scale))


# ---- 1. every card is in at most one place ------------------------------------------


@SETTINGS
@given(cases())
def test_cards_are_in_one_place(case: Case) -> None:
    r = replay(case)
    rec, tr, rules = r.rec, r.rec.trace, case.rules
    # the deal follows R2's canonical order
    assert [sorted(h) for h in tr.hands] == [sorted(h) for h in r.hands]
    assert sorted(tr.miss) == sorted(r.miss)
    assert all(len(h) == rules.hand_size for h in tr.hands)
    decl = rec.declarations
    takers = [s for s in range(r.n) if decl[s] in ON_MISS]
    assert len(takers) <= 1, "only one player may take the miss (R5)"
    if takers:
        assert r.miss, "the miss was taken but none was dealt"
    # exchanges: in deal, in declaration order, thrown from the hand, drawn from the stock front
    order = r.clockwise_from_left()
    assert [s for s, _, _ in tr.exchanges] == [s for s in order if s in {x for x, _, _ in tr.exchanges}]
    if tr.exchanges:
        assert rules.exchange and not r.miss and not r.single
        assert tr.outcome in ("play", "flush")
    hold = {s: list(r.miss if decl[s] in ON_MISS else r.hands[s]) for s in r.in_deal}
    dead: set[int] = set()
    drawn_all: list[int] = []
    for seat, thrown, drawn in tr.exchanges:
        assert seat in hold, f"seat {seat} exchanged but is not in the deal"
        assert len(thrown) == len(drawn) == len(set(thrown))
        for c in thrown:
            assert c in hold[seat], f"seat {seat} threw a card it does not hold"
            hold[seat].remove(c)
            dead.add(c)
        hold[seat].extend(drawn)
        drawn_all.extend(drawn)
    assert drawn_all == r.stock[: len(drawn_all)], "draws must come from the front of the stock (R2, R9)"
    # play: each card from the player's current hand, once, never a discard
    played: set[int] = set()
    for t, trick in enumerate(rec.tricks):
        for seat, card in trick.cards:
            assert seat in hold, f"trick {t}: seat {seat} played but is not in the deal"
            assert card not in played, f"trick {t}: {card_str(card)} played twice"
            assert card not in dead, f"trick {t}: discard {card_str(card)} reappeared"
            assert card in hold[seat], (
                f"trick {t}: seat {seat} played {card_str(card)} not in its hand {show(hold[seat])}"
            )
            hold[seat].remove(card)
            played.add(card)
    if rec.tricks:
        assert all(not cards for cards in hold.values()), "every in-deal hand is played out"
    if r.indicator is not None:
        assert r.indicator not in played and r.indicator not in drawn_all


# ---- 2. every card played is legal (R7, with R6 trump knowledge) --------------------


@SETTINGS
@given(cases())
def test_every_play_is_legal(case: Case) -> None:
    r = replay(case)
    rec, tr, rules = r.rec, r.rec.trace, case.rules
    assert rec.single_pot == r.single
    hold = starting_holdings(r)
    known: int | None = None
    turned: int | None = None
    if r.mode == "turn_up":
        known, turned = r.indicator // 13, r.indicator
        assert rec.indicator == r.indicator and trump_suit(rec) == known
    elif r.mode == "first_lead":
        assert rec.indicator is None
    reveal = None
    for t, trick in enumerate(rec.tricks):
        so_far: list[int] = []
        led_card = trick.cards[0][1]
        for j, (seat, card) in enumerate(trick.cards):
            ctx = PlayContext(
                view=TrumpView(known, rules.pam),
                lead=rules.lead.value,
                void=rules.void.value,
                first_trick=t == 0,
                double_pot=not r.single,
                indicator=turned,
                civil=t in tr.civil_tricks,
            )
            fault = why_illegal(card, hold[seat], so_far, ctx)
            assert fault is None, (
                f"trick {t} card {j}: seat {seat} played {card_str(card)} from [{show(hold[seat])}] "
                f"onto [{show(so_far)}] (trumps {None if known is None else SUITS[known]}, "
                f"indicator {None if turned is None else card_str(turned)}): {fault}"
            )
            hold[seat].remove(card)
            so_far.append(card)
            if r.mode == "first_lead" and t == 0 and j == 0:
                known = card // 13  # R6: the first card led sets trumps
        if r.mode == "first_renounce" and known is None and any(c // 13 != led_card // 13 for _, c in trick.cards):
            reveal, known, turned = t, r.indicator // 13, r.indicator  # R6: turned after this trick
    if r.mode == "first_lead" and rec.tricks:
        assert trump_suit(rec) == rec.tricks[0].cards[0][1] // 13
    if r.mode == "first_renounce":
        assert tr.reveal_trick == reveal
        if rec.tricks:
            assert rec.indicator == turned and trump_suit(rec) == known
    # "Pam be civil" (R9) only when leading the ace of trumps, and every play family invokes it (P3)
    trump = trump_suit(rec)
    for t, trick in enumerate(rec.tricks):
        ace_led = trump is not None and trick.cards[0][1] == trump * 13 + ACE
        if t in tr.civil_tricks:
            assert rules.pam_be_civil and ace_led
        elif rules.pam and rules.pam_be_civil and ace_led:
            raise AssertionError(f"trick {t}: the ace of trumps was led but Pam be civil was not invoked")


# ---- 3. chips are conserved (R3) ----------------------------------------------------


@SETTINGS
@given(cases())
def test_chips_are_conserved(case: Case) -> None:
    r = replay(case)
    rec, rules = r.rec, case.rules
    scale = max(1.0, rec.pot_start, abs(rec.pot_next), sum(rec.penalties), sum(rec.shares))
    assert approx(rec.pot_start, case.carried + sum(rec.antes), scale)
    total = sum(rec.shares) - sum(rec.antes) - sum(rec.penalties) + rec.pot_next - case.carried
    assert approx(total, 0.0, scale), f"table total changed by {total}"
    # antes (R3)
    expect_antes = [rules.ante if rules.ante_payer.value == "each" or s == case.dealer else 0.0 for s in range(r.n)]
    assert rec.antes == expect_antes
    # who gets what, by outcome (R3, R4, R8, R9)
    outcome = rec.trace.outcome
    share = rec.pot_start / rules.hand_size
    penalty = rec.pot_start if rules.penalty.value == "unlimited" else rules.penalty_amount
    assert all(p in (0.0, penalty) for p in rec.penalties)
    assert [s for s in range(r.n) if rec.penalties[s]] == ([] if penalty == 0 else sorted(rec.looed))
    if outcome == "play":
        for s in range(r.n):
            expect = 0.0 if s == r.defender else rec.tricks_won[s] * share
            assert approx(rec.shares[s], expect, scale), f"seat {s} share"
        kept = rec.tricks_won[r.defender] * share if r.defender is not None else 0.0
        assert approx(rec.pot_next, sum(rec.penalties) + kept, scale)
    elif outcome in ("lone", "flush"):
        winner = rec.trace.lone_seat if outcome == "lone" else rec.flush_winner
        assert winner is not None
        assert rec.shares == [rec.pot_start if s == winner else 0.0 for s in range(r.n)]
        assert approx(rec.pot_next, sum(rec.penalties), scale)
    else:
        assert outcome == "nobody" and not r.in_deal
        assert rec.shares == [0.0] * r.n and rec.pot_next == rec.pot_start


# ---- 4. tricks: sizes, order, winners (R7) -------------------------------------------


@SETTINGS
@given(cases())
def test_tricks_are_well_formed(case: Case) -> None:
    r = replay(case)
    rec, rules = r.rec, case.rules
    if rec.trace.outcome != "play":
        assert rec.tricks == [] and rec.tricks_won == [0] * r.n
        return
    assert len(r.in_deal) >= 2
    assert len(rec.tricks) == rules.hand_size
    assert sum(rec.tricks_won) == rules.hand_size
    in_order = [s for s in r.clockwise_from_left() if s in r.in_deal]
    assert rec.tricks[0].leader == in_order[0], "the eldest hand in the deal leads first"
    trump = trump_suit(rec)
    reveal = rec.trace.reveal_trick
    wins = [0] * r.n
    for t, trick in enumerate(rec.tricks):
        seats = [s for s, _ in trick.cards]
        k = in_order.index(trick.leader)
        assert seats == in_order[k:] + in_order[:k], f"trick {t}: one card per seat, clockwise from the leader"
        if t > 0:
            assert trick.leader == rec.tricks[t - 1].winner, "the winner leads the next trick"
        # trumps the trick is judged with: unknown before the reveal (first_renounce), else the deal's
        known = trump
        if r.mode == "first_renounce" and (reveal is None or t < reveal):
            known = None
        cards = [c for _, c in trick.cards]
        best = winning_index(cards, TrumpView(known, rules.pam))
        assert trick.winner == seats[best], (
            f"trick {t}: [{show(cards)}] is won by seat {seats[best]}, not {trick.winner}"
        )
        wins[trick.winner] += 1
    assert rec.tricks_won == wins


# ---- 5. the looed and the passers (R3, R8, R9) ---------------------------------------


@SETTINGS
@given(cases())
def test_looed_players(case: Case) -> None:
    r = replay(case)
    rec = r.rec
    outcome = rec.trace.outcome
    if outcome == "play":
        expect = [s for s in r.in_deal if s != r.defender and rec.tricks_won[s] == 0]
    elif outcome == "flush":
        expect = [s for s in r.in_deal if s != rec.flush_winner]
    else:
        expect = []
    assert sorted(rec.looed) == expect
    for s in range(r.n):
        if rec.declarations[s] == "pass":
            assert rec.shares[s] == 0 and rec.penalties[s] == 0, f"passer {s} won or paid"
    if r.defender is not None:
        assert rec.penalties[r.defender] == 0 and rec.shares[r.defender] == 0


# ---- 6. declarations (R4, R5, R8, R9b) -------------------------------------------------


@SETTINGS
@given(cases())
def test_declarations_follow_the_rules(case: Case) -> None:
    r = replay(case)
    rec, rules, decl = r.rec, case.rules, r.rec.declarations
    dealer, order = case.dealer, r.clockwise_from_left()
    assert all(d in ("play", "pass", "miss", "defend") for d in decl)
    clean = case.carried == 0
    club_law = rules.club_law and r.indicator is not None and r.indicator // 13 == 0
    defence_possible = rules.dealer_defends and not r.single
    if not r.miss or club_law:
        assert "miss" not in decl and "defend" not in decl, "no miss on offer (R5, R8, R9b)"
    if r.single or club_law or (clean and rules.bold_stand.value == "everyone"):
        assert "pass" not in decl, "nobody may pass here (R4, R8, R9b)"
    if clean and rules.bold_stand.value == "last_and_dealer" and r.n >= 3:
        right = (dealer - 1) % r.n
        if all(decl[s] == "pass" for s in order[: order.index(right)]):
            assert decl[right] != "pass", "bold stand: the dealer's right-hand neighbour may not pass (R4)"
            if not defence_possible:
                assert decl[dealer] != "pass", "bold stand: the dealer may not pass (R4)"
    for s in range(r.n):
        if decl[s] == "defend":  # R8 case 2
            others = [x for x in r.in_deal if x != dealer]
            assert s == dealer and defence_possible and len(others) == 1 and decl[others[0]] == "play"
    outcome = rec.trace.outcome
    if not r.in_deal:
        assert outcome == "nobody"
    elif len(r.in_deal) == 1:
        assert outcome == "lone" and rec.trace.lone_seat == r.in_deal[0]
    else:
        assert outcome in ("play", "flush")
        assert outcome == "play" or rules.flush


# ---- 7. flushes (R9) ----------------------------------------------------------------


def flush_key(cards: list[int], trump: int | None, pam: bool) -> tuple | None:
    """R9: None if ``cards`` is no flush, else a key that orders flushes (higher wins):
    Pam-flush first, then trump flush, then the cards from the top down (Pam above all)."""
    has_pam = pam and PAM_CARD in cards
    rest = [c for c in cards if not (has_pam and c == PAM_CARD)]
    suits = {c // 13 for c in rest}
    if len(cards) != 5 or len(suits) != 1:
        return None
    suit = suits.pop()
    ranks = sorted((c % 13 for c in rest), reverse=True)
    return (has_pam, trump is not None and suit == trump, [99] * has_pam + ranks)


@SETTINGS
@given(cases())
def test_flushes(case: Case) -> None:
    r = replay(case)
    rec, rules = r.rec, case.rules
    outcome = rec.trace.outcome
    if not rules.flush or outcome in ("lone", "nobody"):
        assert outcome != "flush" and rec.flush_winner is None
        return
    hold = starting_holdings(r)  # after the exchanges: flushes are shown then
    trump = r.indicator // 13 if r.mode == "turn_up" else None  # unknown trumps: no trump flush
    shown = {s: flush_key(hold[s], trump, rules.pam) for s in r.in_deal}
    shown = {s: k for s, k in shown.items() if k is not None}
    if not shown:
        assert outcome == "play" and rec.flush_winner is None
        return
    elder = [s for s in r.clockwise_from_left() if s in shown]
    best = max(elder, key=lambda s: shown[s])  # max keeps the first (elder) of equal keys
    assert outcome == "flush" and rec.flush_winner == best, f"flushes {shown}: {best} should win"


# ---- the checker itself, on hand-made positions --------------------------------------


def test_legality_checker_examples() -> None:
    c = lambda text: "23456789TJQKA".index(text[0]) + 13 * SUITS.index(text[1])  # noqa: E731
    hearts = TrumpView(SUITS.index("H"), pam=False)
    # R12: hearts trumps, lead = trump, double pot, first trick: A holds AH 7H KC and must lead AH
    ctx = PlayContext(view=hearts, lead="trump", first_trick=True, indicator=c("4H"))
    hand = [c("AH"), c("7H"), c("KC")]
    assert why_illegal(c("AH"), hand, [], ctx) is None
    assert why_illegal(c("7H"), hand, [], ctx) is not None
    assert why_illegal(c("KC"), hand, [], ctx) is not None
    # single pot: no opening clause, but a trump must still be led once trumps are known
    single = PlayContext(view=hearts, lead="trump", first_trick=False, double_pot=False)
    assert why_illegal(c("7H"), hand, [], single) is None and why_illegal(c("KC"), hand, [], single) is not None
    # follow and head: KD led, holding 3D AD: must play AD
    follow = PlayContext(view=hearts)
    assert why_illegal(c("3D"), [c("3D"), c("AD")], [c("KD")], follow) is not None
    # trick trumped: follow with any diamond
    assert why_illegal(c("3D"), [c("3D"), c("AD")], [c("KD"), c("2H")], follow) is None
    # void, must_trump: under-trump when unable to overtrump
    assert why_illegal(c("3H"), [c("3H"), c("2S")], [c("KD"), c("9H")], follow) is None
    assert why_illegal(c("2S"), [c("3H"), c("2S")], [c("KD"), c("9H")], follow) is not None
    # trump_to_win: no winning trump, any card
    ttw = PlayContext(view=hearts, void="trump_to_win")
    assert why_illegal(c("2S"), [c("3H"), c("2S")], [c("KD"), c("9H")], ttw) is None
    assert why_illegal(c("2S"), [c("TH"), c("2S")], [c("KD"), c("9H")], ttw) is not None
    # Pam follows trumps, not clubs; civil bars Pam unless it is the last card
    pam_view = TrumpView(SUITS.index("H"), pam=True)
    pam = PlayContext(view=pam_view)
    assert why_illegal(PAM_CARD, [PAM_CARD, c("3C")], [c("5C")], pam) is not None
    assert why_illegal(PAM_CARD, [PAM_CARD, c("3C")], [c("5H")], pam) is None
    civil = PlayContext(view=pam_view, civil=True)
    assert why_illegal(PAM_CARD, [PAM_CARD, c("3H")], [c("AH")], civil) is not None
    assert why_illegal(c("3H"), [PAM_CARD, c("3H")], [c("AH")], civil) is None
    assert why_illegal(PAM_CARD, [PAM_CARD], [c("AH")], civil) is None
    assert winning_index([c("AH"), PAM_CARD, c("KH")], pam_view) == 1
    # trumps unknown: only the led suit wins, and void players may play anything
    unknown = PlayContext(view=TrumpView(None))
    assert why_illegal(c("2S"), [c("2S"), c("AH")], [c("KD")], unknown) is None
    assert winning_index([c("KD"), c("AS"), c("3D")], TrumpView(None)) == 0
