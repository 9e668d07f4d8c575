"""``loo-sim app``'s speed (issue #30): the server's answer to a three-card declaration
question, round trip over HTTP, once the kernel is warm (target: advise's, <= 2 s), and
how long the app takes to be ready after it starts (the warm-up question compiles or
loads the kernel once per process). The real app, served by uvicorn in this process on
a free port; each question asked three times with seeds 1, 2, 3 (best and median).

Run: ``.venv/bin/python scripts/bench_app.py`` (needs the app extra).
"""

from __future__ import annotations

import json
import socket
import statistics
import sys
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

QUESTIONS = [  # (name, the page's fields, target seconds)
    ("three-card, 5 players, position 2 after a play, precision 0.05",
     {"players": 5, "position": 2, "hand": "KH 7S 3D", "indicator": "4H", "earlier": "play"}, 2.0),
    ("three-card, 5 players, position 2 after a play, precision 0.10",
     {"players": 5, "position": 2, "hand": "KH 7S 3D", "indicator": "4H", "earlier": "play", "precision": 0.1}, 2.0),
    ("card: position 4 after 1:AH 2:9H, precision 0.10",
     {"players": 5, "position": 4, "hand": "KH 7H 2S", "indicator": "5H", "kind": "card", "play": "1:AH 2:9H",
      "declare": "1=play,2=miss,3=pass,4=play,5=play", "precision": 0.1}, 2.0),
]  # fmt: skip


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=300) as response:
        return json.loads(response.read())


def main() -> None:
    import uvicorn

    from loo_sim.app.server import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    start = time.perf_counter()
    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    base = f"http://127.0.0.1:{port}"
    while True:
        try:
            with urllib.request.urlopen(base + "/api/status", timeout=5) as r:
                if json.loads(r.read())["ready"]:
                    break
        except OSError:
            pass
        time.sleep(0.05)
    print(f"ready (warm-up done) {time.perf_counter() - start:.2f} s after start")
    for name, fields, target in QUESTIONS:
        times, answer = [], {}
        for seed in (1, 2, 3):
            t = time.perf_counter()
            answer = post(base + "/api/advise", {**fields, "seed": seed})
            times.append(time.perf_counter() - t)
        print(f"{name}: best {min(times):.2f} s, median {statistics.median(times):.2f} s (target {target:g} s); "
              f"{answer['deals']:,} deals kept, stopped by {answer['stopped']}")  # fmt: skip
    server.should_exit = True


if __name__ == "__main__":
    main()
