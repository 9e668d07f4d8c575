"""The fictitious-play core (loo_sim/solve/fictitious.py) on games whose equilibria are known
independently: hand-solved rock-paper-scissors variants, a 3-player identical-interest game
(Monderer & Shapley 1996), Jordan's 3-player matching pennies, the prisoner's dilemma, and
Kuhn poker (Kuhn 1950). Every run is deterministic (ties go to the lowest action), so the
tolerances below are margins over what the code reaches, not allowances for chance."""

import itertools

import numpy as np
import pytest

from loo_sim.base.errors import LooError
from loo_sim.solve.fictitious import (
    DEALS,
    INFOSETS,
    NormalFormGame,
    averaging_weight,
    best_response,
    exploitability_gain,
    fictitious_play_normal,
    kuhn_best_response,
    kuhn_fictitious_play,
    kuhn_nash_conv,
    kuhn_uniform,
    kuhn_value,
    nash_conv_normal,
    update_average,
)

NAN = np.nan


# ---- best_response ----------------------------------------------------------------------------
def test_best_response_ties_go_to_the_lowest_allowed_action():
    q = np.array([[1.0, 3.0, 3.0, 2.0], [5.0, 5.0, 5.0, 5.0], [9.0, 4.0, 4.0, 1.0]])
    allowed = np.array([[True] * 4, [False, True, True, True], [False, True, True, True]])
    # row 0: actions 1 and 2 tie at 3; row 1: all tie, 0 not allowed; row 2: 9 is not on offer
    assert best_response(q, allowed).tolist() == [1, 1, 1]
    assert best_response(q, allowed).dtype == np.int64


def test_best_response_treats_nan_as_minus_infinity_and_returns_minus_one_with_nothing_allowed():
    q = np.array(
        [
            [NAN, -5.0, NAN, -7.0],  # NaN loses to any number, even a negative one
            [NAN, NAN, NAN, NAN],  # all allowed NaN: the lowest allowed index (1)
            [1.0, 2.0, 3.0, 4.0],  # nothing allowed
            [NAN, -np.inf, 0.0, NAN],  # a NaN of an action not allowed is ignored
        ]
    )
    allowed = np.array([[True] * 4, [False, True, True, False], [False] * 4, [False, True, True, True]])
    assert best_response(q, allowed).tolist() == [1, 1, -1, 2]


def test_best_response_matches_a_plain_loop():
    rng = np.random.default_rng(11)
    q = rng.integers(-2, 3, size=(300, 4)).astype(float)  # small integers: many ties
    q[rng.random(q.shape) < 0.15] = NAN
    allowed = rng.random(q.shape) < 0.7
    expected = []
    for row, ok in zip(q, allowed, strict=True):
        choices = [a for a in range(4) if ok[a]]
        scored = [a for a in choices if not np.isnan(row[a])]
        expected.append(max(scored, key=lambda a: (row[a], -a)) if scored else (choices[0] if choices else -1))
    assert best_response(q, allowed).tolist() == expected


def test_best_response_rejects_mismatched_shapes():
    with pytest.raises(LooError, match="share"):
        best_response(np.zeros((2, 4)), np.ones((2, 3), bool))


# ---- averaging_weight and update_average -------------------------------------------------------
def run_average(brs: list[int], scheme: str, actions: int = 4) -> np.ndarray:
    avg = np.zeros((1, actions))  # the first weight is 1, so the start never matters
    for t, a in enumerate(brs, start=1):
        avg = update_average(avg, np.array([a]), averaging_weight(t, scheme))
    return avg[0]


BRS = [0, 2, 2, 1, 3, 2, 0, 0, 1, 2, 3, 3]


def test_uniform_average_is_the_plain_mean_of_the_best_responses():
    onehots = np.eye(4)[BRS]
    assert run_average(BRS, "uniform") == pytest.approx(np.mean(onehots, axis=0), abs=1e-14)
    assert run_average(BRS, "discounted:0") == pytest.approx(np.mean(onehots, axis=0), abs=1e-14)


def test_linear_average_weights_the_t_th_best_response_by_t():
    onehots = np.eye(4)[BRS]
    t = np.arange(1, len(BRS) + 1)
    expected = np.average(onehots, axis=0, weights=t)
    assert run_average(BRS, "linear") == pytest.approx(expected, abs=1e-14)
    assert run_average(BRS, "discounted:1") == pytest.approx(expected, abs=1e-14)
    squared = np.average(onehots, axis=0, weights=t**2.0)
    assert run_average(BRS, "discounted:2") == pytest.approx(squared, abs=1e-14)


