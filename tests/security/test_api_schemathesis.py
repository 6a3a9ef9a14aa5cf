"""schemathesis against the live server (pytest-django ``live_server``, PostgreSQL):
every operation of the schema, generated requests that fit it (positive) and that
break it (negative), with an owner's token, checked with schemathesis' whole check set
(response and status conformance, negative data rejection, positive data acceptance,
...).  Bounded: ``EXAMPLES`` requests per operation and mode (about a minute on two
cores).  No operation is left out.  One check is widened, for one operation and two
documented answers only (``_upload_acceptance``): a schema says a file is bytes, not
that it holds KGN, and OpenAPI cannot say that two query parameters exclude each other,
so an upload of a file without a KGN record, or naming its event both by id and by
name, is a schema-valid request the server rightly refuses."""

from __future__ import annotations

from typing import Any

import hypothesis
import hypothesis.errors
import pytest
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from accounts.models import ApiToken
from tests.fuzzing import fuzz_settings, fuzzable_schema, served_schema

#: generated requests per operation and mode
EXAMPLES = 6

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_throttles")]


#: the 400s of a schema-valid upload its schema documents but cannot express
UNFORESEEABLE = ("no KGN record was found", "give the event by id (event) or by name")


def _upload_acceptance(ctx: Any, response: Any, case: Any) -> bool | None:
    """positive_data_acceptance for ``POST /api/uploads/``, which also takes the 400s
    in UNFORESEEABLE (nothing is stored).  Any other 400 to a schema-valid upload still
    fails."""
    if response.status_code == 400 and case.meta and case.meta.generation.mode.is_positive:
        body = response.json()
        assert body["code"] == "invalid", body
        assert any(text in body["detail"] for text in UNFORESEEABLE), body
        return None
    return positive_data_acceptance(ctx, response, case)


def _checks(operation: Any) -> dict[str, Any]:
    """Every check; for ``POST /api/uploads/``, _upload_acceptance in the place of
    positive_data_acceptance."""
    if (operation.method.upper(), operation.path) != ("POST", "/api/uploads/"):
        return {}
    return {
        "excluded_checks": [positive_data_acceptance],
        "additional_checks": [_upload_acceptance],
    }


def _no_cursor(mode: GenerationMode) -> Any:
    """A schema-valid request carries no ``cursor``: a cursor is a value the server signed
    (any other string is rightly a 400, which the negative mode checks), so none can be
    generated from the schema."""

    def strip(case: Any) -> Any:
        if mode is GenerationMode.POSITIVE and case.query:
            case.query.pop("cursor", None)
        return case

    return strip


def test_every_operation_passes_every_check(
    live_server: Any, user_factory: Any, upload_factory: Any, kgn: Any
) -> None:
    owner = user_factory("owner")
    upload_factory(owner=owner, text=kgn.valid(3, seed=95))
    token = ApiToken.issue(owner=owner, name="schemathesis")[1]
    raw = served_schema()
    schema = fuzzable_schema(raw)
    failures: dict[str, str] = {}
    ran = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        name = f"{operation.method.upper()} {operation.path}"
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @fuzz_settings(EXAMPLES)
            @hypothesis.given(
                case=operation.as_strategy(generation_mode=mode).map(_no_cursor(mode))
            )
            def run(case: Any) -> None:
                case.call_and_validate(
                    base_url=live_server.url,
                    headers={"Authorization": f"Bearer {token}"},
                    **_checks(case.operation),
                )

            try:
                run()
            except hypothesis.errors.Unsatisfiable:  # nothing to break (negative mode)
                pass
            except (Exception, BaseExceptionGroup) as exc:  # every failing operation, reported
                text = str(exc).splitlines()
                found = [line.strip() for line in text if line.startswith(("- ", "    curl"))]
                failures[f"{name} ({mode.value})"] = " | ".join(found)[:600] or text[0]
            ran += 1
    every = sum(1 for item in raw["paths"].values() for m in item if m != "parameters")
    assert ran == 2 * every and every >= 35
    assert not failures, "\n".join(f"{k}: {v}" for k, v in sorted(failures.items()))
