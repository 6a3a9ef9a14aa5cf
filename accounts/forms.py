"""Sign-up form: Django's UserCreationForm (username + password twice, validated by
AUTH_PASSWORD_VALIDATORS) on the project's user model; the API-token form."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm

from accounts.models import ApiToken


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username",)


class ApiTokenForm(forms.ModelForm):  # type: ignore[type-arg]
    """Name a new personal API token (the token itself is generated)."""

    class Meta:
        model = ApiToken
        fields = ("name",)
        labels = {"name": "Description"}
        help_texts = {"name": "What the token is for, e.g. “upload bot”."}
        widgets = {"name": forms.TextInput(attrs={"autocomplete": "off", "maxlength": 100})}
