"""MkDocs hook: the guide's pages show figures of the repository outside docs/ (the committed
reports, e.g. ``../../reports/miss/miss-5/heuristics.png`` from ``commands/miss.md``), linked
relative to the page so that the same link works on GitHub. MkDocs only knows the files
under docs/: this hook adds each such file to the site, at its path in the repository, and
points the link at that copy. A link to a file that does not exist is left alone, so MkDocs
reports it (and ``--strict`` fails); so is a link to a markdown file outside docs/, which
would not be a page of the guide."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from mkdocs.structure.files import File

# the target of every markdown link or image, `](target)`: also the outer link of a clickable
# figure, `[![alt](fig.png)](fig.png)`
LINK = re.compile(r"(\]\()([^)\s]+)(\))")


def _repo_target(page_path: Path, target: str, docs: Path, repo: Path) -> str | None:
    """The repository path a link of a page points at, when it leaves docs/ for an existing
    file of the repository that is not markdown; else None."""
    path = target.partition("#")[0]
    if not path or re.match(r"^[a-z][a-z0-9+.-]*:", path, re.IGNORECASE) or path.startswith("/"):
        return None
    dest = (page_path.parent / path).resolve()
    if dest == docs or docs in dest.parents or repo not in dest.parents:
        return None
    if not dest.is_file() or dest.suffix == ".md":
        return None
    return dest.relative_to(repo).as_posix()


def _dirs(config) -> tuple[Path, Path]:
    docs = Path(config["docs_dir"]).resolve()
    return docs, docs.parent


def on_files(files, config):
    docs, repo = _dirs(config)
    for page in list(files.documentation_pages()):
        text = Path(page.abs_src_path).read_text(encoding="utf-8")
        for _, target, _ in LINK.findall(text):
            rel = _repo_target(Path(page.abs_src_path), target, docs, repo)
            if rel is not None and files.get_file_from_path(rel) is None:
                files.append(File(rel, str(repo), config["site_dir"], config["use_directory_urls"]))
    return files


def on_page_markdown(markdown, page, config, files):
    docs, repo = _dirs(config)
    here = Path(page.file.abs_src_path)

    def rewrite(m: re.Match) -> str:
        rel = _repo_target(here, m.group(2), docs, repo)
        if rel is None:
            return m.group(0)
        fragment = m.group(2).partition("#")[2]
        url = posixpath.relpath(rel, posixpath.dirname(page.file.src_uri) or ".")
        return m.group(1) + url + ("#" + fragment if fragment else "") + m.group(3)

    return LINK.sub(rewrite, markdown)
