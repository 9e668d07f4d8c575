"""The ``loo-sim`` command line (Typer). Each command builds configs and calls the
library; bad input is one ``error:`` line on stderr and exit status 2."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from . import checks
from .api import play_deal
from .cards import deck_str
from .errors import LooError
from .policies import parse_seat_policies
from .rng import shuffled_deck
from .rules import PRESETS, Rules, parse_set
from .trace import render_deal

app = typer.Typer(
    name="loo-sim",
    help="Monte Carlo strategy analyzer for Loo (Lanterloo). Rules: RULES.md; policies: POLICIES.md.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

SetOpt = Annotated[
    list[str] | None,
    typer.Option("--set", help="Override one option, KEY=VALUE (repeatable), e.g. --set penalty=limited."),
]
PresetOpt = Annotated[str, typer.Option("--preset", "-p", help="Rule preset (see `loo-sim rules`).")]
PolicyOpt = Annotated[
    str | None, typer.Option("--policy", help="Policy of every seat, DECLARE[/PLAY[/EXCHANGE]], e.g. cautious/high.")
]
SeatPolicyOpt = Annotated[
    list[str] | None,
    typer.Option("--seat-policy", help="Policy of one seat, SEAT=POLICY (repeatable), e.g. 2=cautious."),
]


def build_rules(preset: str, sets: list[str] | None) -> Rules:
    return Rules.preset(preset, **parse_set(sets))


@app.command("rules")
def rules_cmd(
    preset: Annotated[str | None, typer.Argument(help="A preset name; omit to list the presets.")] = None,
    sets: SetOpt = None,
) -> None:
    """List the presets, or show every option of one rule set.

    Examples: `loo-sim rules`, `loo-sim rules classic-limited --set players=6 --set lead=classic`.
    """
    if preset is None:
        if sets:
            raise LooError("--set needs a preset, e.g. loo-sim rules three-card --set penalty=limited")
        typer.echo("Presets (RULES.md R11); show one with `loo-sim rules NAME`:")
        for name, (description, _) in PRESETS.items():
            typer.echo(f"  {name:<16} {description}")
        return
    rules = build_rules(preset, sets)
    typer.echo(f"Rule set: preset {preset}" + (f" with {', '.join(sets)}" if sets else ""))
    typer.echo(rules.render())


@app.command("replay")
def replay_cmd(
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    deck: Annotated[
        str | None, typer.Option(help="52 cards in canonical deal order (RULES.md R2), space separated.")
    ] = None,
    seed: Annotated[str | None, typer.Option(help="Shuffle the deck from this seed (instead of --deck).")] = None,
    deal: Annotated[str, typer.Option(help="With --seed: the deal index k of that run.")] = "0",
    dealer: Annotated[str | None, typer.Option(help="Dealer seat (default: 0, or k mod players with --seed).")] = None,
    carried: Annotated[str, typer.Option(help="Chips carried in from the last deal (0 = a clean pot).")] = "0",
    policy: PolicyOpt = None,
    seat_policy: SeatPolicyOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the deal record as JSON.")] = False,
) -> None:
    """Play one deal and print every step: hands, miss, indicator, declarations, tricks, payouts.

    Examples: `loo-sim replay --preset three-card --seed 7`,
    `loo-sim replay --preset classic-limited --seed 7 --deal 3 --carried 6 --seat-policy 0=cautious --json`.
    """
    rules = build_rules(preset, sets)
    if (deck is None) == (seed is None):
        raise LooError('replay needs exactly one of --deck "52 cards" or --seed N')
    n = rules.players
    deal_index = checks.whole_number("--deal", deal, 0)
    seed_value = 0
    if seed is not None:
        seed_value = checks.whole_number("--seed", seed, 0, 2**63 - 1)
        cards: list[int] | str = shuffled_deck(seed_value, deal_index)
        default_dealer = deal_index % n
    else:
        cards, default_dealer = deck or "", 0
    dealer_seat = default_dealer if dealer is None else checks.seat("--dealer", dealer, n)
    pot = checks.chips("--carried", carried)
    table = parse_seat_policies(policy, seat_policy, n)
    rec = play_deal(rules, cards, dealer_seat, pot, table, seed=seed_value, deal_index=deal_index)
    if not rec.exact:
        print("warning: chip amounts in this deal pass 2**53; float64 chips are no longer exact (R3)", file=sys.stderr)
    if as_json:
        typer.echo(json.dumps(rec.to_dict()))
        return
    if seed is not None:
        typer.echo(f"Deal {deal_index} of seed {seed_value}; deck: {deck_str(cards)}")  # type: ignore[arg-type]
    typer.echo(render_deal(rules, rec, table, title=f"{preset}: "))


@app.command("simulate")
def simulate_cmd(
    preset: PresetOpt = "three-card",
    sets: SetOpt = None,
    policy: PolicyOpt = None,
    seat_policy: SeatPolicyOpt = None,
    deals: Annotated[
        str, typer.Option(help="Number of independent deals to play (1e6 and 1_000_000 work).")
    ] = "100000",
    seed: Annotated[str, typer.Option(help="Seed of the run: deal k is shuffled from the stream (seed, k).")] = "0",
    threads: Annotated[
        str | None, typer.Option(help="Worker threads (default: all cores). Results do not depend on it.")
    ] = None,
    carried: Annotated[str, typer.Option(help="Chips carried into every deal (0 = a clean pot).")] = "0",
    dealer: Annotated[
        str | None, typer.Option(help="Fix the dealer seat (default: deal k is dealt by seat k mod players).")
    ] = None,
    out: Annotated[str | None, typer.Option(help="Directory for summary.csv (long form) and run.json.")] = None,
    by_class: Annotated[bool, typer.Option("--by-class", help="Also the loo rate by hand class (P5).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Play many independent deals with the kernel and print rates, loo rates, trick counts and
    net chips per seat, each with its uncertainty.

    Examples: `loo-sim simulate --preset three-card --deals 1000000 --seed 1`,
    `loo-sim simulate --preset five-card --seat-policy 0=cautious --deals 2e6 --out out/five`.
    """
    from .analysis import class_table, format_summary, summary_table
    from .outputs import prepare_out_dir, write_csv, write_json
    from .simulate import TextProgress, check_deals, check_seed, check_threads, simulate

    rules = build_rules(preset, sets)
    n_deals = check_deals(deals)
    seed_value = check_seed(seed)
    n_threads = check_threads(threads)
    pot = checks.chips("--carried", carried)
    dealer_seat = None if dealer is None else checks.seat("--dealer", dealer, rules.players)
    table = parse_seat_policies(policy, seat_policy, rules.players)
    out_dir = prepare_out_dir(out) if out is not None else None
    res = simulate(rules, table, n_deals, seed_value, pot, dealer_seat, n_threads, progress=TextProgress(),
                   by_class=by_class)  # fmt: skip
    df = summary_table(res)
    classes = class_table(res) if by_class else None
    if res.partial:
        print(f"interrupted: {res.deals_done:,} of {n_deals:,} deals finished; the results are PARTIAL",
              file=sys.stderr)  # fmt: skip
    run = run_info(res, preset, sets, "simulate")
    if out_dir is not None:
        write_csv(out_dir / "summary.csv", df)
        if classes is not None:
            write_csv(out_dir / "by_class.csv", classes)
        write_json(out_dir / "run.json", run)
    if as_json:
        data = {"run": run, "summary": df.to_dict(orient="records")}
        if classes is not None:
            data["by_class"] = classes.to_dict(orient="records")
        typer.echo(json.dumps(data, default=str))
        return
    state = "PARTIAL " if res.partial else ""
    typer.echo(f"{state}{res.deals_done:,} deals of {preset} ({rules.players} players), seed {seed_value}, "
               f"{describe_policies(table)}; {res.elapsed_s:.1f} s on {n_threads} thread(s)")  # fmt: skip
    typer.echo(format_summary(res, df))
    if classes is not None:
        typer.echo("\nloo rate by hand class (hands played; see `loo-sim miss --help` for the grid):")
        for r in classes.itertuples(index=False):
            typer.echo(f"  {r.label:<42} {r.hands:>10,}  {r.loo_rate:.4f} [{r.ci_low:.4f}, {r.ci_high:.4f}]")
    if out_dir is not None:
        typer.echo(f"wrote {out_dir / 'summary.csv'} and {out_dir / 'run.json'}")


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


