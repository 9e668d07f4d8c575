"""The variants kind (``loo-sim variants``, a report's ``kind = "variants"``): rule sets side
by side on the same deals (deal k of the seed for every row), each compared with a baseline
row deal by deal (``kernel/variants.py``, ``run/variants.py``, ``analysis/variants.py``,
``analysis/variants_text.py``, ``plots/variants.py``); with ``sessions``, every row plays
sessions (R10) on the same decks, and the clean-pot table beside them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from loo_sim.base import checks
from loo_sim.base.config import VARIANT_BATCHES
from loo_sim.base.errors import LooError
from loo_sim.game.rules import PRESETS, Rules, split_option
from loo_sim.report.command import command, describe_policies
from loo_sim.report.kinds.base import Study
from loo_sim.report.kinds.fields import OPTIONS_RULE, SCALAR, SCALAR_RULE, TABLE, Collect, preset_name, shown, type_name
from loo_sim.report.running import StudyOutput, figure, progress_of, threads

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class VariantsStudy(Study):
    """Rule sets side by side on the same deals (deal k of the seed for every row), each
    compared with a baseline row deal by deal."""

    kind: ClassVar[str] = "variants"
    ARRAYS: ClassVar[dict[str, str]] = {"rows": TABLE}
    CLEAN_DEALS: ClassVar[int] = 100_000  # deals, without sessions, when not given
    SESSION_DEALS: ClassVar[int] = 40  # deals per session, with sessions, when not given
    deals: int | None = None  # without sessions: the deals every row plays
    carried: float = 0.0  # chips carried into every deal
    rows: list[dict[str, Any]] = field(default_factory=list)  # {name, preset, rules}
    baseline: str | None = None  # the row the others are compared with (default: the first)
    sessions: int | None = None  # in sessions (R10): sessions per row
    session_deals: int | None = None  # in sessions: deals per session
    burn_in: int | None = None  # deals dropped at the start of each session (default: run.variants.default_burn_in)

    @property
    def in_sessions(self) -> bool:
        return self.sessions is not None

    def deals_per_session(self) -> int:
        return self.SESSION_DEALS if self.session_deals is None else int(self.session_deals)

    def clean_deals(self) -> int:
        """The deals of the clean-pot table: ``deals``, or in sessions as many deals as the
        sessions play (sessions x session_deals), each from a clean pot as a session's first deal."""
        if self.in_sessions:
            return min(int(self.sessions) * self.deals_per_session(), checks.MAX_DEALS)
        return self.CLEAN_DEALS if self.deals is None else int(self.deals)

    def _more_problems(self, p: Collect, rules: Rules | None) -> None:
        p.attempt("seed", lambda: checks.seed(self.seed))
        self._policy_problems(p, rules)
        if self.in_sessions and self.deals is not None:
            p.add("deals", "with sessions, the deals of each session are session_deals (--session-deals); deals "
                           "counts the deals of a run without sessions")  # fmt: skip
        elif self.deals is not None:
            p.attempt("deals", lambda: checks.deals(self.deals))
        if not self.in_sessions and self.session_deals is not None:
            p.add("session_deals", "session_deals goes with sessions (the deals of each session)")
        p.attempt("carried", lambda: checks.chips("carried", self.carried))
        if self.in_sessions:
            p.attempt("sessions", lambda: checks.sessions(self.sessions))
            deals = p.attempt("session_deals", lambda: checks.session_deals(self.deals_per_session()))
            if self.burn_in is not None and deals is not None:
                p.attempt("burn_in", lambda: checks.burn_in(self.burn_in, deals))
            if self.carried:
                p.add("carried", "sessions start from a clean pot (R10); carried goes with deals from a chosen pot")
        elif self.burn_in is not None:
            p.add("burn_in", "burn_in goes with sessions (deals dropped at the start of each session)")
        if not self.rows:
            p.add("rows", "a variants study needs rows, e.g. rows = [{name = 'limited', preset = 'limited'}]")
        names = [str(r.get("name", "")) for r in self.rows]
        for i, row in enumerate(self.rows):
            if not row.get("name"):
                p.add(f"rows[{i}].name", "each row needs a name")
            elif not isinstance(row["name"], str):
                p.add(f"rows[{i}].name", f"{shown(row['name'])} is {type_name(row['name'])}; expected a string")
            unknown = set(row) - {"name", "preset", "rules"}
            if unknown:
                p.add(f"rows[{i}]", f"unknown keys {sorted(unknown)}; allowed name, preset, rules")
            row_rules = row.get("rules", {})
            if not isinstance(row_rules, dict):
                p.add(f"rows[{i}].rules", f"{shown(row_rules)} is {type_name(row_rules)}; {OPTIONS_RULE}")
                continue
            bad = [k for k, v in row_rules.items() if not isinstance(v, SCALAR)]
            for k in bad:
                p.add(f"rows[{i}].rules.{k}", f"{shown(row_rules[k])} is {type_name(row_rules[k])}; {SCALAR_RULE}")
            if not bad:
                p.attempt(f"rows[{i}]", lambda row=row: self.row_rules(row))
        if len(set(names)) != len(names):
            p.add("rows", "row names must differ")
        if self.baseline is not None and self.baseline not in names:
            p.add("baseline", f"{self.baseline!r} is not a row name; allowed {', '.join(names)}")

    def row_rules(self, row: dict[str, Any]) -> Rules:
        preset = preset_name(row.get("preset", self.preset))
        return Rules.preset(preset, **{**self.rules, **row.get("rules", {})})

    def drivers(self) -> tuple[str, ...]:
        """In sessions, the session driver and the clean-pot one."""
        own = ("variant_sessions", "variants") if self.in_sessions else ("variants",)
        return (*own, "search") if self.searches() else own

    def table_rules(self, rules: Rules) -> list[Rules]:
        return [self.row_rules(row) for row in self.rows]

    def cli_args(self) -> list[str] | None:
        rows = [row_text(row, self.preset) for row in self.rows]
        if None in rows:
            return None
        args = [*self.rule_args(), *self.table_args()]
        args += sum((["--row", row] for row in rows), [])
        args += ["--baseline", self.baseline] if self.baseline is not None else []
        if self.in_sessions:
            args += ["--sessions", str(self.sessions), "--session-deals", str(self.deals_per_session())]
            args += ["--burn-in", str(self.burn_in)] if self.burn_in is not None else []
        else:
            args += ["--deals", str(self.clean_deals()), "--carried", f"{self.carried:g}"]
        return args + ["--seed", str(self.seed)]

    def deals_estimate(self) -> float:
        """Every row plays the deals; in sessions, the sessions' deals and as many clean-pot ones."""
        per_row = 2 * self.sessions * self.deals_per_session() if self.in_sessions else self.clean_deals()
        return float(per_row) * max(len(self.rows), 1)

    def run(self, out: str | None, progress: Any, backend: Any) -> StudyOutput:
        from loo_sim.analysis.variants import variant_rows
        from loo_sim.analysis.variants_text import variants_summary
        from loo_sim.run.variants import VariantRow, run_variants

        rows = []
        for row in self.rows:
            rules = self.row_rules(row)
            rows.append(VariantRow(row["name"], rules, self.table(rules.players)))
        baseline = self.baseline or self.rows[0]["name"]
        if self.in_sessions:
            return _run_sessions(self, rows, baseline, progress, backend)
        res = run_variants(rows, baseline, self.clean_deals(), self.seed, self.carried, threads=threads(),
                           batches=VARIANT_BATCHES, progress=progress_of(progress), backend=backend)  # fmt: skip
        table = variant_rows(res)
        text = variants_summary(table, baseline, self.seed, self.carried)
        info = {
            "rows": [{"name": r.name, "rules": r.rules.to_dict(), "policies": [str(p) for p in r.policies]}
                     for r in rows],  # fmt: skip
            "baseline": baseline,
            "deals_done": res.deals_done,
            "pairing": "every row plays the same deals: deal k on the deck shuffled from (seed, k), dealt by seat k "
            "mod players; differences against the baseline are paired deal by deal",
            "elapsed_s": round(res.elapsed_s, 3),
        }
        figures = variants_figures(table, baseline, describe_policies(rows[0].policies))
        return StudyOutput(self, {"variants": table}, figures, text, info, partial=res.partial,
                           done=res.deals_done, total=self.clean_deals())  # fmt: skip