def test_weights_of_the_schemes():
    assert [averaging_weight(t, "uniform") for t in (1, 2, 4)] == [1.0, 0.5, 0.25]
    assert [averaging_weight(t, "linear") for t in (1, 2, 3)] == [1.0, 2 / 3, 0.5]  # t / (1 + ... + t)


@pytest.mark.parametrize("scheme", ["bogus", "Uniform", "discounted:", "discounted:x", "discounted:inf"])
def test_unknown_scheme_is_a_loo_error_listing_the_schemes(scheme):
    with pytest.raises(LooError) as info:
        averaging_weight(3, scheme)
    message = str(info.value)
    assert "\n" not in message and all(s in message for s in ("uniform", "linear", "discounted:G"))
    with pytest.raises(LooError):
        fictitious_play_normal(rps(1.0), 10, scheme)


@pytest.mark.parametrize("t", [0, -1, 1.5, True])
def test_iteration_number_starts_at_one(t):
    with pytest.raises(LooError, match=">= 1"):
        averaging_weight(t, "uniform")


def test_update_average_keeps_probability_rows_and_leaves_masked_rows_alone():
    rng = np.random.default_rng(5)
    avg = rng.dirichlet(np.ones(4), size=50)
    before = avg.copy()
    br = rng.integers(-1, 4, size=50)
    mask = rng.random(50) < 0.6
    new = update_average(avg, br, 0.3, mask)
    assert np.array_equal(avg, before)  # the input is not modified
    np.testing.assert_allclose(new.sum(axis=1), 1.0, atol=1e-14)
    assert np.all(new >= 0.0)
    frozen = ~mask | (br < 0)
    assert frozen.any() and (~frozen).any()
    assert np.array_equal(new[frozen], avg[frozen])
    moved = ~frozen
    expected = 0.7 * avg[moved] + 0.3 * np.eye(4)[br[moved]]
    np.testing.assert_allclose(new[moved], expected, atol=1e-15)


def test_update_average_takes_a_weight_per_infoset():
    avg = np.full((2, 2), 0.5)
    new = update_average(avg, np.array([0, 1]), np.array([1.0, 0.5]))
    np.testing.assert_allclose(new, [[1.0, 0.0], [0.25, 0.75]])
    with pytest.raises(LooError, match=r"\[0, 1\]"):
        update_average(avg, np.array([0, 1]), 1.5)


# ---- exploitability_gain -------------------------------------------------------------------------
def test_exploitability_gain():
    q = np.array([[1.0, 4.0, NAN, 2.0], [3.0, 3.0, 3.0, 3.0], [NAN, NAN, NAN, NAN]])
    allowed = np.array([[True, True, False, True], [True] * 4, [False] * 4])
    strategy = np.array([[0.5, 0.0, 0.0, 0.5], [0.25] * 4, [0.0] * 4])
    # row 0: best 4 minus (0.5*1 + 0.5*2); row 1: every action equal; row 2: nothing allowed
    np.testing.assert_allclose(exploitability_gain(q, allowed, strategy), [2.5, 0.0, 0.0], atol=1e-15)
    with pytest.raises(LooError, match="not allowed"):
        exploitability_gain(q, allowed, np.array([[0.0, 0.0, 1.0, 0.0], [0.25] * 4, [0.0] * 4]))


# ---- normal-form games ---------------------------------------------------------------------------
def two_player_zero_sum(m: list[list[float]]) -> NormalFormGame:
    m = np.asarray(m, dtype=float)
    return NormalFormGame(np.stack([m, -m], axis=-1))


def rps(rock_beats_scissors: float) -> NormalFormGame:
    b = rock_beats_scissors  # rows/columns: rock, paper, scissors; the row player's payoff
    return two_player_zero_sum([[0, -1, b], [1, 0, -1], [-b, 1, 0]])


# Robinson (1951): FP converges in two-player zero-sum games. At N = 4000 the averages here
# are within 0.013 of equilibrium (NashConv <= 0.035 for every N from 2000 to 8000), so 0.02
# and 0.05 leave a margin of about 1.5x.
N_RPS, TOL_RPS, TOL_NASHCONV_RPS = 4000, 0.02, 0.05


