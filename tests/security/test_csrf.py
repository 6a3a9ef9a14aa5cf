"""CSRF: every route of the site refuses a state-changing request from a signed-in
browser session that lacks the CSRF token (a forged form on another site), with the
site's own 403 page or a JSON error, and nothing changes; with the token, the forms
work.  Routes come from the access matrix, so a new route is checked here too."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from records.models import Event, Upload
from tests.security.world import (
    COUNTS,
    LISTS,
    NO_RECORDS,
    OBJECTS,
    PUBLIC_ONLY,
    RATINGS,
    World,
    route_names,
    route_paths,
)

pytestmark = pytest.mark.django_db

#: the routes without record data, and a path of each
PLAIN = {
    "accounts:login": "/accounts/login/",
    "accounts:logout": "/accounts/logout/",
    "accounts:signup": "/accounts/signup/",
    "accounts:tokens": "/accounts/tokens/",
    "accounts:token-revoke": "/accounts/tokens/{token}/revoke/",
    "accounts:delete": "/accounts/delete/",
    "records:upload-new": "/uploads/new/",
    "api:schema": "/api/schema/",
    "api:docs": "/api/docs/",
    "api:not-found": "/api/nothing-here/",
    "api:ruleset-list": "/api/rulesets/",
    "api:ruleset-detail": "/api/rulesets/escalation-pierce/",
    # (the CSRF check comes before any lookup: the ids need not exist)
    "players:claims": "/players/claims/",
    "api:player-claims": "/api/players/claims/",
    "players:player-claim": "/players/1/claim/",
    "players:claim-approve": "/players/claims/1/approve/",
    "players:claim-refuse": "/players/claims/1/refuse/",
    "players:claim-withdraw": "/players/claims/1/withdraw/",
    "api:player-claim": "/api/players/1/claim/",
    "api:player-claim-approve": "/api/players/claims/1/approve/",
    "api:player-claim-refuse": "/api/players/claims/1/refuse/",
    "api:player-claim-withdraw": "/api/players/claims/1/withdraw/",
    "api:player-merge": "/api/players/1/merge/",
    "api:player-split": "/api/players/1/split/",
    "api:record-edits": "/api/uploads/1/records/1/edits/",
    "api:game-best": "/api/games/1/best/?step=0",
    "viewer:game-costs": "/games/1/costs.json",
}


def _every_path(world: World) -> dict[str, str]:
    token, _ = ApiToken.issue(owner=world.owner, name="kept")
    paths = {**route_paths(world, {**OBJECTS, **LISTS, **RATINGS, **COUNTS, **PUBLIC_ONLY})}
    paths.update({name: path.format(token=token.pk) for name, path in PLAIN.items()})
    assert (
        set(paths)
        == route_names()
        == set(PLAIN) | set(OBJECTS) | set(LISTS) | set(RATINGS) | set(COUNTS) | set(PUBLIC_ONLY)
    )
    assert set(PLAIN) == set(NO_RECORDS)
    return paths


def _state(world: World) -> tuple[Any, ...]:
    world.owner.refresh_from_db()
    return (
        sorted(Upload.objects.values_list("pk", "visibility", "status")),
        sorted(ApiToken.objects.values_list("pk", "revoked_at")),
        sorted(Event.objects.values_list("pk", "name", "site", "description", "visibility")),
        world.owner.is_active,
    )


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_no_route_takes_a_write_without_the_csrf_token(world: World, method: str) -> None:
    paths = _every_path(world)
    before = _state(world)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(world.owner)
    for name, path in sorted(paths.items()):
        if name not in PLAIN:  # a read's query (?include=...) is not the write's
            path = path.split("?", 1)[0]
        response = getattr(browser, method)(path, {"visibility": "public", "confirm": "yes"})
        where = f"{method.upper()} {path} ({name})"
        assert response.status_code == 403, (where, response.status_code)
        body = response.content.decode()
        assert "Traceback" not in body, where
        if name.startswith("api:"):
            assert "CSRF" in response.json()["detail"], where
        else:
            assert "The form could not be sent" in body, where
    assert _state(world) == before


def test_the_forms_work_with_the_token(world: World) -> None:
    """The refusal above is the token's doing: the same browser, with the token its
    page gave it, deletes an upload."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(world.owner)
    page = browser.get(reverse("records:upload-delete", args=[world.private.pk]))
    assert page.status_code == 200
    token = page.cookies["csrftoken"].value
    done = browser.post(
        reverse("records:upload-delete", args=[world.private.pk]),
        {"csrfmiddlewaretoken": token},
    )
    assert done.status_code == 302
    assert not Upload.objects.filter(pk=world.private.pk).exists()
