"""POST /api/uploads/ and GET /api/uploads/{id}/ (the shape the upload page polls),
and the API's errors."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from records.models import Upload, UploadStatus, Visibility

pytestmark = pytest.mark.django_db

UPLOAD_KEYS = {
    "id",
    "url",
    "name",
    "owner",
    "status",
    "visibility",
    "created_at",
    "finished_at",
    "counts",
    "progress",
    "event",
    "notes",
    "records",
}
RECORD_KEYS = {
    "index",
    "file",
    "file_index",
    "record_id",
    "game_id",
    "game",
    "status",
    "duplicate",
    "players",
    "result",
    "error",
    "url",
}


def _file(text: str, name: str = "cup.kgn") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(), content_type="application/x-kgn")


def test_anonymous_upload_is_refused_with_401(kgn: Any) -> None:
    response = APIClient().post("/api/uploads/", {"file": _file(kgn.valid(1))}, format="multipart")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'
    assert response.json()["code"] == "not_authenticated"
    assert not Upload.objects.exists()


def test_upload_with_a_token_is_created_pending(
    user_factory: Any, kgn: Any, django_capture_on_commit_callbacks: Any
) -> None:
    user = user_factory()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    with django_capture_on_commit_callbacks() as callbacks:
        response = client.post(
            "/api/uploads/",
            {"file": _file(kgn.valid(2)), "visibility": "private"},
            format="multipart",
        )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert set(body) == UPLOAD_KEYS
    assert (body["name"], body["status"], body["visibility"]) == ("cup.kgn", "pending", "private")
    assert body["counts"] == {
        "found": 0,
        "verified": 0,
        "rejected": 0,
        "incomplete": 0,
        "duplicates": 0,
    }
    assert body["records"] == [] and body["finished_at"] is None
    assert body["event"] is None  # no event given: the scan names it from the records
    assert response["Location"] == f"http://testserver/api/uploads/{body['id']}/"
    upload = Upload.objects.get(pk=body["id"])
    assert upload.owner == user and upload.visibility == Visibility.PRIVATE
    assert len(callbacks) == 1  # verification is sent once the upload commits


def test_session_upload_needs_the_csrf_token(user_factory: Any, kgn: Any) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user_factory())
    response = client.post("/api/uploads/", {"file": _file(kgn.valid(1))}, format="multipart")
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]


@pytest.mark.parametrize(
    ("data", "field"),
    [({}, "file"), ({"visibility": "secret"}, "visibility")],
)
def test_upload_with_bad_input_is_a_400(
    user_factory: Any, kgn: Any, data: dict[str, Any], field: str
) -> None:
    client = APIClient()
    client.force_authenticate(user_factory())
    if field != "file":
        data = {**data, "file": _file(kgn.valid(1))}
    response = client.post("/api/uploads/", data, format="multipart")
    assert response.status_code == 400
    assert field in response.json()["errors"]


def test_upload_over_the_size_limit_is_a_400(user_factory: Any, kgn: Any, settings: Any) -> None:
    settings.KIBITZ_UPLOAD_MAX_BYTES = 200
    client = APIClient()
    client.force_authenticate(user_factory())
    response = client.post("/api/uploads/", {"file": _file(kgn.valid(2))}, format="multipart")
    assert response.status_code == 400
    assert "larger than the 200 bytes" in response.json()["detail"]
    assert not Upload.objects.exists()


def test_upload_progress_has_the_polled_shape(upload_factory: Any, kgn: Any) -> None:
    illegal, action = kgn.illegal()
    upload = upload_factory(text=kgn.valid(2) + "\n" + kgn.incomplete() + illegal, name="x.kgn")
    body = APIClient().get(f"/api/uploads/{upload.pk}/").json()
    assert set(body) == UPLOAD_KEYS
    assert body["status"] == UploadStatus.DONE and body["finished_at"] is not None
    assert body["counts"] == {
        "found": 4,
        "verified": 2,
        "rejected": 1,
        "incomplete": 1,
        "duplicates": 0,
    }
    upload.refresh_from_db()
    assert body["event"] == {  # named from the file
        "id": upload.event_id,
        "name": "x",
        "url": f"http://testserver/api/events/{upload.event_id}/",
    }
    progress = body["progress"]
    assert progress["batches"] == {"total": 1, "done": 1} and progress["done"] == 4
    assert progress["rate"] > 0 and progress["eta_seconds"] is None
    assert progress["duplicates"] == 0
    records = body["records"]
    assert [r["index"] for r in records] == [1, 2, 3, 4]
    assert {r["file"] for r in records} == {"x.kgn"}
    assert [r["file_index"] for r in records] == [1, 2, 3, 4]
    assert all(set(r) == RECORD_KEYS for r in records)
    assert [r["status"] for r in records] == ["verified", "verified", "incomplete", "rejected"]
    assert records[0]["error"] is None and records[0]["game"] == "escalation-pierce"
    assert records[3]["error"]["action"] == action
    assert set(records[3]["error"]) == {"line", "column", "action", "message"}
    assert records[0]["url"].endswith(f"/api/games/{records[0]['game_id']}/")
    assert isinstance(records[0]["players"], list) and records[0]["players"]
    stored = {r.pk: r for r in upload.records.select_related("game")}
    assert sorted(r["record_id"] for r in records) == sorted(stored)
    for r in records:
        record = stored[r["record_id"]]
        assert (r["index"], r["game_id"], r["status"]) == (
            record.index,
            record.game_id,
            record.status,
        )
        assert r["players"] == record.game.players and r["result"] == record.game.result
    assert [r["duplicate"] for r in records] == [False] * 4


def test_a_pending_upload_shows_no_records_yet(upload_factory: Any) -> None:
    upload = upload_factory(verify=False)
    body = APIClient().get(f"/api/uploads/{upload.pk}/").json()
    assert body["status"] == "pending" and body["records"] == []


def test_private_uploads_are_visible_to_owner_and_staff_only(
    upload_factory: Any, user_factory: Any
) -> None:
    owner = user_factory("owner")
    upload = upload_factory(owner=owner, visibility=Visibility.PRIVATE)
    url = f"/api/uploads/{upload.pk}/"
    client = APIClient()
    assert client.get(url).status_code == 404
    client.force_authenticate(user_factory("other"))
    assert client.get(url).status_code == 404
    for user in (owner, user_factory("staff", staff=True)):
        client.force_authenticate(user)
        assert client.get(url).status_code == 200


def test_the_upload_page_can_poll_with_the_session_cookie(
    upload_factory: Any, user_factory: Any
) -> None:
    owner = user_factory("owner", password="secret-pw")
    upload = upload_factory(owner=owner, visibility=Visibility.PRIVATE)
    client = Client()
    assert client.login(username="owner", password="secret-pw")
    response = client.get(f"/api/uploads/{upload.pk}/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200 and response.json()["id"] == upload.pk


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/999999/",
        "/api/uploads/999999/",
        "/api/nothing/",
        "/api/uploads/%0A/",  # a newline in the path (found by tests/security/test_api_fuzz)
        "/api/games/%0A%0Ax/",
    ],
)
def test_errors_are_json_without_a_stack_trace(path: str) -> None:
    response = Client().get(path)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert set(response.json()) == {"detail", "code"}
    assert b"Traceback" not in response.content


def test_an_unexpected_error_is_a_json_500(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(**kwargs: Any) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr("api.views.game_list", broken)
    response = Client(raise_request_exception=False).get("/api/games/")
    assert response.status_code == 500
    assert response.json() == {"detail": "internal server error", "code": "server_error"}
    assert b"secret internals" not in response.content


def test_healthz_answers_ok_when_the_database_does() -> None:
    response = Client().get("/healthz")
    assert response.status_code == 200 and response.content == b"ok\n"


def test_upload_progress_counts_batches_while_processing(
    upload_factory: Any, kgn: Any, settings: Any
) -> None:
    from records.ingest import batch_verify, upload_scan

    settings.KIBITZ_BATCH_SIZE = 2
    upload = upload_factory(text=kgn.valid(6), verify=False)
    ids = upload_scan(upload_id=upload.pk)
    assert batch_verify(batch_id=ids[0])
    body = APIClient().get(f"/api/uploads/{upload.pk}/").json()
    assert body["status"] == "processing"
    assert body["counts"]["found"] == 6 and body["counts"]["verified"] == 2
    assert body["progress"]["batches"] == {"total": 3, "done": 1}
    assert body["progress"]["done"] == 2 and body["progress"]["eta_seconds"] is not None


def test_the_upload_list_shows_public_uploads_and_your_own(user_factory: Any, kgn: Any) -> None:
    from tests.conftest import make_upload

    ann, bob = user_factory("ann"), user_factory("bob")
    public = make_upload(owner=ann, text=kgn.valid(1, seed=71))
    hidden = make_upload(owner=bob, text=kgn.valid(1, seed=72), visibility="private")
    client = APIClient()
    listed = client.get("/api/uploads/").json()["results"]
    assert [u["id"] for u in listed] == [public.pk]
    assert listed[0]["owner"] == "ann" and listed[0]["counts"]["verified"] == 1
    anonymous = client.get("/api/uploads/", {"mine": "1"})
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "not_authenticated"
    client.force_authenticate(bob)
    assert [u["id"] for u in client.get("/api/uploads/").json()["results"]] == [
        hidden.pk,
        public.pk,
    ]
    mine = client.get("/api/uploads/", {"mine": "1"}).json()["results"]
    assert [u["id"] for u in mine] == [hidden.pk]
