"""``loo-sim variants``: rule sets side by side on the same deals, each compared with a
baseline row, from a clean pot or in sessions (R10). Runs a variants study (as a report's
``kind = "variants"`` experiment does: the same runner, the same files) and prints its
summary."""

from __future__ import annotations

from typing import Annotated

import typer

from loo_sim.base.errors import LooError
from loo_sim.cli.app import check_workers
from loo_sim.cli.options import (
    BackendOpt,
    PlayersOpt,
    PolicyOpt,
    PresetOpt,
    SchedulerOpt,
    SeatPolicyOpt,
    SetOpt,
    ThreadsOpt,
    WorkersOpt,
    rules_with_players,
    shared,
)
from loo_sim.cli.params import seat_map
from loo_sim.cli.study import print_written, run_and_write
from loo_sim.game.rules import Rules
from loo_sim.report.kinds.fields import preset_name
from loo_sim.report.kinds.variants import ROW_EXAMPLE, ROW_FORM, VariantsStudy, parse_row

CLEAN_DEALS, SESSION_DEALS = VariantsStudy.CLEAN_DEALS, VariantsStudy.SESSION_DEALS


def parse_rows(items: list[str], preset: str, base: dict[str, str]) -> list[dict]:
    """The ``--row`` items as a study's rows, each checked with the ``--preset`` / ``--set``
    options under it (a bad combination names its row; a bad ``--set`` is left to the study,
    which names ``--set``)."""
    if not items:
        raise LooError(f"none given; give each rule set as {ROW_FORM} (repeat), e.g. --row limited "
                       f"--row unlimited --row {ROW_EXAMPLE}", key="rows")  # fmt: skip
    rows = [parse_row(item, f"rows[{i}]") for i, item in enumerate(items)]
    seen: dict[str, int] = {}
    for i, row in enumerate(rows):
        if row["name"] in seen:
            raise LooError(f"{items[i]!r}: the name {row['name']!r} is taken by row {seen[row['name']] + 1} "
                           f"({items[seen[row['name']]]!r}); give each row its own name, e.g. "
                           f"{row['name']}-2={row['preset']},...", key=f"rows[{i}]")  # fmt: skip
        seen[row["name"]] = i
    try:
        Rules.preset(preset_name(preset), **base)
    except LooError:  # --preset or --set is bad: the study says so, naming its flag
        return rows
    for i, row in enumerate(rows):
        try:
            Rules.preset(row["preset"], **{**base, **row.get("rules", {})})
        except LooError as e:
            raise LooError(f"{items[i]!r}: {e}", key=f"rows[{i}]") from None
    return rows


def variants_cmd(
    row: Annotated[
        list[str] | None,
        typer.Option(
            "--row",
            metavar=ROW_FORM,
            help=f"One rule set, repeat for each (the first is the baseline unless --baseline names another): a "
            f"name, its preset and rule overrides on top of --set, e.g. --row {ROW_EXAMPLE}; a lone PRESET "
            "(--row limited) is that preset named after it.",
        ),
    ] = None,
    baseline: Annotated[
        str | None, typer.Option(help="The row every other row is compared with, by name (default: the first).")
    ] = None,
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    players: PlayersOpt = None,
    policy: PolicyOpt = None,
    seat_policy: SeatPolicyOpt = None,
    deals: Annotated[
        int | None, shared("--deals", f" in every row, without --sessions [default: {CLEAN_DEALS:,}].")
    ] = None,
    carried: Annotated[float, shared("--carried", " every deal (without --sessions).")] = 0.0,
    sessions: Annotated[
        int | None,
        shared(
            "--sessions",
            " in every row instead (R10: from a clean pot, the pot carried over, the dealer "
            "rotating), every row on the same decks.",
        ),
    ] = None,
    session_deals: Annotated[
        int | None, shared("--session-deals", f" (with --sessions) [default: {SESSION_DEALS}].")
    ] = None,
    burn_in: Annotated[
        int | None, shared("--burn-in", " (with --sessions) [default: 10, or half a session when shorter].")
    ] = None,
    seed: Annotated[int, shared("--seed", ": deal k (or deal j of session i) is the same deck for every row.")] = 0,
    threads: ThreadsOpt = None,
    out: Annotated[str, shared("--out", ": the CSVs, plots and summary.md.")] = "out/variants",
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Rule sets side by side on the same deals (deal k of the seed on the same deck for
    every row): loo rate, net chips by position, variance, pot growth and contested deals,
    each with its interval and its paired change against the baseline row. With
    --sessions every row plays sessions (R10) on the same decks, the first --burn-in deals
    of each dropped, plus the clean-pot table (the first deal of a session). The same
    study, and the same files, as a report's `kind = "variants"` experiment.

    Examples: `loo-sim variants --row three-card --row limited --row lim-ante2=limited,ante=2 --players 5
    --policy basic --deals 1e6 --seed 1 --out out/variants`,
    `loo-sim variants --row limited --row classic-limited --row unlimited --sessions 40000 --session-deals 40
    --burn-in 10 --players 5 --policy basic --seed 1 --out out/variants-sessions`.
    """
    check_workers(backend, workers)
    if burn_in is not None and sessions is None:
        raise LooError("--burn-in goes with --sessions (the deals dropped at the start of each session)")
    if carried and sessions is not None:
        raise LooError("--carried goes without --sessions: a session starts from a clean pot and carries its own "
                       "pot (R10)")  # fmt: skip
    rules = rules_with_players(sets, players)
    rows = parse_rows(list(row or []), preset, rules)
    study = VariantsStudy(preset=preset, rules=rules, policy=policy, seat_policy=seat_map(seat_policy), deals=deals,
                          seed=seed, carried=carried, rows=rows, baseline=baseline, sessions=sessions,
                          session_deals=session_deals, burn_in=burn_in)  # fmt: skip
    print_written(*run_and_write(study, out, threads, backend, scheduler, workers))
