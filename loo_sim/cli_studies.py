"""``loo-sim`` study commands: calibrate (strength tables), miss (decision charts and
heuristics) and pots (sessions). Registered on the app of ``cli.py``."""

from __future__ import annotations

import sys
from typing import Annotated

import numpy as np
import typer

from . import checks
from . import layout as L
from .cli import PolicyOpt, PresetOpt, SeatPolicyOpt, SetOpt, app, build_rules, policy_args
from .errors import LooError
from .policies import parse_seat_policies


@app.command("calibrate")
def calibrate_cmd(
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    players: Annotated[str | None, typer.Option(help="Players at the table (default: the preset's).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Recompute even if a table is shipped or cached.")] = False,
    deals: Annotated[str, typer.Option(help="Deals per seat count when calibrating.")] = "500000",
    seed: Annotated[str, typer.Option(help="Seed of the calibration runs.")] = "20260101",
    out: Annotated[str | None, typer.Option(help="Also write the table as CSV into this directory.")] = None,
) -> None:
    """Strength tables for threshold and ev: P(k tricks | hand class, seats in the deal).

    Shipped tables cover the presets at 3-8 players; other rule sets are calibrated once
    and cached (keyed by a hash of the rules). Examples: `loo-sim calibrate --preset
    three-card --players 6`, `loo-sim calibrate --preset limited --set lead=classic --force`.
    """
    from .classes import MISS_ROW, N_CLASSES, class_label, grid_text
    from .outputs import prepare_out_dir, write_csv
    from .simulate import check_deals, check_seed
    from .strength import cache_dir, source_of, strength_for

    rules = build_rules(preset, sets)
    if players is not None:
        rules = rules.replace(players=checks.whole_number("--players", players, 3, 8))
    n_deals, seed_value = check_deals(deals), check_seed(seed)
    out_dir = prepare_out_dir(out) if out is not None else None
    source = "calibrated now" if force else {"shipped": "shipped with loo_sim", "cache": f"cached in {cache_dir()}",
                                             "none": "calibrated now"}[source_of(rules)]  # fmt: skip
    table = strength_for(rules, force=force, deals=n_deals, seed=seed_value, verbose=True)
    n = rules.players
    typer.echo(f"Strength table of {preset} ({n} players): {source}; key {table.key}, {table.deals:,} deals "
               f"per seat count, seed {table.seed}; entry rate p_in = {table.p_in:.3f}")  # fmt: skip
    typer.echo(
        f"P(no trick) by hand class and seats in the deal (m), from {int(table.counts[:MISS_ROW].sum()):,} hands:"
    )
    head = "".join(f"   m={m}" for m in range(2, n + 1))
    typer.echo(f"  {'hand class':<44}{'hands':>11}{head}")
    rows = []
    for cls in [*range(N_CLASSES), MISS_ROW]:
        hands = int(table.counts[cls].sum())
        if hands == 0:
            continue
        p0 = "".join(f"{table.probs[cls, m, 0]:7.3f}" for m in range(2, n + 1))
        typer.echo(f"  {class_label(cls):<44}{hands:>11,}{p0}")
        for m in range(2, n + 1):
            for k in range(rules.hand_size + 1):
                hands_m = int(table.counts[cls, m].sum())
                rows.append(dict(hand_class=cls, label=class_label(cls), seats=m, tricks=k,
                                 probability=table.probs[cls, m, k], hands=hands_m))  # fmt: skip
    typer.echo("\n" + grid_text())
    if out_dir is not None:
        import pandas as pd

        write_csv(out_dir / "strength.csv", pd.DataFrame(rows))
        typer.echo(f"wrote {out_dir / 'strength.csv'}")


HEURISTICS = ["basic", "always", "cautious", "nothing-takes-miss", "threshold:play=0.7,miss=0.3",
              "threshold:play=0.5,miss=0.3", "threshold:play=0.3,miss=0.15", "ev"]  # fmt: skip


