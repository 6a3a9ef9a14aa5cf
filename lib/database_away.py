"""Telling "the database cannot be reached" apart from every other error: while it is
away every route answers 503 with ``Retry-After`` (config/errors.py for the site and
any route, api.exceptions for the API's views), not 500."""

from __future__ import annotations

from django.db import InterfaceError, OperationalError

#: what a 503 asks the client to wait, seconds (the database usually returns within it)
RETRY_AFTER = 30
#: what a 503's JSON says
DETAIL = f"the database is unreachable; try again in {RETRY_AFTER} seconds"


def database_away(exc: BaseException | None) -> bool:
    """Whether ``exc`` says the database cannot be reached (a refused, dropped or
    timed-out connection: Django's OperationalError or InterfaceError), not a bad
    query."""
    return isinstance(exc, (OperationalError, InterfaceError))
