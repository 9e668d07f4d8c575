"""``loo-sim app``'s server for the tests: the real app (kernel warm-up included) served
by uvicorn in a thread of the test process, on a free port of 127.0.0.1, and a JSON client."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

READY_WITHIN = 180  # seconds: a cold numba cache compiles the kernel during the warm-up


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running_app() -> Iterator[str]:
    """The app's address, once its warm-up question has compiled the kernel."""
    import uvicorn

    from loo_sim.app.server import create_app

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + READY_WITHIN
    while True:
        try:
            if call(url, "/api/status")[1]["ready"]:
                break
        except OSError:
            pass  # not listening yet
        assert time.monotonic() < deadline, "the app's warm-up did not finish"
        time.sleep(0.2)
    try:
        yield url
    finally:
        server.should_exit = True
        thread.join(10)


def call(url: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    """(HTTP status, JSON) of a GET, or a POST of ``body``."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())
