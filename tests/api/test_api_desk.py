"""The organiser's desk through the API (issue 24, points 5 and 7): ``GET
/api/uploads/?mine=1`` items, re-verification, raw ``application/x-kgn`` bodies and junk
refused with nothing stored."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from records.models import Upload

pytestmark = pytest.mark.django_db


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
