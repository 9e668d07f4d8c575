"""Card advice (``loo-sim advise ... --declare ... --play ...``, #25 item 3): for the seat to
play, each legal card's net chips for the rest of the deal, on deals of the unseen cards
drawn consistently with everything the seat has seen.

**The draw (exact rejection).** The seat knows its hand as dealt, the indicator where
turned (or given), the miss if it took it (or it is given), any other hand given as
dealt (``known``), every declaration and every card played, by whom. Each sample puts
the cards seen where they are known to be (a seat's played cards in its hand as dealt,
or in the miss if it took the miss) and shuffles every other card uniformly into the
places left (the other hands, the miss or a dead hand, a hidden indicator, the stock).
It is **accepted** only when (1) every card each other seat played was legal with the
hand it held then (P8's consistency test, ``engine.cardplay.Sight.consistent``), and
(2) the reference engine, dealing that deck and letting every seat declare by the
table's policies (each seat's own stream for a mixed table row), gives exactly the
declarations seen. A uniform draw kept only when it agrees with what was seen is a draw
from the deals consistent with it, each as likely as under a fair deal: nothing is
weighted or approximated. (P8's own sampler, which pimc seats use, is not uniform; it is
not used here.)

**The answer**: for each accepted sample and each legal card, the seat's net chips
(P4) when it plays the card and every seat then plays by ``then``
(:mod:`loo_sim.run.advise_playout`); the same sample for every card (paired).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from loo_sim.base.errors import IllegalAction, LooError
from loo_sim.base.rng import ADVISE_SESSION, MASK64, seat_streams
from loo_sim.engine.cardplay import Sight
from loo_sim.engine.deal import _Deal  # the declarations alone (as tests/bruteforce.py sets a deal up)
from loo_sim.engine.solver import Position
from loo_sim.game.cards import CLUBS, card_str, suit_of
from loo_sim.game.deal_input import Play, deal_slots, indicator_used, miss_dealt
from loo_sim.game.decl import DEFEND, MISS, PASS
from loo_sim.game.policy import Policy
from loo_sim.game.rules import Rules, Trump
from loo_sim.run.advice import Advice, precise_enough
from loo_sim.run.advise_cards_kernel import batch_size, collect_kernel
from loo_sim.run.advise_playout import FAST_FAMILIES, net_chips, perfect_values, play_on, replay_values
from loo_sim.run.advise_sight import DEALER, in_positions, position_of, seat_of, walk_script

GIVE_UP = 20_000  # attempts without a single accepted sample: nothing seen is that unlikely


class _Facts:
    """The deal as the asking seat knows it: the deck places (R2, dealer at seat 0) whose
    card is known, the unseen cards for the rest, and the walked script."""

    def __init__(self, rules: Rules, me: int, hand: Sequence[int], indicator: int | None,
                 declarations: Mapping[int, str], play: Play, known: Mapping[int, Sequence[int]],
                 miss: Sequence[int] | None, carried: float, table: Sequence[Policy]) -> None:  # fmt: skip
        n = rules.players
        self.rules, self.me, self.carried = rules, me, carried
        self.single = rules.is_single_pot(carried)
        check_game(rules, carried, indicator, miss)
        missing = [position_of(s, n) for s in range(n) if s not in declarations]
        if missing:
            raise LooError(f"--declare: a card question needs every declaration; position {missing[0]}'s is missing")
        self.declarations = [declarations[s] for s in range(n)]
        self.in_deal = [s for s in [*range(1, n), 0] if declarations[s] != PASS]
        if declarations[me] == PASS:
            raise LooError(f"position {position_of(me, n)} passed (R4): it has no card to play")
        if len(self.in_deal) < 2:
            raise LooError("--declare: fewer than two seats are in, so no cards are played (R4)")
        takers = {s for s in range(n) if declarations[s] in (MISS, DEFEND)}
        if me in takers and miss is None:
            raise LooError(f"--miss: position {position_of(me, n)} took the miss, so it has seen it; give its cards")
        self.defender = next((s for s in range(n) if declarations[s] == DEFEND), None)
        slots = deal_slots(rules, DEALER, carried)
        self.places = {s: [i for i, x in enumerate(slots) if x == s] for s in range(n)}
        self.places["miss"] = [i for i, x in enumerate(slots) if x == "miss"]
        self.indicator_place = slots.index("indicator") if "indicator" in slots else None
        self.fixed: dict[int, int] = {}  # deck place -> card
        self.used: dict[int, str] = {}  # card -> where it was given
        self.give(self.places[me], hand, f"position {position_of(me, n)}'s hand", "--hand")
        if miss is not None:
            self.give(self.places["miss"], miss, "the miss", "--miss")
        for seat, cards in (known or {}).items():
            if seat == me:
                raise LooError(f"known: position {position_of(me, n)}'s hand is --hand")
            self.give(self.places[seat], cards, f"position {position_of(seat, n)}'s hand", f"known {seat}")
        if indicator is not None:
            self.take(indicator, "--indicator")
            self.fixed[self.indicator_place] = indicator
        self.check_declarations(table)
        self.playing = {s: ("miss" if s in takers else s) for s in self.in_deal}  # where its cards come from
        self.hand_now = list(miss if me in takers else hand)
        self.walked = walk_script(rules, self.single, self.in_deal, me, self.hand_now, play, indicator)
        self.place_played(known or {}, miss)
        self.free_places = [i for i in range(len(slots)) if i not in self.fixed]
        self.free_cards = [c for c in range(52) if c not in self.fixed.values()]
        self.indicator = indicator
        self.play = [[(p.seat, p.card) for p in self.walked.plays if p.trick == t]
                     for t in range(self.walked.trick_index + 1)]  # fmt: skip
        self.play = [trick for trick in self.play if trick]
        others = tuple((s, self.rules.hand_size - self.played_by(s)) for s in self.in_deal if s != me)
        hidden = self.indicator_place is not None and not self.walked.turned
        self.sight = Sight(rules, self.single, me, frozenset(), others, tuple(self.walked.plays), hidden)

    def take(self, card: int, what: str) -> None:
        if card in self.used:
            where = "twice in " + what if self.used[card] == what else f"in {self.used[card]} and in {what}"
            raise LooError(f"{card_str(card)} is given {where}: each card is in the deck once")
        self.used[card] = what

    def give(self, places: list[int], cards: Sequence[int], whose: str, what: str) -> None:
        if len(cards) != self.rules.hand_size:
            raise LooError(f"{what}: {len(cards)} cards given; {whose} holds {self.rules.hand_size} (R2)")
        for place, card in zip(places, cards, strict=True):
            self.take(card, what)
            self.fixed[place] = card

    def check_declarations(self, table: Sequence[Policy]) -> None:
        """The declarations seen must be on offer (R4, R5, R8, R9b): the engine's refusal, in
        positions. What is on offer follows from the earlier declarations and the indicator
        alone, so any deck with the cards given in place will do."""
        rest = iter(c for c in range(52) if c not in self.fixed.values())
        deck = [self.fixed[i] if i in self.fixed else next(rest) for i in range(52)]
        deal = _Deal(self.rules, deck, DEALER, self.carried, table, [None] * self.rules.players)
        deal.forced = dict(enumerate(self.declarations))
        deal.deal_cards(deck)
        deal.collect_antes()
        try:
            deal.declare_all()
        except IllegalAction as e:
            raise IllegalAction(in_positions(str(e), self.rules.players)) from None

    def played_by(self, seat: int) -> int:
        return sum(1 for p in self.walked.plays if p.seat == seat)

    def place_played(self, known: Mapping[int, Sequence[int]], miss: Sequence[int] | None) -> None:
        """Each other seat's played cards into its hand as dealt (or the miss it took)."""
        n = self.rules.players
        for p in self.walked.plays:
            source = self.playing[p.seat]
            given = miss if source == "miss" else known.get(p.seat)
            whose = "the miss" if source == "miss" else f"position {position_of(p.seat, n)}'s hand"
            if p.seat == self.me:
                continue  # walk_script checked them against the hand
            if given is not None:
                if p.card not in given:
                    where = f"trick {p.trick + 1}, {card_str(p.card)}: position {position_of(p.seat, n)}"
                    raise IllegalAction(f"{where} plays from {whose}, which does not hold it")
                continue
            self.take(p.card, f"--play trick {p.trick + 1}")
            place = next(i for i in self.places[source] if i not in self.fixed)
            self.fixed[place] = p.card

    def draw_decks(self, first: int, count: int, seed: int) -> np.ndarray:
        """Samples ``first`` .. ``first + count - 1``: decks [count, 52] with the unseen cards
        in the places left, each a uniform permutation (numpy's generator keyed by
        (seed, ADVISE_SESSION, first))."""
        gen = np.random.default_rng([seed & MASK64, ADVISE_SESSION, first])
        perms = gen.random((count, len(self.free_cards))).argsort(axis=1)
        decks = np.zeros((count, 52), dtype=np.int64)
        decks[:, list(self.fixed)] = list(self.fixed.values())
        decks[:, self.free_places] = np.asarray(self.free_cards)[perms]
        return decks


