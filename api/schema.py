"""Pieces of the OpenAPI schema (drf-spectacular; /api/schema/) the API views share:
the error responses, the bearer-token scheme and query parameters (those of a
django-filter FilterSet generated from it: ``filter_parameters``), and the schema class
that declares ``?format=`` on every operation offering more than JSON (the schema is
what api.strict checks each request's parameters against)."""

from __future__ import annotations

from typing import Any

from django import forms
from django_filters import FilterSet
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

from api.serializers import ErrorOutput
from search.filter_fields import description

_ERRORS = {
    400: OpenApiResponse(ErrorOutput, description="invalid input, naming the parameter"),
    404: OpenApiResponse(ErrorOutput, description="no such object, or not visible to you"),
}
_THROTTLED = {
    429: OpenApiResponse(
        ErrorOutput, description="too many requests: wait the seconds `Retry-After` says"
    )
}
_STR, _INT = OpenApiTypes.STR, OpenApiTypes.INT


class BearerTokenScheme(OpenApiAuthenticationExtension):
    """Personal API tokens (api.authentication) in the schema: HTTP bearer auth."""

    target_class = "api.authentication.BearerTokenAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix="Bearer"
        )


def _query(name: str, kind: Any, text: str, **extra: Any) -> OpenApiParameter:
    return OpenApiParameter(name, kind, OpenApiParameter.QUERY, description=text, **extra)


def _path(name: str, kind: Any, text: str) -> OpenApiParameter:
    return OpenApiParameter(name, kind, OpenApiParameter.PATH, description=text)


_COUNT = {"type": "integer", "minimum": 0}


def filter_parameters(filterset: type[FilterSet]) -> list[OpenApiParameter]:
    """Every filter of ``filterset`` as a query parameter of the schema, described as
    the filter says (search.filter_fields.described): its type, its values when it has
    a fixed set, its bounds and pattern."""
    parameters = []
    for name, filter_ in filterset.base_filters.items():
        extra = filter_.extra
        field = filter_.field_class
        whole = issubclass(field, forms.IntegerField) or extra.get("coerce") is int
        schema: dict[str, Any] = {"type": "integer" if whole else "string"}
        offered = extra.get("choices", ())
        offered = offered() if callable(offered) else offered  # the registry's, as of now
        values = [value for value, _ in offered if value != ""]
        if values:
            schema["enum"] = [int(v) for v in values] if whole else values
        if extra.get("min_value") is not None:
            schema["minimum"] = extra["min_value"]
        if pattern := getattr(field, "pattern", None):
            schema["pattern"] = pattern
        parameters.append(_query(name, schema, description(filter_)))
    return parameters


class KibitzAutoSchema(AutoSchema):
    """drf-spectacular's schema of an operation, with answers in JSON alone for writes
    (the views' other renderers, NDJSON and KGN, are for reads): so ``?format=`` is
    declared on reads offering several formats only (api.strict negotiates it on every
    operation: ``json`` is always fine, a format not offered is a 406)."""

    def map_renderers(self, attribute: str) -> list[Any]:
        found: list[Any] = super().map_renderers(attribute)
        if self.method in ("GET", "HEAD"):
            return found
        return [v for v in found if v in ("json", "application/json")]

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        """The operation, with the errors every operation may answer (api.strict): 400
        for a parameter it does not declare or a value it does not allow, 406 for a
        format it does not offer."""
        operation: dict[str, Any] | None = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        error = {"schema": self.resolve_serializer(ErrorOutput, "response").ref}
        for code, text in _STRICT.items():
            operation["responses"].setdefault(
                code, {"description": text, "content": {"application/json": error}}
            )
        return operation


_STRICT = {
    "400": "a query parameter the operation does not declare, or a value it does not allow",
    "406": "a format (`?format=` or `Accept`) the operation does not offer",
}
