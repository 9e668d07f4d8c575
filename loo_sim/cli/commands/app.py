"""``loo-sim app``: the local web page (loo_sim/app/), started here. The app's packages
(FastAPI, uvicorn) are an optional extra, imported only when the command runs."""

from __future__ import annotations

import importlib.util
import socket
from typing import Annotated

import typer

from loo_sim.base.errors import LooError
from loo_sim.cli.params import WholeNumber

APP_EXTRA = 'loo-sim app needs the app extra: pip install -e ".[app]"'
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def check_port(host: str, port: int) -> None:
    """Refuse, in one line, a host this machine cannot listen on or a port already in use."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError:
        raise LooError(f"--host {host!r}: not an address of this machine") from None
    family, _, _, _, address = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(address)
        except OSError as e:
            raise LooError(f"--port {port}: cannot listen on {host}:{port} ({e.strerror}); is another "
                           "loo-sim app running? Give another --port") from None  # fmt: skip


def app_cmd(
    port: Annotated[int, typer.Option("--port", parser=WholeNumber(1, 65535), metavar="N",
                                      help="The port to serve on.")] = 8501,  # fmt: skip
    host: Annotated[str, typer.Option("--host", help="The address to listen on; only this machine by default "
                                      "(another address lets other machines use the page).")] = "127.0.0.1",
) -> None:
    """A local web page that asks advise's questions by clicking cards: pick the rules,
    click your hand and the indicator, choose the earlier declarations, and see each
    declaration's net chips with its interval and the verdict; enter the tricks so far
    and see each legal card's value (the rule that forbids the others); browse the
    shipped decision charts and equilibrium tables as heat maps. Every answer shows the
    `loo-sim advise` command line that gives it. Needs the app extra
    (pip install -e ".[app]"); Ctrl-C stops it.

    Example: `loo-sim app` then open http://127.0.0.1:8501/ in a browser.
    """
    if any(importlib.util.find_spec(name) is None for name in ("fastapi", "uvicorn")):
        raise LooError(APP_EXTRA)
    check_port(host, port)
    if host not in LOCAL_HOSTS:
        typer.echo(f"warning: --host {host}: other machines that reach this address can use the page", err=True)
    from loo_sim.app.server import serve  # the app's packages load only here

    serve(host, port)
