"""Account pages.  Log in and log out are django.contrib.auth's views (see urls.py);
sign up is here: create the user, log them in, go where they were heading.  The API
tokens page lists the user's personal tokens, makes new ones (shown once) and revokes
them."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_POST

from accounts.forms import ApiTokenForm, SignUpForm
from accounts.models import ApiToken

SIGNUP_TEMPLATE = "accounts/signup.html"
TOKENS_TEMPLATE = "accounts/tokens.html"


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


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def tokens(request: HttpRequest) -> HttpResponse:
    """GET: the user's active tokens and a form for a new one.  POST: make a token and
    answer the page with it shown once (no redirect: the token is never stored, so it
    can't be carried to another request); ``never_cache`` keeps it out of caches."""
    form = ApiTokenForm(request.POST or None)
    new_token = None
    if request.method == "POST" and form.is_valid():
        _, new_token = ApiToken.issue(owner=request.user, name=form.cleaned_data["name"])
        form = ApiTokenForm()
    rows = ApiToken.objects.active().filter(owner=request.user)
    context = {"form": form, "tokens": rows, "new_token": new_token}
    return render(request, TOKENS_TEMPLATE, context)


@login_required
@require_POST
def token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """Revoke one of the user's own tokens; anyone else's (or a revoked one) is a 404."""
    token = get_object_or_404(ApiToken.objects.active(), pk=pk, owner=request.user)
    token.revoke()
    messages.success(request, f"Token “{token.name}” ({token.prefix}…) revoked.")
    return redirect("accounts:tokens")
