"""The user guide and the README (issue #29).

The guide (``mkdocs.yml``, ``docs/``) builds with ``mkdocs build --strict``: a broken
link or anchor, a page left out of the nav or a nav entry without its page is a warning,
and a warning fails the build. The README stays short: at most 300 lines, the two
commands a newcomer needs, one report picture and one app screenshot, one row per
command in its question table, and links that resolve. Every example command of the README and the guide names a real
command and real options, and writes under ``out/`` (ignored by git), never into the
committed ``reports/``.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from loo_sim.cli import app

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
MAX_README_LINES = 300
MAIN_JOB = "bash scripts/dev.sh run simulate --preset three-card --deals 1000000 --seed 1"
TEST_COMMAND = "bash scripts/dev.sh test"


def guide_pages() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.md") if "_hooks" not in p.parts)


def example_sources() -> list[Path]:
    return [README, ROOT / "reports" / "README.md", *guide_pages()]


def build(config_dir: Path, site: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # mkdocs-material's banner about MkDocs 2.0
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=config_dir, capture_output=True, text=True, env=env, timeout=600,
    )  # fmt: skip


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    done = build(ROOT, out)
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stderr[-4000:]}"
    warnings = [line for line in done.stderr.splitlines() if "WARNING" in line]
    assert not warnings, "\n".join(warnings)
    return out


# ---- the guide ----------------------------------------------------------------------
def test_the_guide_builds_strict_without_a_warning(site):
    assert (site / "index.html").is_file()
    for page in guide_pages():
        built = site / page.relative_to(DOCS).with_suffix(".html")
        assert built.is_file(), f"{page.relative_to(ROOT)} was not built"
    # the figures of the committed reports come along (docs/_hooks/repo_files.py)
    assert (site / "reports" / "miss" / "miss-5" / "chart.png").is_file()
    assert 'src="../reports/miss/miss-5/chart.png"' in (site / "commands" / "miss.html").read_text()


def test_the_strict_build_fails_on_a_broken_link_and_a_missing_page(tmp_path):
    # the guide's own checks, shown to bite: a copy with one broken anchor, one link to a
    # page that does not exist and one nav entry without its page
    shutil.copytree(DOCS, tmp_path / "docs")
    (tmp_path / "reports").symlink_to(ROOT / "reports")
    home = "  - Home: index.md\n"
    (tmp_path / "mkdocs.yml").write_text((ROOT / "mkdocs.yml").read_text().replace(home, home + "  - Gone: gone.md\n"))
    page = tmp_path / "docs" / "limits.md"
    page.write_text(page.read_text() + "\nSee [R7](rules.md#r7-no-such-heading) and [old](old-page.md).\n")
    done = build(tmp_path, tmp_path / "site")
    assert done.returncode != 0
    assert "gone.md" in done.stderr and "old-page.md" in done.stderr and "r7-no-such-heading" in done.stderr


def nav_pages() -> list[str]:
    return re.findall(r":\s*([\w/-]+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(), re.MULTILINE)


def cli_commands() -> list[str]:
    return list(typer.main.get_command(app).commands)


def test_one_guide_page_per_command_in_the_nav():
    commands = cli_commands()
    assert len(commands) == 15
    nav = nav_pages()
    for name in commands:
        assert f"commands/{name}.md" in nav, f"mkdocs.yml's nav lacks commands/{name}.md"
    assert sorted(nav) == sorted(str(p.relative_to(DOCS)) for p in guide_pages())


# ---- the README -----------------------------------------------------------------------
def readme() -> str:
    return README.read_text(encoding="utf-8")


def test_readme_is_short():
    lines = readme().count("\n") + 1
    assert lines <= MAX_README_LINES, f"README.md has {lines} lines, over {MAX_README_LINES}: move the rest to docs/"


def test_readme_shows_the_main_job_and_the_tests():
    blocks = re.findall(r"```bash\n(.*?)```", readme(), re.S)
    lines = [line.split("#")[0].strip() for block in blocks for line in block.splitlines()]
    assert MAIN_JOB in lines and TEST_COMMAND in lines


MAX_SCREENSHOT_BYTES = 300_000


def test_readme_has_one_report_picture_and_one_app_screenshot():
    # one figure a committed report drew, and one screenshot of `loo-sim app`'s hand screen
    pictures = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", readme())
    reports = [p for p in pictures if p.startswith("reports/")]
    shots = [p for p in pictures if p.startswith("docs/images/app-")]
    assert len(reports) == 1 and len(shots) == 1 and len(pictures) == 2, pictures
    assert all((ROOT / p).is_file() for p in pictures)
    shot = (ROOT / shots[0]).read_bytes()
    assert shot.startswith(b"\x89PNG\r\n\x1a\n") and len(shot) < MAX_SCREENSHOT_BYTES


def test_readme_has_one_question_row_per_command():
    rows = re.findall(r"^\|[^|\n]+\|\s*\[`loo-sim (\w+)`\]\(docs/commands/(\w+)\.md\)\s*\|$", readme(), re.MULTILINE)
    assert sorted(name for name, _ in rows) == sorted(cli_commands())
    assert all(name == page for name, page in rows)


_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?\s*\)")


def prose(text: str) -> str:
    return re.sub(r"^\s*```.*?^\s*```", "", text, flags=re.MULTILINE | re.S)


@pytest.mark.parametrize("source", ["README.md", "reports/README.md"])
def test_readme_links_resolve(site, source):
    # GitHub shows these files, MkDocs does not build them: their links are checked here,
    # a link into the guide against the built page's anchors
    path = ROOT / source
    targets = _LINK.findall(prose(path.read_text(encoding="utf-8")))
    assert targets
    problems = []
    for target in targets:
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
            continue
        file_part, _, fragment = target.partition("#")
        dest = (path.parent / file_part).resolve()
        if not dest.exists() or ROOT not in dest.parents:
            problems.append(f"{target}: no such file in the repository")
        elif fragment and dest.suffix == ".md" and DOCS in dest.parents:
            built = site / dest.relative_to(DOCS).with_suffix(".html")
            if f'id="{fragment}"' not in built.read_text(encoding="utf-8"):
                problems.append(f"{target}: the guide's page has no heading #{fragment}")
    assert not problems, f"{source}:\n" + "\n".join(problems)


# ---- the example commands ---------------------------------------------------------------
_FENCE = re.compile(r"^\s*```(\w*)")
_START = re.compile(r"(loo-sim |bash scripts/dev\.sh run |(?:\.venv/bin/)?python3? scripts/\w+\.py)")


def joined_lines(lines: list[str]) -> list[tuple[int, str]]:
    """(first line number, text) of each line with its backslash continuations joined."""
    out, start, buf = [], 0, ""
    for number, line in lines:
        if not buf:
            start = number
        if line.rstrip().endswith("\\"):
            buf += line.rstrip()[:-1] + " "
            continue
        out.append((start, buf + line))
        buf = ""
    if buf:
        out.append((start, buf))
    return out


def example_commands(text: str) -> list[tuple[int, str]]:
    """(line, command) of every loo-sim, ``bash scripts/dev.sh run`` and script command of a
    markdown text: in shell code blocks, ``$``-prompted lines of text blocks, and code spans."""
    found, lang, block, spans = [], None, [], []
    for number, line in enumerate(text.splitlines(), 1):
        fence = _FENCE.match(line)
        if fence:
            if lang is None:
                lang, block = fence.group(1), []
                continue
            for start, joined in joined_lines(block):
                stripped = joined.strip()
                if lang in ("bash", "sh", "shell", "console", ""):
                    found.append((start, stripped))
                elif lang == "text" and stripped.startswith("$ "):
                    found.append((start, stripped[2:]))
            lang = None
        elif lang is not None:
            block.append((number, line))
        else:
            spans += [(number, span) for span in re.findall(r"`([^`\n]+)`", line)]
    found += spans
    commands = []
    for number, candidate in found:
        m = _START.search(candidate)
        if m and not candidate.lstrip().startswith("#"):
            commands.append((number, candidate[m.start() :]))
    return commands


def words(command: str) -> list[str]:
    try:
        return shlex.split(command, comments=True)
    except ValueError:  # an unbalanced quote in a code span: plain words do
        return command.split()


def out_problem(command: str) -> str | None:
    """What is wrong with where a command writes: an ``--out`` anywhere but under out/."""
    args = words(command)
    for i, arg in enumerate(args):
        if arg == "--out" or arg.startswith("--out="):
            value = arg.partition("=")[2] if "=" in arg else (args[i + 1] if i + 1 < len(args) else "")
            parts = Path(value).parts
            if not parts or parts[0] != "out" or ".." in parts:
                return f"--out {value!r} is not under out/"
    return None


def loo_sim_call(command: str) -> tuple[str, list[str]] | None:
    """(subcommand, its arguments) of a loo-sim command; None for a script or a placeholder
    (``loo-sim COMMAND --help``)."""
    args = words(command)
    if args[:3] == ["bash", "scripts/dev.sh", "run"]:
        args = ["loo-sim", *args[3:]]
    if not args or args[0] != "loo-sim" or len(args) < 2 or args[1].isupper() or args[1] == "--help":
        return None
    return args[1], args[2:]


def all_examples() -> list[tuple[str, str]]:
    out = []
    for path in example_sources():
        for number, command in example_commands(path.read_text(encoding="utf-8")):
            out.append((f"{path.relative_to(ROOT)}:{number}", command))
    return out


def test_the_extraction_finds_the_commands():
    sample = (
        "Run `loo-sim rules` first.\n```bash\n# a comment with loo-sim in it\n"
        "loo-sim pots --sessions 10 \\\n    --out out/p   # the pots\n```\n"
        '```text\n$ loo-sim replay --hand 1="A♥ 7♥ K♣"\noutput loo-sim said\n```\n'
        "```toml\nx = 1\n```\n"
    )
    assert example_commands(sample) == [
        (4, "loo-sim pots --sessions 10      --out out/p   # the pots"),
        (8, 'loo-sim replay --hand 1="A♥ 7♥ K♣"'),
        (1, "loo-sim rules"),
    ]
    examples = all_examples()
    assert len(examples) > 60
    assert any("--out" in command for _, command in examples)
    assert any(MAIN_JOB in command for _, command in examples)


def test_the_out_check_bites():
    assert out_problem("loo-sim risk --out reports/risk/limited-5-ev") is not None
    assert out_problem("loo-sim report reports/miss.toml --out=reports/miss") is not None
    assert out_problem("loo-sim miss --out out/../reports/miss") is not None
    assert out_problem("loo-sim miss --out /tmp/miss") is not None
    assert out_problem("loo-sim report reports/miss.toml --out out/miss") is None
    assert out_problem("python scripts/cardplay_tips.py --out out/tips  # the tips") is None


def test_every_example_writes_under_out():
    problems = [f"{where}: {problem}: {cmd}" for where, cmd in all_examples() if (problem := out_problem(cmd))]
    assert not problems, "\n".join(problems)


def command_options() -> dict[str, set[str]]:
    group = typer.main.get_command(app)
    return {
        name: {opt for param in cmd.params for opt in (*param.opts, *param.secondary_opts)} | {"--help"}
        for name, cmd in group.commands.items()
    }


def unknown_options() -> list[str]:
    options = command_options()
    problems = []
    for where, command in all_examples():
        call = loo_sim_call(command)
        if call is None:
            continue
        name, args = call
        if name not in options:
            problems.append(f"{where}: no command {name!r}: {command}")
            continue
        for arg in args:
            flag = arg.split("=")[0]
            if re.fullmatch(r"--[a-z][\w-]*|-[a-zA-Z]", flag) and flag not in options[name]:
                problems.append(f"{where}: `loo-sim {name}` has no option {flag}: {command}")
    return problems


def test_every_example_names_a_real_command_and_its_options():
    problems = unknown_options()
    assert not problems, "\n".join(problems)
