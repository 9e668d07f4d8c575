"""The miss kind (``loo-sim miss``, a report's ``kind = "miss"``): should a hand play, pass
or take the miss? Counterfactual decision charts by hand class (``kernel/counterfactual.py``,
``run/decisions.py``), a paired comparison of declaration heuristics, and a sweep over the
players and the pot carried in (``analysis/miss.py``, ``analysis/miss_text.py``); its figures
are in ``miss_figures.py``; ``--carried session`` draws each deal's carried pot from
sessions (``run/session_pots.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from loo_sim.base import checks
from loo_sim.base.config import SESSION_POTS_BURN_IN, SESSION_POTS_DEALS, SESSION_POTS_SESSIONS
from loo_sim.game.policy import Policy, heuristics_for
from loo_sim.game.rules import Rules
from loo_sim.report.command import command
from loo_sim.report.kinds.base import Study
from loo_sim.report.kinds.fields import CARRIED, TEXT, WHOLE, Collect, extra_heuristic_problems, named_heuristic
from loo_sim.report.running import StudyOutput, chip_warnings, progress_of, strength_table

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class MissStudy(Study):
    """Counterfactual decision charts, a paired comparison of heuristics, and a sweep over
    the players and the pot carried in (the first of each is the main run)."""

    kind: ClassVar[str] = "miss"
    ARRAYS: ClassVar[dict[str, str]] = {"players": WHOLE, "carried": CARRIED, "heuristics": TEXT}
    SESSION_OPTIONS: ClassVar[tuple[str, ...]] = ("sessions", "session_deals", "burn_in")
    UNSET_KEPT_OUT: ClassVar[tuple[str, ...]] = SESSION_OPTIONS + ("heuristics",)  # out of to_dict while unset
    deals: int = 200_000
    players: list[int] = field(default_factory=list)  # the sweep (default: the preset's)
    carried: list[float | str] = field(default_factory=lambda: [0.0])  # the sweep, or ["session"]
    precision: float | None = None  # stop the heuristics when every 95% half-width is below it
    focal: int = 0  # the seat whose heuristics are compared
    chart_seat: int | None = None  # the seat the chart replays; None = every seat in turn
    chart_scale: float | None = None  # the charts' colour limit in chips (None: from the data); one per report
    # carried = ["session"]: each deal's carried pot is drawn from the pots met in sessions
    # (run.session_pots); None: the documented default of each
    sessions: int | None = None  # sessions played for the distribution (default 2000)
    session_deals: int | None = None  # deals per session (default 50)
    burn_in: int | None = None  # the first deals of each session not counted (default 10)
    heuristics: list[str] = field(default_factory=list)  # compared too, after the shipped ones (e.g. rule:...)

    def __post_init__(self) -> None:
        super().__post_init__()
        if isinstance(self.carried, list):  # 'Session' as --carried takes it
            self.carried = ["session" if isinstance(c, str) and c.strip().lower() == "session" else c
                            for c in self.carried]  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """As every study's, without the session options and the extra heuristics left unset
        (so a study without them keeps the digest it had before they existed)."""
        return {k: v for k, v in super().to_dict().items() if not (k in self.UNSET_KEPT_OUT and v in (None, []))}

    def heuristic_policies(self, rules: Rules) -> tuple[list[str], list[Policy]]:
        """(names, policies) of the heuristics compared: the shipped ones (heuristics_for),
        then ``heuristics`` as written."""
        named = [(h, h) for h in heuristics_for(rules)] + [named_heuristic(h) for h in self.heuristics]
        return [label for label, _ in named], [Policy.parse(text) for _, text in named]

    @property
    def session_pots(self) -> bool:
        """Whether each deal's carried pot is drawn from sessions (``carried = ["session"]``)."""
        return isinstance(self.carried, list) and "session" in self.carried

    def session_settings(self) -> tuple[int, int, int]:
        """(sessions, deals per session, burn-in), the defaults where unset."""
        return (SESSION_POTS_SESSIONS if self.sessions is None else self.sessions,
                SESSION_POTS_DEALS if self.session_deals is None else self.session_deals,
                SESSION_POTS_BURN_IN if self.burn_in is None else self.burn_in)  # fmt: skip

    def player_counts(self, rules: Rules) -> list[int]:
        return [int(n) for n in self.players] or [rules.players]

    def _more_problems(self, p: Collect, rules: Rules | None) -> None:
        p.attempt("deals", lambda: checks.deals(self.deals))
        p.attempt("seed", lambda: checks.seed(self.seed))
        for i, c in enumerate(self.carried):
            if c != "session":
                p.attempt(f"carried[{i}]", lambda c=c: checks.chips("carried", c))
        if self.session_pots and len(self.carried) > 1:
            p.add("carried", "'session' draws every deal's carried pot from sessions, so it is not combined with "
                             "chip values; run them as separate studies")  # fmt: skip
        if self.session_pots:
            p.attempt("sessions", lambda: checks.session_options(*self.session_settings()))  # keyed by the option
        else:
            for name in self.SESSION_OPTIONS:
                if getattr(self, name) is not None:
                    p.add(name, "goes with carried = 'session' (--carried session), which draws each deal's "
                                "carried pot from sessions")  # fmt: skip
        for i, n in enumerate(self.players):
            p.attempt(f"players[{i}]", lambda n=n: checks.whole_number("players", n, 3, 8))
        if rules is not None:
            sizes = [int(n) for n in self.players if str(n).isdigit() and 3 <= int(n) <= 8] or [rules.players]
            for n in sizes:
                p.attempt("policy", lambda n=n: self.table(n))
            p.attempt("focal", lambda: checks.seat("focal", self.focal, sizes[0]))
            if self.chart_seat is not None:
                p.attempt("chart_seat", lambda: checks.seat("chart_seat", self.chart_seat, sizes[0]))
        if self.precision is not None and not (isinstance(self.precision, (int, float)) and self.precision > 0):
            p.add("precision", f"{self.precision!r} is not allowed; allowed a number of chips > 0")
        if rules is not None:
            extra_heuristic_problems(p, "heuristics", self.heuristics, heuristics_for(rules))
        scale = self.chart_scale
        if scale is not None and (isinstance(scale, bool) or not isinstance(scale, (int, float)) or not scale > 0
                                  or scale == float("inf")):  # fmt: skip
            p.add("chart_scale", f"{scale!r} is not allowed; allowed a finite number of chips > 0")

    def table_rules(self, rules: Rules) -> list[Rules]:
        return [rules.replace(players=n) for n in self.player_counts(rules)]

    def cli_args(self) -> list[str]:
        args = [*self.rule_args(), *self.table_args()]
        args += sum((["--players", str(n)] for n in self.players), [])
        args += sum((["--carried", c if isinstance(c, str) else f"{c:g}"] for c in self.carried), [])
        for name in self.SESSION_OPTIONS:
            value = getattr(self, name)
            args += [f"--{name.replace('_', '-')}", str(value)] if value is not None else []
        args += ["--deals", str(self.deals), "--seed", str(self.seed), "--focal", str(self.focal)]
        args += ["--chart-seat", str(self.chart_seat)] if self.chart_seat is not None else []
        args += ["--precision", f"{self.precision:g}"] if self.precision is not None else []
        args += ["--chart-scale", f"{self.chart_scale:g}"] if self.chart_scale is not None else []
        return args + sum((["--heuristic", h] for h in self.heuristics), [])

    def deals_estimate(self) -> float:
        """The chart's deals at each player count and pot, the heuristics' (one run per
        heuristic and the chart's), and the sessions of ``--carried session``."""
        rules = self.base_rules()
        counts = len(self.player_counts(rules))
        runs = counts * max(len(self.carried), 1)
        sessions = 0.0
        if self.session_pots:
            n, d, _ = self.session_settings()
            sessions = float(n) * d * counts
        heuristics = len(heuristics_for(rules)) + len(self.heuristics)
        return float(self.deals) * (runs + heuristics + 1) + sessions

    def run(self, out: str | None, progress: Any, backend: Any) -> StudyOutput:
        return run_miss(self, out, progress, backend)


