"""Pieces of the OpenAPI schema (drf-spectacular; /api/schema/) the API views share:
the error responses, the bearer-token scheme and query parameters."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

from api.serializers import ErrorOutput

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
