"""The solver play families (docs/policies.md P8) in numba: the twin of engine/cardplay.py.

``perfect`` plays the card the P7 solver (kernel/solver.py) gives in the true position;
``pimc:N`` samples N consistent deals of the cards the seat cannot see from its own
stream and plays the card of highest summed payoff over them. The sight, the draw and
the tie-break are those of engine/cardplay.py, step for step, on masks.

**Lazy compilation.** A run without solver seats passes ``solver = None`` (KernelArgs'
``solver`` slot) down the drivers, and :func:`pick_card` is an overload: for ``None`` it
is the plain ``policies.choose_card``, so neither the solver nor the sampler is
compiled or called on the hot path. A run with ``perfect`` or ``pimc`` seats passes a
one-slot array (the transposition table's bits); each block driver then makes its own
workspace (:func:`workspace_for`), and every driver compiles a second time, with the
solver, on its first such run.

**Where pimc's time goes** (issue #28; five-card, 4 seats, pimc:32, one thread): the
solves, 99.4 % of a deal. With each solve replaced by a replay of its recorded answer
(the same decisions), a ladder deal took 0.056 ms of CPU against 9.97 ms, a deal with
pimc:32 at every seat 0.050 of 8.69 (three-card, 5 seats, pimc:16: 0.014 of 0.120, 11 %).
The sampler's parts (the sight, may_hold, the attempts, consistency, copying the position)
and the solver's per-solve setup are each under 0.5 % at five-card; 84-87 % of the solve time
is in the solves of the first trick (about 1,400 nodes each). So a faster pimc needs a
faster search, not a cheaper sampler: a lazy shuffle (only the places read), card_values'
root copying the counts of an equivalent card (0.8 % fewer nodes) and table sizes of 2**12
to 2**18 slots gave no measurable change.
"""

import numpy as np
from numba import njit, types
from numba.extending import overload

from loo_sim.game import abi as L
from loo_sim.kernel import solver as K
from loo_sim.kernel.bits import (
    PAM,
    PAM_BIT,
    POS,
    beat_mask,
    eff_suit,
    follow_mask,
    has,
    is_trump,
    popcount,
    power_masks,
)
from loo_sim.kernel.infer import infer_layout
from loo_sim.kernel.krng import draw_below, swap
from loo_sim.kernel.legality import follow_options, lead_options
from loo_sim.kernel.nrt import NO_REFCOUNT
from loo_sim.kernel.policies import choose_card, fixed_card

MAX_PLAYS = L.MAX_TRICKS * L.MAX_PLAYERS
# ---- pimc's int scratch ``wi``: the unseen cards, one shuffle, the other seats, the history ----
W_UNSEEN = 0  # [52] the unseen cards (bit positions) in card-number order
W_ORDER = W_UNSEEN + 52  # [52] one attempt's shuffle of them
W_OTHERS = W_ORDER + 52  # [MAX_PLAYERS] the other seats in the deal (indices into in_deal order)
W_NEED = W_OTHERS + L.MAX_PLAYERS  # [MAX_PLAYERS] the cards each holds
W_ALLOWED = W_NEED + L.MAX_PLAYERS  # [MAX_PLAYERS] the unseen cards each may hold
W_SAMPLE = W_ALLOWED + L.MAX_PLAYERS  # [MAX_PLAYERS] one attempt's hand for each
W_PI = W_SAMPLE + L.MAX_PLAYERS  # [PI_LEN] the true position
W_SPI = W_PI + L.PI_LEN  # [PI_LEN] one sample's position
W_PLAYS = W_SPI + L.PI_LEN  # [MAX_PLAYS, H_LEN] every card played so far, with its context
H_SEAT, H_CARD, H_LEAD, H_T, H_FIRST, H_CIVIL, H_SAME, H_TM, H_BEAT, H_TRUMPED, H_LATER = range(11)
H_LEN = 11
W_PLAYED = W_PLAYS + MAX_PLAYS * H_LEN  # [MAX_PLAYERS] the cards each seat has played so far (pimc:N:infer)
W_LEN = W_PLAYED + L.MAX_PLAYERS


