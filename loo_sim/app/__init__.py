"""``loo-sim app``: a local web page that asks ``loo-sim advise``'s questions by clicking
cards (issue #30). An optional extra (``pip install -e ".[app]"``: FastAPI and uvicorn).

* ``server.py``: the FastAPI app, its JSON endpoints and the background runs;
* ``questions.py``: the page's fields read into advise's questions, and the answer's JSON;
* ``cards.py``: the card-play table (whose turn, each card's legality with its rule);
* ``canned.py``: the shipped charts and tables for the heat maps;
* ``static/``: the page (HTML, vanilla JavaScript, CSS; no CDN, no build step).

It sits beside ``cli`` at the top of the layers: it calls the library, never the CLI,
and only ``loo-sim app`` (cli/commands/app.py) imports it, lazily.
"""