@app.command("miss")
def miss_cmd(
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    players: Annotated[list[str] | None, typer.Option(help="Players at the table (repeat for the sweep).")] = None,
    policy: PolicyOpt = None,
    seat_policy: SeatPolicyOpt = None,
    carried: Annotated[list[str] | None, typer.Option(help="Chips carried in (repeat for the sweep).")] = None,
    deals: Annotated[str, typer.Option(help="Deals per run (the most, with --precision).")] = "200000",
    seed: Annotated[str, typer.Option(help="Seed of the runs.")] = "0",
    precision: Annotated[
        str | None,
        typer.Option(help="Stop the heuristic comparison when every paired difference's 95% half-width is below this."),
    ] = None,  # fmt: skip
    focal: Annotated[str, typer.Option(help="Seat whose heuristics are compared.")] = "0",
    chart_seat: Annotated[
        str, typer.Option(help="Seat whose declarations the chart replays, or 'all' (each in turn).")
    ] = "all",
    threads: Annotated[str | None, typer.Option(help="Worker threads (default: all cores).")] = None,
    out: Annotated[str, typer.Option(help="Directory for the charts, CSVs and summary.md.")] = "out/miss",
) -> None:
    """Should a hand play, pass or take the miss? Counterfactual decision charts by hand
    class, a paired comparison of heuristics, and how the answer moves with the pot and
    the number of players.

    Examples: `loo-sim miss --preset three-card --deals 200000 --seed 1 --out out/miss`,
    `loo-sim miss --players 4 --players 5 --players 6 --carried 0 --carried 15 --carried 45 --precision 0.05`.
    """
    from numba import set_num_threads

    from .miss import best_actions, chart_table, decisions, heuristic_table, heuristics, summary_markdown, sweep_frames
    from .outputs import prepare_out_dir, save_png, write_csv, write_json
    from .plots import best_action_sweep, decision_chart, decision_chart_size, heuristic_bars
    from .policies import Policy
    from .simulate import TextProgress, check_deals, check_seed, check_threads

    base = build_rules(preset, sets)
    player_counts = [checks.whole_number("--players", p, 3, 8) for p in players] if players else [base.players]
    pots = [checks.chips("--carried", c) for c in carried] if carried else [0.0]
    n_deals, seed_value = check_deals(deals), check_seed(seed)
    limit = None if precision is None else checks.chips("--precision", precision)
    if limit is not None and limit <= 0:
        raise LooError("--precision: must be > 0 chips (a 95% half-width)")
    rules_by_n = {n: base.replace(players=n) for n in player_counts}
    tables = {n: parse_seat_policies(policy, seat_policy, n) for n, r in rules_by_n.items()}
    focal_seat = checks.seat("--focal", focal, player_counts[0])
    set_num_threads(check_threads(threads))
    out_dir = prepare_out_dir(out)
    main_n, main_pot = player_counts[0], pots[0]
    rules = rules_by_n[main_n]

    typer.echo(f"decision chart: {preset}, {main_n} players, carried {main_pot:g}, {n_deals:,} deals ...")
    chart_seats = None if chart_seat.strip().lower() == "all" else [checks.seat("--chart-seat", chart_seat, main_n)]
    chart_res = decisions(rules, tables[main_n], n_deals, seed_value, main_pot, focal=chart_seats,
                          progress=TextProgress(min_total=0))  # fmt: skip
    chart_df = chart_table(chart_res)
    chart = best_actions(chart_res)
    names = [*HEURISTICS, "chart (best action of this chart)"]
    candidates = [Policy.parse(h) for h in HEURISTICS] + [Policy("chart")]
    typer.echo(f"heuristics: seat {focal_seat} plays {len(names)} declaration heuristics on the same deals ...")
    heur = heuristics(rules, tables[main_n], focal_seat, candidates, names, n_deals, seed_value, main_pot,
                      chart=chart, precision=limit, progress=TextProgress(min_total=0))  # fmt: skip
    heur_df = heuristic_table(heur)
    sweep_runs = []
    for n in player_counts:
        for pot in pots:
            if (n, pot) == (main_n, main_pot):
                sweep_runs.append(chart_res)
                continue
            typer.echo(f"sweep: {n} players, carried {pot:g} ...")
            seats = None if chart_seats is None else [s for s in chart_seats if s < n]
            sweep_runs.append(decisions(rules_by_n[n], tables[n], n_deals, seed_value, pot, focal=seats))
    shares, sweep_classes = sweep_frames(sweep_runs)
    partial = chart_res.partial or heur.partial

    command = " ".join(["loo-sim", "miss", "--preset", preset, *sum((["--set", x] for x in sets or []), []),
                        *sum((["--players", str(n)] for n in player_counts), []),
                        *sum((["--carried", f"{c:g}"] for c in pots), []),
                        *policy_args(tables[main_n]),
                        "--deals", str(n_deals), "--seed", str(seed_value), "--focal", str(focal_seat),
                        *(["--chart-seat", str(chart_seats[0])] if chart_seats else []),
                        *(["--precision", f"{limit:g}"] if limit is not None else []), "--out", str(out)])  # fmt: skip
    write_csv(out_dir / "chart.csv", chart_df)
    write_csv(out_dir / "heuristics.csv", heur_df)
    write_csv(out_dir / "sweep.csv", shares)
    write_csv(out_dir / "sweep_classes.csv", sweep_classes)
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    n_rows = int(chart_df[chart_df.position == "all"].hand_class.nunique())
    fig = Figure(figsize=decision_chart_size(n_rows), layout="constrained")
    decision_chart(fig.add_subplot(), chart_df, "all",
                   title=f"{preset}, {main_n} players, carried {main_pot:g}: best declaration")  # fmt: skip
    save_png(fig, out_dir / "chart.png")
    fig = Figure(figsize=(9, 0.5 * len(names) + 1.5), layout="constrained")
    heuristic_bars(fig.add_subplot(), heur_df, baseline="basic",
                   title=f"Seat {focal_seat}'s heuristics vs basic, {heur.deals:,} deals")  # fmt: skip
    save_png(fig, out_dir / "heuristics.png")
    fig = Figure(figsize=(3.6 * len(player_counts) + 1, 3.8), layout="constrained")
    best_action_sweep(fig, shares, title=f"{preset}: share of decisions by best declaration")
    save_png(fig, out_dir / "sweep.png")
    text = summary_markdown(preset, chart_res, chart_df, heur, heur_df, shares, command)
    from .outputs import atomic_write_text

    atomic_write_text(out_dir / "summary.md", text)
    from . import __version__

    write_json(out_dir / "run.json", {"loo_sim_version": __version__, "command": command, "preset": preset,
                                      "rules": rules.to_dict(), "seed": seed_value, "deals": n_deals,
                                      "chart_deals": chart_res.deals, "heuristic_deals": heur.deals,
                                      "precision": limit, "partial": partial, "focal": focal_seat,
                                      "players": player_counts, "carried": pots})  # fmt: skip
    if partial:
        print("interrupted: the results written are PARTIAL", file=sys.stderr)
    typer.echo(text)
    typer.echo(f"wrote chart.csv/png, heuristics.csv/png, sweep.csv/png, sweep_classes.csv, summary.md, run.json "
               f"in {out_dir}")  # fmt: skip


