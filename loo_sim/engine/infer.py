"""``pimc:N:infer[=MODEL]`` (docs/policies.md P8): a pimc seat whose samples also agree with
the declarations, in readable Python; ``kernel/infer.py`` is the numba twin.

**The model.** The seat assumes every other seat declares by MODEL (``basic`` when none is
named; one of ``game.policy.INFER_MODELS``, each of which decides from the hand as dealt
and the options on offer alone), so a declaration's likelihood is 1 or 0: the draw keeps a
sample only when every other seat, given its dealt hand in that sample, would have declared
as it did. The seat's own declaration is a fact, not evidence.

**What is judged.** Every other seat that declared, in declaration order (the dealer's
left first), with the options it had (the deal's record: R4 may pass, R5 the miss on offer,
R8 case 2 play or defend; R8 case 3 is an ordinary play or pass to every model), and the
trumps known at the declarations (R6 turn_up; none otherwise):

- a seat that passed, or took the miss (or defends with it): its dealt hand is dead and
  unseen, a place of the layout of its own;
- a seat that played its own hand: its dealt hand is its sampled hand plus the cards it
  has played; where the deal has an R9 exchange its dealt hand is not known from what it
  holds (its discards are unseen, its drawn cards look like the others), and such a seat
  is not judged: only its plays are (P8's test).

**The draw** (the layout is uniform over every arrangement of the unseen cards that agrees
with the plays and the declarations; from the seat's own stream, the same in both engines):

1. the unseen cards in card-number order (P8's sight);
2. an attempt shuffles them as P8 does (forward Fisher-Yates, every place), then deals the
   places from the front of the shuffle, in this order: the hand of each other seat in the
   deal (the deal's order, the eldest first; as many cards as it holds), the hidden
   indicator (where it is hidden, R6 first_renounce), then the dead dealt hand of each
   judged seat whose hand is dead (declaration order; ``hand_size`` cards each). The
   cards left over (an untaken miss, the stock, discards) are not placed;
3. the attempt is kept when every other seat's plays are legal with its sampled hand (P8's
   consistency test) and every judged seat declares by MODEL as it did;
4. attempts go on until N are kept or 64N attempts were made (``ATTEMPTS_PER_SAMPLE``);
   if none is kept, the seat draws as ``pimc:N`` (P8's draw, the stream going on from
   where the attempts left it), which may in turn fall back to ``basic``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from loo_sim.engine.cardplay import Sight, sample_deals, shuffled
from loo_sim.engine.policies import DeclareChoice, declare
from loo_sim.game.decl import DEFEND, MISS, PASS
from loo_sim.game.policy import Policy
from loo_sim.game.ranking import TrumpState
from loo_sim.game.rules import Rules

ATTEMPTS_PER_SAMPLE = 64  # pimc:N:infer gives up after 64N attempts (game.abi.INFER_ATTEMPTS)
Sample = tuple[dict[int, list[int]], "int | None"]


@dataclass(frozen=True)
class Declared:
    """One other seat's declaration, as the draw judges it."""

    seat: int
    action: str
    choice: DeclareChoice  # what it was offered
    dead: bool  # its dealt hand is out of play (it passed or took the miss): a place of the layout


@dataclass(frozen=True)
class Evidence:
    """The declarations a ``pimc:N:infer`` seat reads, and the model it reads them by."""

    rules: Rules
    model: str  # the others' declaration family (game.policy.INFER_MODELS)
    trump: TrumpState  # trumps as the declarations knew them
    judged: tuple[Declared, ...]  # in declaration order

    def holds(self, hands: dict[int, list[int]], rest: Sequence[int], played: dict[int, list[int]]) -> bool:
        """Whether every judged seat declares by the model as it did, the dead dealt hands
        taken from the front of ``rest`` (the shuffle after the hands and the indicator)."""
        policy, h, at = Policy(declare=self.model), self.rules.hand_size, 0
        for d in self.judged:
            if d.dead:
                dealt, at = list(rest[at : at + h]), at + h
            else:
                dealt = [*hands[d.seat], *played.get(d.seat, [])]
            if declare(policy, dealt, self.trump, d.choice, rules=self.rules) != d.action:
                return False
        return True


def choice_of(allowed: Sequence[str]) -> DeclareChoice:
    """What a seat was offered, from the options its record lists (R8 case 3 reads as an
    ordinary play/pass: every model decides it so)."""
    case_2 = DEFEND in allowed
    return DeclareChoice(may_pass=PASS in allowed, miss_on_offer=MISS in allowed and not case_2,
                         dealer_case=2 if case_2 else 0, dealer_miss=MISS in allowed and case_2)  # fmt: skip


def infer_samples(sight: Sight, evidence: Evidence, samples: int, draw: Callable[[int], int]) -> list[Sample]:
    """Up to ``samples`` layouts of the unseen cards kept by the whole-layout test (module
    docstring): (seat -> hand, the hidden indicator or None); P8's draw when none is kept."""
    unseen = sight.unseen()
    played: dict[int, list[int]] = {}
    for p in sight.plays:
        played.setdefault(p.seat, []).append(p.card)
    out: list[Sample] = []
    attempts = 0
    while len(out) < samples and attempts < ATTEMPTS_PER_SAMPLE * samples:
        attempts += 1
        order = shuffled(unseen, draw)
        hands: dict[int, list[int]] = {}
        at = 0
        for seat, count in sight.others:
            hands[seat], at = order[at : at + count], at + count
        indicator = None
        if sight.hidden_indicator:
            indicator, at = order[at], at + 1
        if sight.consistent(hands) and evidence.holds(hands, order[at:], played):
            out.append((hands, indicator))
    return out or sample_deals(sight, samples, draw)