def workspace(tt_bits: int = L.SOLVER_TT_BITS) -> tuple:
    """The arrays one thread's solver seats reuse: the P7 solver's workspace, then the
    true position's float vector ``pf``, pimc's int scratch ``wi`` and its sums ``wf``."""
    return (*K.workspace(tt_bits), np.zeros(L.PIF_LEN), np.zeros(W_LEN, dtype=np.int64), np.zeros(L.MAX_TRICKS))


def workspace_for(solver):  # pragma: no cover - the overload below is what numba compiles
    raise NotImplementedError


@overload(workspace_for)
def _workspace_for(solver):
    if isinstance(solver, types.NoneType):
        return lambda solver: None

    def make(solver):
        bits = solver[0]
        tt = np.zeros((1 << bits, K.TT_COLS), dtype=np.int64)
        st = np.zeros(K.ST_LEN, dtype=np.int64)
        if solver.shape[0] > 1:  # a second slot: the solver's shortcuts turned off (scripts/bench.py)
            st[K.ST_FLAGS] = solver[1]
        hands = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
        cards = np.zeros(L.MAX_TRICKS * L.MAX_PLAYERS, dtype=np.int64)
        pay = np.zeros((L.MAX_PLAYERS, L.MAX_TRICKS + 1), dtype=np.float64)
        cap = np.zeros((L.MAX_PLAYERS, L.MAX_TRICKS + 1, L.MAX_TRICKS + 1), dtype=np.float64)
        fr = np.zeros((K.MAX_DEPTH, K.F_LEN), dtype=np.int64)
        fb = np.zeros((K.MAX_DEPTH, 2), dtype=np.float64)
        return (tt, st, hands, cards, pay, cap, fr, fb, np.zeros(L.PIF_LEN), np.zeros(W_LEN, dtype=np.int64),
                np.zeros(L.MAX_TRICKS))  # fmt: skip

    return make


def pick_card(ws, pol, family, legal, n_played, beat, suit, low_plain, low_trumps, pam, key, sc, seat, ri, oi, trick,
              leader_i, m, single, mode, indicator, t, civil, renounced, pot_start,
              penalty):  # pragma: no cover  # fmt: skip
    raise NotImplementedError


@overload(pick_card, inline="always")
def _pick_card(ws, pol, family, legal, n_played, beat, suit, low_plain, low_trumps, pam, key, sc, seat, ri, oi, trick,
               leader_i, m, single, mode, indicator, t, civil, renounced, pot_start, penalty):  # fmt: skip
    if isinstance(ws, types.NoneType):  # no solver seat in the run: the hot path as it always was

        def plain(ws, pol, family, legal, n_played, beat, suit, low_plain, low_trumps, pam, key, sc, seat, ri, oi,
                  trick, leader_i, m, single, mode, indicator, t, civil, renounced, pot_start, penalty):  # fmt: skip
            return choose_card(family, legal, n_played, beat, suit, low_plain, low_trumps, pam, key, sc, seat)

        return plain

    def with_solver(ws, pol, family, legal, n_played, beat, suit, low_plain, low_trumps, pam, key, sc, seat, ri, oi,
                    trick, leader_i, m, single, mode, indicator, t, civil, renounced, pot_start, penalty):  # fmt: skip
        if family < L.PL_PERFECT:
            return choose_card(family, legal, n_played, beat, suit, low_plain, low_trumps, pam, key, sc, seat)
        if popcount(legal) == 1:  # one legal card: played without a solve or a draw
            return fixed_card(L.PL_LOW, legal, n_played, beat, suit, low_plain, low_trumps, pam)
        basic = fixed_card(L.PL_BASIC, legal, n_played, beat, suit, low_plain, low_trumps, pam)
        return solver_card(ri, sc, oi, ws, family, pol[seat, L.P_SAMPLES], seat, key, basic, trick, leader_i,
                           n_played, m, single, mode, indicator, t, civil, renounced, pot_start, penalty,
                           pol[seat, L.P_INFER])  # fmt: skip

    return with_solver


