"""The API's one exception handler: every error becomes JSON, never a stack trace.

Shape (lib.json_errors, the one builder of it): ``{"detail": message, "code": code}``,
plus ``"errors": {field: [messages]}`` for validation errors: always a list of strings
per field, however the error was raised (a string, a list, nested errors of a nested
field: made a flat list here); a refusal by the archive's state
(lib.conflict.Conflict) is a 409 of the same shape, code ``conflict``.  Django's
ValidationError and Http404 (raised by services and selectors) map to 400 and 404;
anything unexpected is logged and answered with 500.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from lib.conflict import Conflict
from lib.database_away import DETAIL, RETRY_AFTER, database_away
from lib.json_errors import error_body

logger = logging.getLogger("api")


def _django_validation(exc: DjangoValidationError) -> exceptions.ValidationError:
    if hasattr(exc, "error_dict"):
        return exceptions.ValidationError(exc.message_dict)
    return exceptions.ValidationError({"non_field_errors": exc.messages})


def _flatten(detail: Any) -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            text = _flatten(value)
            return text if key == "non_field_errors" else f"{key}: {text}"
        return "invalid input"
    if isinstance(detail, list):
        return _flatten(detail[0]) if detail else "invalid input"
    return str(detail)


def _messages(detail: Any) -> list[str]:
    """A field's errors as a flat list of strings (nested fields' errors prefixed with
    their key)."""
    if isinstance(detail, dict):
        return [f"{key}: {text}" for key, value in detail.items() for text in _messages(value)]
    if isinstance(detail, list | tuple):
        return [text for value in detail for text in _messages(value)]
    return [str(detail)]


def field_errors(detail: Any) -> dict[str, list[str]]:
    """A validation error's detail as ``{field: [messages]}`` (errors not about one
    field under ``non_field_errors``)."""
    if isinstance(detail, dict):
        return {str(key): _messages(value) or ["invalid"] for key, value in detail.items()}
    return {"non_field_errors": _messages(detail) or ["invalid input"]}


class StateConflict(exceptions.ValidationError):
    """409: a well-formed request the archive's state refuses (lib.conflict.Conflict),
    in the shape of a 400's, with ``errors``."""

    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    if isinstance(exc, Conflict):
        exc = StateConflict(_django_validation(exc).detail)
    elif isinstance(exc, DjangoValidationError):
        exc = _django_validation(exc)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or None)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)

    response = drf_exception_handler(exc, context)
    request = context.get("request")
    if response is None and database_away(exc):
        logger.warning("database unreachable: %s", exc)
        response = Response(
            error_body(DETAIL, "unavailable"),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": str(RETRY_AFTER)},
        )
    elif response is None:
        view = context.get("view")
        logger.error("unhandled error in %s", type(view).__name__, exc_info=exc)
        response = Response(
            error_body("internal server error", "server_error"),
            status=status.HTTP_500_INTERNAL_SERVER_ERROR,
        )
    elif isinstance(exc, exceptions.ValidationError):
        response.data = error_body(
            _flatten(exc.detail),
            "conflict" if isinstance(exc, StateConflict) else "invalid",
            field_errors(exc.detail),
        )
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        response.data = error_body(
            _flatten(exc.detail), codes if isinstance(codes, str) else "error"
        )

    renderer = getattr(request, "accepted_renderer", None)
    if request is not None and (renderer is None or renderer.format not in ("json", "api")):
        # e.g. a missing game asked for as KGN, or an unknown ?format=: errors are JSON
        request.accepted_renderer = JSONRenderer()
        request.accepted_media_type = JSONRenderer.media_type
    return response


class Busy(exceptions.APIException):
    """409: the thing is being worked on (an upload being verified, a record's edit
    awaiting its verdict); the caller tries again once it is done."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = "busy: try again once the work in progress is done"
    default_code = "busy"
