"""The pots study in words (summary.md): one table of arms x metrics with 95% intervals,
the paired differences the intervals support, and each seat's final balance. Every number
comes from the study's tables (the CSVs)."""

from __future__ import annotations

import math

import pandas as pd

from loo_sim.analysis.pots import LARGEST_POT_THRESHOLDS, threshold_metric
from loo_sim.analysis.text import chips_text, interval_text
from loo_sim.game import abi as L
from loo_sim.run.sessions import PotsResult


def _row_text(r, pct: bool = False, signed: bool = False) -> str:
    return interval_text(r.value, r.ci_low, r.ci_high, pct=pct, signed=signed)


def pots_summary(res: PotsResult, tables: dict[str, pd.DataFrame], preset: str, command: str) -> str:
    """summary.md of a pots study: one table of arms x metrics with 95% intervals, a few
    sentences on the differences the paired intervals support, and each seat's final
    balance; every number comes from ``tables`` (the CSVs)."""
    bankrolls = sorted({a.rules.bankroll for a in res.arms if a.rules.bankroll is not None})
    ends = (f" (fewer when a balance falls below -{chips_text(bankrolls[0])}: ruin)" if len(bankrolls) == 1
            else " (fewer when a balance falls below the arm's bankroll: ruin)" if bankrolls else "")  # fmt: skip
    lines = [f"# Pot dynamics: {preset}", "", f"Produced by `{command}`.", "",
             f"{res.sessions:,} sessions of up to {res.deals} deals per arm{ends}, every arm on the same decks "
             f"(deal j of session i is shuffled from the stream (seed {res.seed}, i, j)), so the arms are compared "
             "session by session. Intervals are 95%: Wilson for shares, the delta method with the session as the "
             "unit for rates per deal.", ""]  # fmt: skip
    lines += ["## The arms", "", *_arms_table(res, tables), ""]
    lines += _pot_note(res, tables["pot_by_deal"])
    differs = _difference_lines(res, tables["paired"], tables["arms"])
    if differs:
        lines += ["## What differs", "", *differs, ""]
    lines += ["## Final net balance by seat", "", *_balance_table(res, tables["balances"]), ""]
    lines += _risk_notes(res, tables["arms"])
    return "\n".join(lines)


def _pot_cell(fan: pd.DataFrame) -> str:
    """The pot after the most deals that at least half the sessions reached: median (5%-95%)."""
    first = fan.iloc[0]
    last = fan[fan.sessions >= 0.5 * first.sessions].iloc[-1]
    cell = f"{chips_text(last.q50)} ({chips_text(last.q05)}\u2013{chips_text(last.q95)}) after {int(last.deal)} deals"
    if last.sessions < first.sessions:
        cell += f" ({int(last.sessions):,} sessions still running)"
    return cell


def _arms_table(res: PotsResult, tables: dict[str, pd.DataFrame]) -> list[str]:
    """Markdown: one row per metric, one column per arm; rows that are 0 in every arm
    (flushes, 2**53, overflow, large pots) are left out."""

    arms = [a.name for a in res.arms]
    stats = tables["arms"]
    s = {name: stats[stats.arm == name].set_index("metric") for name in arms}
    fan = tables["pot_by_deal"]
    rows: list[tuple[str, list[str]]] = []

    def add(label: str, metric: str, pct: bool = False, nonzero: bool = False) -> None:
        if not nonzero or any(s[n].loc[metric].value > 0 for n in arms):
            rows.append((label, [_row_text(s[n].loc[metric], pct=pct) for n in arms]))

    rows.append(("pot: median (5%\u201395% of sessions)", [_pot_cell(fan[fan.arm == n]) for n in arms]))
    add("pot growth per deal (chips)", "pot_growth_per_deal")
    rows.append(("= antes + loo payments - shares paid",
                 [" + ".join(chips_text(s[n].loc[m].value) for m in ("antes_per_deal", "penalties_per_deal"))
                  + f" - {chips_text(s[n].loc['shares_paid_per_deal'].value)}" for n in arms]))  # fmt: skip
    add("looed players per deal", "looed_per_deal")
    add("deals nobody contests", "nobody_contests_share", pct=True, nonzero=True)
    if any(a.rules.single_pot for a in res.arms):
        add("single pots", "single_pot_share", pct=True)
    add("deals won by a flush", "flush_share", pct=True, nonzero=True)
    cells = []
    for n in arms:
        r = s[n].loc["log10_largest_pot"]
        cells.append(interval_text(10**r.value, 10**r.ci_low, 10**r.ci_high))
    rows.append(("largest pot of a session (chips, geometric mean)", cells))
    for x in LARGEST_POT_THRESHOLDS:
        amount = chips_text(x) if x < 1e7 else f"10^{round(math.log10(x))}"
        add(f"sessions whose pot reaches {amount}", threshold_metric(x), pct=True, nonzero=True)
    add("deals per session", "deals_per_session")
    if any(a.rules.bankroll is not None for a in res.arms):
        add(f"ruin within {res.deals} deals", "ruin_probability", pct=True)
    add("sessions past 2**53 chips (R3: no longer exact)", "inexact_past_2_53_probability", pct=True, nonzero=True)
    add(f"sessions stopped past {L.OVERFLOW_LIMIT:.0e} chips", "overflow_stop_probability", pct=True, nonzero=True)
    add("pot left at the end (chips)", "pot_left_at_end")
    out = ["| | " + " | ".join(arms) + " |", "|---|" + "---|" * len(arms)]
    out += [f"| {label} | " + " | ".join(cells) + " |" for label, cells in rows]
    return out


