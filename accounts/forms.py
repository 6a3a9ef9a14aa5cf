"""Sign-up form: Django's UserCreationForm (username + password twice, validated by
AUTH_PASSWORD_VALIDATORS) on the project's user model; the API-token form."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm

from accounts.models import ApiToken


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]
        model = get_user_model()
        fields = ("username",)


class ApiTokenForm(forms.ModelForm):
    """Name a new personal API token (the token itself is generated)."""

    class Meta:
        model = ApiToken
        fields = ("name",)
        labels = {"name": "Description"}
        help_texts = {"name": "What the token is for, e.g. “upload bot”."}
        widgets = {"name": forms.TextInput(attrs={"autocomplete": "off", "maxlength": 100})}


class AccountDeleteForm(forms.Form):
    """Confirm deleting one's account with one's password."""

    password = forms.CharField(
        label="Your password",
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    delete_public = forms.BooleanField(
        required=False,
        label="Also delete my public uploads",
        help_text="Unticked, your public uploads stay in the archive under an account "
        "named “deleted-…”, so the events, standings and ratings they are part of stay "
        "as they are. Your private uploads are always deleted.",
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = str(self.cleaned_data["password"])
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password.")
        return password
