"""The kernel's ABI (game/abi.py) against the game layer it is derived from: the codes
of the rule options, the class slots, and slot ranges that must not overlap."""

from __future__ import annotations

import pytest

from loo_sim.game import abi as L
from loo_sim.game.classes import MISS_ROW, N_CLASSES
from loo_sim.game.rules import BoldStand, Lead, Penalty, Trump, Void


def test_class_slots_hold_every_class_and_the_miss():
    assert L.N_CLASS_SLOTS == N_CLASSES + 1
    assert MISS_ROW == L.N_CLASS_SLOTS - 1


@pytest.mark.parametrize(
    ("enum", "table", "names"),
    [
        (Trump, L.TRUMP_CODES, ("TURN_UP", "FIRST_LEAD", "FIRST_RENOUNCE")),
        (BoldStand, L.BOLD_CODES, ("BOLD_OFF", "BOLD_LAST", "BOLD_EVERYONE")),
        (Penalty, L.PENALTY_CODES, ("PEN_UNLIMITED", "PEN_LIMITED", "PEN_CAPPED")),
        (Lead, L.LEAD_CODES, ("LEAD_FREE", "LEAD_ACE", "LEAD_TRUMP", "LEAD_CLASSIC")),
        (Void, L.VOID_CODES, ("VOID_MUST", "VOID_TO_WIN")),
    ],
)
def test_rule_codes_come_from_the_enums(enum, table, names):
    assert list(table) == [m.value for m in enum]  # every member, keyed by the value rules_arrays reads
    assert sorted(table.values()) == list(range(len(enum)))
    for member, name in zip(enum, names, strict=True):  # the kernel's constants: plain ints, in member order
        code = getattr(L, name)
        assert type(code) is int and code == table[member.value]


def _ranges(prefix_len: list[tuple[int, int]]) -> None:
    spans = sorted(prefix_len)
    for (a, la), (b, _) in zip(spans, spans[1:], strict=False):
        assert a + la <= b, f"slots {a}..{a + la - 1} overlap {b}"


def test_aggregate_slots_do_not_overlap():
    n = L.MAX_PLAYERS
    _ranges([(L.A_LOOED_HIST, n + 1), (L.A_DECL_SQ, 4), (L.A_TRICKS_XX, L.MAX_TRICKS + 1),
             (L.A_TRICKS_XY, L.MAX_TRICKS + 1), (L.A_PLAYED_YY, 1), (L.A_FLUSH_XX, 3),
             (L.A_SEAT, n * L.SEAT_LEN), (L.A_CLASS, 2 * L.N_CLASS_SLOTS), (L.A_POS, (n + 1) * L.POS_LEN)])  # fmt: skip
    assert L.A_POS + (n + 1) * L.POS_LEN == L.A_LEN


def test_position_slots_do_not_overlap():
    n = L.MAX_PLAYERS
    _ranges([(L.PI_N, 1), (L.PI_LEADER, 1), (L.PI_NCARDS, 1), (L.PI_TRICK, 1), (L.PI_TRUMP, 1), (L.PI_MODE, 1),
             (L.PI_INDICATOR, 1), (L.PI_TURNED, 1), (L.PI_CIVIL, 1), (L.PI_RENOUNCED, 1), (L.PI_SINGLE, 1),
             (L.PI_DEFENDER, 1), (L.PI_HANDS, n), (L.PI_WON, n), (L.PI_CARDS, n)])  # fmt: skip
    assert L.PI_CARDS + n == L.PI_LEN
