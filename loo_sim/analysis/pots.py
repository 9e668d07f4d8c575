"""Pot dynamics over sessions (RULES.md R10): run arms of a comparison on the same
decks, and turn the streamed aggregates into tables with their uncertainty."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from loo_sim.analysis.stats import Z95, mean_se, wilson
from loo_sim.errors import LooError
from loo_sim.game.policy import Policy, parse_table
from loo_sim.game.rules import FinalPot, Rules, split_option
from loo_sim.kernel import abi as L
from loo_sim.run.args import kernel_args
from loo_sim.run.strength import resolve_strength


@dataclass
class Arm:
    name: str  # e.g. "penalty=limited, policy=ev"
    rules: Rules
    policies: list[Policy]


@dataclass
class PotsResult:
    arms: list[Arm]
    sessions: int  # sessions played (per arm)
    deals: int  # deals a session plays at most
    seed: int
    scal: np.ndarray  # [arm, S_*]
    deal_stats: np.ndarray  # [arm, deal, DS_*]
    pot_hist: np.ndarray  # [arm, deal, bin] sessions by the pot at the start of deal j
    pot_sum: np.ndarray  # the same, summing the pots (a bin's mean = sum / count)
    max_hist: np.ndarray  # [arm, bin] sessions by their largest pot
    max_sum: np.ndarray
    bal_hist: np.ndarray  # [arm, seat, signed bin] sessions by final balance
    bal_sum: np.ndarray
    partial: bool = False
    extra: dict = field(default_factory=dict)


def parse_compare(items: Sequence[str] | None) -> list[tuple[str, list[str]]]:
    """``KEY=V1,V2`` items: a rule option or ``policy`` (the whole table's); errors name ``compare[i]``."""
    out = []
    for i, item in enumerate(items or ()):
        key, values = split_option(item, f"compare[{i}]", "KEY=V1,V2", "penalty=limited,unlimited", ("policy",))
        parts: list[str] = []
        for piece in values.split(","):
            piece = piece.strip()
            if key == "policy" and parts and piece.split("=")[0] in ("play", "miss"):
                parts[-1] += "," + piece  # threshold:play=P,miss=M keeps its comma
            elif piece:
                parts.append(piece)
        if not parts:
            raise LooError(f"{item!r}: expected KEY=V1,V2, e.g. penalty=limited,unlimited", key=f"compare[{i}]")
        out.append((key, parts))
    return out


def make_arms(
    base: Rules, table_for: Callable[[int], list[Policy]], compare: Sequence[tuple[str, list[str]]]
) -> list[Arm]:
    """The grid of arms: every combination of the compared values (the first is the
    baseline of the paired differences)."""
    if not compare:
        return [Arm("baseline", base, table_for(base.players))]
    arms = []
    for combo in itertools.product(*[[(k, v) for v in values] for k, values in compare]):
        overrides = {k: v for k, v in combo if k != "policy"}
        rules = base.replace(**overrides)
        policy = next((v for k, v in combo if k == "policy"), None)
        table = parse_table(policy, rules.players) if policy else table_for(rules.players)
        arms.append(Arm(", ".join(f"{k}={v}" for k, v in combo), rules, table))
    return arms


def run_pots(arms: Sequence[Arm], sessions: int, deals: int, seed: int,
             progress: Callable[[int, int], None] | None = None, backend=None) -> PotsResult:  # fmt: skip
    """Play ``sessions`` sessions of ``deals`` deals for every arm, session i of every arm
    on the same decks; stream the aggregates (Ctrl-C keeps what finished: partial)."""
    from loo_sim.run.backend import LocalBackend, chunk_ranges
    from loo_sim.run.tasks import pots_shapes, pots_task

    A = len(arms)
    n_max = L.MAX_PLAYERS
    args = [kernel_args(a.rules, a.policies, resolve_strength(a.rules, a.policies)) for a in arms]
    ri = np.stack([x.ri for x in args])
    rf = np.stack([x.rf for x in args])
    pol = np.zeros((A, n_max, 3), dtype=np.int64)
    polf = np.zeros((A, n_max, L.PF_LEN), dtype=np.float64)
    for a, x in enumerate(args):
        pol[a, : len(x.pol)] = x.pol
        polf[a, : len(x.polf)] = x.polf
    strength = np.stack([x.strength for x in args])
    chart = np.stack([x.chart for x in args])
    bankroll = np.array([a.rules.bankroll if a.rules.bankroll is not None else -1.0 for a in arms], dtype=np.float64)
    share = np.array([a.rules.final_pot is FinalPot.SHARE for a in arms], dtype=np.bool_)
    backend = backend or LocalBackend()
    n_blocks = (sessions + L.SESSION_BLOCK - 1) // L.SESSION_BLOCK
    chunks = chunk_ranges(n_blocks, 2 * backend.chunk_scale)
    static = (ri, rf, pol, polf, strength, chart, bankroll, share, seed, sessions, deals)
    shapes = pots_shapes(A, deals)
    totals = {k: np.zeros(shape) for k, shape in shapes.items()}
    partial = False
    try:
        for (first, count), rows in zip(chunks, backend.map_chunks(pots_task, static, chunks)):
            for b in range(count):  # block order: the sums do not depend on threads or workers
                for k in shapes:
                    totals[k] += rows[k][b]
            if progress is not None:
                progress(min((first + count) * L.SESSION_BLOCK, sessions), sessions)
    except KeyboardInterrupt:
        partial = True
    played = int(totals["scal"][0, L.S_SESSIONS])
    return PotsResult(list(arms), played, deals, seed, *totals.values(), partial=partial)


# ---- bins -> values ---------------------------------------------------------------------------
def bin_edges() -> np.ndarray:
    """Lower edge of every pot bin (and the upper edge of the last): see kernel.sessions.pot_bin."""
    edges = np.zeros(L.NB_POT + 1)
    for b in range(1, L.NB_POT + 1):
        edges[b] = 10 ** ((b - 1) / 16) if b <= 257 else 10.0 ** (b - 257 + 16)
    return edges


def hist_quantile(counts: np.ndarray, sums: np.ndarray, q: float) -> float:
    """Quantile of a binned distribution: the mean of the values in the bin where the
    cumulative share reaches q (exact for a point mass; within one bin otherwise)."""
    total = counts.sum()
    if total == 0:
        return math.nan
    b = int(np.searchsorted(np.cumsum(counts), q * total, side="left"))
    b = min(b, len(counts) - 1)
    while counts[b] == 0 and b > 0:
        b -= 1
    return float(sums[b] / counts[b])


# ---- tables -------------------------------------------------------------------------------------
def pot_by_deal(res: PotsResult) -> pd.DataFrame:
    """Per arm and deal index: sessions still running, quantiles of the pot at the start of
    the deal (5, 25, 50, 75, 95%; to within one log-spaced bin, 16 per decade), and the
    flag column ``inexact_sessions``: sessions whose amounts have passed 2**53 by then (R3)."""
    rows = []
    for a, arm in enumerate(res.arms):
        inexact = np.cumsum(res.deal_stats[a, :, L.DS_INEXACT_FIRST])
        for j in range(res.deals):
            counts, sums = res.pot_hist[a, j], res.pot_sum[a, j]
            running = int(res.deal_stats[a, j, L.DS_RUNNING])
            if running == 0:
                continue
            qs = {f"q{int(q * 100):02d}": hist_quantile(counts, sums, q) for q in (0.05, 0.25, 0.5, 0.75, 0.95)}
            rows.append(dict(arm=arm.name, deal=j, sessions=running, **qs, inexact_sessions=int(inexact[j])))
    columns = ["arm", "deal", "sessions", "q05", "q25", "q50", "q75", "q95", "inexact_sessions"]
    return pd.DataFrame(rows, columns=columns)


def max_pot_ccdf(res: PotsResult) -> pd.DataFrame:
    """Per arm: share of sessions whose largest pot reached at least each bin's lower edge."""
    edges = bin_edges()
    rows = []
    for a, arm in enumerate(res.arms):
        counts = res.max_hist[a]
        total = counts.sum()
        tail = total - np.concatenate([[0.0], np.cumsum(counts)[:-1]])
        for b in range(1, L.NB_POT):
            if counts[b:].sum() == 0:
                break
            if counts[b - 1 :].sum() > 0:
                rows.append(dict(arm=arm.name, pot=edges[b], share_at_least=tail[b] / total))
    return pd.DataFrame(rows, columns=["arm", "pot", "share_at_least"])


def balances(res: PotsResult) -> pd.DataFrame:
    """Per arm and seat: final net balance, mean with 95% interval, SD, and quantiles."""
    rows = []
    k = res.sessions
    for a, arm in enumerate(res.arms):
        for s in range(arm.rules.players):
            m, se = mean_se(res.scal[a, L.S_BAL + s], res.scal[a, L.S_BAL_SQ + s], k)
            hist, sums = res.bal_hist[a, s], res.bal_sum[a, s]
            rows.append(dict(arm=arm.name, seat=s, sessions=k, mean=m, se=se, ci_low=m - Z95 * se,
                             ci_high=m + Z95 * se, sd=se * math.sqrt(k),
                             **{f"q{int(q * 100):02d}": hist_quantile(hist, sums, q)
                                for q in (0.05, 0.25, 0.5, 0.75, 0.95)}))  # fmt: skip
    return pd.DataFrame(rows)


def balance_histogram(res: PotsResult) -> pd.DataFrame:
    """Per arm and seat, the sessions by final balance in signed log bins (long form)."""
    edges = bin_edges()
    rows = []
    for a, arm in enumerate(res.arms):
        for s in range(arm.rules.players):
            hist = res.bal_hist[a, s]
            for b in np.nonzero(hist)[0]:
                if b < L.NB_POT:
                    k = L.NB_POT - 1 - b
                    lo, hi = -edges[k + 1], -edges[k]
                else:
                    k = b - L.NB_POT
                    lo, hi = edges[k], edges[k + 1]
                rows.append(dict(arm=arm.name, seat=s, low=lo, high=hi, sessions=int(hist[b])))
    return pd.DataFrame(rows, columns=["arm", "seat", "low", "high", "sessions"])


def _stat(arm: str, metric: str, value: float, se: float = math.nan, lo: float = math.nan, hi: float = math.nan,
          n: float = math.nan, method: str = "mean") -> dict:  # fmt: skip
    if lo != lo and se == se:
        lo, hi = value - Z95 * se, value + Z95 * se
    return dict(arm=arm, metric=metric, value=value, se=se, ci_low=lo, ci_high=hi, n=n, method=method)


def arm_stats(res: PotsResult) -> pd.DataFrame:
    """Per arm: looed players per deal, single and double pots, uncontested deals, pot
    growth and its accounting, ruin, overflow and exactness, each with its uncertainty."""
    rows = []
    k = res.sessions
    for a, arm in enumerate(res.arms):
        ds = res.deal_stats[a]
        sc = res.scal[a]
        deals = ds[:, L.DS_RUNNING].sum()
        name = arm.name
        m, se = mean_se(ds[:, L.DS_LOOED].sum(), ds[:, L.DS_LOOED_SQ].sum(), deals)
        rows.append(_stat(name, "looed_per_deal", m, se, n=deals))
        for metric, col in (("single_pot", L.DS_SINGLE), ("nobody_contests", L.DS_NOBODY),
                            ("lone_player", L.DS_LONE), ("flush", L.DS_FLUSH)):  # fmt: skip
            x = ds[:, col].sum()
            lo, hi = wilson(x, deals)
            rows.append(_stat(name, f"{metric}_share", x / deals, lo=lo, hi=hi, n=deals, method="wilson"))
        rows.append(_stat(name, "double_pot_share", 1 - ds[:, L.DS_SINGLE].sum() / deals, n=deals,
                          method="1 - single_pot_share"))  # fmt: skip
        for metric, col in (("antes_per_deal", L.DS_ANTES), ("penalties_per_deal", L.DS_PENALTIES),
                            ("shares_paid_per_deal", L.DS_SHARES), ("pot_growth_per_deal", L.DS_GROWTH)):  # fmt: skip
            rows.append(_stat(name, metric, ds[:, col].sum() / deals, n=deals,
                              method="mean (no SE: the deals of a session are not independent)"))  # fmt: skip
        for metric, col in (("ruin", L.S_RUINED), ("overflow_stop", L.S_OVERFLOW), ("inexact_past_2_53", L.S_INEXACT)):
            lo, hi = wilson(sc[col], k)
            rows.append(_stat(name, f"{metric}_probability", sc[col] / k, lo=lo, hi=hi, n=k, method="wilson"))
        m, se = mean_se(sc[L.S_MAXLOG], sc[L.S_MAXLOG_SQ], k)
        rows.append(_stat(name, "log10_largest_pot", m, se, n=k))
        rows.append(_stat(name, "deals_per_session", sc[L.S_DEALS] / k, n=k))
        rows.append(_stat(name, "pot_left_at_end", sc[L.S_FINAL_POT] / k, n=k))
    return pd.DataFrame(rows, columns=["arm", "metric", "value", "se", "ci_low", "ci_high", "n", "method"])


def paired(res: PotsResult) -> pd.DataFrame:
    """Arm a against arm 0, session by session on the same decks: differences of each
    seat's final balance, of log10 of the largest pot, of ruin, of looed per deal."""
    rows = []
    k = res.sessions
    base = res.arms[0]
    for a, arm in enumerate(res.arms[1:], start=1):
        sc = res.scal[a]
        metrics = [(f"final_balance_seat_{s}", L.P_BAL + s, L.P_BAL_SQ + s)
                   for s in range(min(arm.rules.players, base.rules.players))]  # fmt: skip
        metrics += [("log10_largest_pot", L.P_MAXLOG, L.P_MAXLOG_SQ), ("ruin", L.P_RUIN, L.P_RUIN_SQ),
                    ("looed_per_deal", L.P_LOOED, L.P_LOOED_SQ)]  # fmt: skip
        for name, col, col_sq in metrics:
            m, se = mean_se(sc[col], sc[col_sq], k)
            rows.append(dict(arm=arm.name, baseline=base.name, metric=name, diff=m, se=se, ci_low=m - Z95 * se,
                             ci_high=m + Z95 * se, sessions=k))  # fmt: skip
    return pd.DataFrame(rows, columns=["arm", "baseline", "metric", "diff", "se", "ci_low", "ci_high", "sessions"])


def record_sessions(arm: Arm, seed: int, sessions: Sequence[int], deals: int) -> list[dict]:
    """Sessions played by the kernel with every deal's record (for tests and replays):
    per session its records, final balances, ruined seat, first inexact and overflow deal."""
    from loo_sim.kernel.sessions import record_session
    from loo_sim.run.records import record_from_arrays

    x = kernel_args(arm.rules, arm.policies, resolve_strength(arm.rules, arm.policies))
    pol = np.zeros((L.MAX_PLAYERS, 3), dtype=np.int64)
    polf = np.zeros((L.MAX_PLAYERS, L.PF_LEN), dtype=np.float64)
    pol[: len(x.pol)], polf[: len(x.polf)] = x.pol, x.polf
    bankroll = arm.rules.bankroll if arm.rules.bankroll is not None else -1.0
    out = []
    for i in sessions:
        rec_oi = np.zeros((deals, L.O_LEN), dtype=np.int64)
        rec_of = np.zeros((deals, L.F_LEN), dtype=np.float64)
        bal = np.zeros(L.MAX_PLAYERS, dtype=np.float64)
        played, ruined, inexact, overflow, left, largest, looed = record_session(
            x.ri, x.rf, pol, polf, x.strength, x.chart, bankroll, arm.rules.final_pot is FinalPot.SHARE,
            np.uint64(seed), i, deals, rec_oi, rec_of, bal)  # fmt: skip
        n = arm.rules.players
        out.append(dict(records=[record_from_arrays(rec_oi[j], rec_of[j], n) for j in range(played)],
                        balances=list(bal[:n]), ruined=None if ruined < 0 else int(ruined),
                        inexact_from=None if inexact < 0 else int(inexact),
                        overflow_at=None if overflow < 0 else int(overflow), final_pot=float(left)))  # fmt: skip
    return out


def _fmt(x: float) -> str:
    """Chips as a person reads them: 21, 1,520, 3.4e+12."""
    if x != x:
        return "n/a"
    if abs(x) >= 1e7:
        return f"{x:.3g}"
    if abs(x) >= 100 or float(x).is_integer():
        return f"{x:,.0f}"
    return f"{x:.2f}"


def summary_markdown(res: PotsResult, tables: dict[str, pd.DataFrame], preset: str, command: str) -> str:
    """summary.md in plain words; every number comes from ``tables`` (the CSVs)."""
    fan, stats, bal, ccdf, pair = (tables[k] for k in ("pot_by_deal", "arms", "balances", "max_pot", "paired"))
    lines = [f"# Pot dynamics: {preset}", "", f"Produced by `{command}`.", "",
             f"{res.sessions:,} sessions of up to {res.deals} deals per arm, every arm on the same decks "
             f"(deal j of session i is shuffled from the stream (seed {res.seed}, i, j)), so the arms are compared "
             "session by session.", ""]  # fmt: skip
    for arm in res.arms:
        name = arm.name
        s = stats[stats.arm == name].set_index("metric")
        f = fan[fan.arm == name]
        lines += [f"## {name}", ""]
        first = f.iloc[0]
        last = f[f.sessions >= 0.5 * first.sessions].iloc[-1]  # while at least half the sessions run
        running = "" if last.sessions == first.sessions else f" (of {int(first.sessions):,}; the others had ended)"
        lines.append(f"- The pot starts at {_fmt(first.q50)} chips; at the start of deal {int(last.deal) + 1} its "
                     f"median is {_fmt(last.q50)} chips, and 90% of the {int(last.sessions):,} sessions still "
                     f"running{running} lie between {_fmt(last.q05)} and {_fmt(last.q95)}.")  # fmt: skip
        length = s.loc["deals_per_session"].value
        if length < res.deals:
            lines.append(f"- Sessions last {length:.2f} deals on average (ruin or overflow ends them early).")
        g = s.loc["pot_growth_per_deal"].value
        lines.append(f"- The pot grows by {_fmt(g)} chips per deal on average: antes "
                     f"{_fmt(s.loc['antes_per_deal'].value)} + loo payments {_fmt(s.loc['penalties_per_deal'].value)}"
                     f" - shares paid {_fmt(s.loc['shares_paid_per_deal'].value)}.")  # fmt: skip
        lp = s.loc["looed_per_deal"]
        lines.append(f"- {lp.value:.3f} players are looed per deal (95% CI [{lp.ci_low:.3f}, {lp.ci_high:.3f}]); "
                     f"nobody contests {s.loc['nobody_contests_share'].value:.2%} of deals"
                     + (f"; {s.loc['single_pot_share'].value:.1%} are single pots and "
                        f"{s.loc['double_pot_share'].value:.1%} double pots" if arm.rules.single_pot else "")
                     + ".")  # fmt: skip
        c = ccdf[ccdf.arm == name]
        ml = s.loc["log10_largest_pot"]
        lines.append(f"- The largest pot of a session is about 10^{ml.value:.2f} chips on a log average "
                     f"(95% CI 10^{ml.ci_low:.2f} to 10^{ml.ci_high:.2f}).")  # fmt: skip
        for threshold in (1e3, 1e6, 1e12):
            row = c[c.pot >= threshold].head(1)
            if len(row):
                lines.append(f"  {row.share_at_least.iloc[0]:.2%} of sessions see a pot of at least "
                             f"{_fmt(row.pot.iloc[0])} chips.")  # fmt: skip
        b = bal[bal.arm == name]
        for r in b.itertuples(index=False):
            lines.append(f"- Seat {r.seat} ends a session with {_fmt(r.mean)} chips net on average (95% CI "
                         f"[{_fmt(r.ci_low)}, {_fmt(r.ci_high)}], SD {_fmt(r.sd)}; median {_fmt(r.q50)}).")  # fmt: skip
        ruin = s.loc["ruin_probability"]
        if arm.rules.bankroll is not None:
            lines.append(
                f"- Probability that someone is ruined (balance below -{_fmt(arm.rules.bankroll)}) within "
                f"{res.deals} deals: {ruin.value:.2%} (95% CI [{ruin.ci_low:.2%}, {ruin.ci_high:.2%}])."
            )
        inexact = s.loc["inexact_past_2_53_probability"].value
        if inexact > 0:
            lines.append(f"- Exactness (R3): {inexact:.1%} of sessions reached amounts past 2**53 chips, where "
                         "float64 chips are no longer exact.")  # fmt: skip
        over = s.loc["overflow_stop_probability"].value
        if over > 0:
            lines.append(f"- {over:.1%} of sessions were stopped when the pot passed {L.OVERFLOW_LIMIT:.0e} chips "
                         "(they are counted up to that deal).")  # fmt: skip
        lines.append("")
    if len(pair):
        lines += ["## Paired comparisons", ""]
        for r in pair.itertuples(index=False):
            lines.append(f"- {r.arm} against {r.baseline}, {r.metric}: {r.diff:+.4g} (95% CI [{r.ci_low:+.4g}, "
                         f"{r.ci_high:+.4g}]), session by session on the same decks.")  # fmt: skip
        lines.append("")
    return "\n".join(lines)
