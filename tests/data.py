"""Test data read from files: the conformance deals (tests/data/conformance_deals.jsonl,
a copy of shared/conformance/deals.jsonl, which is used when the copy is absent), and the
R9c ones (tests/data/conformance_r9c_deals.jsonl, a copy of shared/conformance/deals_r9c.jsonl)."""

import json
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared" / "conformance"
CONFORMANCE = SHARED / "deals.jsonl"
LOCAL_COPY = Path(__file__).resolve().parent / "data" / "conformance_deals.jsonl"
CONFORMANCE_R9C = SHARED / "deals_r9c.jsonl"
LOCAL_COPY_R9C = Path(__file__).resolve().parent / "data" / "conformance_r9c_deals.jsonl"


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def load_conformance() -> list[dict]:
    """The 1,500 conformance deals, one dict a line: preset, overrides, deck, dealer,
    carried, policy and the expected record."""
    return _lines(LOCAL_COPY if LOCAL_COPY.exists() else CONFORMANCE)


def load_conformance_r9c() -> list[dict]:
    """The 1,000 conformance deals of R9c's variants (and the flush-aware family), in the
    same format."""
    return _lines(LOCAL_COPY_R9C if LOCAL_COPY_R9C.exists() else CONFORMANCE_R9C)