ROW_FORM = "NAME=PRESET[,KEY=VALUE...]"  # a variants row as the CLI's --row gives it
ROW_EXAMPLE = "lim-ante2=limited,ante=2"


def parse_row(item: str, key: str) -> dict[str, Any]:
    """One row of a variants study from its text (the CLI's ``--row``): ``NAME=PRESET``, then
    ``KEY=VALUE`` rule overrides after commas (``lim-ante2=limited,ante=2``); a lone
    ``PRESET`` is the row of that preset named after it. The row as a config writes it,
    ``{name, preset[, rules]}``; errors carry ``key`` and start with the item."""
    head, *rest = str(item).split(",")
    name, sep, preset = head.partition("=")
    name, preset = name.strip(), (preset if sep else name).strip()

    def bad(detail: str) -> LooError:
        return LooError(f"{item!r}: {detail}; expected {ROW_FORM}, e.g. {ROW_EXAMPLE}", key=key)

    if not name:
        raise bad("no name before '='")
    if not preset:
        raise bad("no preset after '='")
    if preset.lower() not in PRESETS:
        raise LooError(f"{item!r}: {preset!r} is not a preset; allowed {', '.join(PRESETS)} (any case)", key=key)
    rules: dict[str, str] = {}
    for part in rest:
        try:
            option, value = split_option(part, key)
        except LooError as e:  # 'ante': expected key=value, ... or 'x=1': unknown option 'x'; allowed ...
            raise LooError(f"{item!r}: {e.detail}", key=key) from None
        if option in rules:
            raise bad(f"{option} is given twice")
        rules[option] = value
    return {"name": name, "preset": preset.lower(), **({"rules": rules} if rules else {})}


