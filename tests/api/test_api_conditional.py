"""Conditional requests: ETag and Last-Modified on every detail and export, 304 Not
Modified on If-None-Match / If-Modified-Since, validators that depend on who asks and
that change with the data (re-verification, a record edit, a deletion, a new game)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from accounts.models import ApiToken
from records.mend import edit_submit, edit_verify
from records.models import Game, Record
from records.removal import upload_delete
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db

KGN_EXPORT = "/api/games/?format=kgn"
NDJSON_EXPORT = "/api/games/?format=ndjson"


def _token_client(user: Any) -> APIClient:
    _, token = ApiToken.issue(owner=user, name="bot")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def _validators(client: APIClient, url: str) -> tuple[str, str]:
    response = client.get(url)
    assert response.status_code == 200, url
    if response.streaming:
        b"".join(response.streaming_content)  # type: ignore[attr-defined]
    vary = {v.strip().lower() for v in response["Vary"].split(",")}
    assert {"authorization", "cookie"} <= vary
    return response["ETag"], response["Last-Modified"]


def _assert_304(client: APIClient, url: str, etag: str, modified: str) -> None:
    by_etag = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert by_etag.status_code == 304, url
    assert by_etag["ETag"] == etag and not by_etag.content
    by_date = client.get(url, HTTP_IF_MODIFIED_SINCE=modified)
    assert by_date.status_code == 304, url


def _assert_changed(client: APIClient, url: str, etag: str, modified: str) -> None:
    response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200, url
    assert response["ETag"] != etag
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=modified).status_code == 200, url


def test_every_detail_and_export_answers_304_to_its_own_validators() -> None:
    owner = make_user("organiser")
    upload = make_upload(owner=owner, text=Kgn.valid(2, seed=41, event="Cup"))
    record = upload.records.order_by("index").first()
    assert record is not None
    game = record.game
    player = game.seats.first().player
    event_id = upload.event_id
    client = APIClient()
    urls = [
        f"/api/games/{game.pk}/",
        f"/api/games/{game.pk}/?format=kgn",
        f"/api/uploads/{upload.pk}/",
        f"/api/uploads/{upload.pk}/records/{record.index}/",
        f"/api/players/{player.pk}/",
        "/api/games/",
        KGN_EXPORT,
        NDJSON_EXPORT,
        f"/api/players/{player.pk}/games/?format=kgn",
    ]
    if event_id is not None:
        urls += [f"/api/events/{event_id}/", f"/api/events/{event_id}/games/?format=kgn"]
    for url in urls:
        etag, modified = _validators(client, url)
        _assert_304(client, url, etag, modified)
    # the site's export too
    response = client.get("/games/export.kgn?game=escalation-pierce")
    b"".join(response.streaming_content)  # type: ignore[attr-defined]
    _assert_304(
        client,
        "/games/export.kgn?game=escalation-pierce",
        response["ETag"],
        response["Last-Modified"],
    )


def test_a_304_of_an_export_reads_no_game(django_assert_max_num_queries: Any) -> None:
    make_upload(text=Kgn.valid(3, seed=42))
    client = APIClient()
    etag, _ = _validators(client, KGN_EXPORT)
    # the fingerprint's aggregates, not the records' text
    with django_assert_max_num_queries(6):
        assert client.get(KGN_EXPORT, HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_validators_depend_on_who_asks() -> None:
    owner = make_user("owner")
    make_upload(owner=owner, text=Kgn.valid(1, seed=43), visibility="public")
    make_upload(owner=owner, text=Kgn.valid(1, seed=44), visibility="private")
    anonymous, mine = APIClient(), _token_client(owner)
    for url in ("/api/games/", KGN_EXPORT, NDJSON_EXPORT):
        anon_etag, _ = _validators(anonymous, url)
        own_etag, _ = _validators(mine, url)
        assert anon_etag != own_etag
        # neither copy is current for the other
        assert mine.get(url, HTTP_IF_NONE_MATCH=anon_etag).status_code == 200
        assert anonymous.get(url, HTTP_IF_NONE_MATCH=own_etag).status_code == 200
    public_game = Game.objects.filter(public=True).get()
    url = f"/api/games/{public_game.pk}/"
    anon_etag, _ = _validators(anonymous, url)
    assert mine.get(url, HTTP_IF_NONE_MATCH=anon_etag).status_code == 200


def test_a_new_game_and_a_deletion_change_the_validators() -> None:
    owner = make_user("owner")
    first = make_upload(owner=owner, text=Kgn.valid(2, seed=45))
    client = APIClient()
    before = {url: _validators(client, url) for url in ("/api/games/", KGN_EXPORT, NDJSON_EXPORT)}
    second = make_upload(owner=owner, text=Kgn.valid(1, seed=46))
    for url, (etag, modified) in before.items():
        _assert_changed(client, url, etag, modified)
    during = {url: _validators(client, url) for url in before}
    upload_delete(user=owner, upload=second)
    for url, (etag, modified) in during.items():
        _assert_changed(client, url, etag, modified)
    game = first.records.first().game
    detail = f"/api/games/{game.pk}/"
    etag, modified = _validators(client, detail)
    upload_delete(user=owner, upload=first)
    assert client.get(detail, HTTP_IF_NONE_MATCH=etag).status_code == 404


def test_a_reverification_changes_the_validators() -> None:
    text, _ = Kgn.illegal(seed=47)
    upload = make_upload(text=text)
    (record,) = upload.records.all()
    # as if an older engine had let the illegal action through
    upload.records.update(engine="0.4.0", status="verified", error_message="", error_action=None)
    Game.objects.filter(records__upload=upload).update(engine="0.4.0", status="verified")
    client = APIClient()
    urls = [f"/api/games/{record.game_id}/", KGN_EXPORT, NDJSON_EXPORT]
    before = {url: _validators(client, url) for url in urls}
    call_command(
        "reverify", "--since", "0.4.0", "--now", stdout=io.StringIO(), stderr=io.StringIO()
    )
    record.refresh_from_db()
    assert record.status == "rejected"
    for url, (etag, modified) in before.items():
        _assert_changed(client, url, etag, modified)


def test_a_record_edit_changes_the_validators() -> None:
    owner = make_user("owner")
    upload = make_upload(owner=owner, text=Kgn.valid(1, seed=48))
    record = upload.records.get()
    client = APIClient()
    urls = [
        f"/api/games/{record.game_id}/?format=kgn",
        f"/api/uploads/{upload.pk}/records/{record.index}/",
        KGN_EXPORT,
    ]
    before = {url: _validators(client, url) for url in urls}
    # the same game with another Site tag: the game stays, its record's text changes
    text = record.source.replace("[Game ", '[Site "Harbour Hall"]\n[Game ', 1)
    edit = edit_submit(user=owner, record=record, text=text)
    assert edit_verify(edit_id=edit.pk)
    assert Record.objects.get(pk=record.pk).game_id == record.game_id
    for url, (etag, modified) in before.items():
        _assert_changed(client, url, etag, modified)


def test_the_schema_documents_validators_304_and_rate_limit_headers() -> None:
    schema = APIClient().get("/api/schema/?format=json").json()
    headers = schema["components"]["headers"]
    assert {"ETag", "LastModified", "RateLimitRemaining", "RetryAfter"} <= set(headers)
    detail = schema["paths"]["/api/games/{id}/"]["get"]["responses"]
    assert {"ETag", "Last-Modified", "RateLimit-Remaining"} <= set(detail["200"]["headers"])
    assert "304" in detail and "414" in detail
    assert "Retry-After" in detail["429"]["headers"]
    upload = schema["paths"]["/api/uploads/"]["post"]["responses"]
    assert "304" not in upload and "RateLimit-Limit" in upload["201"]["headers"]