@pytest.mark.parametrize("scheme", ["uniform", "linear"])
def test_rock_paper_scissors_converges_to_thirds(scheme):
    game = rps(1.0)
    profile = fictitious_play_normal(game, N_RPS, scheme)
    for s in profile:  # the unique equilibrium of RPS is 1/3 each, by symmetry
        np.testing.assert_allclose(s, np.full(3, 1 / 3), atol=TOL_RPS)
        assert s.sum() == pytest.approx(1.0, abs=1e-12)
    assert 0.0 < nash_conv_normal(game, profile) < TOL_NASHCONV_RPS


@pytest.mark.parametrize("scheme", ["uniform", "linear"])
def test_biased_rock_paper_scissors_converges_to_the_hand_solved_mix(scheme):
    # Rock beating scissors pays 2. Against a column mix (r, p, s) the row's actions are worth
    #   rock: -p + 2s,  paper: r - s,  scissors: -2r + p.
    # The game is symmetric and zero-sum, so its value is 0; a fully mixed equilibrium makes
    # all three 0: r = s and p = 2s, i.e. (r, p, s) = (1/4, 1/2, 1/4) for both players.
    game = rps(2.0)
    eq = np.array([0.25, 0.5, 0.25])
    assert nash_conv_normal(game, [eq, eq]) == pytest.approx(0.0, abs=1e-15)
    profile = fictitious_play_normal(game, N_RPS, scheme)
    for s in profile:
        np.testing.assert_allclose(s, eq, atol=TOL_RPS)
    assert nash_conv_normal(game, profile) < TOL_NASHCONV_RPS


# A 3-player identical-interest game (every player gets u[a1, a2, a3]); the table is arbitrary
# (np.random.default_rng(4).integers(0, 10, (3, 3, 3))). Monderer & Shapley, "Fictitious play
# property for games with identical interests", J. Econ. Theory 68 (1996) 258-265: every
# such game has the fictitious play property, so FP's beliefs approach the equilibrium set.
# From the uniform start this table makes FP miscoordinate for a few rounds first.
IDENTICAL = np.array([[[7, 9, 8], [5, 9, 9], [9, 0, 4]], [[6, 2, 3], [6, 8, 5], [1, 6, 8]],
                      [[2, 5, 3], [9, 0, 4], [8, 4, 1]]], dtype=float)  # fmt: skip
N_3P, TOL_NASHCONV_3P = 2000, 0.05  # NashConv 0.19 at 100 iterations, 0.020 at 1000


def is_pure_nash(u: np.ndarray, profile: tuple[int, ...]) -> bool:
    for i in range(3):
        for a in range(3):
            deviation = list(profile)
            deviation[i] = a
            if u[tuple(deviation)][i] > u[profile][i]:
                return False
    return True


def test_three_player_identical_interest_game_converges():
    u = np.stack([IDENTICAL] * 3, axis=-1)
    game = NormalFormGame(u)
    early = nash_conv_normal(game, fictitious_play_normal(game, 10))
    profile = fictitious_play_normal(game, N_3P)
    assert early > 0.5  # the first rounds are far from equilibrium
    assert nash_conv_normal(game, profile) < TOL_NASHCONV_3P
    limit = tuple(int(np.argmax(s)) for s in profile)
    assert min(float(s.max()) for s in profile) > 0.99
    assert is_pure_nash(u, limit)  # checked by enumerating deviations, not by nash_conv_normal


def jordan_matching_pennies() -> NormalFormGame:
    # Jordan, "Three problems in learning mixed-strategy Nash equilibria", Games Econ. Behav.
    # 5 (1993) 368-386: 1 wants to match 2, 2 wants to match 3, 3 wants to mismatch 1 (+1 win,
    # -1 loss); the unique equilibrium is (1/2, 1/2, 1/2), and FP cycles around it.
    u = np.zeros((2, 2, 2, 3))
    for a in itertools.product(range(2), repeat=3):
        u[a] = [1 if a[0] == a[1] else -1, 1 if a[1] == a[2] else -1, 1 if a[2] != a[0] else -1]
    return NormalFormGame(u)