@njit(cache=True, **NO_REFCOUNT)
def true_position(ri, sc, oi, pi, pf, trick, leader_i, k, m, single, mode, indicator, t, civil, renounced,
                  pot_start, penalty):  # fmt: skip
    """The true position before the next card into ``pi``/``pf`` (``game.abi.PI_*``), as
    engine ``_Deal.position`` makes it."""
    pi[L.PI_N] = m
    pi[L.PI_LEADER] = leader_i
    pi[L.PI_NCARDS] = k
    pi[L.PI_TRICK] = trick
    pi[L.PI_TRUMP] = t
    pi[L.PI_MODE] = mode
    pi[L.PI_INDICATOR] = indicator
    pi[L.PI_TURNED] = oi[L.O_INDICATOR] >= 0
    pi[L.PI_CIVIL] = civil
    pi[L.PI_RENOUNCED] = renounced
    pi[L.PI_SINGLE] = single
    pi[L.PI_DEFENDER] = -1
    for i in range(m):
        s = sc[L.SC_IN_DEAL + i]
        pi[L.PI_HANDS + i] = sc[L.SC_HANDS + s]
        pi[L.PI_WON + i] = oi[L.O_WON + s]
        if s == oi[L.O_DEFENDER]:
            pi[L.PI_DEFENDER] = i
    for j in range(k):
        pi[L.PI_CARDS + j] = POS[oi[L.O_CARDS + trick * L.MAX_PLAYERS + j]]
    pf[L.PIF_POT_START] = pot_start
    pf[L.PIF_PENALTY] = penalty


@njit(cache=True, **NO_REFCOUNT)
def solver_card(ri, sc, oi, ws, family, samples, seat, key, basic, trick, leader_i, k, m, single, mode, indicator, t,
                civil, renounced, pot_start, penalty, infer=0):  # fmt: skip
    """The card (bit position) of a ``perfect`` or ``pimc`` seat (``infer``: its P_INFER), two or more legal."""
    tt, st, hands, cards, pay, cap, fr, fb, pf, wi, wf = ws
    pi = wi[W_PI : W_PI + L.PI_LEN]
    true_position(ri, sc, oi, pi, pf, trick, leader_i, k, m, single, mode, indicator, t, civil, renounced, pot_start,
                  penalty)  # fmt: skip
    if family == L.PL_PERFECT:
        K.solve_position(pi, pf, ri, tt, st, hands, cards, pay, cap, fr, fb)
        return st[K.ST_BEST]
    return pimc(ri, sc, oi, ws, seat, key, samples, basic, trick, k, m, mode, indicator, t, infer)


@njit(cache=True, **NO_REFCOUNT)
def note_history(ri, sc, oi, wi, seat, trick, k, m, mode, t):
    """Every card played so far into ``wi[W_PLAYS:]`` with what decided its legality (the
    trumps then, the trick before it, Pam be civil: engine ``Play``); returns (the number
    of plays, the cards the seat can place: its own, played, the indicator if turned)."""
    pam = ri[L.R_PAM]
    known = sc[L.SC_DEALT + seat] | sc[L.SC_HANDS + seat]
    decl = oi[L.O_DECL + seat]
    if decl == L.DECL_MISS or decl == L.DECL_DEFEND:
        known |= sc[L.SC_DEALT + L.MAX_PLAYERS]  # it took the miss: its dealt hand is dead, and it knows it
    if oi[L.O_INDICATOR] >= 0:
        known |= 1 << POS[oi[L.O_INDICATOR]]
    reveal = oi[L.O_REVEAL]
    n_plays = 0
    for tr in range(trick + 1):
        count = m if tr < trick else k
        if count == 0:
            break
        # trumps at the lead and for the followers (R6), as play_trick knew them
        t_follow = t
        if mode == L.FIRST_RENOUNCE and not (reveal >= 0 and tr > reveal):
            t_follow = -1
        t_lead = -1 if mode == L.FIRST_LEAD and tr == 0 else t_follow
        base = L.O_CARDS + tr * L.MAX_PLAYERS
        lead_card = POS[oi[base]]
        led = eff_suit(lead_card, t_follow, pam)
        same = follow_mask(led, t_follow, pam)
        tm = power_masks(t_follow, pam)[0]
        civil = ri[L.R_CIVIL] == 1 and t_follow >= 0 and lead_card == 48 + t_follow
        led_is_trump = is_trump(lead_card, t_follow, pam)
        winning = lead_card
        for kk in range(count):
            card = POS[oi[base + kk]]
            h = W_PLAYS + n_plays * H_LEN
            wi[h + H_SEAT] = oi[L.O_SEATS + tr * L.MAX_PLAYERS + kk]
            wi[h + H_CARD] = card
            wi[h + H_LEAD] = kk == 0
            wi[h + H_T] = t_lead if kk == 0 else t_follow
            wi[h + H_FIRST] = tr == 0 and oi[L.O_SINGLE] != 1  # R8: no first-lead clauses in a single pot
            wi[h + H_CIVIL] = civil
            wi[h + H_SAME] = same
            wi[h + H_TM] = tm
            wi[h + H_BEAT] = 0
            wi[h + H_TRUMPED] = 0
            if kk > 0:
                beat = beat_mask(winning, led, t_follow, pam)
                wi[h + H_BEAT] = beat
                wi[h + H_TRUMPED] = (not led_is_trump) and is_trump(winning, t_follow, pam)
                if has(beat, card):
                    winning = card
            known |= 1 << card
            n_plays += 1
    # the cards each seat is known to have held at each of its plays: the card, and those it played since
    later = wi[W_PLAYED : W_PLAYED + L.MAX_PLAYERS]  # in the end the cards each seat played (pimc:N:infer)
    for s in range(L.MAX_PLAYERS):
        later[s] = 0
    for j in range(n_plays - 1, -1, -1):
        h = W_PLAYS + j * H_LEN
        s = wi[h + H_SEAT]
        later[s] |= 1 << wi[h + H_CARD]
        wi[h + H_LATER] = later[s]
    return n_plays, known


