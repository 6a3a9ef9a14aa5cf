"""Writes to an event: its owner (or staff) edits its name, dates, site, description and
visibility.  The event page's edit form and ``PATCH /api/events/{id}/`` both call
``event_update``; nothing else changes an event's details.

An event's games, standings and matches are read from its uploads each time they are
shown (events/standings.py, events/matches.py), so an edit needs no derived data
brought up to date.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from records.models import Event, Visibility

#: what an owner may change, in the order forms and errors name them
EDITABLE = ("name", "start_date", "end_date", "site", "description", "visibility")
NAME_MAX = 200
SITE_MAX = 200
DESCRIPTION_MAX = 5000


def event_may_edit(*, user: Any, event: Event) -> bool:
    """Whether ``user`` may edit ``event``: its owner, or staff."""
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff) or event.owner_id == user.pk


def clean_name(value: str) -> str:
    """An event name as stored: runs of white space made one space, ends trimmed (as
    uploads name events: records.services.event_pick)."""
    return " ".join(str(value).split())


def event_update(*, event: Event, by: Any, changes: Mapping[str, Any]) -> Event:
    """Apply ``changes`` (a subset of ``EDITABLE``; dates as ``date`` or None) to
    ``event`` for ``by`` and save them.  Raises PermissionDenied when ``by`` may not edit
    it, and ValidationError (a dict: field -> messages) for a bad value, an end date
    before the start, or a name the owner already gives another of their events (case
    ignored); nothing is saved then.  Cost: one query for the name check, one UPDATE."""
    if not event_may_edit(user=by, event=event):
        raise PermissionDenied("only the event's owner or staff may edit it")
    errors: dict[str, list[str]] = {}
    unknown = sorted(set(changes) - set(EDITABLE))
    for key in unknown:
        errors.setdefault(key, []).append(f"not an editable field (use {', '.join(EDITABLE)})")
    values = {key: changes[key] for key in EDITABLE if key in changes}
    if "name" in values:
        values["name"] = clean_name(values["name"] or "")
        if not values["name"]:
            errors.setdefault("name", []).append("an event needs a name")
        elif len(values["name"]) > NAME_MAX:
            errors.setdefault("name", []).append(f"at most {NAME_MAX} characters")
    if "site" in values:
        values["site"] = " ".join(str(values["site"] or "").split())
        if len(values["site"]) > SITE_MAX:
            errors.setdefault("site", []).append(f"at most {SITE_MAX} characters")
    if "description" in values:
        values["description"] = str(values["description"] or "").replace("\r\n", "\n").strip()
        if len(values["description"]) > DESCRIPTION_MAX:
            errors.setdefault("description", []).append(f"at most {DESCRIPTION_MAX} characters")
    if "visibility" in values and values["visibility"] not in Visibility.values:
        errors.setdefault("visibility", []).append(
            f"{values['visibility']!r} is not one of {', '.join(Visibility.values)}"
        )
    for key in ("start_date", "end_date"):
        if key in values and values[key] is not None and not isinstance(values[key], date):
            errors.setdefault(key, []).append("a date, YYYY-MM-DD, or null")
    start = values.get("start_date", event.start_date)
    end = values.get("end_date", event.end_date)
    if isinstance(start, date) and isinstance(end, date) and end < start:
        errors.setdefault("end_date", []).append(
            f"the end ({end.isoformat()}) is before the start ({start.isoformat()})"
        )
    if "name" in values and "name" not in errors:
        _check_name_free(event, values["name"], errors)
    if errors:
        raise ValidationError(errors)
    for key, value in values.items():
        setattr(event, key, value)
    try:
        with transaction.atomic():
            event.save(update_fields=list(values) or None)
    except IntegrityError:  # the same name taken meanwhile by another request
        event.refresh_from_db()
        raise ValidationError({"name": [_taken(values.get("name", ""), None)]}) from None
    return event


def _check_name_free(event: Event, name: str, errors: dict[str, list[str]]) -> None:
    other = (
        Event.objects.filter(owner_id=event.owner_id, name__iexact=name)
        .exclude(pk=event.pk)
        .only("pk")
        .first()
    )
    if other is not None:
        errors.setdefault("name", []).append(_taken(name, other.pk))


def _taken(name: str, pk: int | None) -> str:
    which = f" (event {pk})" if pk is not None else ""
    return f"you already have an event named {name!r}{which}: pick another name"
