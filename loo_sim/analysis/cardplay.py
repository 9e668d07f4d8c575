"""Tables of the card-play ladder (``run.ladder``) and the comparison of two decision charts.

The ladder: per entrant and position (1..players from the dealer's left, and ``all``: the
mean over the positions, one value per deal), the focal seat's net chips per deal, loo
rate and tricks per deal it played tricks in, each with its standard error, and the
paired differences from the first entrant on the same deals. The deal is the unit of
every standard error.

The chart comparison: two decision charts (the ``chart.csv`` of two ``loo-sim miss`` runs,
``analysis.miss.chart_table``), cell by cell, and the cells whose best action (verdict)
differs, each verdict with its paired margin over its runner-up and interval; a change
is flagged only where at least one of the two verdicts is significant.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from loo_sim.base.errors import LooError
from loo_sim.base.stats import mean_se, normal_ci, ratio_se
from loo_sim.game import abi as L
from loo_sim.run.ladder import LadderResult

ALL = "all"
LADDER_COLUMNS = ["ladder", "table", "entrant", "policy", "position", "deals", "chips_per_deal", "chips_se",
                  "chips_ci_low", "chips_ci_high", "loo_rate", "loo_se", "tricks_per_deal_played", "tricks_se",
                  "played_share", "baseline", "diff_vs_baseline", "diff_se", "diff_ci_low", "diff_ci_high",
                  "loo_diff", "loo_diff_ci_low", "loo_diff_ci_high", "tricks_diff", "tricks_diff_ci_low",
                  "tricks_diff_ci_high"]  # fmt: skip


def _mean(row: np.ndarray, j: int, n: int) -> tuple[float, float]:
    return mean_se(row[L.LD_SUM + j], row[L.LD_SQ + j], n)


def ladder_table(res: LadderResult, ladder: str = "A") -> pd.DataFrame:
    """Long form, one row per entrant and position (``all`` first, then 1..players).
    ``tricks_per_deal_played`` is a ratio (tricks won over the deals the seat played tricks
    in) with its delta-method SE; ``tricks_diff`` compares it with the first entrant's on
    the same deals, and is empty where the two did not play tricks in the same deals (their
    declarations differ)."""
    n = res.deals_done
    rows = []
    table = str(res.table[0]) if len({str(p) for p in res.table}) == 1 else ", ".join(map(str, res.table))
    for e, name in enumerate(res.names):
        for p in range(res.rules.players + 1):
            r = res.sums[e, p]
            chips, chips_se = _mean(r, L.LD_NET, n)
            loo, loo_se = _mean(r, L.LD_LOOED, n)
            t = L.LD_SUM + L.LD_TRICKS
            y = L.LD_SUM + L.LD_PLAYED
            tricks, tricks_se = ratio_se(r[t], r[y], r[L.LD_SQ + L.LD_TRICKS], r[L.LD_TP], r[L.LD_SQ + L.LD_PLAYED], n)
            d, d_se = _mean(r, L.LD_DNET, n)
            ld, ld_se = _mean(r, L.LD_DLOOED, n)
            same_hands = r[L.LD_SUM + L.LD_DPLAYED] == 0
            if same_hands:
                td, td_se = ratio_se(r[L.LD_SUM + L.LD_DTRICKS], r[y], r[L.LD_SQ + L.LD_DTRICKS], r[L.LD_DTP],
                                     r[L.LD_SQ + L.LD_PLAYED], n)  # fmt: skip
            else:
                td, td_se = math.nan, math.nan
            rows.append(dict(
                ladder=ladder, table=table, entrant=name, policy=str(res.entrants[e]), position=ALL if p == 0 else p,
                deals=n, chips_per_deal=chips, chips_se=chips_se, **_ci("chips", chips, chips_se), loo_rate=loo,
                loo_se=loo_se, tricks_per_deal_played=tricks, tricks_se=tricks_se, played_share=r[y] / n if n else
                math.nan, baseline=res.names[0], diff_vs_baseline=d, diff_se=d_se, **_ci("diff", d, d_se),
                loo_diff=ld, **_ci("loo_diff", ld, ld_se), tricks_diff=td, **_ci("tricks_diff", td, td_se),
            ))  # fmt: skip
    return pd.DataFrame(rows, columns=LADDER_COLUMNS)


INFER_COLUMNS = ["ladder", "table", "entrant", "policy", "reference", "reference_policy", "position", "deals",
                 "chips_per_deal", "reference_chips_per_deal", "diff_vs_reference", "diff_se", "diff_ci_low",
                 "diff_ci_high", "loo_diff", "loo_diff_ci_low", "loo_diff_ci_high", "tricks_diff",
                 "tricks_diff_ci_low", "tricks_diff_ci_high"]  # fmt: skip


def infer_table(pair: LadderResult, ladder: str = "A") -> pd.DataFrame:
    """The second entrant of a pair ladder (``run.ladder.infer_pairs``: ``pimc:N`` then
    ``pimc:N:infer``) against the first, paired deal by deal: one row per position (``all``
    first), the differences of ``ladder_table`` under the reference's name."""
    if len(pair.names) != 2:
        raise LooError("an inference pair is two entrants: pimc:N, then pimc:N:infer")
    both = ladder_table(pair, ladder)
    ref = both[both.entrant == pair.names[0]].reset_index(drop=True)
    out = both[both.entrant == pair.names[1]].reset_index(drop=True)
    out = out.rename(columns={"baseline": "reference", "diff_vs_baseline": "diff_vs_reference"})
    out["reference_policy"] = str(pair.entrants[0])
    out["reference_chips_per_deal"] = ref.chips_per_deal
    return out[INFER_COLUMNS]


