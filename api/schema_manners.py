"""The HTTP manners in the OpenAPI schema (a drf-spectacular postprocessing hook,
SPECTACULAR_SETTINGS): the validators and 304 of every GET (api/conditional.py), the
RateLimit headers of every answer and Retry-After of a 429 (api/throttling.py), and
the JSON 414 of an over-long URL (api/middleware.py)."""

from __future__ import annotations

from typing import Any

_HEADERS: dict[str, dict[str, Any]] = {
    "ETag": {
        "description": "validator of this answer for this asker (docs/api.md, Conditional "
        "requests): send it back as If-None-Match",
        "schema": {"type": "string"},
    },
    "LastModified": {
        "description": "Last-Modified: send it back as If-Modified-Since",
        "schema": {"type": "string"},
    },
    "RateLimitLimit": {
        "description": "RateLimit-Limit: requests the throttle closest to its limit allows "
        "in its window",
        "schema": {"type": "integer", "minimum": 1},
    },
    "RateLimitRemaining": {
        "description": "RateLimit-Remaining: requests left in that window",
        "schema": {"type": "integer", "minimum": 0},
    },
    "RateLimitReset": {
        "description": "RateLimit-Reset: seconds until one more request is let through",
        "schema": {"type": "integer", "minimum": 0},
    },
    "RetryAfter": {
        "description": "Retry-After: seconds to wait before trying again",
        "schema": {"type": "integer", "minimum": 0},
    },
}
_NAMES = {
    "ETag": "ETag",
    "LastModified": "Last-Modified",
    "RateLimitLimit": "RateLimit-Limit",
    "RateLimitRemaining": "RateLimit-Remaining",
    "RateLimitReset": "RateLimit-Reset",
    "RetryAfter": "Retry-After",
}
_RATE = ("RateLimitLimit", "RateLimitRemaining", "RateLimitReset")
_METHODS = ("get", "post", "put", "patch", "delete")


def _refs(*names: str) -> dict[str, Any]:
    return {_NAMES[n]: {"$ref": f"#/components/headers/{n}"} for n in names}


def document_manners(result: dict[str, Any], generator: Any, request: Any, public: Any) -> Any:
    components = result.setdefault("components", {})
    components.setdefault("headers", {}).update(_HEADERS)
    error = "#/components/schemas/ErrorOutput"
    has_error = "ErrorOutput" in components.get("schemas", {})
    for operations in result.get("paths", {}).values():
        for method in _METHODS:
            operation = operations.get(method)
            if operation is None:
                continue
            responses = operation.setdefault("responses", {})
            for code, response in responses.items():
                headers = response.setdefault("headers", {})
                headers.update(_refs(*_RATE))
                if code == "429":
                    headers.update(_refs("RetryAfter"))
                if method == "get" and code == "200":
                    headers.update(_refs("ETag", "LastModified"))
            if method == "get" and "200" in responses:
                responses["304"] = {
                    "description": "Not Modified: the copy named by If-None-Match (or "
                    "If-Modified-Since) is current; no body",
                    "headers": _refs("ETag", "LastModified", *_RATE),
                }
            if has_error and "414" not in responses:
                responses["414"] = {
                    "description": "the URL is longer than the server reads (KIBITZ_MAX_URL_BYTES)",
                    "content": {"application/json": {"schema": {"$ref": error}}},
                }
    return result