def _pot_note(res: PotsResult, fan: pd.DataFrame) -> list[str]:
    """Whether the pot quantiles are pots that occurred or bin means."""
    binned = [n for n, g in fan.groupby("arm", sort=False) if g.binned_sessions.sum() > 0]
    if not binned:
        return [f"Every pot was a whole number of chips below {res.pot_bound:,} and was counted exactly, so each "
                "pot quantile is a pot that occurred.", ""]  # fmt: skip
    return [f"Pots that were whole numbers of chips below {res.pot_bound:,} were counted exactly; the others "
            f"({', '.join(binned)}) in log bins, 32 per decade at every size, so a quantile that falls in a bin "
            "is the mean of the pots in it, within 7.5% of the true quantile.", ""]  # fmt: skip


def _one_factor_pairs(res: PotsResult) -> list[tuple[int, int, str, str]]:
    """(x, y, option, the options they share) for arm x against an earlier arm y when they
    differ in exactly one compared option (every pair when the arms name no options), in
    the order of the compared options."""
    out = []
    for x, ax in enumerate(res.arms):
        for y, ay in enumerate(res.arms[:x]):
            lx, ly = dict(ax.levels), dict(ay.levels)
            if not lx or lx.keys() != ly.keys():
                out.append((x, y, "", ""))
                continue
            diff = [k for k in lx if lx[k] != ly[k]]
            if len(diff) == 1:
                same = ", ".join(f"{k}={v}" for k, v in ax.levels if k != diff[0])
                out.append((x, y, diff[0], same))
    order = [k for k, _ in res.arms[0].levels]
    return sorted(out, key=lambda t: (order.index(t[2]) if t[2] in order else -1, t[1], t[0]))


def _paired_text(r, what: str, unit: str = "", pct: bool = False) -> str:
    """``what`` and a paired difference in words: ``2.1 [1.9, 2.3] more``/``fewer``, ``+x``."""
    scale = 100.0 if pct else 1.0
    d, lo, hi = r["diff"] * scale, r.ci_low * scale, r.ci_high * scale
    unit = " percentage points" if pct else unit
    return f"{what} {interval_text(d, lo, hi, signed=True)}{unit}"


def _difference_lines(res: PotsResult, pair: pd.DataFrame, stats: pd.DataFrame) -> list[str]:
    """A few sentences per pair of arms that differ in one option: the paired differences
    whose interval excludes 0, and the looed players on the deals both arms played."""
    pairs = _one_factor_pairs(res)
    if not len(pair) or not pairs:
        return []
    lines = ["Paired differences, session by session on the same decks, between arms that differ in one compared "
             "option (95% intervals); a difference is named only when its interval excludes 0.", ""]  # fmt: skip
    looed = stats[stats.metric == "looed_per_deal"].set_index("arm").value
    for x, y, option, same in pairs:
        ax, ay = res.arms[x], res.arms[y]
        p = pair[(pair.arm == ax.name) & (pair.baseline == ay.name)].set_index("metric")
        if option:
            nx, ny = dict(ax.levels)[option], dict(ay.levels)[option]
            title = f"**{option}={nx}** against **{option}={ny}**" + (f" ({same})" if same else "")
        else:
            nx, ny = ax.name, ay.name
            title = f"**{nx}** against **{ny}**"
        found, quiet = [], []
        for metric, label in (("ruin", "ruin"), ("deals_per_session", "deals per session")):
            r = p.loc[metric]
            if r["diff"] == 0 and not r.se > 0:
                continue  # the same in every session (no ruin, every session full length): nothing to say
            if _significant(r):
                found.append(_paired_text(r, label, pct=metric == "ruin"))
            else:
                quiet.append(label)
        r = p.loc["log10_largest_pot"]
        if _significant(r):
            ratio = interval_text(10 ** r["diff"], 10**r.ci_low, 10**r.ci_high)
            found.append(f"largest pot (geometric mean) \u00d7{ratio}")
        else:
            quiet.append("the largest pot")
        seats = [m for m in p.index if m.startswith("final_balance_seat_")]
        moved = [m for m in seats if _significant(p.loc[m])]
        found += [_paired_text(p.loc[m], f"seat {m.rsplit('_', 1)[1]}'s final balance", " chips") for m in moved]
        if not moved:
            quiet.append("any seat's final balance")
        text = f"- {title}: " + ("; ".join(found) if found else "no difference") + "."
        if quiet and found:
            text += f" No significant difference in {_and(quiet)}."
        elif quiet:
            text = f"- {title}: no significant difference in {_and(quiet)}."
        text += " " + _looed_sentence(p.loc["looed_per_shared_deal"], nx, ny, looed[ax.name], looed[ay.name])
        lines.append(text)
    return lines


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _significant(r) -> bool:
    return bool(r.ci_low > 0 or r.ci_high < 0)