def test_nash_conv_of_jordans_game():
    game = jordan_matching_pennies()
    half = np.array([0.5, 0.5])
    assert nash_conv_normal(game, [half] * 3) == 0.0
    for a in itertools.product(range(2), repeat=3):
        pure = [np.eye(2)[k] for k in a]
        # each player's payoff depends on its own action only through one comparison, so a
        # losing player gains exactly 2 by switching and a winning one gains nothing
        losers = (a[0] != a[1]) + (a[1] != a[2]) + (a[2] == a[0])
        assert losers >= 1  # match, match and mismatch cannot all hold
        assert nash_conv_normal(game, pure) == 2.0 * losers


def test_nash_conv_is_zero_at_equilibrium_and_positive_off_it():
    # prisoner's dilemma, actions (cooperate, defect), T=5 > R=3 > P=1 > S=0
    pd = np.zeros((2, 2, 2))
    pd[0, 0], pd[0, 1], pd[1, 0], pd[1, 1] = (3, 3), (0, 5), (5, 0), (1, 1)
    game = NormalFormGame(pd)
    c, d = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    assert nash_conv_normal(game, [d, d]) == 0.0  # defect is dominant
    assert nash_conv_normal(game, [c, c]) == 4.0  # each gains T - R = 2 by defecting
    assert nash_conv_normal(game, [c, d]) == 1.0  # the sucker gains P - S = 1
    game = rps(1.0)
    third = np.full(3, 1 / 3)
    assert nash_conv_normal(game, [third, third]) == pytest.approx(0.0, abs=1e-15)
    rock = np.array([1.0, 0.0, 0.0])
    assert nash_conv_normal(game, [rock, third]) == pytest.approx(1.0, abs=1e-15)  # paper beats rock: 1 for column
    with pytest.raises(LooError, match="payoffs"):
        NormalFormGame(np.zeros((2, 2, 3)))


# ---- Kuhn poker ---------------------------------------------------------------------------------
def kuhn_equilibrium(alpha: float):
    """Kuhn (1950)'s equilibria, as tabulated e.g. in the Wikipedia article "Kuhn poker":
    player 1 bets J with probability alpha in [0, 1/3], K with 3*alpha, never Q; after check
    and bet it calls with Q with alpha + 1/3, always with K, never with J. Player 2 bets
    after a check with K always and J with 1/3 (never Q); facing a bet it calls with K,
    with Q with 1/3, never with J. Player 1's value is -1/18 for every alpha."""
    p1 = {"J": [1 - alpha, alpha], "Q": [1, 0], "K": [1 - 3 * alpha, 3 * alpha],
          "Jpb": [1, 0], "Qpb": [2 / 3 - alpha, alpha + 1 / 3], "Kpb": [0, 1]}  # fmt: skip
    p2 = {"Jp": [2 / 3, 1 / 3], "Qp": [1, 0], "Kp": [0, 1], "Jb": [1, 0], "Qb": [2 / 3, 1 / 3], "Kb": [0, 1]}
    return tuple({k: np.array(v, dtype=float) for k, v in s.items()} for s in (p1, p2))


@pytest.mark.parametrize("alpha", [0.0, 1 / 6, 1 / 3])
def test_kuhn_value_of_the_known_equilibria_is_minus_one_eighteenth(alpha):
    profile = kuhn_equilibrium(alpha)
    assert kuhn_value(profile) == pytest.approx(-1 / 18, abs=1e-12)
    assert kuhn_nash_conv(profile) == pytest.approx(0.0, abs=1e-12)


def test_kuhn_tree_by_hand():
    assert len(DEALS) == 6 and sorted(INFOSETS[0] + INFOSETS[1]) == sorted(
        ["J", "Q", "K", "Jpb", "Qpb", "Kpb", "Jp", "Qp", "Kp", "Jb", "Qb", "Kb"]
    )
    # both always bet/call: every deal is a showdown for 2, won by the higher card: value 0
    always = tuple({k: np.array([0.0, 1.0]) for k in keys} for keys in INFOSETS)
    assert kuhn_value(always) == 0.0
    # Against "always bet/call" player 1 wins 2 with K whether it bets or checks and calls (a
    # tie: check, the lower action); with Q a bet or a call wins 2 against J and loses 2
    # against K (0), folding after check and bet loses 1, so it checks (tie) and calls; with J
    # betting loses 2, checking then folding loses 1. Value (2 + 0 - 1) / 3 = 1/3.
    br = kuhn_best_response(always, 0)
    assert {k: int(np.argmax(v)) for k, v in br.items()} == {"J": 0, "Q": 0, "K": 0, "Jpb": 0, "Qpb": 1, "Kpb": 1}
    assert kuhn_value((br, always[1])) == pytest.approx(1 / 3, abs=1e-15)
    assert kuhn_nash_conv(kuhn_uniform()) > 0.1


