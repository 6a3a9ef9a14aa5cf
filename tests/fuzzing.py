"""What the API's fuzz tests share (tests/api/test_api_schema.py,
tests/security/test_api_fuzz.py, tests/security/test_api_schemathesis.py): Hypothesis
settings that make a run repeatable and bounded, the schema the server serves as
schemathesis reads it, and a fixture that lets every generated request reach a view."""

from __future__ import annotations

import copy
from typing import Any

import hypothesis
import pytest


def fuzz_settings(examples: int) -> hypothesis.settings:
    """``examples`` cases a test, the same ones every run (derandomized, no example
    database), no deadline (a live server answers in its own time) and no health check
    (generated requests are slow to build by design)."""
    return hypothesis.settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(hypothesis.HealthCheck),
    )


def served_schema() -> dict[str, Any]:
    """The OpenAPI schema as ``/api/schema/`` serves it (imported here: this module is
    a plugin, loaded before Django's apps are)."""
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


def fuzzable_schema(raw: dict[str, Any] | None = None) -> Any:
    """``raw`` (by default the served schema) as schemathesis reads it, from a copy:
    schemathesis resolves references in place."""
    import schemathesis

    return schemathesis.openapi.from_dict(copy.deepcopy(raw or served_schema()))


@pytest.fixture
def no_throttles(settings: Any) -> None:
    """Every generated request reaches a view (throttling has tests of its own)."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "uploads": None},
    }
