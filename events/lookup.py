"""Which event a reference names, for a viewer: the ``event=`` filter of the game search
(pages, KGN export, the API's game lists) and the event part of a match's URL.

A reference is one of (docs/organisers.md, "Events"):

- an id: ``12`` (a whole number is always an id);
- the owner's username and the name: ``alice/Bot Cup 2025`` (when the part before the
  first ``/`` is a username; the name's case is ignored);
- a name alone: ``Bot Cup 2025`` (case ignored), kept for old links and searches; it
  names an event only when exactly one event the viewer may open has that name, and is
  refused otherwise with the ids and owners of the events it could mean.

Only events the viewer may open count (``events.standings.events_shown``): a private
event of someone else is never found, so a reference cannot tell whether it exists.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from events.standings import events_shown
from records.models import Event

#: ambiguous names list at most this many of the events they could mean
LISTED = 10


def event_find(*, user: Any, ref: str) -> Event | None:
    """The event ``ref`` names among those ``user`` may open, or None when it names
    none of them.  Raises ValidationError (code ``ambiguous``) for a name alone that
    several of them have, listing their ids and owners.  Cost: one or two queries."""
    ref = " ".join(str(ref).split())
    if not ref:
        return None
    events = events_shown(user=user).select_related("owner")
    if ref.isdigit():
        return events.filter(pk=int(ref)).first()
    owner, slash, name = ref.partition("/")
    if slash and get_user_model().objects.filter(username=owner.strip()).exists():
        found = list(events.filter(owner__username=owner.strip(), name__iexact=name.strip()))
        return _one(found, ref, name.strip())
    return _one(list(events.filter(name__iexact=ref)[: LISTED + 1]), ref, ref)


def _one(found: list[Event], ref: str, name: str) -> Event | None:
    if len(found) <= 1:
        return found[0] if found else None
    exact = [event for event in found if event.name == name]
    if len(exact) == 1:
        return exact[0]
    raise ValidationError(ambiguous_message(ref, found), code="ambiguous")


def ambiguous_message(ref: str, found: list[Event]) -> str:
    """Why ``ref`` names no single event: the events it could mean."""
    shown = sorted(found, key=lambda e: e.pk)[:LISTED]
    listed = ", ".join(f"{e.pk} ({e.owner.get_username()}/{e.name})" for e in shown)
    more = " and more" if len(found) > LISTED else ""
    return (
        f"{ref!r} names {len(found)} events you can see: {listed}{more}; "
        "give the event's id (event=12) or its owner and name (event=owner/name)"
    )


def event_ref(event: Event) -> str:
    """The owner-and-name reference of ``event`` (``alice/Bot Cup 2025``)."""
    return f"{event.owner.get_username()}/{event.name}"
