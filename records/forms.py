"""The upload form."""

from __future__ import annotations

from django import forms

from records.models import Visibility

#: what the upload file input offers to pick (NOTATION.md §1: .kgn, .kgn.gz, .zip)
UPLOAD_ACCEPT = ".kgn,.gz,.zip"


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
