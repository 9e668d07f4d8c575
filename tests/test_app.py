"""``loo-sim app`` (#30) without a browser: its JSON endpoints against ``loo_sim.advise``
on the same question and seed, the kernel compiled once per process, bad input as one
line, the card table's legality with its rule, the shipped files, and the command's own
errors (no app extra, a port in use). The page in a real browser: test_app_browser.py."""

from __future__ import annotations

import csv
import gzip
import importlib.util
import json
import socket
import time

import pytest

pytest.importorskip("fastapi", reason="the app extra (pip install -e '.[app]')")
pytest.importorskip("uvicorn", reason="the app extra (pip install -e '.[app]')")

from loo_sim.cli import main  # noqa: E402
from tests.app_server import call, running_app  # noqa: E402

QUESTION = {"players": 5, "position": 2, "hand": "KH 7S 3D", "indicator": "4H", "earlier": "play", "precision": 0.1}
CARD = {"players": 5, "position": 4, "hand": "KH 7H 2S", "indicator": "5H", "kind": "card",
        "declare": {"1": "play", "2": "miss", "3": "pass", "4": "play", "5": "play"}}  # fmt: skip


@pytest.fixture(scope="module")
def app_url():
    with running_app() as url:
        yield url


def test_the_json_endpoint_answers_as_advise_does(app_url):
    import loo_sim

    status, got = call(app_url, "/api/advise", QUESTION)
    assert status == 200, got
    frame = loo_sim.advise("three-card", players=5, position=2, hand="KH 7S 3D", indicator="4H", earlier="play",
                           precision=0.1, seed=0)  # fmt: skip
    assert got["verdict"] == frame.attrs["verdict"]  # the same question and seed: the same deals
    assert got["deals"] == frame.attrs["deals"]
    assert [a["action"] for a in got["actions"]] == list(frame.action)
    assert got["offer"]["options"] == ["pass", "play", "miss"]  # R5: the miss is on offer to position 2
    # the command line a player would type for the same question (docs/commands/advise.md)
    assert got["command"] == 'loo-sim advise --players 5 --position 2 --hand "KH 7S 3D" --indicator 4H --earlier play'


def test_the_kernel_compiles_once_per_process_not_per_request(app_url):
    from loo_sim.kernel.chunks import play_rows

    compiled = len(play_rows.signatures)
    assert compiled >= 1  # the warm-up question compiled it before the app said it was ready
    for hand, position in [("AS 2C 9D", 1), ("QH JH 4C", 5)]:
        earlier = ",".join(["play"] * (position - 1))
        status, _ = call(app_url, "/api/advise", {**QUESTION, "hand": hand, "position": position, "earlier": earlier})
        assert status == 200
    assert len(play_rows.signatures) == compiled


def test_a_job_reports_its_progress_and_its_answer(app_url):
    status, started = call(app_url, "/api/jobs", {**QUESTION, "precision": 0.05})
    assert status == 200
    for _ in range(600):
        _, job = call(app_url, f"/api/jobs/{started['id']}")
        if job["status"] != "running":
            break
        time.sleep(0.05)
    assert job["status"] == "done", job
    assert job["kept"] == job["answer"]["deals"] > 0  # the last progress report is the run's kept deals
    assert job["answer"]["stopped"] == "precision"


@pytest.mark.parametrize(
    "change, error",
    [
        ({"hand": "KH 7S"}, "--hand: 2 cards given; a hand holds 3 (R2)"),
        ({"position": 9}, "--position 9: there is no position 9 at a table of 5"),
        ({"indicator": "KH"}, "--indicator KH is also in --hand; each card is in the deck once"),
        ({"hand": "KH 7S 1X"}, "--hand: "),
        ({"sets": "bogus=1"}, "set[0]: 'bogus=1': unknown option 'bogus'"),
        ({"players": "five"}, "--players: 'five' is not a number"),
    ],
)
def test_bad_input_is_one_error_line(app_url, change, error):
    status, got = call(app_url, "/api/advise", {**QUESTION, **change})
    assert status == 400
    assert got["error"].startswith(error), got
    assert "\n" not in got["error"] and "Traceback" not in got["error"]


