"""Sign-up form: Django's UserCreationForm (username + password twice, validated by
AUTH_PASSWORD_VALIDATORS) on the project's user model; the API-token form."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils import timezone

from accounts.models import ApiToken, Scope

#: the longest expiry the page offers (ten years)
MAX_DAYS = 3650


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]
        model = get_user_model()
        fields = ("username",)


class ApiTokenForm(forms.ModelForm):
    """A new personal API token: its description, the scopes it grants and an optional
    expiry, as a number of days or a last day (the token itself is generated)."""

    scopes = forms.MultipleChoiceField(
        choices=Scope.choices,
        initial=[Scope.READ],
        widget=forms.CheckboxSelectMultiple,
        label="Scopes",
        help_text="Grant only what the script needs: a bot that reads needs only “read”.",
        error_messages={"required": "Choose at least one scope."},
    )
    expires_in_days = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_DAYS,
        label="Expires after (days)",
        help_text="Empty, and no last day: no expiry.",
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    expires_on = forms.DateField(
        required=False,
        label="…or works until (last day, UTC)",
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    class Meta:
        model = ApiToken
        fields = ("name",)
        labels = {"name": "Description"}
        help_texts = {"name": "What the token is for, e.g. “upload bot”."}
        widgets = {"name": forms.TextInput(attrs={"autocomplete": "off", "maxlength": 100})}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        days, last_day = data.get("expires_in_days"), data.get("expires_on")
        now = timezone.now()
        if days is not None and last_day is not None:
            raise forms.ValidationError("Give a number of days or a last day, not both.")
        if last_day is not None:
            if last_day < timezone.localdate(now):
                self.add_error("expires_on", "That day is past.")
            elif last_day > timezone.localdate(now) + timedelta(days=MAX_DAYS):
                self.add_error("expires_on", f"At most {MAX_DAYS} days from today.")
            # it works through its last day: it stops at the midnight after it
            midnight = datetime.combine(last_day + timedelta(days=1), time.min)
            data["expires_at"] = timezone.make_aware(midnight)
        else:
            data["expires_at"] = None if days is None else now + timedelta(days=days)
        return data


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
