"""The project's own documents (docs/rules.md, docs/policies.md, docs/design.md).

Every section that the package, the README, the guide, the tests, the scripts or a
committed report cites (R1 … R13 with R9b and R9c, P1 … P5, "DESIGN.md property N")
exists as a heading of the right document; every option, value, preset and policy family
of the code is documented; what the documents present as settable is settable, and what
is specified but not implemented says so. The guide's links are checked by its strict
MkDocs build (tests/test_docs_site.py).
"""

from __future__ import annotations

import dataclasses
import re
from enum import Enum
from pathlib import Path

from loo_sim.base.errors import LooError
from loo_sim.game import policy as policy_mod
from loo_sim.game.record import DealRecord
from loo_sim.game.rules import OPTION_NAMES, PRESETS, Rules

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
RULES_MD, POLICIES_MD, DESIGN_MD = DOCS / "rules.md", DOCS / "policies.md", DOCS / "design.md"
NOT_YET = "not yet available"

# ---- reading markdown ------------------------------------------------------------------
_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def prose_lines(text: str) -> list[str]:
    """The lines of a markdown text outside fenced code blocks."""
    out, fenced = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            out.append(line)
    return out


def headings(path: Path) -> list[tuple[int, str]]:
    """(level, text) of every heading of a markdown file."""
    found = []
    for line in prose_lines(path.read_text(encoding="utf-8")):
        m = _HEADING.match(line)
        if m:
            found.append((len(m.group(1)), m.group(2)))
    return found


def sections(path: Path) -> dict[str, str]:
    """Level-2 heading text -> the text under it (up to the next level-2 heading)."""
    out: dict[str, str] = {}
    current, lines = None, []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = _HEADING.match(line)
        if m and len(m.group(1)) == 2:
            if current is not None:
                out[current] = "\n".join(lines)
            current, lines = m.group(2), []
        elif current is not None:
            lines.append(line)
    if current is not None:
        out[current] = "\n".join(lines)
    return out


def section_of(path: Path, section_id: str) -> str:
    for title, body in sections(path).items():
        if title.split(".")[0] == section_id:
            return body
    raise AssertionError(f"{path.name} has no section {section_id}")


def code_spans(text: str) -> list[str]:
    return re.findall(r"`([^`\n]+)`", text)


def span_tokens(text: str) -> set[str]:
    return {tok for span in code_spans(text) for tok in re.findall(r"[\w-]+", span)}


# ---- the section ids the documents define ------------------------------------------------
_SECTION_ID = {
    RULES_MD: re.compile(r"^(R\d+[a-z]?)\.\s"),
    POLICIES_MD: re.compile(r"^(P\d+[a-z]?)\.\s"),
    DESIGN_MD: re.compile(r"^Property (\d+)\.\s"),
}


def defined_ids(path: Path) -> list[str]:
    pattern = _SECTION_ID[path]
    ids = []
    for _, text in headings(path):
        m = pattern.match(text)
        if m:
            ids.append(m.group(1) if path is not DESIGN_MD else f"property {m.group(1)}")
    return ids


def all_defined() -> set[str]:
    return {i for path in _SECTION_ID for i in defined_ids(path)}


def test_documents_exist():
    for path in _SECTION_ID:
        assert path.is_file(), f"{path.relative_to(ROOT)} is missing"


def test_stable_sections_are_headings_once():
    """The sections the specification numbers are all there, each exactly once."""
    expected = {
        RULES_MD: [f"R{i}" for i in range(1, 14)] + ["R9b", "R9c"],
        POLICIES_MD: [f"P{i}" for i in range(1, 6)],
        DESIGN_MD: [f"property {i}" for i in range(1, 9)],
    }
    for path, ids in expected.items():
        found = defined_ids(path)
        assert sorted(set(found)) == sorted(found), f"{path.name}: a section heading repeats: {found}"
        missing = sorted(set(ids) - set(found), key=ids.index)
        assert not missing, f"{path.name} lacks the section heading(s) {missing}"


