"""Copy the committed reports' decision charts and equilibrium tables into the package
(``loo_sim/data/canned/``), where ``loo-sim advise`` looks a hand up without a run.

Run after ``bash scripts/make_reports.sh``: ``python scripts/package_canned.py``.
``tests/test_advise_canned.py`` checks that the packaged files hold what the reports do.

The key (``index.json``): one entry per file, with ``kind`` (``chart``: a ``loo-sim miss``
decision chart's cells, position and earlier seats not pooled; ``table``: a ``loo-sim
solve`` strategy table, as written), ``rules_hash`` (``game.strategy.rules_hash`` of the
rules it was made under, the players included), ``carried`` (the pot carried in: the
chart's main run; a table keys its rows by pot bucket instead), ``source`` (the report
folder) and ``command`` (the command that made it).
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from loo_sim.game.rules import Rules  # noqa: E402
from loo_sim.game.strategy import rules_hash  # noqa: E402

OUT = ROOT / "loo_sim" / "data" / "canned"
CHARTS = ("miss/miss-4", "miss/miss-5", "miss/miss-6", "miss/miss-8", "miss/limited-5")
TABLES = ("solve/three-card-4", "solve/three-card-5", "solve/three-card-8", "solve/classic-limited-5")
CHART_COLUMNS = ("hand_class", "label", "position", "miss_on_offer", "earlier_in", "action", "n", "mean", "se",
                 "diff_vs_best", "diff_vs_best_se", "best", "significant")  # fmt: skip


def run_rules(folder: Path) -> tuple[Rules, dict]:
    run = json.loads((folder / "run.json").read_text())
    options = {k: v for k, v in run["rules"].items() if k != "bankroll" or v is not None}
    return Rules.preset(run["preset"], **options), run


def write_gz(path: Path, text: str) -> None:
    with gzip.GzipFile(path, "wb", mtime=0) as f:  # mtime 0: the same reports give the same bytes
        f.write(text.encode())


def main(out: Path = OUT) -> None:
    out.mkdir(parents=True, exist_ok=True)
    index = []
    for source in CHARTS:
        folder = ROOT / "reports" / source
        rules, run = run_rules(folder)
        chart = pd.read_csv(folder / "chart.csv")
        cells = chart[(chart.position != "all") & (chart.earlier_in != "all")].loc[:, list(CHART_COLUMNS)]
        name = f"chart-{Path(source).name}.csv.gz"
        write_gz(out / name, cells.to_csv(index=False))
        index.append({"file": name, "kind": "chart", "rules_hash": rules_hash(rules), "players": rules.players,
                      "carried": float(run["study"]["carried"][0]), "source": f"reports/{source}",
                      "command": run["command"]})  # fmt: skip
    for source in TABLES:
        folder = ROOT / "reports" / source
        rules, run = run_rules(folder)
        name = f"table-{Path(source).name}.csv.gz"
        write_gz(out / name, (folder / "strategy.csv").read_text())
        index.append({"file": name, "kind": "table", "rules_hash": rules_hash(rules), "players": rules.players,
                      "carried": None, "source": f"reports/{source}", "command": run["command"]})  # fmt: skip
    (out / "index.json").write_text(json.dumps(index, indent=1) + "\n")
    print(f"wrote {len(index)} files to {out}")


if __name__ == "__main__":
    main()