@njit(cache=True, inline="always")
def legal_then(ri, wi, h, hand, indicator):
    """The cards that were legal for the play at ``wi[h:]`` had its seat held ``hand`` (as
    play_trick: ``indicator`` is the deal's, which lead duties read once trumps are known)."""
    pam = ri[L.R_PAM]
    t = wi[h + H_T]
    if wi[h + H_LEAD] == 1:
        if t >= 0 and ri[L.R_LEAD] != L.LEAD_FREE:
            return lead_options(hand, t, pam, ri[L.R_LEAD], wi[h + H_FIRST] == 1, indicator)
        return hand
    if wi[h + H_CIVIL] == 1 and has(hand, PAM) and popcount(hand) > 1:
        hand &= ~PAM_BIT
    return follow_options(hand, wi[h + H_SAME], wi[h + H_TM], wi[h + H_BEAT], wi[h + H_TRUMPED] == 1, ri[L.R_VOID])


@njit(cache=True, **NO_REFCOUNT)
def pimc(ri, sc, oi, ws, seat, key, samples, basic, trick, k, m, mode, indicator, t, infer=0):
    """``pimc:N`` (engine/cardplay.py ``pimc_card``): the sight, the cards each other seat
    may hold, the attempts, a solve of each consistent sample, the sums and the choice;
    ``infer`` > 0 (P_INFER): pimc:N:infer's attempts (kernel/infer.py), P8's if none is kept."""
    tt, st, hands, cards, pay, cap, fr, fb, pf, wi, wf = ws
    pi = wi[W_PI : W_PI + L.PI_LEN]
    spi = wi[W_SPI : W_SPI + L.PI_LEN]
    n_plays, known = note_history(ri, sc, oi, wi, seat, trick, k, m, mode, t)
    nu = 0
    for c in range(52):  # the unseen cards in card-number order
        b = POS[c]
        if not has(known, b):
            wi[W_UNSEEN + nu] = b
            nu += 1
    obs_i = 0
    n_others = 0
    for i in range(m):
        s = sc[L.SC_IN_DEAL + i]
        if s == seat:
            obs_i = i
        else:
            wi[W_OTHERS + n_others] = i
            wi[W_NEED + n_others] = popcount(sc[L.SC_HANDS + s])
            wi[W_ALLOWED + n_others] = may_hold(ri, wi, s, n_plays, nu, indicator)
            n_others += 1
    hidden = indicator >= 0 and oi[L.O_INDICATOR] < 0
    counter = sc[L.SC_COUNTERS + seat]
    got = 0
    attempts = 0
    n_out = 0
    limit = (L.INFER_ATTEMPTS if infer > 0 else L.PIMC_ATTEMPTS) * samples
    while got < samples and attempts < limit:
        attempts += 1
        for u in range(nu):
            wi[W_ORDER + u] = wi[W_UNSEEN + u]
        for u in range(nu - 1):  # forward Fisher-Yates, one draw of the seat's stream a step
            swap(wi, W_ORDER + u, W_ORDER + u + draw_below(key, counter, nu - u))
            counter += 1
        if infer > 0:  # the whole layout (kernel/infer.py)
            taken, kept = infer_layout(ri, sc, oi, seat, infer - 1, hidden, wi, W_ORDER, W_NEED, W_OTHERS, W_SAMPLE,
                                       W_PLAYED, n_others)  # fmt: skip
        else:
            taken = deal_sample(wi, n_others, nu)
            kept = taken >= 0
        if not (kept and consistent(ri, sc, wi, seat, n_plays, n_others, indicator)):
            if infer > 0 and attempts == limit and got == 0:  # none kept: P8's draw, the stream going on
                infer, attempts, limit = 0, 0, L.PIMC_ATTEMPTS * samples
            continue
        for j in range(L.PI_LEN):
            spi[j] = pi[j]
        for o in range(n_others):
            spi[L.PI_HANDS + wi[W_OTHERS + o]] = wi[W_SAMPLE + o]
        if hidden:  # the first card of the shuffle not taken
            for u in range(nu):
                if not has(taken, wi[W_ORDER + u]):
                    spi[L.PI_INDICATOR] = wi[W_ORDER + u]
                    break
        K.card_values_position(spi, pf, ri, tt, st, hands, cards, pay, cap, fr, fb)
        if got == 0:
            n_out = st[K.ST_OUT_N]
            for j in range(n_out):
                wf[j] = 0.0
        for j in range(n_out):
            wf[j] += pay[obs_i, K.count_of(st[K.ST_OUT_RES + j], obs_i)]
        got += 1
    sc[L.SC_COUNTERS + seat] = counter
    if got == 0:
        return basic
    best = 0
    for j in range(1, n_out):  # ties keep the earlier card: P7's order
        if wf[j] > wf[best]:
            best = j
    return st[K.ST_OUT_CARDS + best]


