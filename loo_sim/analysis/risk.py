"""A risk run's tables (``run.risk``): the risk of ruin over bankroll, the deals until ruin,
the bankroll a given risk needs, and the N0 of the policy's lead over ``basic`` (the
number of deals after which the lead exceeds one standard deviation of its result)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from loo_sim.base.stats import mean_se, normal_ci, wilson
from loo_sim.run.risk import RiskResult

ARMS = ("policy", "basic")
RISKS = (0.01, 0.05)


def risk_curve(res: RiskResult) -> pd.DataFrame:
    """For each bankroll and arm: the share of sessions (of ``res.deals`` deals) in which the
    focal seat's balance fell below -bankroll, with its Wilson 95% interval."""
    rows = []
    for a, arm in enumerate(ARMS):
        for level, ruined in zip(res.levels, res.ruined[a]):
            lo, hi = wilson(ruined, res.sessions)
            rows.append(dict(arm=arm, bankroll=level, risk=ruined / res.sessions, ci_low=lo, ci_high=hi,
                             sessions=res.sessions))  # fmt: skip
    return pd.DataFrame(rows)


def bankroll_for_risk(res: RiskResult) -> pd.DataFrame:
    """The smallest bankroll of the grid whose risk (and whose upper 95% bound) is at most each
    target; the grid steps by about 12%, so the answer is good to that step."""
    curve = risk_curve(res)
    rows = []
    for arm in ARMS:
        mine = curve[curve["arm"] == arm]
        for target in RISKS:
            point = mine[mine["risk"] <= target]
            safe = mine[mine["ci_high"] <= target]
            rows.append(dict(arm=arm, risk=target, bankroll=point["bankroll"].min() if len(point) else math.nan,
                             bankroll_upper_bound=safe["bankroll"].min() if len(safe) else math.nan))  # fmt: skip
    return pd.DataFrame(rows)


def ruin_deals(res: RiskResult) -> pd.DataFrame:
    """The policy's deals until ruin at the bankrolls where its risk is nearest 50%, 20% and 5%:
    sessions ruined after each deal (the rest are not ruined within the session)."""
    risk = res.ruined[0] / res.sessions
    rows = []
    for target in (0.5, 0.2, 0.05):
        level = int(np.argmin(np.abs(risk - target)))
        for deal in range(1, res.deals + 1):
            count = res.ruin_deal[0, level, deal]
            if count:
                rows.append(dict(bankroll=res.levels[level], risk=risk[level], deal=deal, sessions=int(count),
                                 share=count / res.sessions))  # fmt: skip
    return pd.DataFrame(rows, columns=["bankroll", "risk", "deal", "sessions", "share"])


def n0_table(res: RiskResult) -> pd.DataFrame:
    """The policy's lead over basic per deal (paired on the same decks, the session the unit) and
    N0 = sigma^2 / mu^2 deals, sigma^2 the variance of the lead per deal (a session's
    variance over its deals); with the deals range N0 takes over mu's 95% interval where it
    excludes 0."""
    s, d = res.sessions, res.deals
    mean, se = mean_se(res.lead[0], res.lead[1], s)
    mu, mu_se = mean / d, se / d
    var = max(res.lead[1] / s - mean * mean, 0.0) * s / max(s - 1, 1) / d
    lo, hi = normal_ci(mu, mu_se)
    n0 = var / (mu * mu) if mu else math.nan  # no lead: no N0
    clear = lo > 0 or hi < 0  # the range over mu's interval only where it excludes 0 (else unbounded)
    low_n0 = var / max(lo * lo, hi * hi) if clear else math.nan
    high_n0 = var / min(lo * lo, hi * hi) if clear else math.nan
    return pd.DataFrame([dict(lead_per_deal=mu, se=mu_se, ci_low=lo, ci_high=hi, sd_per_deal=math.sqrt(var), n0=n0,
                              n0_low=low_n0, n0_high=high_n0, sessions=s, deals_per_session=d)])  # fmt: skip
