"""The event edit form (``/events/<id>/edit/``): what an owner may change of an event.
The checks that need the archive (a name the owner already uses, the end before the
start) are ``events.services.event_update``'s; the view hands its errors back here."""

from __future__ import annotations

from typing import Any

from django import forms

from events.services import DESCRIPTION_MAX, NAME_MAX, SITE_MAX
from records.models import Event, Visibility


class EventForm(forms.Form):
    name = forms.CharField(max_length=NAME_MAX)
    start_date = forms.DateField(
        required=False, label="First day", widget=forms.DateInput({"type": "date"})
    )
    end_date = forms.DateField(
        required=False,
        label="Last day",
        widget=forms.DateInput({"type": "date"}),
        help_text="Optional; not before the first day.",
    )
    site = forms.CharField(max_length=SITE_MAX, required=False, label="Site")
    description = forms.CharField(
        max_length=DESCRIPTION_MAX,
        required=False,
        widget=forms.Textarea({"rows": 6}),
        help_text="Plain text; line breaks are kept.",
    )
    visibility = forms.ChoiceField(
        choices=Visibility.choices,
        widget=forms.RadioSelect,
        help_text="A private event, and its name, are shown to you (and staff) only; "
        "the games of its public uploads stay public, without the event's name.",
    )

    @classmethod
    def of(cls, event: Event, data: Any = None) -> EventForm:
        """The form for ``event``, filled with its details (bound to ``data`` if given)."""
        initial = {
            "name": event.name,
            "start_date": event.start_date,
            "end_date": event.end_date,
            "site": event.site,
            "description": event.description,
            "visibility": event.visibility,
        }
        return cls(data, initial=initial) if data is not None else cls(initial=initial)
