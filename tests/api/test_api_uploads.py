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
    "name",
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
    assert response["Location"] == f"/api/uploads/{body['id']}/"
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
    assert body["event"] == {"id": upload.event_id, "name": "x"}  # named from the file
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


# --- the organiser's desk (issue 24, points 5 and 7) ----------------------------------

ITEM_KEYS = {
    "id",
    "url",
    "name",
    "owner",
    "status",
    "visibility",
    "created_at",
    "finished_at",
    "counts",
    "event",
    "links",
    "reverify",
}


def _rows() -> dict[str, int]:
    from records.models import Event, Game, Player, Record

    return {
        model.__name__: model.objects.count() for model in (Upload, Event, Player, Game, Record)
    }


def test_my_uploads_items_carry_status_counts_event_and_links(user_factory: Any, kgn: Any) -> None:
    from tests.conftest import make_upload

    ann, bob = user_factory("ann"), user_factory("bob")
    illegal, _ = kgn.illegal(seed=81)
    first = make_upload(owner=ann, text=kgn.valid(2, seed=82, event="Harbour Cup") + illegal)
    second = make_upload(owner=ann, text=kgn.valid(1, seed=83), visibility="private")
    make_upload(owner=bob, text=kgn.valid(1, seed=84))
    client = APIClient()
    client.force_authenticate(ann)
    items = client.get("/api/uploads/", {"mine": "1"}).json()["results"]
    assert [i["id"] for i in items] == [second.pk, first.pk]  # newest first, only hers
    item = items[1]
    assert set(item) == ITEM_KEYS
    assert (item["status"], item["name"], item["visibility"]) == ("done", "games.kgn", "public")
    assert item["counts"] == {
        "found": 3,
        "verified": 2,
        "rejected": 1,
        "incomplete": 0,
        "duplicates": 0,
    }
    first.refresh_from_db()
    base = "http://testserver"
    assert item["event"] == {
        "id": first.event_id,
        "name": "Harbour Cup",
        "url": f"{base}/api/events/{first.event_id}/",
    }
    assert item["links"] == {
        "page": f"{base}/uploads/{first.pk}/",
        "report_json": f"{base}/uploads/{first.pk}/report.json",
        "report_csv": f"{base}/uploads/{first.pk}/report.csv",
        "delete": f"{base}/api/uploads/{first.pk}/",
        "reverify": f"{base}/api/uploads/{first.pk}/reverify/",
    }
    assert item["reverify"] is None
    for link in ("page", "report_json", "report_csv"):
        assert client.get(item["links"][link]).status_code == 200
    assert client.get(item["event"]["url"]).json()["name"] == "Harbour Cup"
    # someone else's upload in the public list: no action links for them
    client.force_authenticate(bob)
    theirs = next(i for i in client.get("/api/uploads/").json()["results"] if i["id"] == first.pk)
    assert theirs["links"]["delete"] is None and theirs["links"]["reverify"] is None


def test_reverify_api_answers_202_to_the_owner_and_refuses_others(
    user_factory: Any, upload_factory: Any, django_capture_on_commit_callbacks: Any
) -> None:
    owner = user_factory("owner")
    upload = upload_factory(owner=owner)
    url = f"/api/uploads/{upload.pk}/reverify/"
    client = APIClient()
    assert client.post(url).status_code == 401
    client.force_authenticate(user_factory("other"))
    assert client.post(url).status_code == 403
    client.force_authenticate(owner)
    with django_capture_on_commit_callbacks() as callbacks:
        response = client.post(url)
    assert response.status_code == 202, response.json()
    body = response.json()
    assert set(body) == ITEM_KEYS and body["id"] == upload.pk
    assert body["reverify"]["status"] == "running" and body["reverify"]["total"] == 3
    assert len(callbacks) == 1  # one chunk sent once the run committed
    again = client.post(url).json()  # still going: the same run, not a second
    assert again["reverify"]["id"] == body["reverify"]["id"]
    client.force_authenticate(user_factory("staff", staff=True))
    assert client.post(url).status_code == 202
    pending = upload_factory(owner=owner, verify=False)
    client.force_authenticate(owner)
    busy = client.post(f"/api/uploads/{pending.pk}/reverify/")
    assert busy.status_code == 409 and busy.json()["code"] == "busy"


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("noise.kgn", bytes(range(256)).replace(b"\n", b" ") * 16),
        ("letter.kgn", b"Dear organiser,\nhere are the results [all good].\n"),
        ("empty.kgn", b""),
        ("notes.zip", None),  # a zip with no .kgn member
        ("words.zip", b"zip-of-words"),  # a zip whose .kgn holds no record
    ],
)
@pytest.mark.parametrize("how", ["multipart", "raw"])
def test_junk_is_refused_with_a_400_and_nothing_stored(
    user_factory: Any, name: str, data: bytes | None, how: str, settings: Any
) -> None:
    import io
    import zipfile
    from pathlib import Path

    if name.endswith(".zip"):
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as archive:
            if data is None:
                archive.writestr("readme.txt", "hello")
            else:
                archive.writestr("a.kgn", data)
        data = out.getvalue()
    assert data is not None
    client = APIClient()
    client.force_authenticate(user_factory("ann"))
    media = Path(settings.MEDIA_ROOT)
    files = sorted(p for p in media.rglob("*") if p.is_file())
    before = _rows()
    if how == "multipart":
        upload = SimpleUploadedFile(name, data, content_type="application/octet-stream")
        response = client.post(
            "/api/uploads/", {"file": upload, "event_name": "Junk Night"}, format="multipart"
        )
    else:
        response = client.post(
            f"/api/uploads/?name={name}&event_name=Junk+Night",
            data,
            content_type="application/x-kgn",
        )
    assert response.status_code == 400, response.content
    body = response.json()
    assert set(body) == {"detail", "code", "errors"} and body["code"] == "invalid"
    (message,) = body["errors"]["file"]
    if name == "empty.kgn":
        assert message == "empty.kgn is empty: no KGN record was found in it"
    elif name.endswith(".zip"):
        assert message.startswith(f"{name}: no KGN record was found in it")
    else:
        assert message.startswith(f"{name}, line 1, column 1: no KGN record was found in it")
    assert body["detail"] == f"file: {message}"
    assert _rows() == before  # no upload, event (not even "Junk Night"), player, game
    assert sorted(p for p in media.rglob("*") if p.is_file()) == files  # no stored file


