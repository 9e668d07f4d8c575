"""The ``loo-sim`` command line (Typer). Each command builds configs and calls the
library; bad input is one ``error:`` line on stderr and exit status 2."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from loo_sim import checks
from loo_sim.engine.trace import render_deal
from loo_sim.errors import LooError
from loo_sim.game.cards import deck_str
from loo_sim.game.policy import parse_seat_policies
from loo_sim.game.rules import PRESETS, Rules, parse_set
from loo_sim.report.command import describe_policies, policy_args
from loo_sim.rng import shuffled_deck
from loo_sim.run.api import play_deal

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


BackendOpt = Annotated[str, typer.Option(help="Where the kernel runs: local (this process) or dask.")]
SchedulerOpt = Annotated[
    str | None, typer.Option(help="With --backend dask: address of an existing scheduler (default: a LocalCluster).")
]
WorkersOpt = Annotated[str | None, typer.Option(help="With --backend dask and no --scheduler: LocalCluster workers.")]


def open_backend(backend: str, scheduler: str | None, workers: str | None):
    """The backend the options ask for (close it when done)."""
    from loo_sim.run.backend import make_backend

    n = None if workers is None else checks.whole_number("--workers", workers, 1, 512)
    return make_backend(backend.strip().lower(), scheduler, n)


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
        seed_value = checks.seed(seed, "--seed")
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
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Play many independent deals with the kernel and print rates, loo rates, trick counts and
    net chips per seat, each with its uncertainty.

    Examples: `loo-sim simulate --preset three-card --deals 1000000 --seed 1`,
    `loo-sim simulate --preset five-card --seat-policy 0=cautious --deals 2e6 --out out/five`.
    """
    from loo_sim.analysis.simulate import class_table, summary_table
    from loo_sim.analysis.summaries import format_summary
    from loo_sim.report.outputs import prepare_out_dir, write_csv, write_json
    from loo_sim.run.simulate import TextProgress, simulate

    rules = build_rules(preset, sets)
    n_deals = checks.deals(deals)
    seed_value = checks.seed(seed)
    n_threads = checks.threads(threads)
    pot = checks.chips("--carried", carried)
    dealer_seat = None if dealer is None else checks.seat("--dealer", dealer, rules.players)
    table = parse_seat_policies(policy, seat_policy, rules.players)
    out_dir = prepare_out_dir(out) if out is not None else None
    runner = open_backend(backend, scheduler, workers)
    try:
        res = simulate(rules, table, n_deals, seed_value, pot, dealer_seat, n_threads, progress=TextProgress(),
                       by_class=by_class, backend=runner)  # fmt: skip
    finally:
        runner.close()
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


def run_info(res, preset: str, sets: list[str] | None, command: str) -> dict:
    """Everything needed to repeat a run exactly (run.json)."""
    from loo_sim.version import __version__

    argv = ["loo-sim", command, "--preset", preset]
    for item in sets or ():
        argv += ["--set", item]
    argv += policy_args(res.policies)
    argv += ["--deals", str(res.deals_requested), "--seed", str(res.seed), "--carried", str(res.carried)]
    if res.dealer is not None:
        argv += ["--dealer", str(res.dealer)]
    if res.by_class:
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
        for line in str(e).splitlines() or [""]:  # a config error lists every problem, one a line
            print(f"error: {line}", file=sys.stderr)
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


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
