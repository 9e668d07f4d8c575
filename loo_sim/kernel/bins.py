"""Amounts counted as the sessions' aggregates count them (pots, the largest pot of a
session, final balances): whole amounts below a bound exactly, one count per value (so a
quantile read there is a value that occurred), the others in log bins, 32 per decade at
every size (``pot_bin``; balances in signed bins, ``balance_bin``) with the sum of what each
bin holds (a bin is read as its mean, so within 7.5% of any value it holds, abi.NB_POT).
``run/sessions.py`` reduces each block of sessions into its histograms with these;
``kernel/variants.py`` bins its pots the same way."""

import numpy as np
from numba import njit

from loo_sim.game import abi as L


@njit(cache=True)
def pot_bin(p):
    """Bin of an amount: 0 below 1 (and NaN), then ``abi.POT_BINS_PER_DECADE`` per decade
    from 1 to ``abi.POT_TOP``, then one bin for everything above (infinity too)."""
    if not p >= 1.0:  # also NaN
        return 0
    if p >= L.POT_TOP:
        return L.NB_POT - 1
    return min(L.NB_POT - 2, 1 + int(L.POT_BINS_PER_DECADE * np.log10(p)))


@njit(cache=True)
def balance_bin(x):
    """Signed bins: [0, NB_POT) for negative amounts (mirrored), [NB_POT, 2 NB_POT) for >= 0."""
    if x < 0:
        return L.NB_POT - 1 - pot_bin(-x)
    return L.NB_POT + pot_bin(x)


@njit(cache=True)
def exact_index(x, bound):
    """Where an exact count of ``x`` goes: x itself when x is integral and 0 <= x < bound, else -1
    (the amount is binned)."""
    if x >= 0.0 and x < bound and x == np.floor(x):
        return int(x)
    return -1


@njit(cache=True)
def grid_index(x, grid, bound):
    """Where an exact count of a balance ``x`` goes: k + bound - 1 when x is k / grid for a
    whole k with |k| < bound (to 1e-6 of a step, float64's rounding of such sums), else -1."""
    y = x * grid
    k = np.floor(y + 0.5)
    if abs(y - k) <= 1e-6 and abs(k) < bound:
        return int(k) + bound - 1
    return -1


@njit(cache=True, inline="always")
def count_amount(p, bound, exact, hist, sums):
    """Count one pot: exactly below ``bound`` chips when whole (``exact``), else in its log bin."""
    e = exact_index(p, bound)
    if e >= 0:
        exact[e] += 1.0
    else:
        bin_ = pot_bin(p)
        hist[bin_] += 1.0
        sums[bin_] += p


@njit(cache=True)
def count_pots(pots, exact, hist, sums):
    """Count one block's pots [arm, k, deal] into exact [arm, deal, bound] (integral pots
    below the bound) or hist/sums [arm, deal, NB_POT] (the others, by ``pot_bin``); NaN
    (no deal) is skipped. Sessions in order, so the sums do not depend on threads."""
    bound = exact.shape[2]
    for a in range(pots.shape[0]):
        for k in range(pots.shape[1]):
            for j in range(pots.shape[2]):
                p = pots[a, k, j]
                if p != p:
                    break  # the session ended
                count_amount(p, bound, exact[a, j], hist[a, j], sums[a, j])


@njit(cache=True)
def count_largest(largest, exact, hist, sums):
    """Count one block's largest pots [arm, k] into exact [arm, bound] or hist/sums [arm, NB_POT]."""
    bound = exact.shape[1]
    for a in range(largest.shape[0]):
        for k in range(largest.shape[1]):
            p = largest[a, k]
            if p != p:
                continue
            count_amount(p, bound, exact[a], hist[a], sums[a])


@njit(cache=True)
def count_balances(finals, grid, exact, hist, sums):
    """Count one block's final balances [arm, k, seat] into exact [arm, seat, 2 bound - 1]
    (balances that are whole multiples of 1 / grid[arm], ``grid_index``) or hist/sums
    [arm, seat, 2 NB_POT] (the others, by ``balance_bin``)."""
    bound = (exact.shape[2] + 1) // 2
    for a in range(finals.shape[0]):
        for k in range(finals.shape[1]):
            for s in range(finals.shape[2]):
                x = finals[a, k, s]
                if x != x:
                    continue
                e = grid_index(x, grid[a], bound)
                if e >= 0:
                    exact[a, s, e] += 1.0
                else:
                    bin_ = balance_bin(x)
                    hist[a, s, bin_] += 1.0
                    sums[a, s, bin_] += x


@njit(cache=True)
def fold_balances(exact, grid, hist, sums):
    """Add exact balance counts [seat, 2 bound - 1] (steps of 1 / grid) into log bins
    hist/sums [seat, 2 NB_POT]: the whole distribution in bins (balance_histogram.csv)."""
    bound = (exact.shape[1] + 1) // 2
    for s in range(exact.shape[0]):
        for i in range(exact.shape[1]):
            c = exact[s, i]
            if c > 0:
                x = (i - (bound - 1)) / grid
                bin_ = balance_bin(x)
                hist[s, bin_] += c
                sums[s, bin_] += c * x
