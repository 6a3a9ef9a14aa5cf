"""Account pages.  Log in and log out are django.contrib.auth's views (see urls.py);
sign up is here: create the user, log them in, go where they were heading."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.debug import sensitive_post_parameters

from accounts.forms import SignUpForm

SIGNUP_TEMPLATE = "accounts/signup.html"


def _next_url(request: HttpRequest) -> str:
    """The ``next`` parameter when it points at this site, else LOGIN_REDIRECT_URL."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return str(settings.LOGIN_REDIRECT_URL)


@sensitive_post_parameters("password1", "password2")
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(_next_url(request))
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(_next_url(request))
    return render(request, SIGNUP_TEMPLATE, {"form": form, "next": _next_url(request)})