def describe_policies(table) -> str:
    names = [str(p) for p in table]
    if len(set(names)) == 1:
        return f"policy {names[0]} at every seat"
    return "policies " + ", ".join(f"{seat}={name}" for seat, name in enumerate(names))


def policy_args(table) -> list[str]:
    """The shortest --policy / --seat-policy arguments that give this table."""
    names = [str(p) for p in table]
    if len(set(names)) == 1:
        return ["--policy", names[0]]
    return sum((["--seat-policy", f"{seat}={name}"] for seat, name in enumerate(names)), [])


def run_info(res, preset: str, sets: list[str] | None, command: str) -> dict:
    """Everything needed to repeat a run exactly (run.json)."""
    from . import __version__

    argv = ["loo-sim", command, "--preset", preset]
    for item in sets or ():
        argv += ["--set", item]
    argv += policy_args(res.policies)
    argv += ["--deals", str(res.deals_requested), "--seed", str(res.seed), "--carried", str(res.carried)]
    if res.dealer is not None:
        argv += ["--dealer", str(res.dealer)]
    if res.extra.get("by_class"):
        argv += ["--by-class"]
    return {
        "loo_sim_version": __version__,
        "command": " ".join(argv),
        "preset": preset,
        "overrides": list(sets or []),
        "rules": res.rules.to_dict(),
        "policies": [str(p) for p in res.policies],
        "deals_requested": res.deals_requested,
        "deals_done": res.deals_done,
        "partial": res.partial,
        "seed": res.seed,
        "carried": res.carried,
        "dealer": "rotating (deal k: seat k mod players)" if res.dealer is None else res.dealer,
        "threads": res.threads,
        "elapsed_s": round(res.elapsed_s, 3),
    }


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app, turning every domain or usage error into one line."""
    command = typer.main.get_command(app)
    args = sys.argv[1:] if argv is None else list(argv)
    if not args:
        args = ["--help"]
    try:
        command.main(args=args, prog_name="loo-sim", standalone_mode=False)
    except LooError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except (typer.Exit, typer.Abort) as e:
        return int(getattr(e, "exit_code", 1))
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # the CLI framework's own usage errors (unknown flag, missing value)
        if hasattr(e, "format_message"):
            print(f"error: {e.format_message()}", file=sys.stderr)
            return 2
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main())


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
