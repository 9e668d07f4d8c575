"""Open a report's index.html in a real headless browser (Debian's Chromium, driven by
Playwright) and check that it renders: every table present, every image decoded, and no
request failed (the page must need no network and no other file).

Needs: Debian's chromium (`apt-get install chromium`) and `pip install playwright`
(the browser Playwright downloads is not needed: it drives /usr/bin/chromium).
Run: .venv/bin/python scripts/check_report_html.py reports/miss/index.html [more.html ...]
Exit status 0 when every page passes; one line per page either way.
"""

from __future__ import annotations

import sys
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]  # fmt: skip


def check(page, path: Path) -> list[str]:
    failed: list[str] = []
    external: list[str] = []
    page.on("requestfailed", lambda r: failed.append(f"{r.url[:80]} ({r.failure})"))
    page.on("request", lambda r: external.append(r.url[:80]) if not r.url.startswith(("file:", "data:")) else None)
    page.goto(path.resolve().as_uri(), wait_until="load")
    tables = page.locator("table").count()
    rows = page.locator("table tbody tr").count()
    images = page.eval_on_selector_all("img", "els => els.map(e => [e.complete, e.naturalWidth])")
    broken = [i for i, (done, width) in enumerate(images) if not done or width == 0]
    problems = []
    if tables == 0 or rows == 0:
        problems.append("no table rendered")
    if not images:
        problems.append("no image")
    if broken:
        problems.append(f"{len(broken)} image(s) did not decode")
    if failed:
        problems.append(f"failed requests: {failed[:3]}")
    if external:
        problems.append(f"requests outside the page: {external[:3]}")
    print(f"{path}: {tables} tables ({rows} rows), {len(images)} images; "
          + ("OK" if not problems else "PROBLEMS: " + "; ".join(problems)))  # fmt: skip
    return problems


def main() -> int:
    paths = [Path(p) for p in sys.argv[1:]]
    if not paths:
        print("usage: check_report_html.py INDEX.html [...]", file=sys.stderr)
        return 2
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print(
            "error: needs playwright (pip install playwright) and chromium (apt-get install chromium)", file=sys.stderr
        )
        return 2
    if not Path(CHROMIUM).exists():
        print(f"error: {CHROMIUM} not found (apt-get install chromium)", file=sys.stderr)
        return 2
    bad = 0
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        for path in paths:
            page = browser.new_page()
            bad += bool(check(page, path))
            page.close()
        browser.close()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