def check_game(rules: Rules, carried: float, indicator: int | None, miss: Sequence[int] | None) -> None:
    """What the rules deal must match what is given; the R9 exchange is not covered."""
    single = rules.is_single_pot(carried)
    if rules.exchange and not single and not miss_dealt(rules, carried):
        raise LooError("card advice does not cover games with the R9 exchange yet (the discards are unseen)")
    if indicator is not None and not indicator_used(rules, carried):
        raise LooError("--indicator: trump = first_lead turns no indicator (R6)")
    if indicator is None and not single and rules.trump is Trump.TURN_UP:
        raise LooError("--indicator: the indicator is turned before the declarations (R6, turn_up); give it")
    if miss is not None and not miss_dealt(rules, carried):
        raise LooError("--miss: no miss is dealt in this deal (R5, R8)")


def card_advice(rules: Rules, position: int, hand: Sequence[int], *, indicator: int | None = None,
                declarations: Mapping[int, str], play: Play, table: Sequence[Policy], then: str = "basic",
                carried: float = 0.0, known: Mapping[int, Sequence[int]] | None = None,
                miss: Sequence[int] | None = None, precision: float = 0.10, max_samples: int = 200_000,
                seed: int = 0, progress: Callable[[int, int], None] | None = None,
                engine: str = "kernel") -> Advice:  # fmt: skip
    """Each legal card of the seat at ``position`` with its net chips for the whole deal.

    Parameters
    ----------
    rules : Rules
        The rules of the deal (the dealer is seat 0; the R9 exchange is not covered).
    position : int
        The asking seat's position, 1 (the dealer's left) .. players (the dealer).
    hand : sequence of int
        Its hand as dealt (card numbers).
    indicator : int or None
        The indicator, where turned (required under ``turn_up``) or known.
    declarations : mapping
        Seat -> declaration, every seat (``parse_positions_declare``).
    play : Play
        The cards played so far, trick by trick, by seat (``parse_positions_play``); the
        last trick may be partial, and it must be the asking seat's turn.
    table : sequence of Policy
        One policy per seat: how the others declare (the declaration filter).
    then : str
        The card play of every seat after the card: ``basic``, ``high``, ``low``,
        ``perfect`` or ``pimc:N``.
    carried : float
        Chips carried in (R8: a clean pot may be a single pot).
    known, miss : optional
        Other seats' hands as dealt and the miss, where the seat knows them.
    precision : float
        Stop once every card's 95% half-width against the best is below this.
    max_samples : int
        Stop at this many accepted samples (``stopped="cap"``).
    seed : int
        The key of the samples' streams.
    engine : str
        ``kernel`` (the deals played by ``kernel.chunks.play_rows``, fast) or
        ``reference`` (each sample checked and played in Python: the independent check).
    progress : callable, optional
        Called ``progress(accepted, max_samples)`` after each batch.

    Returns
    -------
    Advice
        ``actions`` the legal cards, ``pay[i, a]`` the seat's net chips (P4) on sample ``i``.

    Raises
    ------
    LooError
        Bad input, an illegal script (``check``'s sentence with the rule), or a position
        no deal of the unseen cards agrees with.
    """
    began = time.perf_counter()
    n = rules.players
    if not 1 <= position <= n:
        raise LooError(f"position {position}: positions are 1..{n} (1 = the dealer's left, {n} = the dealer)")
    if len(table) != n:
        raise LooError(f"table: {len(table)} policies for {n} seats")
    then_policy = Policy.parse(f"basic/{then}")
    me = seat_of(position, n)
    facts = _Facts(rules, me, hand, indicator, declarations, play, known or {}, miss, carried, table)
    options = legal_now(facts)
    strength, tables = declaration_data(rules, table)
    notes = sample_notes(facts, then_policy)
    if engine == "kernel":
        pay, attempts, stopped = collect_kernel(facts, table, options, then_policy, seed, ADVISE_SESSION, precision,
                                                max_samples, progress)  # fmt: skip
    else:
        rows, attempts, stopped = collect(facts, table, options, then_policy, seed, (strength, tables), precision,
                                          max_samples, progress)  # fmt: skip
        pay = np.array(rows, dtype=np.float64).reshape(len(rows), len(options))
    return Advice([card_str(c) for c in options], pay, attempts, precision, stopped,
                  time.perf_counter() - began, notes)  # fmt: skip


