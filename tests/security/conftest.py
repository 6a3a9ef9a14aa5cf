"""Fixtures of the access tests."""

from __future__ import annotations

import pytest

from tests.security.world import World, make_world


@pytest.fixture
def world(db: None) -> World:
    return make_world()
