"""Django's admin site with the site's log-in throttle (accounts/throttle.py): every
attempt at ``/admin/login/`` is counted per client address and per username before its
password is checked, in the same counts as ``/accounts/login/``, so guessing a staff
password is no easier here than there (issue 27: 15 wrong staff passwords answered 200)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.views.decorators.cache import never_cache

from accounts.throttle import login_attempt, login_succeeded, refused_login_form


class KibitzAdminSite(admin.AdminSite):
    @method_decorator(never_cache)
    def login(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> Any:
        if request.method != "POST":
            return super().login(request, extra_context)
        username = str(request.POST.get("username", ""))[:150]
        wait = login_attempt(request, username)
        if wait:
            return self._refused(request, wait)
        response = super().login(request, extra_context)
        if request.user.is_authenticated:  # the password was right: Django logged them in
            login_succeeded(request, username)
        return response

    def _refused(self, request: HttpRequest, wait: int) -> HttpResponse:
        """Django's admin log-in page (its template and context), with the wait said."""
        context = {
            **self.each_context(request),
            "title": "Log in",
            "subtitle": None,
            "app_path": request.get_full_path(),
            "username": request.user.get_username(),
            "form": refused_login_form(self.login_form or AdminAuthenticationForm, request, wait),
            REDIRECT_FIELD_NAME: request.POST.get(REDIRECT_FIELD_NAME)
            or reverse("admin:index", current_app=self.name),
        }
        request.current_app = self.name
        response = TemplateResponse(
            request, self.login_template or "admin/login.html", context, status=429
        )
        response["Retry-After"] = str(wait)
        return response