def row_text(row: dict[str, Any], preset: str) -> str | None:
    """A row as ``parse_row`` reads it back (``preset``: the study's, for a row without one);
    None when its name cannot be spelled so (it holds ',' or '=')."""
    name = str(row.get("name", ""))
    if not name.strip() or name != name.strip() or "," in name or "=" in name:
        return None
    options = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in row.get("rules", {}).items()]
    head = str(row.get("preset", preset))
    items = [head if head.lower() == name and options == [] else f"{name}={head}", *options]
    return ",".join(items)


def _run_sessions(study: VariantsStudy, rows, baseline: str, progress, backend) -> StudyOutput:
    """Variants in sessions (R10): the session table, its stationarity check and pot
    distribution, then the clean-pot table (every deal from a clean pot, as the first deal
    of a session plays) on as many independent deals as the sessions played."""
    from loo_sim.analysis.variants import session_pots, session_rows, session_windows, variant_rows
    from loo_sim.analysis.variants_text import variant_sessions_summary
    from loo_sim.run.variants import run_variant_sessions, run_variants

    sres = run_variant_sessions(rows, baseline, study.sessions, study.deals_per_session(), study.burn_in, study.seed,
                                threads=threads(), progress=progress_of(progress, "sessions"),
                                backend=backend)  # fmt: skip
    clean = None
    if not sres.partial:  # Ctrl-C in the sessions: stop there
        try:
            clean = run_variants(rows, baseline, study.clean_deals(), study.seed, 0.0, threads=threads(),
                                 batches=VARIANT_BATCHES, progress=progress_of(progress), backend=backend)  # fmt: skip
        except KeyboardInterrupt:  # before its first round finished: the sessions are kept
            clean = None
    partial = sres.partial or clean is None or clean.partial
    tables = {
        "sessions": session_rows(sres),
        "session_windows": session_windows(sres),
        "session_pots": session_pots(sres),
    }
    clean_table = variant_rows(clean) if clean is not None else None
    if clean_table is not None:
        tables["variants"] = clean_table
    text = variant_sessions_summary(sres, tables, clean_table, command(study))
    inexact = tables["sessions"].query("metric == 'inexact_sessions' and value > 0")
    warnings = [f"{r.row}: {r.value:.1%} of sessions passed 2**53 chips; amounts past that are not exact (R3)"
                for r in inexact.itertuples(index=False)]  # fmt: skip
    beyond = tables["session_windows"].query("beyond_3_se")
    if len(beyond):
        warnings.append(f"the late window differs from the early one by more than 3 SE in {len(beyond)} of "
                        f"{len(tables['session_windows'])} comparisons (see session_windows.csv): the burn-in may be "
                        "too short, or the rule set has no steady state")  # fmt: skip
    info = {
        "rows": [{"name": r.name, "rules": r.rules.to_dict(), "policies": [str(p) for p in r.policies]} for r in rows],
        "baseline": baseline,
        "sessions_done": sres.sessions,
        "deals_per_session": sres.deals,
        "burn_in": sres.burn_in,
        "window": sres.window,
        "clean_deals_done": clean.deals_done if clean is not None else 0,
        "pairing": "every row plays the same sessions: deal j of session i on the deck shuffled from (seed, i, j), "
        "the first dealer drawn from (seed, i, -1), the dealer rotating; differences against the baseline are "
        "paired session by session. The clean-pot table: deal k on the deck from (seed, k), dealt by seat k mod "
        "players, paired deal by deal",
        "elapsed_s": round(sres.elapsed_s + (clean.elapsed_s if clean is not None else 0.0), 3),
    }
    figures = variant_sessions_figures(tables, sres, clean_table, describe_policies(rows[0].policies))
    done, total, unit = (sres.sessions, study.sessions, "sessions") if sres.partial or clean is None else \
        (clean.deals_done, study.clean_deals(), "deals")  # fmt: skip
    return StudyOutput(study, tables, figures, text, info, warnings, partial=partial, done=done, total=total,
                       unit=unit)  # fmt: skip


