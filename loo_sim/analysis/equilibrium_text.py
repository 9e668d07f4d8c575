"""The equilibrium of ``loo-sim solve`` in words: what its declaration table does with the
seeds' tips (take the miss when you have nothing, pass without shame, mind the pot) and how
far apart the tables are that fictitious play reached from different starts.

Every sentence is generated from the table it is given: each number in it is computed from
that table (reach-weighted over the information sets it speaks of), none is written in
here, and a tip the table contradicts is said to be contradicted. Hand classes are those of
docs/policies.md P5; the declarations those of R4, R5 and R8 (docs/rules.md).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from loo_sim.analysis._tables import numeric, require
from loo_sim.analysis.text import percent
from loo_sim.base.errors import LooError
from loo_sim.game.classes import N_COLS, ROW_NONE, ROW_UNKNOWN, class_label

ACTIONS: tuple[str, ...] = ("pass", "play", "miss", "defend")
"""The declarations in :class:`~loo_sim.game.decl.Decl` order (ties of the most likely
action go to the first)."""
PROB_COLUMNS: tuple[str, ...] = tuple(f"p_{a}" for a in ACTIONS)
KEYS: tuple[str, ...] = ("class", "position", "earlier_in", "options", "pot")
"""What identifies an information set in a strategy table."""
NOTHING_ROWS: tuple[int, ...] = (ROW_NONE, ROW_UNKNOWN)
"""Hand-class rows of a hand with nothing: no trump, and (trumps unknown) no ace."""
NOTHING_COLS: tuple[int, ...] = (0, 1)
"""... with the best plain card (trumps unknown: the best card that is not an ace) <= 9 or T-J."""

_TIP_COLUMNS = ("class", "position", "options", "pot", *PROB_COLUMNS, "reach")
_DISTANCE_COLUMNS = (*KEYS, *PROB_COLUMNS, "reach")


# ---- checks and small helpers -----------------------------------------------------------------
def _clean(strategy: pd.DataFrame, columns: Sequence[str], what: str) -> pd.DataFrame:
    """The columns a sentence needs, checked: integer keys, text options and pot, float
    probabilities and reach, and ``_on`` (the set of actions on offer) where ``options`` is."""
    require(strategy, columns, what, "describe")
    out = pd.DataFrame(index=range(len(strategy)))
    for col in columns:
        if col in ("class", "position", "earlier_in"):
            out[col] = numeric(strategy, col, what).astype(int)
        elif col in ("options", "pot"):
            out[col] = strategy[col].astype(str).str.strip().to_numpy()
        else:
            out[col] = numeric(strategy, col, what, nonnegative=col == "reach")
    if "options" in out.columns:
        out["_on"] = [frozenset(o.split("/")) for o in out["options"]]
    if "hand" in strategy.columns:
        out["hand"] = strategy["hand"].astype(str).to_numpy()
    else:
        out["hand"] = [class_label(int(c)) for c in out["class"]]
    return out


def _weighted(values: np.ndarray, weights: np.ndarray) -> float:
    """Mean of ``values`` with ``weights``; the plain mean where the weights sum to 0."""
    total = weights.sum()
    return float((values * weights).sum() / total) if total > 0 else float(values.mean())


def _is_nothing(cls: pd.Series) -> np.ndarray:
    return (cls // N_COLS).isin(NOTHING_ROWS).to_numpy() & (cls % N_COLS).isin(NOTHING_COLS).to_numpy()


def _nothing_words(cls: pd.Series) -> str:
    """What "nothing" means, for the hand-class rows present among ``cls``."""
    rows = set((cls // N_COLS).tolist())
    words = []
    if ROW_NONE in rows or not rows & set(NOTHING_ROWS):
        words.append("no trump, best plain card T-J or lower")
    if ROW_UNKNOWN in rows:
        words.append("trumps unknown, no ace and no card above a jack")
    return "; or ".join(words)


# ---- the tips -------------------------------------------------------------------------------
def tip_sentences(strategy: pd.DataFrame, rules_has_miss: bool) -> list[str]:
    """What the equilibrium's table does with the seeds' three tips, one sentence each.

    Parameters
    ----------
    strategy : pandas.DataFrame
        The solver's strategy table with at least ``class``, ``position``, ``options``
        ("play/pass", "play/pass/miss", "play/miss", "play/defend"), ``pot``, ``p_pass``,
        ``p_play``, ``p_miss``, ``p_defend`` and ``reach`` (the weights of every average).
    rules_has_miss : bool
        Whether a miss is dealt under the rules (R5); without one the first tip does not apply.

    Returns
    -------
    list of str
        1. *Take the miss when you have nothing*: over the information sets with the miss
           on offer and a hand with nothing (:data:`NOTHING_ROWS` x :data:`NOTHING_COLS`),
           the reach-weighted shares of miss, play and pass, and whether the tip holds
           (the miss the most common choice), fails, or the table never takes the miss.
        2. *Pass without shame*: the reach-weighted pass probability where passing is on
           offer, and with nothing in hand (and of those, where the miss is not on offer).
        3. *The pot*: with one pot bucket, that the pot never changes a decision under these
           rules; with several, the reach-weighted play probability in each bucket over the
           (class, position) pairs found in every bucket, each pair weighted by its reach
           over all buckets, and the pair whose play probability changes most.

    Raises
    ------
    LooError
        If a column is missing or not numeric, the table is empty or a reach is negative.
    """
    data = _clean(strategy, _TIP_COLUMNS, "strategy")
    return [_miss_tip(data, rules_has_miss), _pass_tip(data), _pot_tip(data)]


def _miss_tip(data: pd.DataFrame, rules_has_miss: bool) -> str:
    if not rules_has_miss:
        return "There is no miss under these rules, so the tip to take the miss when you have nothing does not apply."
    nothing = _is_nothing(data["class"])
    rows = data[nothing & np.array(["miss" in on for on in data["_on"]], dtype=bool)]
    if rows.empty or rows["reach"].sum() <= 0:
        words = _nothing_words(data.loc[nothing, "class"])
        return (
            f"The table has no reached decision with nothing ({words}) and the miss on offer, "
            "so it cannot say whether to take the miss with nothing."
        )
    words = _nothing_words(rows["class"])
    w = rows["reach"].to_numpy()
    miss, play, pas = (_weighted(rows[f"p_{a}"].to_numpy(), w) for a in ("miss", "play", "pass"))
    others = f"plays in {percent(play)}, passes in {percent(pas)}"
    if miss == 0:
        return (
            f"With nothing ({words}) and the miss on offer, the equilibrium never takes the miss: "
            f"it {others} of such decisions (reach-weighted). The tip to take the miss with nothing is contradicted."
        )
    head = (
        f"With nothing ({words}) and the miss on offer, the equilibrium takes the miss in {percent(miss)} "
        f"of such decisions (reach-weighted), {others}."
    )
    if miss >= max(play, pas):
        return head + " The tip holds: taking the miss is its most common choice there."
    rival = "plays" if play >= pas else "passes"
    return head + f" The tip does not hold there: it {rival} more often than it takes the miss."


def _pass_tip(data: pd.DataFrame) -> str:
    can_pass = np.array(["pass" in on for on in data["_on"]], dtype=bool)
    rows = data[can_pass]
    if rows.empty or rows["reach"].sum() <= 0:
        return "The table has no reached decision where passing is allowed, so it says nothing about passing."
    overall = _weighted(rows["p_pass"].to_numpy(), rows["reach"].to_numpy())
    verb = "never passes" if overall == 0 else f"passes in {percent(overall)} of decisions (reach-weighted)"
    text = f"Where passing is allowed, the equilibrium {verb}"
    nothing = rows[_is_nothing(rows["class"])]
    if nothing.empty or nothing["reach"].sum() <= 0:
        return text + "; the table has no reached decision with nothing in hand where passing is allowed."
    weak = _weighted(nothing["p_pass"].to_numpy(), nothing["reach"].to_numpy())
    text += f"; with nothing ({_nothing_words(nothing['class'])}) it passes in {percent(weak)}"
    no_miss = nothing[np.array(["miss" not in on for on in nothing["_on"]], dtype=bool)]
    if not no_miss.empty and no_miss["reach"].sum() > 0 and len(no_miss) < len(nothing):
        text += f", and in {percent(_weighted(no_miss['p_pass'].to_numpy(), no_miss['reach'].to_numpy()))}"
        text += " of those where the miss is not on offer"
    return text + "."


def _pot_tip(data: pd.DataFrame) -> str:
    buckets = list(dict.fromkeys(data["pot"]))
    if len(buckets) == 1:
        return (
            f'The table has a single pot bucket ("{buckets[0]}"): the pot never changes the decision under these '
            "rules (a penalty that is the whole pot scales with it)."
        )
    cells = (
        data.assign(_wp=data["p_play"] * data["reach"])
        .groupby(["class", "position", "pot"], sort=False)
        .agg(reach=("reach", "sum"), wp=("_wp", "sum"), mean=("p_play", "mean"), hand=("hand", "first"))
    )
    cells["p_play"] = np.where(
        cells["reach"] > 0, cells["wp"] / cells["reach"].where(cells["reach"] > 0, 1), cells["mean"]
    )
    play = cells["p_play"].unstack("pot").reindex(columns=buckets).dropna()
    if play.empty:
        return (
            f"The table has {len(buckets)} pot buckets, but no hand class and position appears in every one, "
            "so it cannot show how the pot changes the decision."
        )
    weight = cells["reach"].unstack("pot").reindex(index=play.index, columns=buckets).fillna(0).sum(axis=1).to_numpy()
    means = [_weighted(play[b].to_numpy(), weight) for b in buckets]
    each = ", ".join(f"{percent(m)} with {b}" for m, b in zip(means, buckets))
    text = (
        f"For the same hand class and position (weighted by how often each is reached), the equilibrium plays in {each}"
    )
    steps = np.diff(means)
    if (steps == 0).all():
        text += ": the pot does not change how often it plays."
    elif (steps >= 0).all():
        text += ": it plays more from the first bucket to the last."
    elif (steps <= 0).all():
        text += ": it plays less from the first bucket to the last."
    else:
        text += ": not steadily more or less from the first bucket to the last."
    values = play.to_numpy()
    spread = values.max(axis=1) - values.min(axis=1)
    k = int(np.argmax(spread))
    if spread[k] > 0:
        cls, pos = play.index[k]
        lo, hi = int(np.argmin(values[k])), int(np.argmax(values[k]))
        hand = cells.loc[(cls, pos, buckets[0]), "hand"]
        text += (
            f" The largest change is {hand} at position {pos}: it plays in {percent(values[k, lo])} with "
            f"{buckets[lo]} and in {percent(values[k, hi])} with {buckets[hi]}."
        )
    return text


# ---- distances between tables -------------------------------------------------------------------
def paired_infosets(a: pd.DataFrame, b: pd.DataFrame) -> tuple[pd.DataFrame, int, int]:
    """The information sets in both tables with their weight (mean reach), whether the most
    likely action differs and the total variation; and the counts of keys only in a, only in b."""
    sides = []
    for name, table in (("a", a), ("b", b)):
        data = _clean(table, _DISTANCE_COLUMNS, f"strategy {name}")
        dupes = data.duplicated(list(KEYS))
        if dupes.any():
            first = data[dupes].iloc[0]
            key = ", ".join(f"{k}={first[k]}" for k in KEYS)
            raise LooError(f"strategy {name} table has more than one row for the information set {key}")
        sides.append(data[[*KEYS, "hand", *PROB_COLUMNS, "reach"]])
    merged = sides[0].merge(sides[1], on=list(KEYS), how="outer", suffixes=("_a", "_b"), indicator=True)
    only_a = int((merged["_merge"] == "left_only").sum())
    only_b = int((merged["_merge"] == "right_only").sum())
    both = merged[merged["_merge"] == "both"].copy()
    pa = both[[f"{c}_a" for c in PROB_COLUMNS]].to_numpy()
    pb = both[[f"{c}_b" for c in PROB_COLUMNS]].to_numpy()
    both["w"] = (both["reach_a"] + both["reach_b"]) / 2
    both["differs"] = pa.argmax(axis=1) != pb.argmax(axis=1)
    both["tv"] = 0.5 * np.abs(pa - pb).sum(axis=1)
    both["hand"] = both["hand_a"]
    return both, only_a, only_b


def table_distance(a: pd.DataFrame, b: pd.DataFrame) -> dict:
    """How far apart two strategy tables are, on the information sets they share.

    Parameters
    ----------
    a, b : pandas.DataFrame
        Strategy tables keyed by ``class``, ``position``, ``earlier_in``, ``options`` and
        ``pot`` (one row per key), with ``p_pass`` … ``p_defend`` and ``reach``.

    Returns
    -------
    dict
        ``differ_share``: the share of information-set mass (weight: the mean of the two
        ``reach``) on which the most likely action differs (ties go to the first of pass,
        play, miss, defend); ``total_variation``: the weighted mean of
        ``0.5 * sum |p_a - p_b|``; both plain means where the weights sum to 0 and NaN where
        no key is shared; ``keys_only_in_a``, ``keys_only_in_b`` and ``keys_in_both``: counts.

    Raises
    ------
    LooError
        If a column is missing or not numeric, a table is empty or has a key twice.
    """
    both, only_a, only_b = paired_infosets(a, b)
    w = both["w"].to_numpy()
    empty = both.empty
    return {
        "differ_share": float("nan") if empty else _weighted(both["differs"].to_numpy(dtype=float), w),
        "total_variation": float("nan") if empty else _weighted(both["tv"].to_numpy(), w),
        "keys_only_in_a": only_a,
        "keys_only_in_b": only_b,
        "keys_in_both": len(both),
    }


def distance_sentences(
    names: Sequence[str], tables: Sequence[pd.DataFrame], *, same_below: float = 0.01, top: int = 3
) -> list[str]:
    """The equilibria reached from different starts, compared in words.

    Parameters
    ----------
    names : sequence of str
        A name for each table (the policy fictitious play started from).
    tables : sequence of pandas.DataFrame
        Strategy tables as for :func:`table_distance`, as many as ``names`` (two or more).
    same_below : float, default 0.01
        Where every pair's ``differ_share`` is below this, the starts are said to have
        reached the same table, up to the largest share measured.
    top : int, default 3
        Otherwise, how many (hand, position) pairs to name where the tables differ most.

    Returns
    -------
    list of str
        One sentence per pair (share of mass where the most likely action differs, total
        variation, keys missing on either side), then either that the starts reached the
        same table or the ``top`` (hand, position) pairs with the largest reach-weighted
        total variation summed over the pairs of tables (those above 0), with each one's
        share of that sum.

    Raises
    ------
    LooError
        If the names and tables differ in number, there are fewer than two, or a table is
        bad (:func:`table_distance`).
    """
    if len(names) != len(tables):
        raise LooError(f"distance_sentences: {len(names)} names for {len(tables)} tables")
    if len(tables) < 2:
        raise LooError("distance_sentences: needs two or more tables to compare")
    sentences, shares, parts = [], [], []
    for (na, ta), (nb, tb) in itertools.combinations(zip(names, tables), 2):
        both, only_a, only_b = paired_infosets(ta, tb)
        d = table_distance(ta, tb)
        shares.append(d["differ_share"])
        if both.empty:
            sentences.append(f"{na} and {nb} share no information set, so they cannot be compared.")
            continue
        text = (
            f"{na} and {nb}: the most likely action differs on {percent(d['differ_share'])} of the information-set "
            f"mass (reach-weighted); total variation {d['total_variation']:.3g}."
        )
        if only_a or only_b:
            text += f" {only_a} information set(s) are only in {na}, {only_b} only in {nb}."
        sentences.append(text)
        parts.append(both.assign(_score=both["w"] * both["tv"])[["class", "position", "hand", "_score"]])
    finite = [s for s in shares if np.isfinite(s)]
    if finite and len(finite) == len(shares) and max(finite) < same_below:
        who = f"{'Both' if len(names) == 2 else f'All {len(names)}'} starts ({', '.join(names)})"
        if max(finite) == 0:
            sentences.append(
                f"{who} reached the same table: the most likely action agrees on every shared information set."
            )
        else:
            sentences.append(
                f"{who} reached the same table, up to {percent(max(finite))} of the information-set mass on which the "
                "most likely action differs (the largest over the pairs)."
            )
        return sentences
    if not parts:
        return sentences
    scores = pd.concat(parts).groupby(["class", "position"], sort=True).agg(hand=("hand", "first"), s=("_score", "sum"))
    total = scores["s"].sum()
    if total <= 0:
        return sentences
    dealer = int(max(pd.to_numeric(t["position"]).max() for t in tables))
    best = scores[scores["s"] > 0].sort_values("s", ascending=False, kind="stable").head(top)
    where = "; ".join(
        f"{row.hand} at position {pos}{' (the dealer)' if pos == dealer else ''} ({percent(row.s / total)})"
        for (_, pos), row in best.iterrows()
    )
    sentences.append(f"The starts differ most (share of the reach-weighted total variation) at: {where}.")
    return sentences