# XFP reaches NashConv 0.042 at 100 iterations, 0.014 at 1000 and 0.0076 (uniform) / 0.0086
# (linear) at 3000, with player 1's value within 2e-4 of -1/18 from 1000 on.
N_KUHN, TOL_NASHCONV_KUHN, TOL_VALUE_KUHN = 3000, 0.015, 1e-3


@pytest.mark.parametrize("scheme", ["uniform", "linear"])
def test_kuhn_fictitious_play_approaches_the_equilibrium(scheme):
    checkpoints = {}

    def record(t, avg):
        if t in (10, 100, 1000):
            checkpoints[t] = kuhn_nash_conv(avg)

    profile = kuhn_fictitious_play(N_KUHN, scheme, on_iteration=record)
    final = kuhn_nash_conv(profile)
    assert checkpoints[10] > checkpoints[100] > checkpoints[1000] > final
    assert final < TOL_NASHCONV_KUHN
    assert kuhn_value(profile) == pytest.approx(-1 / 18, abs=TOL_VALUE_KUHN)
    for strategy in profile:
        for probs in strategy.values():
            assert probs.sum() == pytest.approx(1.0, abs=1e-12) and np.all(probs >= 0.0)


def realization_plan(strategy: dict, player: int) -> dict:
    """Each (infoset, action) -> the player's own probability of taking that sequence. Player
    2 moves once; player 1's only later infosets "Cpb" follow its own check at "C"."""
    x = {}
    for key, probs in strategy.items():
        reach = strategy[key[0]][0] if player == 0 and key[1:] == "pb" else 1.0
        for a in (0, 1):
            x[key, a] = reach * probs[a]
    return x


def test_kuhn_average_is_the_mixture_of_the_best_responses():
    """XFP's reach-weighted update makes the average realization-equivalent to the plain
    mixture of the best responses (Heinrich, Lanctot & Silver 2015, Theorem 7): its realization
    plan is the mean of theirs. Averaging each infoset with plain 1/t would not be."""
    n = 60
    averages = [kuhn_uniform()]
    kuhn_fictitious_play(n, "uniform", on_iteration=lambda t, avg: averages.append(avg))
    for player in (0, 1):
        brs = [kuhn_best_response(avg, player) for avg in averages[:-1]]  # BR_t answers average t-1
        plans = [realization_plan(br, player) for br in brs]
        mean_plan = {k: np.mean([p[k] for p in plans]) for k in plans[0]}
        got = realization_plan(averages[-1][player], player)
        assert got == pytest.approx(mean_plan, abs=1e-12)
        naive = {k: np.mean([br[k] for br in brs], axis=0) for k in brs[0]}  # no reach weighting
        naive_plan = realization_plan(naive, player)
        gap = max(abs(naive_plan[k] - mean_plan[k]) for k in mean_plan)
        assert (gap > 1e-3) if player == 0 else (gap < 1e-12)  # only player 1 moves twice


def test_discounted_weights_do_not_overflow_for_a_large_exponent():
    """Issue #31 item 5: ``discounted:400`` passed validation (only the first weight was
    checked) and died later with OverflowError at t**400. The weight t**G / sum s**G, from
    exact integer arithmetic, at the last iteration of a 100-iteration solve."""
    from fractions import Fraction

    from loo_sim.report.kinds import SolveStudy

    t, g = 101, 400
    exact = Fraction(t**g, sum(s**g for s in range(1, t + 1)))
    assert averaging_weight(t, f"discounted:{g}") == pytest.approx(float(exact), rel=1e-12)
    for t in (1, 2, 7, 50):  # G = 0 and 1 are uniform and linear
        assert averaging_weight(t, "discounted:0") == pytest.approx(1 / t, rel=1e-12)
        assert averaging_weight(t, "discounted:1") == pytest.approx(2 / (t + 1), rel=1e-12)
    assert [path for path, _ in SolveStudy(averaging="discounted:400", iterations=100).problems()] == []
    assert averaging_weight(100, "discounted:-400") == 0.0  # the earliest responses outweigh the last entirely
