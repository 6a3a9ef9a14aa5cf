"""Fixtures of the API tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from rest_framework.test import APIClient


@pytest.fixture
def client() -> APIClient:
    """A DRF test client (``force_authenticate``, JSON helpers): the API tests' client."""
    return APIClient()


@pytest.fixture(autouse=True)
def fresh_replay_copies() -> Iterator[None]:
    """Every test starts without this process's copies of cached values
    (records/replay_cache.py; Django's cache itself is cleared by tests/conftest.py)."""
    from records.replay_cache import local

    local.clear()
    yield