def collect(facts: _Facts, table: Sequence[Policy], options: Sequence[int], then: Policy, seed: int, data: tuple,
            precision: float, max_samples: int, progress) -> tuple[list[list[float]], int, str]:  # fmt: skip
    """Accepted rows, batch by batch, until precise enough, the cap, or Ctrl-C (after one row)."""
    rows: list[list[float]] = []
    attempts = 0
    stopped = "cap"
    try:
        while len(rows) < max_samples and attempts < GIVE_UP + 50 * max_samples:
            first, count = attempts, batch_size(first=attempts)
            for deck in facts.draw_decks(first, count, seed).tolist():
                attempts += 1
                row = sample_row(facts, table, options, then, seed, attempts - 1, deck, *data)
                if row is not None:
                    rows.append(row)
                    if len(rows) >= max_samples:
                        break
            if not rows and attempts >= GIVE_UP:
                raise LooError(f"no deal of the unseen cards agrees with what was seen ({attempts} tried): the "
                               "declarations are not what the table's policies declare with such hands")  # fmt: skip
            if progress is not None:
                progress(len(rows), max_samples)
            if rows and precise_enough(np.array(rows), precision):
                stopped = "precision"
                break
    except KeyboardInterrupt:
        if not rows:
            raise
        stopped = "interrupted"
    return rows, attempts, stopped


