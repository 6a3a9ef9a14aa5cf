"""Account pages.  Log in and log out are django.contrib.auth's views (see urls.py);
sign up is here: create the user, log them in, go where they were heading.  The API
tokens page lists the user's personal tokens, makes new ones (shown once) and revokes
them."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_POST

from accounts.forms import AccountDeleteForm, ApiTokenForm, SignUpForm
from accounts.models import ApiToken
from accounts.throttle import (
    client_ip,
    login_attempt,
    login_succeeded,
    refused_login_form,
    signup_limit,
    wait_words,
)
from records.removal import AccountBusy, AccountDeleted, account_delete


class SignedInRequest(HttpRequest):
    """The request of a view behind ``login_required``: its user is signed in (for the
    type checker; Django's own ``HttpRequest.user`` may be anonymous)."""

    user: User


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


def _throttled(response: HttpResponse, seconds: int) -> HttpResponse:
    response.status_code = 429
    response["Retry-After"] = str(seconds)
    return response


class LoginView(auth_views.LoginView):
    """django.contrib.auth's log-in, each attempt counted per client IP and per username
    before the password is checked (accounts/throttle.py): past the rate, a 429 that
    says how long to wait, without checking the password.  The admin's log-in is this
    view too (accounts/admin_site.py)."""

    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        username = str(request.POST.get("username", ""))[:150]
        wait = login_attempt(request, username)
        if wait:
            form = refused_login_form(self.get_form_class(), request, wait)
            return _throttled(self.render_to_response(self.get_context_data(form=form)), wait)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        login_succeeded(self.request, str(self.request.POST.get("username", ""))[:150])
        return super().form_valid(form)


@sensitive_post_parameters("password1", "password2")
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(_next_url(request))
    form = SignUpForm(request.POST or None)
    context = {"form": form, "next": _next_url(request)}
    if request.method == "POST":
        wait = signup_limit().wait(client_ip(request))
        if wait:
            form.is_valid()  # bound: show what was typed, refuse it
            form.errors.clear()
            form.add_error(
                None, f"Too many new accounts from here. Try again in {wait_words(wait)}."
            )
            return _throttled(render(request, SIGNUP_TEMPLATE, context), wait)
        if form.is_valid():
            user = form.save()
            signup_limit().take(client_ip(request))
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect(_next_url(request))
    return render(request, SIGNUP_TEMPLATE, context)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def tokens(request: SignedInRequest) -> HttpResponse:
    """GET: the user's active tokens (scopes, expiry) and a form for a new one (its
    scopes and expiry chosen there).  POST: make a token and
    answer the page with it shown once (no redirect: the token is never stored, so it
    can't be carried to another request); ``never_cache`` keeps it out of caches."""
    form = ApiTokenForm(request.POST or None)
    new_token = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        _, new_token = ApiToken.issue(
            owner=request.user,
            name=data["name"],
            scopes=data["scopes"],
            expires_at=data["expires_at"],
        )
        form = ApiTokenForm()
    rows = ApiToken.objects.active().filter(owner=request.user)
    context = {"form": form, "tokens": rows, "new_token": new_token, "now": timezone.now()}
    return render(request, TOKENS_TEMPLATE, context)


@login_required
@require_POST
def token_revoke(request: SignedInRequest, pk: int) -> HttpResponse:
    """Revoke one of the user's own tokens; anyone else's (or a revoked one) is a 404."""
    token = get_object_or_404(ApiToken.objects.active(), pk=pk, owner=request.user)
    token.revoke()
    messages.success(request, f"Token “{token.name}” ({token.prefix}…) revoked.")
    return redirect("accounts:tokens")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _deleted_words(done: AccountDeleted) -> str:
    kept = f"; {_plural(done.kept, 'public upload')} kept as {done.placeholder}"
    return f"Your account is deleted ({_plural(done.deleted, 'upload')} deleted" + (
        f"{kept})." if done.kept else ")."
    )


@never_cache
@login_required
@sensitive_post_parameters("password")
@require_http_methods(["GET", "POST"])
def account_delete_view(request: SignedInRequest) -> HttpResponse:
    """GET: what goes and what stays, and the form.  POST (with the password): delete the
    account, log out, go home."""
    form = AccountDeleteForm(request.POST or None, user=request.user)
    uploads = request.user.uploads.all()
    status = 200
    if request.method == "POST" and form.is_valid():
        user = request.user
        try:
            done = account_delete(user=user, keep_public=not form.cleaned_data["delete_public"])
        except AccountBusy as exc:
            form.add_error(None, str(exc)[:1].upper() + str(exc)[1:] + ".")
            status = 409
        else:
            logout(request)
            messages.success(request, _deleted_words(done))
            return redirect("search:home")
    elif request.method == "POST":
        status = 400
    context = {
        "form": form,
        "private": uploads.exclude(visibility="public").count(),
        "public": uploads.filter(visibility="public").count(),
    }
    return render(request, "accounts/delete.html", context, status=status)