def test_a_body_that_is_not_json_is_one_line(app_url):
    import urllib.error
    import urllib.request

    request = urllib.request.Request(app_url + "/api/advise", data=b"{not json", headers={"content-type":
                                     "application/json"})  # fmt: skip
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(request, timeout=30)
    assert e.value.code == 400
    assert json.loads(e.value.read()) == {"error": "the request is not a JSON object of the page's fields"}


def test_a_bug_is_one_line_not_a_traceback(app_url, monkeypatch):
    import loo_sim.app.server as server

    def broken(payload, progress=None):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(server, "answer_of", broken)
    status, got = call(app_url, "/api/advise", QUESTION)
    assert (status, got) == (500, {"error": "internal error: ZeroDivisionError: boom"})


def test_the_card_table_greys_a_card_the_rules_forbid_with_its_rule(app_url):
    # hearts are trumps (5H) and led (AH); position 4 holds KH 7H 2S: it must follow with a heart (R7)
    status, got = call(app_url, "/api/cards/state", {**CARD, "play": "1:AH 2:9H"})
    assert status == 200, got
    assert got["my_turn"] and got["to_move"] == 4 and got["trumps"] == "hearts"
    assert got["in_deal"] == [1, 2, 4, 5]  # position 3 passed (R4)
    cards = {c["card"]: c for c in got["cards"]}
    assert cards["KH"]["legal"] and cards["7H"]["legal"]
    assert not cards["2S"]["legal"]
    assert cards["2S"]["why"] == "position 4 must follow suit with KH 7H (R7: follow suit)"


def test_the_card_table_follows_the_turn_and_refuses_what_cannot_be(app_url):
    _, got = call(app_url, "/api/cards/state", {**CARD, "play": "AH"})  # a card without its position: the next one's
    assert got["play"] == "1:AH" and got["to_move"] == 2 and not got["my_turn"] and got["cards"] == []
    status, got = call(app_url, "/api/cards/state", {**CARD, "play": "1:AH 2:KH"})  # KH is position 4's card
    assert (status, got["error"]) == (400, "--play trick 1, KH: position 2 cannot hold it: it is in position 4's hand")
    status, got = call(app_url, "/api/cards/state", {**CARD, "play": "1:AH 2:5H"})  # 5H is the indicator
    assert (status, got["error"]) == (400, "--play trick 1, 5H: position 2 cannot hold it: it is the indicator")
    status, got = call(app_url, "/api/cards/state", {**CARD, "play": "1:AH 3:9H"})  # position 3 passed
    assert status == 400 and "position 3" in got["error"]


def test_the_shipped_files_are_the_package_copies(app_url):
    from loo_sim.analysis.advise_canned import CANNED

    index = json.loads(CANNED.joinpath("index.json").read_text())
    _, listed = call(app_url, "/api/canned")
    assert [e["file"] for e in listed] == [e["file"] for e in index]
    _, chart = call(app_url, "/api/canned/chart-miss-5.csv.gz")
    with CANNED.joinpath("chart-miss-5.csv.gz").open("rb") as f, gzip.open(f, "rt") as text:
        rows = list(csv.reader(text))
    assert chart["columns"] == rows[0] and len(chart["rows"]) == len(rows) - 1
    first = dict(zip(chart["columns"], chart["rows"][0]))
    assert first["n"] == int(dict(zip(rows[0], rows[1]))["n"])
    status, got = call(app_url, "/api/canned/nothing.csv.gz")
    assert status == 400 and got["error"] == "no shipped chart or table named 'nothing.csv.gz'"


def test_the_command_without_the_app_extra_is_one_line(monkeypatch, capsys):
    import loo_sim.cli.commands.app as command

    real = importlib.util.find_spec
    monkeypatch.setattr(command.importlib.util, "find_spec", lambda name: None if name == "fastapi" else real(name))
    assert main(["app"]) == 2
    assert capsys.readouterr().err == 'error: loo-sim app needs the app extra: pip install -e ".[app]"\n'


def test_a_port_in_use_is_one_line(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["app", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: --port {port}: cannot listen on 127.0.0.1:{port}") and err.count("\n") == 1
