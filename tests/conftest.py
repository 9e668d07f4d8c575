import json
from pathlib import Path

import pytest

CONFORMANCE = Path(__file__).resolve().parents[2] / "shared" / "conformance" / "deals.jsonl"
LOCAL_COPY = Path(__file__).resolve().parent / "data" / "conformance_deals.jsonl"


def load_conformance() -> list[dict]:
    path = LOCAL_COPY if LOCAL_COPY.exists() else CONFORMANCE
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="session")
def conformance_deals() -> list[dict]:
    return load_conformance()