def legal_now(facts: _Facts) -> list[int]:
    """The asking seat's legal cards now (its hand is known, so they are too)."""
    from loo_sim.engine.script import decision

    mine = {p.card for p in facts.walked.plays if p.seat == facts.me}
    held = {facts.me: [c for c in facts.hand_now if c not in mine]}
    return decision(question_position(facts, held, facts.indicator, 0.0, 0.0)).options


def declaration_data(rules: Rules, table: Sequence[Policy]):
    """The strength tables and strategy tables the table's declaration families read."""
    from loo_sim.run.strength import resolve_strength
    from loo_sim.run.tables import resolve_tables

    if any(p.declare == "chart" for p in table):
        raise LooError("table: the chart family needs a decision chart; advise does not take one")
    return resolve_strength(rules, table, None), resolve_tables(rules, table)


def question_position(facts: _Facts, hands: Mapping[int, Sequence[int]], indicator: int | None, pot_start: float,
                      penalty: float) -> Position:  # fmt: skip
    """The perfect-information Position at the question (as ``engine/tricks.py`` builds it)."""
    w, rules = facts.walked, facts.rules
    return Position(
        rules=rules, seats=tuple(facts.in_deal), hands={s: tuple(hands.get(s, ())) for s in facts.in_deal},
        leader=w.leader, trick=w.trick, trick_index=w.trick_index, tricks_won=dict(w.tricks_won), trump=w.trump,
        mode=Trump.FIRST_RENOUNCE if facts.single else rules.trump, indicator=indicator,
        turned_up=indicator if w.turned else None, civil=w.civil, renounced=w.renounced, single_pot=facts.single,
        pot_start=pot_start, penalty=penalty, defender=facts.defender,
    )  # fmt: skip