# ---- citations ------------------------------------------------------------------------
# R7, R9b, P3; ranges R2-R9, P1-P3, R4–R9 (every number between them is cited).
_RULE_CITE = re.compile(r"(?<![\w.])([RP])(\d+)([a-z]?)(?:\s?[-–]\s?\1?(\d+))?(?!\w)")
# DESIGN.md property 3, DESIGN.md properties 2-5, DESIGN.md 2-5, design property 3
_DESIGN_CITE = re.compile(
    r"\bdesign(?:\.md)?:?\s+propert(?:y|ies)\s+(\d+)(?:\s?[-–]\s?(\d+))?|\bDESIGN\.md\s+(\d+)(?:\s?[-–]\s?(\d+))?",
    re.IGNORECASE,
)


def cited_ids(text: str) -> set[str]:
    ids = set()
    for kind, first, letter, last in _RULE_CITE.findall(text):
        if last:
            ids.update(f"{kind}{k}" for k in range(int(first), int(last) + 1))
        else:
            ids.add(f"{kind}{first}{letter}")
    for a, b, c, d in _DESIGN_CITE.findall(text):
        first, last = (a, b) if a else (c, d)
        ids.update(f"property {k}" for k in range(int(first), int(last or first) + 1))
    return ids


def citing_files() -> list[Path]:
    files = sorted((ROOT / "loo_sim").rglob("*.py"))
    files += sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "scripts").rglob("*.py"))
    files += [ROOT / "README.md"] + sorted((ROOT / "reports").rglob("*.md")) + sorted(DOCS.rglob("*.md"))
    return [f for f in files if f != Path(__file__).resolve()]


def test_citation_parser():
    text = "R7, R9b (P3); RULES.md R2-R9 and P1–P3; DESIGN.md property 3, DESIGN.md 2-5, x.R4 R14"
    assert cited_ids(text) == (
        {"R7", "R9b", "P3", "R14"}
        | {f"R{k}" for k in range(2, 10)}
        | {"P1", "P2"}
        | {"property 3", "property 2", "property 4", "property 5"}
    )
    assert cited_ids("DESIGN.md properties 3-5") == {"property 3", "property 4", "property 5"}
    assert cited_ids("PR12 R2D2 0x1P3") == set()


def test_every_cited_section_is_a_heading():
    defined = all_defined()
    missing: dict[str, list[str]] = {}
    for path in citing_files():
        for cited in cited_ids(path.read_text(encoding="utf-8")):
            if cited not in defined:
                missing.setdefault(cited, []).append(str(path.relative_to(ROOT)))
    assert not missing, "cited but no heading in docs/: " + "; ".join(
        f"{k} (in {', '.join(v[:3])}{', ...' if len(v) > 3 else ''})" for k, v in sorted(missing.items())
    )


def test_citations_are_found_where_expected():
    """The scan sees the citations it is meant to see (it would pass vacuously otherwise)."""
    cited = set()
    for path in citing_files():
        cited |= cited_ids(path.read_text(encoding="utf-8"))
    for must in ("R1", "R7", "R9b", "R10", "P1", "P5", "property 2", "property 7"):
        assert must in cited, must


# ---- options, values, presets, families --------------------------------------------------
def option_values() -> dict[str, list[str]]:
    """Each enum option -> its allowed values, as the code spells them."""
    out = {}
    for f in dataclasses.fields(Rules):
        default = getattr(Rules(), f.name)
        if isinstance(default, Enum):
            out[f.name] = [e.value for e in type(default)]
    return out


def test_every_option_and_value_is_in_rules_md():
    tokens = span_tokens(RULES_MD.read_text(encoding="utf-8"))
    missing = [name for name in OPTION_NAMES if name not in tokens]
    assert not missing, f"docs/rules.md does not name the option(s) {missing} in `code`"
    for name, values in option_values().items():
        absent = [v for v in values if v not in tokens]
        assert not absent, f"docs/rules.md does not give {name}'s value(s) {absent} in `code`"


def test_every_preset_is_in_rules_md():
    text = section_of(RULES_MD, "R11")
    missing = [p for p in PRESETS if not re.search(rf"(?<![\w-]){re.escape(p)}(?![\w-])", text)]
    assert not missing, f"docs/rules.md R11 does not name the preset(s) {missing}"


def test_every_policy_family_is_in_policies_md():
    tokens = span_tokens(POLICIES_MD.read_text(encoding="utf-8"))
    for group in ("DECLARE_FAMILIES", "PLAY_FAMILIES", "EXCHANGE_FAMILIES", "CALIBRATED"):
        missing = [f for f in getattr(policy_mod, group) if f not in tokens]
        assert not missing, f"docs/policies.md does not name the {group} {missing} in `code`"