def infer_sentences(table: pd.DataFrame) -> list[str]:
    """What the inference adds, in sentences drawn from ``infer_table`` rows (one ladder, one
    or more pairs): the paired difference from the reference averaged over the positions,
    then at each position, each called significant only where its 95% interval excludes 0."""
    lines = []
    for entrant, rows in table.groupby("entrant", sort=False):
        ref = rows.reference.iloc[0]
        overall = rows[rows.position.astype(str) == ALL].iloc[0]
        lines.append(f"`{entrant}` minus `{ref}` on the same deals: {_diff_words(overall)} averaged over the "
                     "positions.")  # fmt: skip
        by_pos = rows[rows.position.astype(str) != ALL]
        groups: dict[str, list[str]] = {"ahead": [], "behind": [], "unclear": []}
        for r in by_pos.itertuples():
            verdict = _verdict(r.diff_vs_reference, r.diff_se, r.diff_ci_low, r.diff_ci_high)
            numbers = f"{r.diff_vs_reference:+.3f} {_interval(r.diff_ci_low, r.diff_ci_high)}"
            groups.setdefault(verdict, []).append(f"{r.position} ({numbers})")
        words = {"ahead": "ahead", "behind": "behind", "unclear": "not significant", "same": "exactly 0",
                 "unknown": "without an interval"}  # fmt: skip
        parts = [f"{words[v]} at position{'s' if len(ps) > 1 else ''} {', '.join(ps)}"
                 for v, ps in groups.items() if ps]  # fmt: skip
        lines.append(f"By position (1: the eldest, who leads the first trick when in; the others follow), "
                     f"`{entrant}` is {'; '.join(parts)}.")  # fmt: skip
    return lines


def _diff_words(row) -> str:
    diff = f"{row.diff_vs_reference:+.3f} chips per deal {_interval(row.diff_ci_low, row.diff_ci_high)}"
    verdict = _verdict(row.diff_vs_reference, row.diff_se, row.diff_ci_low, row.diff_ci_high)
    return {"ahead": f"ahead by {diff}", "behind": f"behind by {diff}", "same": "exactly 0 on every deal",
            "unclear": f"{diff}, not significant (the interval includes 0)"}.get(verdict, diff)  # fmt: skip


def _ci(prefix: str, value: float, se: float) -> dict[str, float]:
    lo, hi = normal_ci(value, se)
    return {f"{prefix}_ci_low": lo, f"{prefix}_ci_high": hi}


def _interval(lo: float, hi: float) -> str:
    return f"[{lo:+.3f}, {hi:+.3f}]"


def judgement(row) -> str:
    """How an entrant's paired difference from the baseline reads: ``same`` (zero on every
    deal), ``ahead`` or ``behind`` (the 95% interval excludes 0), ``unclear`` (it includes 0),
    or ``unknown`` (no interval)."""
    return _verdict(row.diff_vs_baseline, row.diff_se, row.diff_ci_low, row.diff_ci_high)


def _verdict(diff: float, se: float, low: float, high: float) -> str:
    if diff == 0 and se == 0:
        return "same"
    if not (math.isfinite(low) and math.isfinite(high)):
        return "unknown"
    if low > 0:
        return "ahead"
    if high < 0:
        return "behind"
    return "unclear"


