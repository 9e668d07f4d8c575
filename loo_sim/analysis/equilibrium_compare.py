"""Two equilibrium tables of the same rules side by side (``loo-sim solve --compare-with``):
which information sets change their most likely declaration, weighted by how often a seat is
there, and what the seeds' tips read under each. The usual pair is the table solved under
strong card play (e.g. ``pimc:8``) beside the one solved under ``basic`` card play.

As in ``equilibrium_text``, every number of a sentence is computed from the tables given.
"""

from __future__ import annotations

import pandas as pd

from loo_sim.analysis.equilibrium_text import ACTIONS, KEYS, PROB_COLUMNS, paired_infosets, table_distance
from loo_sim.analysis.text import percent

CHANGE_COLUMNS: tuple[str, ...] = (*KEYS, "hand", "weight", "reach_this", "reach_other", "action_this",
                                   "action_other", "changes", "total_variation", *(f"{c}_this" for c in PROB_COLUMNS),
                                   *(f"{c}_other" for c in PROB_COLUMNS))  # fmt: skip


EARLIER_WORDS = {0: "no earlier seat in", 1: "1 earlier seat in", 2: "2 earlier seats in",
                 3: "3 or more earlier seats in"}  # fmt: skip
"""The ``earlier_in`` bins of P6 in words (the last bin is 3 and more)."""


def table_changes(this: pd.DataFrame, other: pd.DataFrame) -> pd.DataFrame:
    """Every information set both tables list, heaviest first.

    Parameters
    ----------
    this, other : pandas.DataFrame
        Strategy tables (``game.strategy`` frames with ``reach``) of the same rules.

    Returns
    -------
    pandas.DataFrame
        :data:`CHANGE_COLUMNS`: the key, the hand, ``weight`` (the share of the summed mean
        reach of the two tables), each table's reach, most likely action (ties to the first of
        pass, play, miss, defend) and probabilities, whether that action ``changes``, and the
        total variation ``0.5 * sum |p_this - p_other|``; sorted by ``weight`` (largest first).
    """
    both, _, _ = paired_infosets(this, other)
    total = both["w"].sum()
    out = both[list(KEYS)].copy()
    out["hand"] = both["hand"].to_numpy()
    out["weight"] = both["w"] / total if total > 0 else 0.0
    out["reach_this"], out["reach_other"] = both["reach_a"], both["reach_b"]
    for side, suffix in (("this", "_a"), ("other", "_b")):
        probs = both[[f"{c}{suffix}" for c in PROB_COLUMNS]].to_numpy()
        out[f"action_{side}"] = [ACTIONS[i] for i in probs.argmax(axis=1)]
    out["changes"] = both["differs"].to_numpy()
    out["total_variation"] = both["tv"].to_numpy()
    for side, suffix in (("this", "_a"), ("other", "_b")):
        for c in PROB_COLUMNS:
            out[f"{c}_{side}"] = both[f"{c}{suffix}"].to_numpy()
    return out.sort_values("weight", ascending=False, kind="stable").reset_index(drop=True)[list(CHANGE_COLUMNS)]


def comparison_sentences(this_name: str, other_name: str, this: pd.DataFrame, other: pd.DataFrame, players: int,
                         top: int = 3) -> list[str]:  # fmt: skip
    """How far ``this`` table moved from ``other``, in words (``players``: position
    ``players`` is the dealer's).

    Returns
    -------
    list of str
        How many shared information sets change their most likely action and their share
        of the reach-weighted mass, the total variation and the keys only one table lists;
        then the ``top`` heaviest changes, each with its probabilities under both tables.
    """
    changes = table_changes(this, other)
    d = table_distance(this, other)
    if changes.empty:
        return [f"{this_name} and {other_name} share no information set, so they cannot be compared."]
    moved = changes[changes["changes"]]
    text = (f"Of the {len(changes):,} information sets both tables list, {len(moved):,} change their most likely "
            f"declaration from {other_name} to {this_name}: {percent(d['differ_share'])} of the information-set "
            f"mass (each set weighted by the mean of its reach under the two tables); the reach-weighted total "
            f"variation between the tables is {d['total_variation']:.3g}.")  # fmt: skip
    if d["keys_only_in_a"] or d["keys_only_in_b"]:
        text += (f" {d['keys_only_in_a']:,} information set(s) are only in {this_name} and {d['keys_only_in_b']:,} "
                 f"only in {other_name} (met in one solve and not the other).")  # fmt: skip
    sentences = [text]
    if moved.empty:
        return sentences
    items = []
    for r in moved.head(top).itertuples():
        where = f"position {r.position}{' (the dealer)' if r.position == players else ''}"
        p_other = getattr(r, f"p_{r.action_other}_other")
        p_this = getattr(r, f"p_{r.action_this}_this")
        earlier = EARLIER_WORDS.get(r.earlier_in, EARLIER_WORDS[3])
        items.append(f"{r.hand} at {where}, {earlier}, {r.options} "
                     f"({percent(r.weight)} of the mass): {r.action_other} {percent(p_other)} under {other_name}, "
                     f"{r.action_this} {percent(p_this)} under {this_name}")  # fmt: skip
    sentences.append("The heaviest changes: " + "; ".join(items) + ".")
    return sentences


def comparison_section(this_name: str, other_name: str, this: pd.DataFrame, other: pd.DataFrame, players: int,
                       rules_has_miss: bool) -> list[str]:  # fmt: skip
    """summary.md's lines setting ``this`` table beside ``other``: :func:`comparison_sentences`,
    then what the seeds' tips read under ``other`` (``this`` table's are above them)."""
    from loo_sim.analysis.equilibrium_text import tip_sentences

    lines = [f"## Beside {other_name}", ""]
    lines += [f"- {s}" for s in comparison_sentences(this_name, other_name, this, other, players)]
    lines += ["", f"Under {other_name} the tips read (the same sentences, from that table):", ""]
    lines += [f"- {s}" for s in tip_sentences(other, rules_has_miss)]
    lines += ["", "comparison.csv lists every information set both tables hold, heaviest first, with both "
                  "tables' probabilities."]  # fmt: skip
    return lines
