"""``pimc:N:infer[=MODEL]`` in numba (docs/policies.md P8): the twin of engine/infer.py, on
masks. kernel/cardplay.py's ``pimc`` shuffles the unseen cards as for ``pimc:N``; an infer
seat then deals the places from the front of the shuffle (:func:`layout_hands`: the other
seats' hands, then the hidden indicator, then the dead dealt hands) and keeps the layout
when P8's consistency test passes and every other seat, declaring by MODEL with its dealt
hand in the layout, declares as it did (:func:`declarations_hold`). The module docstring of
engine/infer.py gives the draw in full.

The arrays are slices of pimc's int scratch ``wi`` (kernel/cardplay.py ``W_*``): the
shuffle, the cards each other seat holds, their sampled hands, the other seats (indices into
the in-deal order), and the cards each seat (by seat number) has played so far.
"""

from numba import njit

from loo_sim.game import abi as L
from loo_sim.kernel.policies import declare, declare_flush_aware, flush_clauses


@njit(cache=True, inline="always")
def layout_hands(order, need, hands, n_others):
    """The other seats' hands, each the next ``need[o]`` cards of the shuffle from its front,
    into ``hands``; returns (the cards taken, where the shuffle goes on)."""
    at = 0
    taken = 0
    for o in range(n_others):
        hand = 0
        for j in range(need[o]):
            hand |= 1 << order[at + j]
        at += need[o]
        hands[o] = hand
        taken |= hand
    return taken, at


@njit(cache=True, inline="always")
def infer_layout(ri, sc, oi, seat, model, hidden, wi, w_order, w_need, w_others, w_hands, w_played, n_others):
    """One attempt's layout from the shuffle at ``wi[w_order:]``: the other seats' hands into
    ``wi[w_hands:]`` (:func:`layout_hands`), the hidden indicator after them, then the dead
    dealt hands (``w_*``: kernel/cardplay.py's offsets of ``wi``). Returns (the cards the
    hands took, whether every judged declaration holds)."""
    order, hands = wi[w_order:], wi[w_hands:]
    taken, at = layout_hands(order, wi[w_need:], hands, n_others)
    return taken, declarations_hold(ri, sc, oi, seat, model, order, at + hidden, wi[w_others:], hands, n_others,
                                    wi[w_played:])  # fmt: skip


@njit(cache=True, inline="always")
def hand_of(sc, others, hands, n_others, s):
    """Seat ``s``'s sampled hand (``s`` another seat in the deal)."""
    for o in range(n_others):
        if sc[L.SC_IN_DEAL + others[o]] == s:
            return hands[o]
    return 0


@njit(cache=True)
def declarations_hold(ri, sc, oi, seat, model, order, at, others, hands, n_others, played):
    """Whether every other seat, declaring by ``model`` (a DECLARE_CODES code), declares as
    it did (engine.infer ``Evidence.holds``): a seat that passed or took the miss with the
    next ``hand_size`` cards of the shuffle from ``at`` as its dead dealt hand, one that
    played with its sampled hand plus the cards it played (not judged where the deal has an
    R9 exchange); each with the options its record lists and the trumps of the declarations."""
    n = ri[L.R_PLAYERS]
    h = ri[L.R_HAND]
    pam = ri[L.R_PAM]
    t = oi[L.O_T_DECL]
    single = oi[L.O_SINGLE] == 1
    exchanged = ri[L.R_EXCHANGE] == 1 and not single and ri[L.R_MISS] != 1  # R9: double pots, no miss
    clauses = flush_clauses(ri) if model == L.D_FLUSH_AWARE else 0
    for i in range(n):
        s = sc[L.SC_ORDER + i]
        action = oi[L.O_DECL + s]
        if s == seat or (action == L.DECL_PLAY and exchanged):
            continue
        if action == L.DECL_PLAY:
            dealt = hand_of(sc, others, hands, n_others, s) | played[s]
        else:  # passed, or took the miss: its dealt hand is dead, the next place of the layout
            dealt = 0
            for j in range(h):
                dealt |= 1 << order[at + j]
            at += h
        allowed = oi[L.O_OPTIONS + s]
        dealer_case = 2 if allowed & (1 << L.DECL_DEFEND) else 0  # R8 case 3 reads as a play/pass choice
        may_pass = (allowed & (1 << L.DECL_PASS)) != 0
        miss_on_offer = (allowed & (1 << L.DECL_MISS)) != 0 and dealer_case != 2
        if model == L.D_FLUSH_AWARE:
            judged = declare_flush_aware(dealt, t, pam, may_pass, miss_on_offer, dealer_case, clauses)
        else:
            judged = declare(model, dealt, t, pam, may_pass, miss_on_offer, dealer_case)
        if judged != action:
            return False
    return True