def ladder_sentences(table: pd.DataFrame) -> list[str]:
    """What one ladder's table says, in sentences drawn from its own numbers: each entrant
    against the baseline over all positions (it beats it, loses to it, or the interval
    includes 0), and the positions where the paired interval excludes 0."""
    overall = table[table.position.astype(str) == ALL]
    base = overall.iloc[0]
    lines = []
    top = overall.sort_values("chips_per_deal", ascending=False, kind="stable").iloc[0]
    lines.append(f"`{top.entrant}` has the highest mean, {top.chips_per_deal:+.3f} chips per deal "
                 f"{_interval(top.chips_ci_low, top.chips_ci_high)} averaged over the positions; the entrants are "
                 f"compared below by their paired differences from `{base.entrant}` on the same deals.")  # fmt: skip
    for r in overall.iloc[1:].itertuples():
        j = judgement(r)
        diff = f"{r.diff_vs_baseline:+.3f} chips per deal {_interval(r.diff_ci_low, r.diff_ci_high)}"
        if j == "same":
            lines.append(f"`{r.entrant}` plays exactly as `{base.entrant}` on these deals: every paired difference "
                         "is 0.")  # fmt: skip
            continue
        if j == "ahead":
            lines.append(f"`{r.entrant}` beats `{base.entrant}` by {diff} averaged over the positions.")
        elif j == "behind":
            lines.append(f"`{r.entrant}` loses to `{base.entrant}` by {diff} averaged over the positions.")
        else:
            lines.append(f"`{r.entrant}` and `{base.entrant}` are not told apart averaged over the positions: the "
                         f"paired difference is {diff}, an interval that includes 0.")  # fmt: skip
        by_pos = table[(table.entrant == r.entrant) & (table.position.astype(str) != ALL)]
        verdicts = {p.position: judgement(p) for p in by_pos.itertuples()}
        ahead = [str(p) for p, v in verdicts.items() if v == "ahead"]
        behind = [str(p) for p, v in verdicts.items() if v == "behind"]
        parts = []
        if ahead:
            parts.append(f"ahead of `{base.entrant}` at position{'s' if len(ahead) > 1 else ''} {', '.join(ahead)}")
        if behind:
            whom = "it" if ahead else f"`{base.entrant}`"
            parts.append(f"behind {whom} at position{'s' if len(behind) > 1 else ''} {', '.join(behind)}")
        if parts:
            rest = len(verdicts) - len(ahead) - len(behind)
            tail = f"; at the other {rest} the interval includes 0" if rest else ""
            lines.append(f"By position, `{r.entrant}` is {' and '.join(parts)}{tail}.")
        else:
            lines.append(f"By position, every paired interval of `{r.entrant}` includes 0.")
    return lines


# ---- two decision charts --------------------------------------------------------------------
CELL = ["hand_class", "label", "position", "miss_on_offer", "earlier_in"]
CHART_NEEDS = [*CELL, "action", "best", "significant", "runner_up", "diff_vs_runner_up", "diff_se", "diff_vs_best",
               "diff_vs_best_se"]  # fmt: skip
CHANGE_COLUMNS = [*CELL, "a_best", "a_runner_up", "a_diff", "a_ci_low", "a_ci_high", "a_significant", "b_best",
                  "b_runner_up", "b_diff", "b_ci_low", "b_ci_high", "b_significant", "a_best_in_b",
                  "a_best_in_b_ci_low", "a_best_in_b_ci_high", "b_best_in_a", "b_best_in_a_ci_low",
                  "b_best_in_a_ci_high", "flagged"]  # fmt: skip


def read_chart(path: str | Path, what: str = "compare_charts") -> pd.DataFrame:
    """A decision chart: a miss study's folder (its ``chart.csv``) or a chart CSV itself."""
    p = Path(path)
    csv = p / "chart.csv" if p.is_dir() else p
    if not csv.is_file():
        where = f"{str(path)!r} holds no chart.csv" if p.is_dir() else f"{str(path)!r} is not a file or folder"
        raise LooError(f"{where}; allowed a `loo-sim miss` output folder or its chart CSV", key=what)
    try:
        df = pd.read_csv(csv, dtype={"position": str, "earlier_in": str, "runner_up": str}, keep_default_na=False,
                         na_values=[""])  # fmt: skip
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as e:
        raise LooError(f"{str(csv)!r} is not a chart CSV ({str(e).splitlines()[0]})", key=what) from None
    missing = [c for c in CHART_NEEDS if c not in df.columns]
    if missing:
        raise LooError(f"{str(csv)!r} is not a decision chart: no column {', '.join(missing)} (a `loo-sim miss` "
                       "chart.csv has them)", key=what)  # fmt: skip
    for col in ("best", "significant", "miss_on_offer"):
        df[col] = df[col].map(lambda v: str(v).strip().lower() in ("true", "1", "1.0"))
    df["runner_up"] = df["runner_up"].fillna("")
    return df


def _cells_as_text(chart: pd.DataFrame) -> pd.DataFrame:
    """The cell keys as a chart CSV reads them (a chart_table in memory has ints beside "all")."""
    return chart.assign(position=chart.position.astype(str), earlier_in=chart.earlier_in.astype(str),
                        miss_on_offer=chart.miss_on_offer.astype(bool), best=chart.best.astype(bool))  # fmt: skip


