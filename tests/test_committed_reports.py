"""The committed reports (reports/NAME/, from reports/NAME.toml by scripts/make_reports.sh)
are what their configs make: the manifest lists exactly the config's experiments, each
finished (not stopped halfway), and every file it records is on disk with the recorded
bytes. A hand-edited CSV, an experiment dropped from a config but left in the manifest, or a
report committed mid-run fails here."""

from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = sorted(p for p in (ROOT / "reports").glob("*.toml") if (p.with_suffix("") / "manifest.json").is_file())


def test_every_config_has_its_report():
    assert len(CONFIGS) >= 5, CONFIGS


@pytest.mark.parametrize("config", CONFIGS, ids=lambda p: p.stem)
def test_the_manifest_is_the_configs_finished_run(config: Path):
    names = [e["name"] for e in tomllib.loads(config.read_text())["experiments"]]
    manifest = json.loads((config.with_suffix("") / "manifest.json").read_text())
    entries = manifest["experiments"]
    assert sorted(entries) == sorted(names)
    for name, entry in entries.items():
        assert entry["status"] == "done" and not entry.get("partial"), name
        folder = config.with_suffix("") / name
        for file, digest in entry["sha256"].items():
            assert hashlib.sha256((folder / file).read_bytes()).hexdigest() == digest, f"{name}/{file}"