def _looed_sentence(r, nx: str, ny: str, looed_x: float, looed_y: float) -> str:
    """Looed players per deal compared on the deals both arms played, and where the
    other deals come from."""
    shared, differ = int(r.shared_deals), int(r.shared_deals_looed_differ)
    if differ == 0:
        text = f"Every one of the {shared:,} deals both played had the same number of looed players in both"
        if r.arm_only_deals or r.baseline_only_deals:
            text += ", so looed players per deal differ only through deals one arm played and the other did not"
    elif _significant(r):
        more = "more" if r["diff"] > 0 else "fewer"
        d = interval_text(abs(r["diff"]), min(abs(r.ci_low), abs(r.ci_high)), max(abs(r.ci_low), abs(r.ci_high)))
        text = (f"On the {shared:,} deals both played, {nx} has {d} {more} looed players per deal than {ny} "
                f"(the counts differ on {differ / shared:.0%} of those deals)")  # fmt: skip
    else:
        d = interval_text(r["diff"], r.ci_low, r.ci_high, signed=True)
        text = (f"On the {shared:,} deals both played, looed players per deal differ by {d} ({nx} - {ny}), "
                f"not significantly (the counts differ on {differ / shared:.0%} of those deals)")  # fmt: skip
    only = [(int(r.arm_only_deals), nx, ny, r.arm_only_looed_per_deal),
            (int(r.baseline_only_deals), ny, nx, r.baseline_only_looed_per_deal)]  # fmt: skip
    extra = [f"the {n:,} deals only {who} played (after {other}'s session had ended) had {per:.3f} looed players "
             "each" for n, who, other, per in only if n > 0]  # fmt: skip
    if extra:
        text += "; " + " and ".join(extra)
    return text + f". Over all deals played: {nx} {looed_x:.3f}, {ny} {looed_y:.3f} looed per deal."


def _balance_table(res: PotsResult, bal: pd.DataFrame) -> list[str]:
    arms = [a.name for a in res.arms]
    share = {a.rules.final_pot.value for a in res.arms}
    how = ("the pot left at the end shared equally (R10)" if share == {"share"}
           else "the pot left at the end discarded (R10)" if share == {"discard"}
           else "the pot left at the end shared or discarded as each arm's rules say (R10)")  # fmt: skip
    out = [f"Mean [95% CI] and median of each seat's net chips at the end of a session, {how}.", "",
           "| seat | " + " | ".join(arms) + " |", "|---|" + "---|" * len(arms)]  # fmt: skip
    by = bal.set_index(["arm", "seat"])
    for seat in sorted(bal.seat.unique()):
        cells = []
        for n in arms:
            if (n, seat) in by.index:
                r = by.loc[(n, seat)]
                cells.append(f"{interval_text(r['mean'], r.ci_low, r.ci_high)} (median {chips_text(r.q50)})")
            else:
                cells.append("")
        out.append(f"| {seat} | " + " | ".join(cells) + " |")
    return out


def _risk_notes(res: PotsResult, stats: pd.DataFrame) -> list[str]:
    lines = []
    for arm in res.arms:
        s = stats[stats.arm == arm.name].set_index("metric").value
        if s["inexact_past_2_53_probability"] > 0:
            lines.append(f"- {arm.name}: {s['inexact_past_2_53_probability']:.1%} of sessions reached amounts past "
                         "2**53 chips, where float64 chips are no longer exact (R3).")  # fmt: skip
        if s["overflow_stop_probability"] > 0:
            lines.append(f"- {arm.name}: {s['overflow_stop_probability']:.1%} of sessions were stopped when the pot "
                         f"passed {L.OVERFLOW_LIMIT:.0e} chips; they count up to that deal.")  # fmt: skip
    return [*lines, ""] if lines else []
