"""Tables of a simulate run (pandas, long form): every estimate with its uncertainty
(docs/design.md property 6). Per-seat rates get Wilson intervals (each deal is one
independent trial for a seat); all-seat rows treat the deal as the unit, since seats
of one deal are not independent."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from loo_sim.base.stats import estimate, mean_se, normal_ci, ratio_se, wilson
from loo_sim.game import abi as L
from loo_sim.run.simulate import SimResult


def _row(seat, metric, value, se=math.nan, lo=math.nan, hi=math.nan, n=math.nan, method="") -> dict:
    return dict(seat=seat, metric=metric, **estimate(value, se, lo, hi, n, method))


def _rate_row(seat, metric, k, n) -> dict:
    p = k / n if n else math.nan
    se = math.sqrt(p * (1 - p) / n) if n else math.nan
    lo, hi = wilson(k, n)
    return _row(seat, metric, p, se, lo, hi, n, "wilson")


def summary_table(res: SimResult) -> pd.DataFrame:
    """Long-form summary: one row per (seat, metric); seat 'all' pools the table."""
    t = res.totals
    n_players = res.rules.players
    h = res.rules.hand_size
    deals = t[L.A_DEALS]
    rows = []
    decl_names = L.DECL_NAMES
    for s in range(n_players):
        decl = res.seat(s, L.S_DECL, 4)
        for d, name in enumerate(decl_names):
            rows.append(_rate_row(s, f"{name}_rate", decl[d], deals))
        played = res.seat(s, L.S_PLAYED)[0]
        tricks = res.seat(s, L.S_TRICKS, h + 1)
        for k in range(h + 1):
            rows.append(_rate_row(s, f"tricks_{k}", tricks[k], played))
        looed = res.seat(s, L.S_LOOED)[0]
        rows.append(_rate_row(s, "loo_rate", looed, deals))
        in_deal = deals - decl[L.DECL_PASS]
        rows.append(_rate_row(s, "loo_rate_when_in", looed, in_deal))
        mean, se = mean_se(res.seat(s, L.S_NET)[0], res.seat(s, L.S_NET_SQ)[0], deals)
        rows.append(_row(s, "net_per_deal", mean, se, n=deals, method="mean"))
        for d, name in enumerate(decl_names):
            if decl[d] > 0:
                m, e = mean_se(res.seat(s, L.S_DECL_NET + d)[0], res.seat(s, L.S_DECL_NET_SQ + d)[0], decl[d])
                rows.append(_row(s, f"net_when_{name}", m, e, n=decl[d], method="mean"))
        if res.rules.flush:
            shown = res.seat(s, L.S_FLUSH_SHOWN)[0]
            rows.append(_rate_row(s, "flush_held_at_show", res.seat(s, L.S_FLUSH_HELD)[0], shown))
    # all seats: the deal is the unit
    for d, name in enumerate(decl_names):
        total = sum(res.seat(s, L.S_DECL + d)[0] for s in range(n_players))
        m, e = mean_se(total, t[L.A_DECL_SQ + d], deals)
        rows.append(_row("all", f"{name}_rate", m / n_players, e / n_players, n=deals, method="per-deal mean"))
    played_total = sum(res.seat(s, L.S_PLAYED)[0] for s in range(n_players))
    for k in range(h + 1):
        x = sum(res.seat(s, L.S_TRICKS + k)[0] for s in range(n_players))
        r, e = ratio_se(x, played_total, t[L.A_TRICKS_XX + k], t[L.A_TRICKS_XY + k], t[L.A_PLAYED_YY], deals)
        rows.append(_row("all", f"tricks_{k}", r, e, n=played_total, method="ratio"))
    hist = t[L.A_LOOED_HIST : L.A_LOOED_HIST + L.MAX_PLAYERS + 1]
    counts = np.arange(len(hist))
    m, e = mean_se(float(hist @ counts), float(hist @ (counts * counts)), deals)
    rows.append(_row("all", "loo_rate", m / n_players, e / n_players, n=deals, method="per-deal mean"))
    rows.append(_row("all", "looed_per_deal", m, e, n=deals, method="mean"))
    # all-seat net per deal: the table's net is carried - pot_next, exactly
    m, e = mean_se(t[L.A_POT_NEXT], t[L.A_POT_NEXT_SQ], deals)
    rows.append(_row("all", "net_per_deal", (res.carried - m) / n_players, e / n_players, n=deals, method="mean"))
    rows.append(_row("all", "pot_next", m, e, n=deals, method="mean"))
    for o, name in enumerate(L.OUTCOME_NAMES):
        rows.append(_rate_row("all", f"outcome_{name}", t[L.A_OUTCOME + o], deals))
    if res.rules.single_pot:
        rows.append(_rate_row("all", "single_pot", t[L.A_SINGLE], deals))
    if res.rules.flush:
        x = sum(res.seat(s, L.S_FLUSH_HELD)[0] for s in range(n_players))
        y = sum(res.seat(s, L.S_FLUSH_SHOWN)[0] for s in range(n_players))
        r, e = ratio_se(x, y, t[L.A_FLUSH_XX], t[L.A_FLUSH_XY], t[L.A_FLUSH_YY], deals)
        rows.append(_row("all", "flush_held_at_show", r, e, n=y, method="ratio"))
    df = pd.DataFrame(rows, columns=["seat", "metric", "value", "se", "ci_low", "ci_high", "n", "method"])
    df["seat"] = df["seat"].astype(str)
    return df


def position_table(res: SimResult) -> pd.DataFrame:
    """Per position from the dealer's left (1 = eldest ... players = the dealer): mean net
    chips per deal with its SE and SD, loo rate and entry rate with Wilson intervals."""
    rows = []
    deals = res.totals[L.A_DEALS]
    for position in range(1, res.rules.players + 1):
        base = L.A_POS + position * L.POS_LEN
        t = res.totals[base : base + L.POS_LEN]
        m, se = mean_se(t[L.POS_NET], t[L.POS_NET_SQ], deals)
        lo, hi = wilson(t[L.POS_LOOED], deals)
        in_lo, in_hi = wilson(t[L.POS_IN], deals)
        net_lo, net_hi = normal_ci(m, se)
        rows.append(dict(position=position, deals=int(deals), net_mean=m, net_se=se, net_ci_low=net_lo,
                         net_ci_high=net_hi, net_sd=se * math.sqrt(deals) if deals else math.nan,
                         loo_rate=t[L.POS_LOOED] / deals, loo_ci_low=lo, loo_ci_high=hi,
                         in_rate=t[L.POS_IN] / deals, in_ci_low=in_lo, in_ci_high=in_hi))  # fmt: skip
    return pd.DataFrame(rows)


def class_table(res: SimResult) -> pd.DataFrame:
    """Hands played and loo rate by hand class (P5), for a run made with ``by_class``."""
    from loo_sim.game.classes import N_CLASSES, class_label

    rows = []
    for cls in range(N_CLASSES + 1):
        played = res.totals[L.A_CLASS + 2 * cls]
        if played == 0:
            continue
        looed = res.totals[L.A_CLASS + 2 * cls + 1]
        lo, hi = wilson(looed, played)
        rows.append(dict(hand_class=cls, label=class_label(cls), hands=int(played), loo_rate=looed / played,
                         ci_low=lo, ci_high=hi))  # fmt: skip
    return pd.DataFrame(rows, columns=["hand_class", "label", "hands", "loo_rate", "ci_low", "ci_high"])
