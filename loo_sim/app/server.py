"""``loo-sim app``'s server: one page (``static/``) and the JSON endpoints it calls.

* ``POST /api/advise``: a question, answered (``loo-sim advise --json``'s answer, with
  the command line); ``POST /api/jobs`` runs the same in the background and
  ``GET /api/jobs/{id}`` reports the kept deals so far (the page's progress bar).
* ``POST /api/rules``: the players, hand size and warnings of a preset with its options.
* ``POST /api/cards/state``: the card-play table (whose turn, each card's legality and rule).
* ``GET /api/canned``, ``GET /api/canned/{file}``: the shipped charts and tables.

Runs go one at a time (the machine's cores serve one run); the kernel is compiled once
per process, by a small question asked in a background thread at start (``warm``).
A bad input answers 400 with ``{"error": "one line"}``; anything else 500, one line too
(the traceback goes to the server's log, never to the page).
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections import OrderedDict
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from loo_sim.app.canned import canned_list, canned_rows
from loo_sim.app.cards import table_state
from loo_sim.app.questions import answer_of, rules_summary
from loo_sim.base.errors import LooError

STATIC = Path(__file__).resolve().parent / "static"
KEEP_JOBS = 32  # finished jobs kept for the page to collect
log = logging.getLogger("loo_sim.app")
JsonBody = Annotated[dict, Body()]  # the page's fields, read by app/questions.py


class Jobs:
    """Questions answered in background threads, one run at a time (``run_lock``)."""

    def __init__(self) -> None:
        self.run_lock = threading.Lock()
        self.jobs: OrderedDict[str, dict] = OrderedDict()
        self.ready = threading.Event()  # set once the warm-up question has compiled the kernel

    def answer(self, payload: dict, job: dict | None = None) -> dict:
        """Answer now (the caller's thread), after any run in progress."""

        def progress(kept: int, needed: int) -> None:
            if job is not None:
                job.update(kept=int(kept), needed=int(needed))

        with self.run_lock:
            return answer_of(payload, progress)

    def start(self, payload: dict) -> str:
        job_id = uuid.uuid4().hex[:12]
        job: dict[str, Any] = {"status": "running", "kept": 0, "needed": 0}
        self.jobs[job_id] = job
        while len(self.jobs) > KEEP_JOBS:
            self.jobs.popitem(last=False)

        def work() -> None:
            try:
                job.update(status="done", answer=self.answer(payload, job))
            except LooError as e:
                job.update(status="error", error=one_line(str(e)))
            except Exception as e:  # a bug: said in one line on the page, in full in the log
                log.exception("job %s failed", job_id)
                job.update(status="error", error=f"internal error: {type(e).__name__}: {one_line(str(e))}")

        threading.Thread(target=work, name=f"advise-{job_id}", daemon=True).start()
        return job_id

    def warm(self) -> None:
        """Compile the kernel with a tiny declaration question and a tiny card question."""
        base = {"preset": "three-card", "players": 5, "hand": "KH 7H 2S", "indicator": "5H", "precision": 50,
                "deals": 100}  # fmt: skip
        card = {**base, "kind": "card", "position": 4, "declare": "1=play,2=miss,3=pass,4=play,5=play",
                "play": "1:AH 2:9H"}  # fmt: skip
        try:
            self.answer({**base, "position": 2, "earlier": "play"})
            self.answer(card)
        except Exception:  # the page still works; the first answer compiles instead
            log.exception("warm-up failed")
        finally:
            self.ready.set()


def one_line(message: str) -> str:
    """A message as one line (a config error lists its problems one a line)."""
    return "; ".join(line.strip() for line in message.splitlines() if line.strip()) or "error"


def create_app(*, warm: bool = True) -> FastAPI:
    """The FastAPI app; with ``warm``, the kernel compiles in the background at start."""
    app = FastAPI(title="loo-sim app", docs_url=None, redoc_url=None, openapi_url=None)
    jobs = Jobs()
    app.state.jobs = jobs
    if warm:
        threading.Thread(target=jobs.warm, name="warm-kernel", daemon=True).start()
    else:
        jobs.ready.set()
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    _errors(app)
    _routes(app, jobs)
    return app


def _errors(app: FastAPI) -> None:
    @app.exception_handler(LooError)
    async def bad_input(request: Request, e: LooError) -> JSONResponse:
        return JSONResponse({"error": one_line(str(e))}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, e: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": "the request is not a JSON object of the page's fields"}, status_code=400)

    @app.exception_handler(Exception)
    async def bug(request: Request, e: Exception) -> JSONResponse:
        log.exception("%s %s failed", request.method, request.url.path)
        return JSONResponse({"error": f"internal error: {type(e).__name__}: {one_line(str(e))}"}, status_code=500)


def _routes(app: FastAPI, jobs: Jobs) -> None:
    @app.get("/")
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/favicon.ico", status_code=204)
    def no_icon() -> None:
        return None

    @app.get("/api/status")
    def status() -> dict:
        return {"ready": jobs.ready.is_set()}

    @app.post("/api/rules")
    def rules(payload: JsonBody) -> dict:
        return rules_summary(payload)

    @app.post("/api/advise")
    def advise(payload: JsonBody) -> dict:
        return jobs.answer(payload)

    @app.post("/api/jobs")
    def start(payload: JsonBody) -> dict:
        return {"id": jobs.start(payload)}

    @app.get("/api/jobs/{job_id}")
    def job(job_id: str) -> dict:
        found = jobs.jobs.get(job_id)
        if found is None:
            raise LooError(f"no job {job_id!r} (the server keeps the last {KEEP_JOBS})")
        return dict(found)  # a copy: the job's thread may be updating it

    @app.post("/api/cards/state")
    def cards(payload: JsonBody) -> dict:
        return table_state(payload)

    @app.get("/api/canned")
    def canned() -> list[dict]:
        return canned_list()

    @app.get("/api/canned/{name}")
    def canned_file(name: str) -> dict:
        return canned_rows(name)


def serve(host: str = "127.0.0.1", port: int = 8501) -> None:
    """Serve the app until Ctrl-C (``loo-sim app``)."""
    import uvicorn

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    print(f"loo-sim app: http://{host}:{port}/ (Ctrl-C stops it; the kernel compiles in the background first)",
          flush=True)  # fmt: skip
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
