"""The upload form."""

from __future__ import annotations

from django import forms

from records.models import Visibility

#: what the upload file input offers to pick (NOTATION.md §1: .kgn, .kgn.gz, .zip)
UPLOAD_ACCEPT = ".kgn,.gz,.zip"


#: characters of KGN text the form takes pasted (a larger log: upload the file)
PASTE_MAX_CHARS = 2_000_000


class UploadForm(forms.Form):
    """A file, or KGN text pasted (exactly one of them: :meth:`clean`); the text is
    taken in as an upload named ``pasted.kgn`` through the same path as a file."""

    file = forms.FileField(
        label="KGN file",
        required=False,
        help_text="A .kgn file (or .kgn.gz, or a .zip of them) with one or more records.",
        widget=forms.ClearableFileInput({"accept": UPLOAD_ACCEPT}),
    )
    text = forms.CharField(
        label="Or paste KGN text",
        required=False,
        strip=False,
        max_length=PASTE_MAX_CHARS,
        help_text="One or more records, as in a .kgn file; stored as pasted.kgn. "
        "Give a file or text, not both.",
        widget=forms.Textarea(
            {"rows": 8, "spellcheck": "false", "autocomplete": "off", "class": "kgn-text"}
        ),
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

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        has_file = bool(data.get("file"))
        has_text = bool((data.get("text") or "").strip())
        if has_file and has_text:
            self.add_error("text", "Give a file or pasted text, not both.")
        elif not has_file and not has_text and not self.has_error("text"):
            self.add_error("file", "Choose a .kgn file to upload. Or paste KGN text below.")
        return data
