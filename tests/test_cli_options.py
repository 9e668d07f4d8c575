"""One way to say each thing (issue #29): every option that two commands or more share
has one name, one type and one help (``cli/options.py``'s catalogue; a command may only add
to the end of the shared help), ``--players N`` is on every command that plays deals and
means ``--set players=N``, per-session deal counts are ``--session-deals`` everywhere, and
the old spellings are refused in one line that names the new one."""

from __future__ import annotations

from collections import defaultdict

import pytest
import typer

from loo_sim.cli import app, main
from loo_sim.cli.options import HELP, PARSERS

# commands that play deals (all but rules, check and report, which read deals or configs)
PLAYING = ("replay", "advise", "simulate", "calibrate", "miss", "pots", "variants", "solve", "tournament", "risk",
           "cardplay")  # fmt: skip
# options shared by two commands or more that are NOT one idea, and why
DIFFERENT = {
    "--json": "what is printed as JSON differs (a deal record in replay, a summary in simulate, an answer in advise)",
    "--hand": "replay enters any seat's hand as dealt (SEAT=CARDS, repeatable); advise takes the one hand you hold",
    "--declare": "replay scripts some seats' declarations (seats 0..N-1); advise is told every position's (1..N)",
    "--play": "replay scripts cards by seat (0..N-1); advise is told the cards so far by position (1..N)",
}
# (command, flag): where one command's option departs from the catalogue, and why
OWN = {
    ("solve", "--policy"): "the table's card play, PLAY[/EXCHANGE]: its declarations are what solve solves",
    ("miss", "--carried"): "chips, or the word 'session' (each deal's carried pot drawn from sessions)",
}


def commands() -> dict[str, typer.core.TyperCommand]:
    return dict(typer.main.get_command(app).commands)


def shared_options() -> dict[str, list[tuple[str, object]]]:
    seen = defaultdict(list)
    for name, command in commands().items():
        for param in command.params:
            if isinstance(param, typer.core.TyperOption) and not param.hidden:
                seen[param.opts[0]].append((name, param))
    return {flag: uses for flag, uses in seen.items() if len(uses) > 1}


def parser_of(param) -> object:
    """The parser the option was declared with (typer keeps it on the option's info)."""
    return param.type_descriptor.parameter_info.parser


def same_parser(a: object, b: object) -> bool:
    """Two parsers are one type when they are the same function, or instances of one class with the same settings."""
    if a is b:
        return True
    return type(a) is type(b) and hasattr(a, "__dict__") and vars(a) == vars(b)


def test_every_shared_option_is_in_the_catalogue_or_explained():
    missing = [flag for flag in shared_options() if flag not in HELP and flag not in DIFFERENT]
    assert missing == []


@pytest.mark.parametrize("flag", sorted(HELP))
def test_a_shared_option_has_one_help_and_one_type_everywhere(flag):
    uses = shared_options().get(flag, [])
    for command, param in uses:
        if (command, flag) in OWN:
            continue
        assert param.help.startswith(HELP[flag]), f"{command} {flag}: {param.help!r}"
        if flag in PARSERS:
            assert same_parser(parser_of(param), PARSERS[flag]), f"{command} {flag}: another type"


def test_the_type_check_tells_parsers_apart():
    from loo_sim.cli.params import WholeNumber

    assert same_parser(WholeNumber(1, 8), WholeNumber(1, 8))
    assert not same_parser(WholeNumber(1, 8), WholeNumber(3, 8))


def test_every_command_that_plays_deals_takes_players():
    for name in PLAYING:
        flags = {p.opts[0] for p in commands()[name].params if isinstance(p, typer.core.TyperOption)}
        assert "--players" in flags, name


def test_session_deal_counts_are_session_deals_everywhere():
    for name in ("miss", "pots", "variants", "tournament", "risk"):
        flags = {p.opts[0] for p in commands()[name].params if isinstance(p, typer.core.TyperOption)}
        assert "--session-deals" in flags, name
        deals = [p for p in commands()[name].params if getattr(p, "opts", [None])[0] == "--deals"]
        for p in deals:  # where --deals remains visible, it counts all the deals of a run
            assert p.hidden or "session" not in p.help.split("[")[0].lower() or "without --sessions" in p.help, name


@pytest.mark.parametrize("argv,says", [
    (["pots", "--deals", "50"], "--session-deals"),
    (["tournament", "--deals", "50"], "--session-deals"),
    (["risk", "--deals", "200"], "--session-deals"),
    (["variants", "--row", "limited", "--sessions", "10", "--deals", "40"], "--session-deals"),
    (["variants", "--row", "limited", "--session-deals", "40"], "goes with sessions"),
    (["cardplay", "--focal", "basic,high"], "--entrants"),
])  # fmt: skip
def test_old_spellings_are_refused_naming_the_new(argv, says, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and says in err[0]


@pytest.mark.parametrize("command", PLAYING)
def test_players_and_set_players_that_disagree_are_refused(command, capsys):
    argv = [command, "--players", "4", "--set", "players=6"]
    if command == "variants":
        argv += ["--row", "limited"]
    if command == "advise":
        argv += ["--position", "1", "--hand", "KH 7S 3D"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err == "error: --players 4 and --set players=6 disagree; give one of them"


def test_players_is_the_same_as_set_players(capsys):
    assert main(["simulate", "--players", "4", "--deals", "2000", "--json"]) == 0
    with_flag = capsys.readouterr().out
    assert main(["simulate", "--set", "players=4", "--deals", "2000", "--json"]) == 0
    with_set = capsys.readouterr().out
    assert '"players": 4' in with_flag
    strip = [line for line in with_flag.split(", ") if "elapsed" not in line and "deals_per_s" not in line]
    again = [line for line in with_set.split(", ") if "elapsed" not in line and "deals_per_s" not in line]
    assert strip == again


def test_chart_seat_help_shows_all():
    param = next(p for p in commands()["miss"].params if getattr(p, "opts", [None])[0] == "--chart-seat")
    assert "all" in param.metavar and "'all'" in param.help
