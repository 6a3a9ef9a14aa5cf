"""A refusal by the archive's current state, not by the request's form.

``Conflict`` is a Django ValidationError, so a page's form shows it like any other
error; the API answers it with 409 (api.exceptions), where a malformed request is a 400:
a claim decided already, a player merged meanwhile or into itself, games that do not
hold the player.  A schema-valid request can meet these; its own form cannot prevent
them."""

from __future__ import annotations

from django.core.exceptions import ValidationError


class Conflict(ValidationError):
    """The archive's state refuses a well-formed request (409 on the API)."""
