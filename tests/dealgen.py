"""Random and arranged deals for the differential tests: presets, a spread of
overrides, per-seat policy mixes, dealers, carried pots."""

from __future__ import annotations

import random

import numpy as np

from loo_sim import LooError, Rules
from loo_sim.game import abi as L
from loo_sim.game.cards import PAM, make_card
from loo_sim.game.infosets import ACTIONS, N_INFOSETS, SITUATION_MASKS, infoset_parts
from loo_sim.game.policy import DECLARE_FAMILIES, EXCHANGE_FAMILIES, PLAY_FAMILIES, SOLVER_PLAY, Policy
from loo_sim.game.rules import FlushTie
from loo_sim.run.strength import SHAPE, StrengthTable

OVERRIDE_CHOICES = {
    "players": [3, 4, 5, 6, 7, 8],
    "lead": ["free", "ace", "trump", "classic"],
    "void": ["must_trump", "trump_to_win"],
    "bold_stand": ["off", "last_and_dealer", "everyone"],
    "penalty": ["limited", "unlimited"],
    "penalty_amount": [1, 2, 3, 7],
    "ante_payer": ["each", "dealer"],
    "ante": [1, 2, 3, 5],
    "single_pot": [True, False],
    "dealer_defends": [True, False],
    "club_law": [True, False],
    "trump": ["turn_up", "first_lead", "first_renounce"],
    "exchange": [True, False],
    "miss": [True, False],
    "pam_be_civil": [True, False],
    "flush": [True, False],
}
# R9c's variants (issue 16): drawn from a stream of their own (``random_rules``' ``variants``),
# so the options above keep the draws they had before; ``R9C_NEEDS`` are the settings a
# variant needs (R9c's refusals), set with it. The spread's choices are OVERRIDE_CHOICES
# and these.
R9C_CHOICES: dict[str, list] = {
    "penalty": ["capped"],
    "ace_lead_king": [True],
    "dealer_takes_all_pass": [True],
    "dealer_takes_miss": [True],
    "pam_flush": [False],
    "flush_spares_pam": [True],
    "flush_spares_flushes": [True],
    "flush_loos_all": [True],
    "flush_tie": ["split"],
}
R9C_NEEDS: dict[str, dict] = {"ace_lead_king": {"lead": "ace"}, "dealer_takes_miss": {"dealer_defends": True}}
R9C_SHARE = 0.3  # of the spread's deals, with one or two variants
# R9c exchange_timing = at_turn, on rule sets with an exchange, from a stream of its own
# (``random_rules``' ``timing``): the variants above, and the rare paths they reach, keep
# their draws
AT_TURN_SHARE = 0.3
CARRIED = [0.0, 0.0, 3.0, 6.0, 12.0, 30.0, 7.5]
SYNTHETIC_TABLE = "synthetic-table.csv"  # the path name table seats of the spread read (dealgen.TABLES)


def random_rules(rng: random.Random, preset: str, variants: random.Random | None = None,
                 timing: random.Random | None = None) -> tuple[dict, Rules]:  # fmt: skip
    """A valid rule set near ``preset``: 0-3 random overrides (invalid draws retried); with
    ``variants``, a stream of its own, sometimes one or two of R9c's variants on top (each
    with what it needs; one the rule set refuses is left out); with ``timing``, another,
    sometimes R9c's ``exchange_timing = at_turn`` where the rule set has an exchange."""
    while True:
        overrides = {}
        for key in rng.sample(sorted(OVERRIDE_CHOICES), rng.randint(0, 3)):
            overrides[key] = rng.choice(OVERRIDE_CHOICES[key])
        if rng.random() < 0.5:
            overrides["players"] = rng.choice(OVERRIDE_CHOICES["players"])
        try:
            rules = Rules.preset(preset, **overrides)
        except LooError:
            continue
        if variants is not None and variants.random() < R9C_SHARE:
            fitting = [key for key in sorted(R9C_CHOICES) if _accepts(preset, overrides, key)]
            for key in variants.sample(fitting, min(len(fitting), variants.randint(1, 2))):
                tried = overrides | R9C_NEEDS.get(key, {}) | {key: variants.choice(R9C_CHOICES[key])}
                try:
                    rules, overrides = Rules.preset(preset, **tried), tried
                except LooError:
                    continue
        if timing is not None and rules.exchange and timing.random() < AT_TURN_SHARE:
            overrides = overrides | {"exchange_timing": "at_turn"}
            rules = Rules.preset(preset, **overrides)
        return overrides, rules