def run_miss(study: MissStudy, out: str | None, progress, backend) -> StudyOutput:
    from loo_sim.analysis.miss import best_actions, chart_table, heuristic_table, sweep_frames
    from loo_sim.analysis.miss_text import miss_summary, pot_words
    from loo_sim.report.kinds.miss_figures import miss_figures
    from loo_sim.run.decisions import decisions, heuristics

    base = study.base_rules()
    player_counts = study.player_counts(base)
    pots = [0.0] if study.session_pots else [float(c) for c in study.carried] or [0.0]
    main_n, main_pot = player_counts[0], pots[0]
    rules, table = base.replace(players=main_n), study.table(main_n)
    chart_seats = None if study.chart_seat is None else [study.chart_seat]
    info: dict[str, Any] = {"rules": rules.to_dict(), "players": player_counts,
                            "carried": ["session"] if study.session_pots else pots}  # fmt: skip
    dists: dict[int, Any] = {}  # players -> the session distribution of the carried pot
    if study.session_pots:
        stopped = _session_pots(study, base, player_counts, dists, info, progress, backend)
        if stopped is not None:
            return stopped
    main_dist = dists.get(main_n)
    chart_res = decisions(rules, table, study.deals, study.seed, main_pot, focal=chart_seats,
                          progress=progress_of(progress, "chart deals"), backend=backend, pots=main_dist)  # fmt: skip
    if chart_res.partial:  # Ctrl-C: stop here, the stages after it do not run
        return _partial_miss(study, {"chart": chart_table(chart_res)}, info, "chart deals", chart_res.deals)
    names, candidates = study.heuristic_policies(rules)
    names, candidates = [*names, "chart (best action of this chart)"], [*candidates, Policy("chart")]
    try:
        heur = heuristics(rules, table, study.focal, candidates, names, study.deals, study.seed, main_pot,
                          chart=best_actions(chart_res), precision=study.precision,
                          progress=progress_of(progress, "heuristic deals"), backend=backend,
                          pots=main_dist)  # fmt: skip
    except KeyboardInterrupt:  # before its first round: the chart is kept
        return _partial_miss(study, {"chart": chart_table(chart_res)}, info, "heuristic deals", 0)
    if heur.partial:
        tables = {"chart": chart_table(chart_res), "heuristics": heuristic_table(heur)}
        return _partial_miss(study, tables, info, "heuristic deals", heur.deals)
    runs = []
    for n in player_counts:
        for pot in pots:
            if (n, pot) == (main_n, main_pot):
                runs.append(chart_res)
                continue
            seats = None if chart_seats is None else [s for s in chart_seats if s < n]
            stage = f"sweep deals ({n} players, {'session pots' if study.session_pots else f'pot {pot:g}'})"
            try:
                run = decisions(base.replace(players=n), study.table(n), study.deals, study.seed, pot, focal=seats,
                                backend=backend, pots=dists.get(n))  # fmt: skip
            except KeyboardInterrupt:  # before its first round
                run = None
            if run is None or run.partial:
                tables = {"chart": chart_table(chart_res), "heuristics": heuristic_table(heur)}
                return _partial_miss(study, tables, info, stage, 0 if run is None else run.deals)
            runs.append(run)
    shares, sweep_classes = sweep_frames(runs)
    tables = {"chart": chart_table(chart_res)}
    if main_dist is not None:
        tables["session_pots"] = main_dist.table()
    charts = [("chart", main_n, tables["chart"])]  # one per player count, at the main pot
    for n in player_counts[1:]:
        res = next(r for r in runs if r.rules.players == n and (r.pots is not None or r.carried == main_pot))
        tables[f"chart-{n}"] = chart_table(res)
        if n in dists:
            tables[f"session_pots-{n}"] = dists[n].table()
        charts.append((f"chart-{n}", n, tables[f"chart-{n}"]))
    tables |= {"heuristics": heuristic_table(heur), "sweep": shares, "sweep_classes": sweep_classes}
    shown = pot_words(chart_res) if study.session_pots else main_pot
    plays = {p.play_name for p in table}
    label = study.preset if plays == {"basic"} else f"{study.preset}, card play {', '.join(sorted(plays))}"
    figures = miss_figures(label, charts, shown, study.focal, len(names), heur.deals, tables,
                           scale=study.chart_scale)  # fmt: skip
    text = miss_summary(study.preset, chart_res, tables["chart"], heur, tables["heuristics"], shares,
                        command(study, out), charts=[(name, n) for name, n, _ in charts])  # fmt: skip
    info |= {"chart_deals": chart_res.deals, "heuristic_deals": heur.deals,
             "strength_tables": _strength_tables(base, player_counts, study, candidates)}  # fmt: skip
    largest = [d.largest for d in dists.values()]
    warnings = [w for n in player_counts for w in chip_warnings(base.replace(players=n), pots + largest)]
    return StudyOutput(study, tables, figures, text, info, list(dict.fromkeys(warnings)))