def test_a_raw_body_takes_its_name_from_the_query_or_content_disposition(
    user_factory: Any, kgn: Any
) -> None:
    client = APIClient()
    client.force_authenticate(user_factory("ann"))
    text = kgn.valid(1, seed=85).encode()
    named = client.post(
        "/api/uploads/?name=club.kgn&visibility=private", text, content_type="application/x-kgn"
    )
    assert named.status_code == 201, named.json()
    assert (named.json()["name"], named.json()["visibility"]) == ("club.kgn", "private")
    disposed = client.post(
        "/api/uploads/",
        text,
        content_type="application/x-kgn",
        HTTP_CONTENT_DISPOSITION='attachment; filename="night.kgn"',
    )
    assert disposed.status_code == 201 and disposed.json()["name"] == "night.kgn"
    plain = client.post("/api/uploads/", text, content_type="application/x-kgn; charset=utf-8")
    assert plain.status_code == 201 and plain.json()["name"] == "upload.kgn"
    bad = client.post("/api/uploads/?visibility=secret", text, content_type="application/x-kgn")
    assert bad.status_code == 400 and "visibility" in bad.json()["errors"]
    assert Upload.objects.count() == 3


def test_a_raw_body_keeps_the_quota(user_factory: Any, kgn: Any, settings: Any) -> None:
    settings.KIBITZ_UPLOAD_QUOTA_BYTES = 100
    client = APIClient()
    client.force_authenticate(user_factory("ann"))
    response = client.post("/api/uploads/", kgn.valid(2).encode(), content_type="application/x-kgn")
    assert response.status_code == 413 and response.json()["code"] == "quota"
    assert not Upload.objects.exists()


@pytest.mark.broker
@pytest.mark.django_db(transaction=True)
def test_a_raw_kgn_body_is_verified_by_a_worker_and_reverified_through_the_api(
    celery_worker_process: Any, kgn: Any
) -> None:
    import time

    from records.models import Game
    from tests.conftest import make_user

    client = APIClient()
    client.force_authenticate(make_user("ann"))
    illegal, _ = kgn.illegal(seed=86)
    text = (kgn.valid(3, seed=87, event="Raw Open") + illegal).encode()
    created = client.post("/api/uploads/?name=raw.kgn", text, content_type="application/x-kgn")
    assert created.status_code == 201, created.json()
    pk = created.json()["id"]

    def until(check: Any) -> dict[str, Any]:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            body = client.get(f"/api/uploads/{pk}/reverify/").json()
            if check(body):
                return body
            time.sleep(0.25)
        raise AssertionError(f"timed out; worker log:\n{celery_worker_process.log_tail()}")

    body = until(lambda b: b["status"] == "done")
    assert body["counts"]["verified"] == 3 and body["counts"]["rejected"] == 1
    assert body["event"]["name"] == "Raw Open"
    # a verdict spoiled in the database: re-verifying puts it right and the counts follow
    upload = Upload.objects.get(pk=pk)
    upload.records.filter(status="rejected").update(status="verified", error_message="")
    Upload.objects.filter(pk=pk).update(records_verified=4, records_rejected=0)
    started = client.post(f"/api/uploads/{pk}/reverify/")
    assert started.status_code == 202
    body = until(lambda b: b["reverify"] and b["reverify"]["status"] == "done")
    assert (body["reverify"]["checked"], body["reverify"]["changed"]) == (4, 1)
    assert body["counts"]["verified"] == 3 and body["counts"]["rejected"] == 1
    assert upload.records.filter(status="rejected").count() == 1
    assert Game.objects.filter(records__upload_id=pk).distinct().count() == 4