def _accepts(preset: str, overrides: dict, key: str) -> bool:
    """Whether the rule set takes R9c's variant ``key`` (each of its values, with what it
    needs): the variants drawn are those that can apply, so the flush settlements of a
    five-card table do not thin out the variants of a three-card one."""
    try:
        for value in R9C_CHOICES[key]:
            Rules.preset(preset, **(overrides | R9C_NEEDS.get(key, {}) | {key: value}))
    except LooError:
        return False
    return True


# random_policy adds chart and table; flush-aware comes in by with_flush_aware, from a
# stream of its own, so the draws of the other families (and the rare paths they reach,
# e.g. a calibrated dealer's defence) are those of the spread before it existed
WRITTEN_FAMILIES = tuple(f for f in DECLARE_FAMILIES if f not in ("chart", "table", "flush-aware", "rule"))
FLUSH_AWARE_SHARE = 0.5  # of the basic seats


def random_declare(rng: random.Random) -> str:
    family = rng.choice(WRITTEN_FAMILIES)
    if family == "threshold":
        return f"threshold:play={rng.choice([0.3, 0.5, 0.62, 0.8])},miss={rng.choice([0.1, 0.25, 0.4])}"
    return family


# the solver families (P8) are spread separately, on fewer deals (tests/test_differential.py)
FAST_PLAY = tuple(f for f in PLAY_FAMILIES if f not in SOLVER_PLAY)


def random_policy(rng: random.Random, players: int) -> list:
    table = []
    for _ in range(players):
        play, exchange = rng.choice(FAST_PLAY), rng.choice(EXCHANGE_FAMILIES)
        if rng.random() < 0.08:  # the decision chart's best-action policy (internal family)
            table.append(Policy("chart", play, exchange))
        else:
            table.append(f"{random_declare(rng)}/{play}/{exchange}")
    return table


def synthetic_strength(seed: int) -> StrengthTable:
    """A random but valid strength table: both engines must agree whatever it says."""
    gen = np.random.default_rng(seed)
    counts = gen.integers(0, 400, size=SHAPE)
    counts[:, :, 4:] = 0  # room for three-card and five-card alike; finalize trims by hand size
    probs = gen.dirichlet(np.ones(L.MAX_TRICKS + 1), size=SHAPE[:2])
    return StrengthTable(probs, counts, float(gen.uniform(0.3, 0.9)), "synthetic", 0, seed)


def synthetic_chart(seed: int) -> np.ndarray:
    """A random chart of every cell [class, position, miss on offer, earlier seats in]: both
    engines must look up the same cell (the miss on offer and the earlier seats in differ
    between them only if one of them keys the cell wrongly)."""
    gen = np.random.default_rng(seed + 1)
    return gen.integers(-1, 4, size=L.CHART_SHAPE).astype(np.int64)


def synthetic_table(seed: int) -> np.ndarray:
    """A random but valid strategy table [information set, action] (P6): a third of the
    rows unknown (NaN: basic decides), a third pure, a third mixed, with probability only
    on the actions on offer in the row's situation."""
    gen = np.random.default_rng(seed + 2)
    table = np.full((N_INFOSETS, ACTIONS), np.nan)
    situation = np.array([infoset_parts(i)[3] for i in range(N_INFOSETS)])
    kind = gen.integers(0, 3, size=N_INFOSETS)
    for i in np.flatnonzero(kind > 0):
        offered = [a for a in range(ACTIONS) if (SITUATION_MASKS[situation[i]] >> a) & 1]
        row = np.zeros(ACTIONS)
        if kind[i] == 1:
            row[gen.choice(offered)] = 1.0
        else:
            row[offered] = gen.dirichlet(np.ones(len(offered)))
        table[i] = row
    return table


def deal_positions(rules: Rules, dealer: int, carried: float) -> list[str | int]:
    """Who receives each deck position (R2): a seat, "miss", "indicator", or "stock"."""
    n, h = rules.players, rules.hand_size
    single = rules.is_single_pot(carried)
    miss = rules.miss and not single
    owners: list[str | int] = []
    for _ in range(h):
        for i in range(n):
            seat = (dealer + 1 + i) % n
            if seat == dealer and miss:
                owners.append("miss")
            owners.append(seat)
    if single or rules.trump != "first_lead":
        owners.append("indicator")
    owners += ["stock"] * (52 - len(owners))
    return owners