def _verdicts(chart: pd.DataFrame) -> pd.DataFrame:
    best = chart[chart.best].set_index(CELL)
    if best.index.has_duplicates:
        raise LooError("compare_charts: a chart has two best actions in one cell (not a chart.csv of loo-sim miss)")
    return best


def _diff_vs_best(chart: pd.DataFrame) -> dict[tuple, tuple[float, float]]:
    """(cell..., action) -> that action's paired difference against the cell's best, and its SE."""
    keys = list(zip(*(chart[c] for c in CELL), chart.action))
    return dict(zip(keys, zip(chart.diff_vs_best, chart.diff_vs_best_se)))


def compare_charts(a: pd.DataFrame, b: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, int]]:
    """The cells of two charts whose best action differs (cells with a verdict in both),
    and counts (cells with a verdict in both, in only one, changes, flagged changes).

    Per change: each verdict with its runner-up, its paired margin over the runner-up and
    the 95% interval, and whether it is significant (it beats every other action on offer
    with an interval clear of 0: ``analysis.miss.verdict``); ``a_best_in_b``: in chart B,
    A's best action minus B's, paired, with its interval (and ``b_best_in_a`` the other
    way round). ``flagged``: at least one of the two verdicts is significant; a change
    between two verdicts neither of which is significant says nothing."""
    a, b = _cells_as_text(a), _cells_as_text(b)
    va, vb = _verdicts(a), _verdicts(b)
    common = va.index.intersection(vb.index, sort=False)
    in_a, in_b = _diff_vs_best(a), _diff_vs_best(b)
    rows = []
    for cell in common:
        ra, rb = va.loc[cell], vb.loc[cell]
        if ra.action == rb.action:
            continue
        row = dict(zip(CELL, cell))
        for side, r in (("a", ra), ("b", rb)):
            lo, hi = normal_ci(float(r.diff_vs_runner_up), float(r.diff_se))
            row |= {f"{side}_best": r.action, f"{side}_runner_up": r.runner_up,
                    f"{side}_diff": r.diff_vs_runner_up, f"{side}_ci_low": lo, f"{side}_ci_high": hi,
                    f"{side}_significant": bool(r.significant)}  # fmt: skip
        for name, lookup, action in (("a_best_in_b", in_b, ra.action), ("b_best_in_a", in_a, rb.action)):
            d, se = lookup.get((*cell, action), (math.nan, math.nan))
            lo, hi = normal_ci(d, se)
            row |= {name: d, f"{name}_ci_low": lo, f"{name}_ci_high": hi}
        row["flagged"] = row["a_significant"] or row["b_significant"]
        rows.append(row)
    changes = pd.DataFrame(rows, columns=CHANGE_COLUMNS)
    counts = dict(compared=len(common), only_a=len(va.index.difference(vb.index)),
                  only_b=len(vb.index.difference(va.index)), changed=len(changes),
                  flagged=int(changes.flagged.sum()) if len(changes) else 0)  # fmt: skip
    return changes, counts


def _cell_name(r) -> str:
    offer = "miss on offer" if r.miss_on_offer else "no miss on offer"
    label = str(r.label).replace("|", "\\|")  # a class label holds "|": escaped in a table row
    return f"{label} (position {r.position}, {offer}, earlier in {r.earlier_in})"


def _verdict_text(best: str, significant: bool, diff: float, lo: float, hi: float) -> str:
    return f"{best} {'(significant) ' if significant else ''}{diff:+.3f} {_interval(lo, hi)}"


def change_lines(changes: pd.DataFrame, counts: dict[str, int]) -> list[str]:
    """The comparison (charts A and B) in sentences and a table, drawn from the changes themselves."""
    lines = [f"{counts['compared']:,} cells have a verdict in both charts; "
             f"{counts['changed']:,} of them change their best action, {counts['flagged']:,} where at least one "
             "of the two verdicts is significant."]  # fmt: skip
    if counts["only_a"] or counts["only_b"]:
        lines.append(f"{counts['only_a']:,} cells have a verdict only in A and {counts['only_b']:,} only in B "
                     "(too few decisions in the other); they are not compared.")  # fmt: skip
    flagged = changes[changes.flagged]
    if len(flagged):
        lines += ["", "| cell | A: best over runner-up | B: best over runner-up |", "|---|---|---|"]
        for r in flagged.itertuples():
            a = _verdict_text(r.a_best, r.a_significant, r.a_diff, r.a_ci_low, r.a_ci_high)
            b = _verdict_text(r.b_best, r.b_significant, r.b_diff, r.b_ci_low, r.b_ci_high)
            lines.append(f"| {_cell_name(r)} | {a} | {b} |")
    unflagged = len(changes) - len(flagged)
    if unflagged:
        lines += ["", f"The other {unflagged:,} changes are between verdicts neither of which is significant: "
                      "they are listed in the CSV (flagged false) but say nothing."]  # fmt: skip
    return lines
