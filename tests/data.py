"""Test data read from files: the conformance deals (tests/data/conformance_deals.jsonl,
a copy of shared/conformance/deals.jsonl, which is used when the copy is absent)."""

import json
from pathlib import Path

CONFORMANCE = Path(__file__).resolve().parents[2] / "shared" / "conformance" / "deals.jsonl"
LOCAL_COPY = Path(__file__).resolve().parent / "data" / "conformance_deals.jsonl"


def load_conformance() -> list[dict]:
    """The 1,500 conformance deals, one dict a line: preset, overrides, deck, dealer,
    carried, policy and the expected record."""
    path = LOCAL_COPY if LOCAL_COPY.exists() else CONFORMANCE
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
