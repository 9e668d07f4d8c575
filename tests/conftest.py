import pytest

from tests.data import load_conformance


@pytest.fixture(scope="session")
def conformance_deals() -> list[dict]:
    return load_conformance()
