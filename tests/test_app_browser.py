"""``loo-sim app`` (#30) in a real headless Chromium (Playwright's sync API with the
system's ``chromium``; no browser is downloaded): a hand chosen by clicking gives the
verdict ``loo_sim.advise`` gives for the same question and seed; a card the rules forbid
cannot be clicked; bad input is one error line on the page; a heat map cell shows its
shipped numbers. Without chromium the tests skip, except on CI (``CI`` set), where
``.ci/run`` installs it: there they fail."""

from __future__ import annotations

import csv
import gzip
import os
import shutil
from contextlib import contextmanager

import pytest

pytest.importorskip("fastapi", reason="the app extra (pip install -e '.[app]')")

from tests.app_server import running_app  # noqa: E402

CHROMIUM = shutil.which("chromium")
WAIT = 60_000  # ms: an answer on a busy 2-core machine


@pytest.fixture(scope="module")
def page():
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed: .ci/run installs the Debian package before the tests")
        pytest.skip("no chromium on this machine (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with running_app() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        tab = browser.new_page(viewport={"width": 1100, "height": 900})
        tab.goto(url)
        tab.wait_for_selector("#deck .card")
        yield tab
        browser.close()


def pick(page, cards, indicator=None):
    page.click("#clear")
    page.check("input[name=pick][value=hand]")
    for card in cards:
        page.click(f"#deck .card[data-card='{card}']")
    if indicator:
        page.check("input[name=pick][value=indicator]")
        page.click(f"#deck .card[data-card='{indicator}']")


def test_a_hand_clicked_gets_the_verdict_advise_gives(page):
    import loo_sim

    page.click(".tab[data-screen=hand]")
    page.select_option("#position", "2")
    pick(page, ["KH", "7S", "3D"], "4H")
    page.select_option("#earlier select[data-position='1']", "play")
    page.fill("#precision", "0.1")
    page.click("#ask")
    page.wait_for_selector("#verdict", timeout=WAIT)
    frame = loo_sim.advise("three-card", players=5, position=2, hand="KH 7S 3D", indicator="4H", earlier="play",
                           precision=0.1, seed=0)  # fmt: skip
    assert page.inner_text("#verdict") == frame.attrs["verdict"]
    assert page.locator(".bars .action").all_inner_texts() == list(frame.action)
    assert page.inner_text("#command") == (
        'loo-sim advise --players 5 --position 2 --hand "KH 7S 3D" --indicator 4H --earlier play'
    )
    assert "precision reached" in page.inner_text("#precision-reached")


def test_a_card_the_rules_forbid_is_not_clickable(page):
    page.click(".tab[data-screen=cards]")
    page.select_option("#position", "4")
    pick(page, ["KH", "7H", "2S"], "5H")
    for position, word in {"1": "play", "2": "miss", "3": "pass", "4": "play", "5": "play"}.items():
        page.select_option(f"#declare select[data-position='{position}']", word)
    page.click("#new-deal")
    page.click("#table-deck .card[data-card='AH']")  # position 1 leads the ace of trumps
    page.wait_for_function("document.querySelector('#turn').textContent.includes('position 2')")
    page.click("#table-deck .card[data-card='9H']")
    page.wait_for_selector("#my-cards .card[data-card='2S']")
    page.wait_for_function("document.querySelector('#my-cards').innerText.includes('must follow suit')")  # fetched
    # hearts led, and position 4 holds hearts: it must follow suit (R7), so the spade is out
    spade = page.locator("#my-cards .card[data-card='2S']")
    assert spade.is_disabled()
    row = page.locator("#my-cards .my-card", has=page.locator(".card[data-card='2S']"))
    assert "must follow suit" in row.inner_text()
    assert page.locator("#my-cards .card[data-card='KH']").is_enabled()
    spade.click(force=True)  # a disabled button fires no click: nothing is played
    page.wait_for_timeout(300)
    assert "your turn" in page.inner_text("#turn")
    assert "2S" not in page.evaluate("state.play")
    page.click("#my-cards .card[data-card='7H']")  # a legal card is played
    page.wait_for_function("document.querySelector('#turn').textContent.includes('position 5')")
    assert page.evaluate("state.play") == "1:AH 2:9H 4:7H"


def test_bad_input_is_one_error_line_on_the_page(page):
    page.click(".tab[data-screen=hand]")
    page.select_option("#position", "2")
    pick(page, ["KH", "7S"], "4H")
    page.click("#ask")
    page.wait_for_selector("#error:not([hidden])", timeout=WAIT)
    text = page.inner_text("#error")
    assert text == "error: --hand: 2 cards given; a hand holds 3 (R2)"
    assert "Traceback" not in page.content()
    page.fill("#sets", "bogus=1")
    page.dispatch_event("#sets", "change")
    page.wait_for_function("document.querySelector('#error').textContent.includes('bogus')")
    assert page.inner_text("#error").startswith("error: set[0]: 'bogus=1': unknown option 'bogus'")
    page.fill("#sets", "")
    page.dispatch_event("#sets", "change")
    page.wait_for_selector("#error", state="hidden")


def test_a_heat_map_cell_shows_the_shipped_numbers(page):
    from loo_sim.analysis.advise_canned import CANNED

    page.click(".tab[data-screen=browse]")
    page.wait_for_selector("#canned option", state="attached")
    page.select_option("#canned", "chart-miss-5.csv.gz")
    # the first file's map is drawn when the screen opens: wait for the one chosen (its fetch is async)
    page.wait_for_function("document.querySelector('#canned-about').innerText.includes('reports/miss/miss-5')")
    page.wait_for_selector("#heat-table td[data-key]")
    page.select_option("select[data-slice=miss_on_offer]", "true")
    page.select_option("select[data-slice=earlier_in]", "0")
    page.hover("#heat-table td[data-key='0|1']")  # 'top trump | best plain <=9', position 1
    with CANNED.joinpath("chart-miss-5.csv.gz").open("rb") as f, gzip.open(f, "rt") as text:
        rows = [r for r in csv.DictReader(text) if (r["hand_class"], r["position"],
                r["miss_on_offer"], r["earlier_in"]) == ("0", "1", "True", "0")]  # fmt: skip
    detail = page.inner_text("#cell-detail")
    assert rows and rows[0]["label"] in detail
    for r in rows:
        assert f"{int(r['n']):,}" in detail and f"{float(r['mean']):+.2f}" in detail


# the page's own fetch, the answer to a request whose address and body hold `held` coming
# 1.5 s late (in the page: no timing in Python)
HOLD_BACK = """(held) => {
  window.fetchAsShipped = window.fetchAsShipped || window.fetch;
  window.fetch = (url, init) => (String(url) + ((init && init.body) || "")).includes(held)
    ? new Promise((done) => setTimeout(done, 1500)).then(() => window.fetchAsShipped(url, init))
    : window.fetchAsShipped(url, init);
}"""


@contextmanager
def answer_held_back(page, held: str):
    """Within the block, the answer to the page's request holding ``held`` comes 1.5 s late."""
    page.evaluate(HOLD_BACK, held)
    try:
        yield
    finally:
        page.evaluate("() => { window.fetch = window.fetchAsShipped; }")


def test_a_file_chosen_while_another_loads_is_the_one_drawn(page):
    """A slow answer for the file chosen first never draws over the file chosen after it
    (a race the suite's parallel runs once showed: the heat map of another chart)."""
    page.click(".tab[data-screen=browse]")
    page.wait_for_selector("#canned option", state="attached")
    page.select_option("#canned", "chart-miss-5.csv.gz")
    page.wait_for_function("document.querySelector('#canned-about').innerText.includes('reports/miss/miss-5')")
    with answer_held_back(page, "chart-miss-4"):
        page.select_option("#canned", "chart-miss-4.csv.gz")  # its answer comes 1.5 s later
        page.select_option("#canned", "chart-miss-6.csv.gz")
        page.wait_for_function("document.querySelector('#canned-about').innerText.includes('reports/miss/miss-6')")
        page.wait_for_timeout(2500)  # past the held-back answer
        assert "reports/miss/miss-6" in page.inner_text("#canned-about")
        assert page.input_value("#canned") == "chart-miss-6.csv.gz"


def test_rules_changed_while_an_answer_loads_keep_the_later_choice(page):
    """Players 6 then 4 at once, the answer for 6 coming last: the page keeps 4 positions."""
    page.click(".tab[data-screen=hand]")
    try:
        with answer_held_back(page, '"players":6'):
            for players in ("6", "4"):
                page.fill("#players", players)
                page.dispatch_event("#players", "change")
            page.wait_for_timeout(2500)  # past the held-back answer
            assert page.eval_on_selector_all("#position option", "options => options.length") == 4
    finally:
        page.fill("#players", "5")
        page.dispatch_event("#players", "change")
        page.wait_for_function("document.querySelectorAll('#position option').length === 5")
