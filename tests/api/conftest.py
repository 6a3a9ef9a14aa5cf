"""Fixtures of the API tests."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient


@pytest.fixture
def client() -> APIClient:
    """A DRF test client (``force_authenticate``, JSON helpers): the API tests' client."""
    return APIClient()
