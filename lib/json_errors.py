"""The one shape of every JSON error (docs/api.md, "Errors"): ``{"detail": message,
"code": code}``, plus ``"errors": {field: [messages]}`` when a field is at fault.  The
API's exception handler (api.exceptions) and every answer made outside a DRF view (the
middlewares' refusals, the site's throttled downloads, a failed precondition, the 503
while the database is away) build it here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import JsonResponse


def error_body(
    detail: str, code: str, errors: Mapping[str, list[str]] | None = None
) -> dict[str, Any]:
    body: dict[str, Any] = {"detail": detail, "code": code}
    if errors is not None:
        body["errors"] = dict(errors)
    return body


def json_error(
    status: int,
    detail: str,
    code: str,
    *,
    errors: Mapping[str, list[str]] | None = None,
    headers: Mapping[str, str] | None = None,
) -> JsonResponse:
    """A JSON error answer of ``status`` (``headers`` added, e.g. ``Retry-After``)."""
    return JsonResponse(error_body(detail, code, errors), status=status, headers=headers)