def arranged_deck(rng: random.Random, owners: list, wanted: dict) -> list[int]:
    """A deck in which owner ``k`` receives the cards ``wanted[k]`` (the rest random)."""
    deck: list[int | None] = [None] * 52
    used: set[int] = set()
    for owner, cards in wanted.items():
        slots = [i for i, o in enumerate(owners) if o == owner]
        for slot, card in zip(slots, cards):
            deck[slot] = card
            used.add(card)
    rest = [c for c in range(52) if c not in used]
    rng.shuffle(rest)
    it = iter(rest)
    return [c if c is not None else next(it) for c in deck]


def flush_rich_deck(rng: random.Random, rules: Rules, dealer: int, carried: float) -> list[int]:
    """Five-card deals where several seats hold flushes: Pam-flushes, trump flushes,
    and exact ties (the same ranks in two suits)."""
    owners = deal_positions(rules, dealer, carried)
    seats = rng.sample(range(rules.players), min(rules.players, rng.randint(2, 3)))
    suits = rng.sample(range(4), len(seats))
    ranks = sorted(rng.sample([r for r in range(13) if r != 9], 5))
    wanted: dict = {}
    for seat, suit in zip(seats, suits):
        if rng.random() < 0.5:  # a fresh rank set, else an exact tie with the last
            ranks = sorted(rng.sample([r for r in range(13) if r != 9], 5))
        wanted[seat] = [make_card(r, suit) for r in ranks]
    if rules.pam and rng.random() < 0.4:
        wanted[seats[0]] = wanted[seats[0]][:4] + [PAM]
    if "indicator" in owners and rng.random() < 0.5:
        used = {c for cards in wanted.values() for c in cards}
        indicator = rng.choice([c for c in range(52) if c // 13 == suits[0] and c not in used] or [0])
        if indicator not in used:
            wanted["indicator"] = [indicator]
    return arranged_deck(rng, owners, wanted)


def tied_flush_deck(rng: random.Random, rules: Rules, dealer: int, carried: float) -> list[int]:
    """Five-card deals where two or three seats hold flushes of the same ranks, none of
    trumps (the indicator is of a suit none of them holds): an exact tie of the best
    flushes, unless a Pam-flush or another flush beats it (R9c flush_tie)."""
    owners = deal_positions(rules, dealer, carried)
    seats = rng.sample(range(rules.players), min(rules.players, rng.randint(2, 3)))
    suits = rng.sample(range(4), 4)
    ranks = sorted(rng.sample([r for r in range(13) if r != 9], 5))
    wanted: dict = {seat: [make_card(r, suit) for r in ranks] for seat, suit in zip(seats, suits)}
    if "indicator" in owners:
        wanted["indicator"] = [make_card(rng.choice([r for r in range(13) if r not in ranks]), suits[3])]
    return arranged_deck(rng, owners, wanted)


def ace_turned_deck(rng: random.Random, rules: Rules, dealer: int, carried: float) -> list[int]:
    """The indicator is an ace and the eldest hand holds the king of that suit (and, with
    Pam, a holder of Pam faces the trump ace)."""
    owners = deal_positions(rules, dealer, carried)
    suit = rng.randrange(4)
    eldest = (dealer + 1) % rules.players
    wanted: dict = {"indicator": [make_card(12, suit)], eldest: [make_card(11, suit)]}
    if rules.pam and rules.players > 2:
        wanted[(dealer + 2) % rules.players] = [PAM]
    return arranged_deck(rng, owners, wanted)


STRENGTH = synthetic_strength(5)
CHART = synthetic_chart(5)
TABLES = {SYNTHETIC_TABLE: synthetic_table(5)}


def random_deal(rng: random.Random, rules: Rules, preset: str = "", overrides: dict | None = None) -> dict:
    """One deal of ``rules``: a dealer, a carried pot, a deck (flush-rich, ace turned up,
    or shuffled) and a policy table (mixed per seat, or one family for all)."""
    dealer = rng.randrange(rules.players)
    carried = rng.choice(CARRIED)
    kind = rng.random()
    if rules.flush and kind < 0.25:
        deck = flush_rich_deck(rng, rules, dealer, carried)
    elif kind < 0.35:
        deck = ace_turned_deck(rng, rules, dealer, carried)
    else:
        deck = list(range(52))
        rng.shuffle(deck)
    policy = (
        random_policy(rng, rules.players) if rng.random() < 0.7 else [rng.choice(["basic", "always"])] * rules.players
    )
    seed = rng.randrange(2**31)
    if rules.flush_tie is FlushTie.SPLIT and kind < 0.25:  # from a stream of its own: the spread's draws stay
        deck = tied_flush_deck(random.Random(f"tied-flush-{seed}"), rules, dealer, carried)
    return dict(preset=preset, overrides=overrides or {}, rules=rules, deck=deck, dealer=dealer, carried=carried,
                policy=with_flush_aware(policy, seed), seed=seed, strength=STRENGTH, chart=CHART,
                tables=TABLES)  # fmt: skip


def with_flush_aware(policy: list, seed: int) -> list:
    """About FLUSH_AWARE_SHARE of the ``basic`` declaration seats turned ``flush-aware``
    (same play and exchange), drawn from a stream keyed by the deal's seed: with flushes
    the family differs from basic, without them it must give basic's deal in both engines."""
    sub = random.Random(f"flush-aware-{seed}")
    out = []
    for p in policy:
        parsed = Policy.parse(p)
        if parsed.declare == "basic" and sub.random() < FLUSH_AWARE_SHARE:
            p = str(Policy("flush-aware", parsed.play, parsed.exchange))
        out.append(p)
    return out


RULE_SHARE = 0.5  # of the seats of with_rule_seats' deals


def with_rule_seats(deals: list[dict], seed: int, share: float = RULE_SHARE) -> list[dict]:
    """The same deals with about ``share`` of the seats declaring by a rule (P3b; their play
    and exchange families kept): the P3 families' rule forms and random rules
    (tests/rulegen.py), drawn from a stream of their own."""
    from tests.rulegen import random_rule

    rng = random.Random(f"rules-{seed}")
    families = ("play if trumps >= 1 or aces >= 1; defend; miss; pass; play",
                "play if trumps >= 2 or highest_trump >= Q or (not trumps_known and aces >= 1); defend; pass; play",
                "miss if trumps == 0 and aces == 0 and faces == 0 and dealer_case != 2; play")  # fmt: skip
    out = []
    for d in deals:
        policy = []
        for p in (Policy.parse(x) for x in d["policy"]):
            if rng.random() < share:
                text = rng.choice(families) if rng.random() < 0.3 else str(random_rule(rng))
                p = Policy.parse(f"rule:{text}/{p.play_name}/{p.exchange}")
            policy.append(p)
        out.append(d | dict(policy=policy))
    return out


def random_deals(seed: int, preset: str, count: int) -> list[dict]:
    """``count`` deals of ``preset`` with varied overrides, policies, dealers and pots."""
    rng = random.Random(f"{seed}-{preset}")
    variants = random.Random(f"{seed}-{preset}-r9c")
    timing = random.Random(f"{seed}-{preset}-at-turn")
    deals = []
    for _ in range(count):
        overrides, rules = random_rules(rng, preset, variants, timing)
        deals.append(random_deal(rng, rules, preset, overrides))
    return deals


def with_table_seats(deals: list[dict], seed: int, share: float = 0.6) -> list[dict]:
    """The same deals with about ``share`` of the seats declaring from the synthetic strategy
    table (P6; their play and exchange families kept), drawn from a stream of their own."""
    rng = random.Random(f"tables-{seed}")
    out = []
    for d in deals:
        policy = [Policy.parse(p) for p in d["policy"]]
        policy = [Policy("table", p.play, p.exchange, table=SYNTHETIC_TABLE) if rng.random() < share else p
                  for p in policy]  # fmt: skip
        out.append(d | dict(policy=policy))
    return out


def deals_for(rules: Rules, seed: int, count: int) -> list[dict]:
    """``count`` deals of exactly ``rules`` (no overrides drawn), varied as ``random_deal``."""
    rng = random.Random(seed)
    return [random_deal(rng, rules) for _ in range(count)]