def _pots_name(players: int, main: int) -> str:
    return "session_pots" if players == main else f"session_pots-{players}"


def _session_pots(study: MissStudy, base: Rules, player_counts: list[int], dists: dict, info: dict, progress,
                  backend) -> StudyOutput | None:  # fmt: skip
    """``--carried session``: the distribution of the carried pot in sessions at each player
    count into ``dists`` (and how it was obtained into ``info``); a partial output when
    Ctrl-C stopped it."""
    from loo_sim.run.session_pots import session_pots

    sessions, deals, burn_in = study.session_settings()
    info["session_pots"] = {"sessions": sessions, "session_deals": deals, "burn_in": burn_in,
                            "seed": study.seed, "deals_counted": {}}  # fmt: skip
    for n in player_counts:
        stage = f"sessions ({n} players)" if len(player_counts) > 1 else "sessions"
        try:
            dist = session_pots(base.replace(players=n), study.table(n), sessions, deals, burn_in, study.seed,
                                progress=progress_of(progress, stage), backend=backend)  # fmt: skip
        except KeyboardInterrupt:  # before its first round
            dist = None
        if dist is None or dist.partial:
            cut = {} if dist is None or not dist.counted else {n: dist}
            tables = {_pots_name(m, player_counts[0]): d.table() for m, d in (dists | cut).items()}
            return _partial_miss(study, tables, info, stage, 0 if dist is None else dist.sessions, sessions, "sessions")
        dists[n] = dist
        info["session_pots"]["deals_counted"][str(n)] = dist.counted
    return None


def _partial_miss(study: MissStudy, tables: dict[str, pd.DataFrame], info: dict[str, Any], stage: str,
                  done: int, total: int | None = None, unit: str = "deals") -> StudyOutput:  # fmt: skip
    """A miss study Ctrl-C cut in ``stage``: the tables of the stages that finished (and
    the one cut, when some of it did), no charts, and a summary that says so (``total``
    ``unit`` of that stage: the study's deals by default)."""
    total = study.deals if total is None else total
    lines = [f"# Miss study ({study.preset}): PARTIAL", "",
             f"Interrupted in the {stage} after {done:,} of {total:,} {unit}; the stages after it did not run.",
             "", "Tables written: " + (", ".join(f"{t}.csv" for t in tables) or "none") + "."]  # fmt: skip
    info = info | {"stage_interrupted": stage}
    return StudyOutput(study, tables, {}, "\n".join(lines) + "\n", info, partial=True, done=done,
                       total=total, unit=stage)  # fmt: skip



def _strength_tables(base: Rules, player_counts: list[int], study, candidates) -> dict[str, dict | None]:
    """The strength table of each player count of a miss run (its chart and heuristics)."""
    return {str(n): strength_table(base.replace(players=n), [*study.table(n), *candidates]) for n in player_counts}