# ---- what the documents present as settable -----------------------------------------------
_SETTING = re.compile(r"^(\w+) = (.+)$")


def settings(text: str) -> list[tuple[str, list[str]]]:
    """`name = value` and `name = a | b` code spans of a text."""
    out = []
    for span in code_spans(text):
        m = _SETTING.match(span.strip())
        if m:
            out.append((m.group(1), [v.strip() for v in m.group(2).split("|")]))
    return out


def unavailable(pairs: list[tuple[str, list[str]]]) -> list[str]:
    """The settings that `Rules` refuses (an unknown option or value); a single capital
    letter is a placeholder (`bankroll = B`)."""
    bad = []
    for name, values in pairs:
        for value in values:
            if re.fullmatch(r"[A-Z]", value):
                continue
            try:
                Rules.coerce_option(name, value)
            except LooError:
                bad.append(f"{name} = {value}")
    return bad


def test_rules_md_presents_only_real_settings_outside_r9c():
    text = RULES_MD.read_text(encoding="utf-8")
    r9c = section_of(RULES_MD, "R9c")
    pairs = [p for title, body in sections(RULES_MD).items() if not title.startswith("R9c.") for p in settings(body)]
    assert len(pairs) > 20, "the scan of `name = value` spans found too little"
    bad = unavailable(pairs)
    assert not bad, f"docs/rules.md presents settings loo_sim refuses (outside R9c): {bad}"
    # the names R9c brings in, where the code lacks them, appear nowhere else in the file
    new_names = {n for n, _ in settings(r9c) if n not in OPTION_NAMES}
    outside = text.replace(r9c, "")
    leaked = sorted(n for n in new_names if re.search(rf"\b{n}\b", outside))
    assert not leaked, f"docs/rules.md names options outside R9c that loo_sim does not have: {leaked}"


def test_unimplemented_rules_are_marked():
    """R9c says plainly that it is not yet available exactly while Rules lacks its options."""
    r9c = section_of(RULES_MD, "R9c")
    bad = unavailable(settings(r9c))
    marked = NOT_YET in r9c.lower()
    if bad:
        assert marked, f"docs/rules.md R9c specifies {bad}, which loo_sim refuses, but does not say {NOT_YET!r}"
    else:
        assert not marked, f"every R9c setting is now accepted by Rules: drop {NOT_YET!r} from docs/rules.md R9c"


_P3_ITEM = re.compile(r"^- `([\w-]+)(?::[^`]*)?`[^\n]*(?:\n  [^\n]*)*", re.MULTILINE)
# P3 families the shared spec lists that loo_sim does not offer (each must say NOT_YET);
# empty since issue #16 added flush-aware
UNIMPLEMENTED_FAMILIES: tuple[str, ...] = ()


def family_marks(p3: str) -> list[str]:
    """What is wrong with the marks of a P3 text: a family loo_sim offers marked
    NOT_YET, or one it lacks not marked so."""
    problems = []
    known = policy_mod.DECLARE_FAMILIES + policy_mod.PLAY_FAMILIES + policy_mod.EXCHANGE_FAMILIES
    for item in _P3_ITEM.finditer(p3):
        family, body = item.group(1), item.group(0).lower()
        if family in known and NOT_YET in body:
            problems.append(f"docs/policies.md P3 marks {family!r} as {NOT_YET!r}, but loo_sim has it")
        if family not in known and NOT_YET not in body:
            problems.append(f"docs/policies.md P3 lists {family!r}, which loo_sim lacks, without {NOT_YET!r}")
    return problems


def test_each_r9c_option_says_whether_it_is_available():
    """Each item of R9c that opens with an option's setting says "not yet available"
    exactly while Rules refuses that setting (options land one at a time, issue #16)."""
    r9c = section_of(RULES_MD, "R9c")
    items = re.findall(r"^(\s*)- (`[^`]+`[^\n]*(?:\n\1  [^\n]*)*)", r9c, re.MULTILINE)
    checked = 0
    for _, item in items:
        opening = settings(code_spans(item)[0].join("``"))
        if not opening:
            continue
        checked += 1
        bad = unavailable(opening)
        marked = NOT_YET in " ".join(item.lower().split())
        assert marked == bool(bad), f"docs/rules.md R9c: {item[:60]!r}: refused {bad}, marked {marked}"
    assert checked >= 9


