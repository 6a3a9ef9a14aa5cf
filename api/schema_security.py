"""The ``security`` of the OpenAPI schema, from the one table of route scopes
(api/scopes.py): a drf-spectacular postprocessing hook (SPECTACULAR_SETTINGS).

For each operation: ``security`` lists the ways in it accepts (a bearer token, a legacy
``Token`` key, the session) and ``{}`` exactly where anonymous access is allowed (the
reads of a route whose reads are public; never a write); ``x-scopes`` names the token
scope it needs, and so does a line of its description; 401 (a bad, revoked or expired
token, or none where one is needed) and 403 (``insufficient_scope``) are among its
responses.  The bearer scheme's description lists the scopes.
"""

from __future__ import annotations

import re
from typing import Any

from django.urls import Resolver404, resolve

from accounts.models import ALL_SCOPES
from api.scopes import READ_METHODS, route_of

BEARER = "bearerAuth"
_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_PLACEHOLDER = re.compile(r"\{[^}/]+\}")
_ERROR_REF = "#/components/schemas/ErrorOutput"

SCHEME_TEXT = (
    "A personal API token (`kbz_…`, made at /accounts/tokens/): `Authorization: Bearer "
    "<token>`.  Each token grants some of these scopes, chosen at its creation:\n\n"
    + "\n".join(f"- `{scope.value}`: {scope.label.split(': ', 1)[1]}" for scope in ALL_SCOPES)
    + "\n\nEach operation's `x-scopes` names the scope it needs.  Without it: 403 with "
    '`code: "insufficient_scope"`; an unknown, revoked or expired token: 401.  A session '
    "(or a legacy `Token` key) has every scope."
)


def _view_name(path: str) -> str | None:
    """The URL name of a schema path (``/api/games/{id}/`` → ``api:game-detail``)."""
    try:
        return resolve(_PLACEHOLDER.sub("1", path)).view_name
    except Resolver404:
        return None


def _error(description: str, schemas: dict[str, Any]) -> dict[str, Any]:
    schema: dict[str, Any] = (
        {"$ref": _ERROR_REF}
        if "ErrorOutput" in schemas
        else {
            "type": "object",
            "properties": {"detail": {"type": "string"}, "code": {"type": "string"}},
            "required": ["detail", "code"],
        }
    )
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _secure(operation: dict[str, Any], method: str, path: str, ctx: dict[str, Any]) -> None:
    route = route_of(_view_name(path))
    scope = route.scope(method)
    anonymous = method.upper() in READ_METHODS and route.anonymous_reads
    ways = [way for way in operation.get("security", []) if way] or [
        {name: []} for name in ctx["schemes"]
    ]
    operation["security"] = [*ways, {}] if anonymous else ways
    operation["x-scopes"] = [scope.value]
    line = f"Token scope: `{scope.value}`" + (
        " (or no credentials: public data only)." if anonymous else "."
    )
    text = operation.get("description", "")
    operation["description"] = f"{text}\n\n{line}" if text else line
    responses = operation.setdefault("responses", {})
    schemas = ctx["schemas"]
    responses.setdefault(
        "401",
        _error("an unknown, revoked or expired token (or none, where one is needed)", schemas),
    )
    responses.setdefault("403", _error("the token lacks the scope (`insufficient_scope`)", schemas))


def scope_security(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """The postprocessing hook: see the module's docstring."""
    components = result.setdefault("components", {})
    schemes = components.setdefault("securitySchemes", {})
    if BEARER in schemes:
        schemes[BEARER]["description"] = SCHEME_TEXT
        schemes[BEARER]["x-scopes"] = [scope.value for scope in ALL_SCOPES]
    ctx = {"schemes": list(schemes), "schemas": components.get("schemas", {})}
    for path, item in result.get("paths", {}).items():
        for method, operation in item.items():
            if method in _METHODS:
                _secure(operation, method, path, ctx)
    return result