@njit(cache=True, inline="always")
def may_hold(ri, wi, s, n_plays, nu, indicator):
    """The unseen cards seat ``s`` may hold: each, added alone to the cards it is known to
    have held at each of its plays, keeps that play legal."""
    allowed = 0
    for u in range(nu):
        x = wi[W_UNSEEN + u]
        ok = True
        for j in range(n_plays):
            h = W_PLAYS + j * H_LEN
            if wi[h + H_SEAT] == s and not has(legal_then(ri, wi, h, wi[h + H_LATER] | (1 << x), indicator),
                                               wi[h + H_CARD]):  # fmt: skip
                ok = False
                break
        if ok:
            allowed |= 1 << x
    return allowed


@njit(cache=True, inline="always")
def deal_sample(wi, n_others, nu):
    """One attempt's hands: each other seat in turn takes the first cards of the shuffle,
    not yet taken, that it may hold. Returns the cards taken, or -1 when a seat finds too few."""
    taken = 0
    for o in range(n_others):
        need = wi[W_NEED + o]
        allowed = wi[W_ALLOWED + o]
        hand = 0
        got = 0
        for u in range(nu):
            if got == need:
                break
            b = wi[W_ORDER + u]
            if has(allowed, b) and not has(taken, b):
                hand |= 1 << b
                got += 1
        if got < need:
            return -1
        taken |= hand
        wi[W_SAMPLE + o] = hand
    return taken


@njit(cache=True, inline="always")
def consistent(ri, sc, wi, seat, n_plays, n_others, indicator):
    """Every play of every other seat legal with its sampled cards plus those it played since."""
    for j in range(n_plays):
        h = W_PLAYS + j * H_LEN
        s = wi[h + H_SEAT]
        if s == seat:
            continue
        o = other_index(wi, sc, n_others, s)
        if not has(legal_then(ri, wi, h, wi[W_SAMPLE + o] | wi[h + H_LATER], indicator), wi[h + H_CARD]):
            return False
    return True


@njit(cache=True, inline="always")
def other_index(wi, sc, n_others, s):
    for o in range(n_others):
        if sc[L.SC_IN_DEAL + wi[W_OTHERS + o]] == s:
            return o
    return -1
