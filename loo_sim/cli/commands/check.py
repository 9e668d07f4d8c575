"""``loo-sim check DEAL.toml``: deals a player entered and scripted, kept in a file (one
deal, or several ``[[deal]]`` tables), each played with every scripted action checked:
all legal, or the first illegal action with the rule it breaks (docs/rules.md)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from loo_sim.base import checks
from loo_sim.base.errors import LooError
from loo_sim.cli.options import shared
from loo_sim.engine.trace import chips, next_antes, render_deal
from loo_sim.game.deal_input import DealInput, Play, parse_card_list, parse_declarations, parse_hands, parse_play
from loo_sim.game.policy import Policy, parse_seat_policies
from loo_sim.game.rules import Rules
from loo_sim.run.scripted import entered_deck, filled_note, play_scripted

# a deal's fields; at the top of a file they are the defaults of every [[deal]]
FIELDS = ("name", "preset", "rules", "dealer", "carried", "hands", "miss", "indicator", "stock", "seed", "deal_index",
          "declare", "play", "policy", "seat_policy")  # fmt: skip
FLAG_WORDS = {"--hand ": "hands.", "--miss": "miss", "--indicator": "indicator", "--stock": "stock",
              "--declare": "declare", "--play": "play"}  # fmt: skip


@dataclass
class Prepared:
    label: str
    rules: Rules
    dealer: int
    carried: float
    deck: list[int]
    note: str | None
    table: list[Policy]
    seed: int
    deal_index: int
    declare: dict[int, str] | None
    play: Play | None


def _text(value: Any, name: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return " ".join(value)
    raise LooError(f'{name}: expected cards as a string, e.g. "AH 7H KC", got {value!r}')


def prepare(d: dict[str, Any]) -> Prepared:
    """One deal's fields, checked, with its deck built (R2)."""
    preset = d.get("preset", "three-card")
    if not isinstance(preset, str):
        raise LooError(f"preset: expected a preset name, got {preset!r}")
    overrides = d.get("rules", {})
    if not isinstance(overrides, dict):
        raise LooError(f"rules: expected a table of options, e.g. rules = {{ players = 6 }}, got {overrides!r}")
    rules = Rules.preset(preset, **overrides)
    n = rules.players
    dealer = checks.seat("dealer", d.get("dealer", 0), n)
    carried = checks.chips("carried", d.get("carried", 0))
    seed = checks.seed(d.get("seed", 0))
    deal_index = checks.whole_number("deal_index", d.get("deal_index", 0), 0, 2**63 - 1)
    hands = d.get("hands", {})
    if not isinstance(hands, dict):
        raise LooError('hands: expected a table of seat = "cards", e.g. [deal.hands] 1 = "AH 7H KC"')
    inp = DealInput(
        hands=parse_hands({k: _text(v, f"hands.{k}") for k, v in hands.items()}, n),
        miss=None if "miss" not in d else parse_card_list(_text(d["miss"], "miss"), "miss"),
        indicator=None,
        stock=[] if "stock" not in d else parse_card_list(_text(d["stock"], "stock"), "stock"),
    )
    if "indicator" in d:
        cards = parse_card_list(_text(d["indicator"], "indicator"), "indicator")
        if len(cards) != 1:
            raise LooError(f"indicator: one card, got {len(cards)}")
        inp.indicator = cards[0]
    built = entered_deck(rules, dealer, carried, inp, seed, deal_index)
    declare = d.get("declare")
    if declare is not None and not isinstance(declare, (str, dict)):
        raise LooError(f'declare: expected "1=play,2=pass" or a table of seat = "play", got {declare!r}')
    play = d.get("play")
    if play is not None and not (
        isinstance(play, str) or isinstance(play, list) and all(isinstance(t, str) for t in play)
    ):
        raise LooError(f'play: expected "1:AH 2:9H 3:2H | ..." or a list of tricks, got {play!r}')
    policy = d.get("policy")
    if policy is not None and not isinstance(policy, str):
        raise LooError(f'policy: expected a policy, e.g. "basic", got {policy!r}')
    seat_policy = d.get("seat_policy")
    if isinstance(seat_policy, dict):
        seat_policy = [f"{k}={v}" for k, v in seat_policy.items()]
    table = parse_seat_policies(policy, seat_policy, n)
    from loo_sim.run.tables import resolve_tables  # pandas: not for --help

    resolve_tables(rules, table)  # a seat's strategy table is read now, before any deal is played
    name = d.get("name")
    return Prepared(label="" if name is None else str(name), rules=rules, dealer=dealer, carried=carried,
                    deck=built.deck, note=filled_note(built, seed, deal_index), table=table, seed=seed,
                    deal_index=deal_index, declare=None if declare is None else parse_declarations(declare, n),
                    play=None if play is None else parse_play(play, n))  # fmt: skip


