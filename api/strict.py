"""Strict query parameters and formats, checked before every API view runs.

One source of truth: the OpenAPI schema drf-spectacular generates (/api/schema/).  An
operation accepts the query parameters its schema declares and no others (400 naming
each unknown one; ``format`` is every operation's), and each declared value must be one
its schema allows (type, enum, bounds, pattern, length: 400 naming it), so the schema
and the server agree.  The
parameters are read from the schema once, the first time an API view is asked for.

``?format=`` and ``Accept`` are negotiated alike: a format the operation does not offer
is a 406, as an unmatched ``Accept`` is (DRF answers an unknown ``?format=`` with 404).

This runs as DRF's content negotiation (``DEFAULT_CONTENT_NEGOTIATION_CLASS``), the one
step DRF takes before every API view, after the request is built and before its
authentication; its errors go through api.exceptions like every other.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import Any

from rest_framework.exceptions import NotAcceptable, ValidationError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

from replay import registry

#: declared query parameters: (view class, method) -> name -> its schema
Declared = dict[tuple[type, str], dict[str, dict[str, Any]]]


def declared() -> Declared:
    """Every operation's query parameters, read from the generated schema.  Cost: one
    schema generation (about a second), once per process and again when a game is
    registered (a plug-in's options and facts are parameters too)."""
    return _declared(registry.game_ids())


@functools.cache
def _declared(games: tuple[str, ...]) -> Declared:
    from drf_spectacular.generators import SchemaGenerator

    generator = SchemaGenerator()
    schema = generator.get_schema(request=None, public=True)
    found: Declared = {}
    endpoints: list[Any] = list(generator.endpoints or ())
    for path, _, method, callback in endpoints:
        view = generator.create_view(callback, method)
        operation = schema["paths"].get(generator.coerce_path(path, method, view), {})
        if (op := operation.get(method.lower())) is None:
            continue
        params = {
            p["name"]: {**p.get("schema", {}), "x-description": p.get("description", "")}
            for p in op.get("parameters", ())
        }
        if "enum" in params.get("game", {}):
            # a view's parameters were declared at import: a game registered since
            # (a plug-in) is a game all the same
            params["game"]["enum"] = list(games)
        query = {p["name"] for p in op.get("parameters", ()) if p["in"] == "query"}
        found[(callback.cls, method.upper())] = {n: s for n, s in params.items() if n in query}
    return found


_WHOLE = re.compile(r"-?[0-9]+")
#: open-ended parameter families (``opt.<option>``, ``fact.<name>[.min|.max]``): the
#: schema lists each real member; a name of the family it does not list is left to the
#: search's filter set, which refuses it with a 400 saying why (no such option, a count
#: fact needs .min or .max)
FAMILIES = frozenset({"opt.", "fact."})


def refusal(name: str, value: str, schema: Mapping[str, Any]) -> str | None:
    """Why ``value`` is not one ``schema`` (parameter ``name``'s) allows, or None."""
    kind = schema.get("type", "string")
    if kind == "integer":
        if not _WHOLE.fullmatch(value):
            return f"{value!r} is not a whole number"
        number: float = int(value)
    elif kind == "number":
        try:
            number = float(value)
        except ValueError:
            return f"{value!r} is not a number"
    elif kind == "boolean":
        if value not in ("true", "false"):
            return f"{value!r} is not true or false"
        return None
    else:
        number = 0
    if "enum" in schema and str(value) not in [str(v) for v in schema["enum"]]:
        shown = ", ".join(str(v) for v in schema["enum"])
        return f"unknown {name} {value!r}: use one of {shown}"
    if kind in ("integer", "number"):
        low, high = schema.get("minimum"), schema.get("maximum")
        if low is not None and number < low:
            return f"must be {low} or more"
        if high is not None and number > high:
            return f"must be {high} or less"
        return None
    if (least := schema.get("minLength")) is not None and len(value) < least:
        return "must not be empty" if least == 1 else f"must be {least} characters or more"
    if (most := schema.get("maxLength")) is not None and len(value) > most:
        return f"must be {most} characters or fewer"
    if (pattern := schema.get("pattern")) is not None and not re.search(pattern, value):
        said = schema.get("x-description") or f"the pattern {pattern}"
        return f"{value!r} is not in the expected form: {said}"
    return None


def check_parameters(request: Request, params: Mapping[str, Mapping[str, Any]]) -> None:
    """A 400 naming every query parameter of ``request`` that ``params`` (an
    operation's, from the schema) does not declare, or whose value it does not allow."""
    errors: dict[str, list[str]] = {}
    for name, values in request.query_params.lists():
        if name == "format":  # every operation's (declared where it offers several)
            continue
        family = name.split(".", 1)[0] + "."
        if name not in params and family in FAMILIES and any(n.startswith(family) for n in params):
            continue  # an open-ended family's member: its filter set says what is wrong
        if name not in params:
            errors[name] = [f"unknown parameter {name!r} (see /api/schema/ for this operation's)"]
            continue
        if len(values) > 1 and params[name].get("type") != "array":
            errors[name] = ["given more than once"]
            continue
        if (why := refusal(name, values[0], params[name])) is not None:
            errors[name] = [why]
    if errors:
        raise ValidationError(errors)


class StrictNegotiation(DefaultContentNegotiation):
    """DRF's negotiation, refusing undeclared or disallowed query parameters first, and
    answering a ``?format=`` the view does not offer with 406 rather than 404."""

    def select_renderer(
        self,
        request: Request,
        renderers: Iterable[BaseRenderer],
        format_suffix: str | None = None,
    ) -> tuple[BaseRenderer, str]:
        view = (getattr(request, "parser_context", None) or {}).get("view")
        method = (request.method or "GET").upper()
        params = declared().get((type(view), "GET" if method == "HEAD" else method))
        if params is not None:
            check_parameters(request, params)
        wanted = format_suffix or request.query_params.get(self.settings.URL_FORMAT_OVERRIDE)
        if wanted is not None and not wanted:
            raise ValidationError({"format": ["must not be empty: leave it out, or name one"]})
        renderers = list(renderers)
        if wanted and not any(r.format == wanted for r in renderers):
            offered = ", ".join(sorted({str(r.format) for r in renderers}))
            raise NotAcceptable(f"no format {wanted!r} here: use one of {offered}")
        chosen: tuple[BaseRenderer, str] = super().select_renderer(
            request, renderers, format_suffix
        )
        return chosen