def test_unimplemented_families_are_marked():
    """Each declaration family P3 lists is either one loo_sim offers or marked not available."""
    p3 = section_of(POLICIES_MD, "P3")
    listed = _P3_ITEM.findall(p3)
    assert set(policy_mod.DECLARE_FAMILIES) <= set(listed)
    marked = {m.group(1) for m in _P3_ITEM.finditer(p3) if NOT_YET in m.group(0).lower()}
    assert marked == set(UNIMPLEMENTED_FAMILIES), f"docs/policies.md P3 marks {sorted(marked)} as {NOT_YET!r}"
    assert not set(UNIMPLEMENTED_FAMILIES) & set(policy_mod.DECLARE_FAMILIES)
    assert family_marks(p3) == []


def test_family_marks_catch_both_mistakes():
    # the check above has nothing unimplemented to look at today: show it still bites
    made_up = "- `straight-aware`: plays a straight.\n- `basic`: as in P2, **not yet available**.\n"
    assert family_marks(made_up) == [
        f"docs/policies.md P3 lists 'straight-aware', which loo_sim lacks, without {NOT_YET!r}",
        f"docs/policies.md P3 marks 'basic' as {NOT_YET!r}, but loo_sim has it",
    ]
    assert family_marks("- `straight-aware`: **specified, not yet available in loo_sim**.\n") == []


def test_option_help_cites_documented_sections():
    from loo_sim.game.rules import OPTION_HELP

    defined = all_defined()
    for name, help_text in OPTION_HELP.items():
        assert cited_ids(help_text) <= defined, (name, help_text)


# ---- what the documents point at ----------------------------------------------------
def test_docs_do_not_point_at_shared():
    for path in sorted(DOCS.rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        assert "../shared" not in text and "shared/" not in text, f"{path.name} refers to ../shared"


def test_readme_links_the_docs_not_the_specification():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in ("RULES.md", "POLICIES.md", "DESIGN.md"):
        assert name not in text, f"README.md still cites {name}; link docs/{name.lower()} instead"
    for doc in ("docs/rules.md", "docs/policies.md", "docs/design.md"):
        assert f"]({doc}" in text, f"README.md does not link {doc}"


# ---- the readings --------------------------------------------------------------------
# One phrase of each reading the project chose (docs/rules.md, "Readings of ambiguous rules").
READINGS = (
    "Pam-flush even when clubs are trumps",
    "R8 case 1 is automatic",
    "`tricks_won`",
    "`cautious` family defends in R8 case 2",
    "Club law needs an indicator turned before declaring",
    "Flushes are shown in single pots too",
    "`flush-chase` with three-card hands behaves like `basic`",
    "Pam must be led",
    "not including the neighbour",
    "own random stream",
    "`pot_start * tricks / hand_size`",
)


def test_rules_md_lists_the_readings():
    titles = [t for level, t in headings(RULES_MD) if level == 2]
    assert "Readings of ambiguous rules" in titles
    body = sections(RULES_MD)["Readings of ambiguous rules"]
    flat = " ".join(body.split())
    missing = [phrase for phrase in READINGS if phrase not in flat]
    assert not missing, f"docs/rules.md's readings lack {missing}"
    assert len(re.findall(r"^- ", body, re.MULTILINE)) >= len(READINGS) - 1


def test_snake_case_names_in_rules_md_are_real():
    """Names in code spans outside R9c (`tricks_won`, `pot_start`) are options, values or
    record fields; R9c's new names may only appear in R9c."""
    r9c = section_of(RULES_MD, "R9c")
    outside = RULES_MD.read_text(encoding="utf-8").replace(r9c, "")
    snake = {t for t in span_tokens(outside) if "_" in t}
    known = (
        set(OPTION_NAMES)
        | {v for vs in option_values().values() for v in vs}
        | {f.name for f in dataclasses.fields(DealRecord)}
        | {"loo_sim"}
    )
    strange = sorted(snake - known)
    assert not strange, f"docs/rules.md uses names that are neither options, values nor record fields: {strange}"