def sample_row(facts: _Facts, table: Sequence[Policy], options: Sequence[int], then: Policy, seed: int, index: int,
               deck: list[int], strength, tables) -> list[float] | None:  # fmt: skip
    """Sample ``index`` (``deck``): each card's net chips, or None when it is not accepted."""
    rules, me = facts.rules, facts.me
    played = {s: {p.card for p in facts.walked.plays if p.seat == s} for s in facts.in_deal}
    hands = {s: [deck[i] for i in facts.places[facts.playing[s]] if deck[i] not in played[s]] for s in facts.in_deal}
    if not facts.sight.consistent(hands):
        return None
    draws = seat_streams(seed, index, table, ADVISE_SESSION)
    deal = _Deal(rules, deck, DEALER, facts.carried, table, draws, strength, None, tables)
    if not declares_as_seen(deal, deck, facts):
        return None
    indicator = None if facts.indicator_place is None else deck[facts.indicator_place]
    pos = question_position(facts, hands, indicator, deal.pot_start, deal.loo_penalty())
    ante = deal.antes[me]
    if then.play == "perfect":
        values = perfect_values(pos, ante)
    elif then.play in FAST_FAMILIES:
        values = {c: net_chips(pos, me, play_on(pos, c, then.play)[me], ante) for c in options}
    else:
        values = replay_values(rules, deck, facts.carried, table, dict(enumerate(facts.declarations)), facts.play,
                               options, then, me, seed, ADVISE_SESSION, index)  # fmt: skip
    return [values[c] for c in options]


def declares_as_seen(deal: _Deal, deck: list[int], facts: _Facts) -> bool:
    """Whether every other seat declares as seen, in turn (``engine/declare.py`` ``declare_all``,
    stopping at the first that does not). The asking seat's own declaration is a fact, not
    evidence: it is forced. Each seat's options and context follow from the earlier
    declarations, so with those as seen, its own hand and stream decide."""
    deal.forced = {facts.me: facts.declarations[facts.me]}
    deal.deal_cards(deck)
    deal.collect_antes()
    deal.club_law = facts.rules.club_law and deal.indicator_turned and suit_of(deal.indicator or 0) == CLUBS
    for i, seat in enumerate(deal.order):
        choice = deal.declaration_options(i, seat)
        if choice.dealer_case == 1:
            return False  # R8 case 1: the dealer alone, so no cards would have been played
        action = deal.decide(i, seat, choice)
        if action != facts.declarations[seat]:
            return False
        deal.apply_declaration(seat, choice, action)
    return True


def sample_notes(facts: _Facts, then: Policy) -> list[str]:
    """How the samples were drawn, in short sentences (Advice.notes)."""
    n = facts.rules.players
    others = [position_of(s, n) for s in facts.in_deal if s != facts.me]
    notes = [
        f"{len(facts.free_cards)} unseen cards dealt at random to the places not known, each sample kept only when "
        "every card played was legal with the hands drawn (P8's test) and the table's policies declare as seen.",
        f"After the card every seat plays {then.play_name} (positions in the deal: "
        f"{', '.join(map(str, others))} and {position_of(facts.me, n)}).",
    ]
    if facts.indicator_place is not None and facts.indicator is None:
        notes.append("The indicator is not turned: it is drawn with the other unseen cards.")
    return notes