def _in_file(message: str) -> str:
    for flag, word in FLAG_WORDS.items():
        message = message.replace(flag, word)
    return message


def load(path: Path) -> list[Prepared]:
    """Every deal of the file, checked and built before any is played (bad input: one line)."""
    text = checks.read_text(path, checks.MAX_DEAL_FILE_BYTES, str(path))
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise LooError(f"{path}: not valid TOML: {e}") from None
    except RecursionError:
        raise LooError(f"{path}: not valid TOML (nested too deeply)") from None
    deals = data.pop("deal", None)
    if deals is None and not data:
        raise LooError(f"{path}: no deals; give a deal's fields, or [[deal]] tables (see loo-sim check --help)")
    if deals is None:
        deals = [{}]
    elif not (isinstance(deals, list) and all(isinstance(d, dict) for d in deals)):
        raise LooError(f"{path}: 'deal' must be [[deal]] tables, one a deal")
    out = []
    for i, d in enumerate(deals, 1):
        where = f"{path}: deal {i}" + (f" ({d['name']})" if isinstance(d.get("name"), str) else "")
        for key in [*data, *d]:
            if key not in FIELDS:
                at = where if key in d else f"{path}"
                raise LooError(f"{at}: unknown field {key!r}; allowed {', '.join(FIELDS)}, and [[deal]] tables")
        fields = {**data, **d}
        try:
            out.append(prepare(fields))
        except LooError as e:
            raise LooError(f"{where}: {_in_file(str(e))}") from None
        if fields.get("declare") is None and fields.get("play") is None:
            raise LooError(f"{where}: nothing to check: give the declarations (declare) or the cards played (play)")
    if not out:
        raise LooError(f"{path}: no deals")
    return out


def check_cmd(
    path: Annotated[Path, typer.Argument(help="A deal file (TOML): one deal, or several [[deal]] tables.")],
    trace: Annotated[bool, typer.Option("--trace", help="Print each deal's whole trace.")] = False,
    why: Annotated[bool, shared("--why", " (with --trace).")] = False,
) -> None:
    """Check deals you played: each deal's hands (as dealt), declarations and cards, every
    scripted action checked by the rules; unscripted actions are left to the seat's policy.

    Fields of a deal (at the top of the file they are the defaults of every [[deal]]):
    name, preset, rules (option overrides), dealer, carried, hands (seat = "cards"), miss,
    indicator, stock, seed (fills the cards not given), deal_index, declare ("1=play,2=pass"
    or a table), play ("1:AH 2:9H 3:2H | ..." or a list of tricks), policy, seat_policy.
    Seats are numbered 0..players-1, as `loo-sim replay` prints them.

    Exit status 0 when every deal is legal, 1 when one is not, 2 for a bad file.
    Example: `loo-sim check evening.toml --trace`.
    """
    deals = load(path)
    bad = 0
    for i, p in enumerate(deals, 1):
        head = f"deal {i}" + (f" ({p.label})" if p.label else "")
        done = play_scripted(p.rules, p.deck, p.dealer, p.carried, p.table, seed=p.seed, deal=p.deal_index,
                             declare=p.declare, play=p.play, why=why)  # fmt: skip
        if done.illegal is not None:
            bad += 1
            typer.echo(f"{head}: illegal: {done.illegal}")
            continue
        rec = done.rec
        assert rec is not None
        scripted = len(p.declare or {}) + sum(len(t) for t in p.play or [])
        paid = ", ".join(f"seat {s} {chips(x)}" for s, x in enumerate(rec.shares) if x) or "none"
        looed = ", ".join(f"seat {s} pays {chips(rec.penalties[s])}" for s in rec.looed) or "nobody"
        typer.echo(f"{head}: all legal ({scripted} scripted actions); pot {chips(rec.pot_start)}; shares: {paid}; "
                   f"looed: {looed}; next pot {chips(rec.pot_next)} carried + {chips(next_antes(p.rules))} antes = "
                   f"{chips(rec.pot_next + next_antes(p.rules))}")  # fmt: skip
        if trace:
            if p.note:
                typer.echo(p.note)
            typer.echo(render_deal(p.rules, rec, p.table, notes=done.notes, next_pot=True))
            typer.echo("")
    if bad:
        typer.echo(f"{bad} of {len(deals)} deals hold an illegal action")
        raise typer.Exit(1)
    typer.echo(f"{len(deals)} deal{'s' * (len(deals) != 1)} checked: all legal")
