"""Forms of the archive pages: the game-list filters and the upload form."""

from __future__ import annotations

from django import forms

from records.models import GameStatus, Visibility
from replay.registry import KNOWN_GAMES

#: the query parameters of /games/, named as the API's filters
FILTER_FIELDS = ("q", "game", "player", "event", "status")
#: what the upload file input offers to pick (NOTATION.md §1: .kgn, .kgn.gz, .zip)
UPLOAD_ACCEPT = ".kgn,.gz,.zip"


class GameFilterForm(forms.Form):
    """The /games/ filters.  Every field is optional; ``filters()`` is what the
    game_list selector takes (only the valid, non-empty ones)."""

    q = forms.CharField(
        label="Search", required=False, max_length=200, widget=forms.TextInput({"type": "search"})
    )
    game = forms.ChoiceField(
        label="Game", required=False, choices=[("", "Any game"), *((g, g) for g in KNOWN_GAMES)]
    )
    player = forms.CharField(label="Player", required=False, max_length=100)
    event = forms.CharField(label="Event", required=False, max_length=200)
    status = forms.ChoiceField(
        label="Status", required=False, choices=[("", "Any status"), *GameStatus.choices]
    )

    def filters(self) -> dict[str, str]:
        if not self.is_bound:
            return {}
        self.is_valid()
        cleaned = getattr(self, "cleaned_data", {})
        return {name: cleaned[name] for name in FILTER_FIELDS if cleaned.get(name)}


class UploadForm(forms.Form):
    file = forms.FileField(
        label="KGN file",
        help_text="A .kgn file (or .kgn.gz, or a .zip of them) with one or more records.",
        widget=forms.ClearableFileInput({"accept": UPLOAD_ACCEPT}),
        error_messages={"required": "Choose a .kgn file to upload."},
    )
    event = forms.CharField(
        label="Event",
        required=False,
        max_length=200,
        help_text="One of your events, or a new name. Left empty, the first record's "
        "Event tag names it.",
        widget=forms.TextInput({"list": "event-options", "autocomplete": "off"}),
    )
    visibility = forms.ChoiceField(
        label="Who can see it",
        choices=Visibility.choices,
        initial=Visibility.PUBLIC,
        widget=forms.RadioSelect,
        required=False,
    )

    def clean_visibility(self) -> str:
        """Public unless private is chosen (a form posted without the radio is public)."""
        return self.cleaned_data.get("visibility") or Visibility.PUBLIC
