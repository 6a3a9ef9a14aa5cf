"""Sign-up form: Django's UserCreationForm (username + password twice, validated by
AUTH_PASSWORD_VALIDATORS) on the project's user model."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username",)