def variants_figures(table: pd.DataFrame, baseline: str, policies: str, scope: str = "") -> dict[str, Any]:
    """The headline metrics that differ between the rule sets, each against ``baseline``
    (``scope``: said in the title, e.g. that every deal is a session's first)."""
    deals = int(table.n.max())
    title = f"Rule sets against {baseline}{scope}: the same {deals:,} deals for every row, {policies}"
    return {"variants": _variant_table_figure(table, baseline, title, "deal")}


def _variant_table_figure(table: pd.DataFrame, baseline: str, title: str, unit: str, label=None):
    """One :func:`~loo_sim.plots.variants.variant_table`, its key below, sized to its cells."""
    import textwrap

    from loo_sim.plots.variants import differing_metrics, variant_table, variant_table_key

    columns = max(len(differing_metrics(table)), 1)
    width = 2.4 + 1.5 * columns
    fig = figure((width, 2.6 + 0.6 * int(table.row.nunique())))
    variant_table(fig.add_subplot(), table, baseline, label=label, unit=unit)
    fig.suptitle("\n".join(textwrap.wrap(title, int(width * 11))), fontsize="medium")
    fig.supxlabel("\n".join(textwrap.wrap(variant_table_key(baseline, unit), int(width * 15))), fontsize="small")
    return fig


def variant_sessions_figures(tables: dict[str, pd.DataFrame], res, clean: pd.DataFrame | None,
                             policies: str) -> dict[str, Any]:  # fmt: skip
    """Variants in sessions: the headline metrics that differ between the rule sets, each
    against the baseline (``sessions``); how far the pot at the start of a measured deal
    reaches, per rule set (``session_pots``); the clean-pot figure (``variants``, the first
    deal of a session) when it ran."""
    import pandas as pd

    from loo_sim.analysis.variants import session_metric_label
    from loo_sim.plots.pots import largest_pot_chart

    baseline = res.baseline
    rows = len(res.names)
    measured = f"deals {res.burn_in + 1}-{res.deals} of each session"
    title = (f"In sessions: {res.sessions:,} sessions of {res.deals} deals for every rule set on the same decks, "
             f"{measured} measured, {policies}")  # fmt: skip
    fig = _variant_table_figure(tables["sessions"], baseline, title, "session", label=session_metric_label)
    out = {"sessions": fig}
    pots = tables["session_pots"]
    ccdf = []
    for name in res.names:
        t = pots[pots.row == name].sort_values("pot")
        at_least = t["share"][::-1].cumsum()[::-1] / max(float(t["share"].sum()), 1e-300)
        ccdf.append(pd.DataFrame({"arm": name, "pot": t["pot"].to_numpy(), "share_at_least": at_least.to_numpy()}))
    fig = figure((9, 1.9 + 0.6 * rows))
    ax = fig.add_subplot()
    title = f"Pot at the start of a deal in sessions ({measured})"
    largest_pot_chart(ax, pd.concat(ccdf, ignore_index=True), title=title, counted="measured deals",
                      quantity="pot at the start of a deal")  # fmt: skip
    out["session_pots"] = fig
    if clean is not None:
        out.update(variants_figures(clean, baseline, policies, scope=" on the first deal of a session (a clean pot)"))
    return out