@app.command("pots")
def pots_cmd(
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    policy: PolicyOpt = None,
    seat_policy: SeatPolicyOpt = None,
    compare: Annotated[
        list[str] | None,
        typer.Option(help="KEY=V1,V2[,...]: an option (or policy) to vary; repeat for a grid. First = baseline."),
    ] = None,
    sessions: Annotated[str, typer.Option(help="Independent sessions per arm.")] = "2000",
    deals: Annotated[str, typer.Option(help="Deals per session (fewer if someone is ruined).")] = "50",
    bankroll: Annotated[str | None, typer.Option(help="End a session when a balance falls below -B.")] = None,
    seed: Annotated[str, typer.Option(help="Seed: deal j of session i comes from (seed, i, j) in every arm.")] = "0",
    threads: Annotated[str | None, typer.Option(help="Worker threads (default: all cores).")] = None,
    out: Annotated[str, typer.Option(help="Directory for the plots, CSVs and summary.md.")] = "out/pots",
) -> None:
    """Sessions of many deals (R10): how pots grow, how large they get, who ends ahead, and
    the chance of ruin, for each arm of a comparison played on the same decks.

    Examples: `loo-sim pots --preset three-card --compare penalty=limited,unlimited --sessions 5000 --deals 50`,
    `loo-sim pots --compare penalty=limited,unlimited --compare policy=basic,ev --bankroll 200 --out out/pots`.
    """
    from numba import set_num_threads

    from . import __version__
    from .outputs import atomic_write_text, prepare_out_dir, save_png, write_csv, write_json
    from .pots import (
        arm_stats,
        balance_histogram,
        balances,
        make_arms,
        max_pot_ccdf,
        paired,
        parse_compare,
        pot_by_deal,
        run_pots,
        summary_markdown,
    )
    from .simulate import TextProgress, check_seed, check_threads

    base = build_rules(preset, sets)
    if bankroll is not None:
        base = base.replace(bankroll=checks.chips("--bankroll", bankroll))
    n_sessions = checks.whole_number("--sessions", sessions, 1)
    n_deals = checks.whole_number("--deals", deals, 1, 100_000)
    seed_value = check_seed(seed)
    grid = parse_compare(compare)
    arms = make_arms(base, lambda n: parse_seat_policies(policy, seat_policy, n), grid)
    set_num_threads(check_threads(threads))
    out_dir = prepare_out_dir(out)
    typer.echo(f"pots: {len(arms)} arm(s) x {n_sessions:,} sessions x {n_deals} deals ...")
    res = run_pots(arms, n_sessions, n_deals, seed_value, progress=TextProgress(label="sessions", min_total=0))
    tables = {"pot_by_deal": pot_by_deal(res), "max_pot": max_pot_ccdf(res), "balances": balances(res),
              "balance_histogram": balance_histogram(res), "arms": arm_stats(res), "paired": paired(res)}  # fmt: skip
    for name, df in tables.items():
        write_csv(out_dir / f"{name}.csv", df)
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    from .plots_pots import balance_distribution, pot_fan_chart
    from .plots_pots import max_pot_ccdf as ccdf_plot

    cols = min(len(arms), 3)
    fig = Figure(figsize=(4.5 * cols + 0.5, 3.8 * ((len(arms) + cols - 1) // cols)), layout="constrained")
    pot_fan_chart(fig, tables["pot_by_deal"], title=f"{preset}: pot at the start of each deal (median, 50%, 90%)")
    save_png(fig, out_dir / "fan.png")
    fig = Figure(figsize=(7, 4.5), layout="constrained")
    ccdf_plot(fig.add_subplot(), tables["max_pot"], title=f"{preset}: largest pot of a session")
    save_png(fig, out_dir / "max_pot.png")
    fig = Figure(figsize=(1.6 * base.players * max(1, len(arms)) / 2 + 3, 4.5), layout="constrained")
    balance_distribution(fig.add_subplot(), tables["balances"], title=f"{preset}: final net balance per seat")
    save_png(fig, out_dir / "balances.png")
    command = " ".join(["loo-sim", "pots", "--preset", preset, *sum((["--set", x] for x in sets or []), []),
                        *([] if any(k == "policy" for k, _ in grid) else policy_args(arms[0].policies)),
                        *sum((["--compare", c] for c in compare or []), []),
                        "--sessions", str(n_sessions), "--deals", str(n_deals),
                        *(["--bankroll", f"{base.bankroll:g}"] if base.bankroll is not None else []),
                        "--seed", str(seed_value), "--out", str(out)])  # fmt: skip
    text = summary_markdown(res, tables, preset, command)
    atomic_write_text(out_dir / "summary.md", text)
    write_json(out_dir / "run.json", {"loo_sim_version": __version__, "command": command, "preset": preset,
                                      "arms": [{"name": a.name, "rules": a.rules.to_dict(),
                                                "policies": [str(p) for p in a.policies]} for a in arms],
                                      "sessions": res.sessions, "deals": n_deals, "seed": seed_value,
                                      "partial": res.partial})  # fmt: skip
    stats = tables["arms"].set_index(["arm", "metric"])["value"]
    for a, arm in enumerate(arms):
        flagged = stats[(arm.name, "inexact_past_2_53_probability")]
        if flagged > 0:
            first = int(np.nonzero(res.deal_stats[a, :, L.DS_INEXACT_FIRST])[0][0])
            print(f"warning: {arm.name}: {flagged:.1%} of sessions passed 2**53 chips (the first at deal {first}); "
                  "amounts past that are not exact (R3)", file=sys.stderr)  # fmt: skip
    if res.partial:
        print(f"interrupted: {res.sessions:,} sessions finished; the results written are PARTIAL", file=sys.stderr)
    typer.echo(text)
    typer.echo(f"wrote {', '.join(f'{k}.csv' for k in tables)}, fan.png, max_pot.png, balances.png, summary.md, "
               f"run.json in {out_dir}")  # fmt: skip
