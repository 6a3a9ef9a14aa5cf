"""GET /api/uploads/{id}/records/{index}/ and POST .../edits/ (records/mend.py): a
record with its text, error and edits; an edit verified by a real worker; refused edits
answered with positioned errors, changing nothing."""

from __future__ import annotations

import time
from typing import Any

import pytest
from rest_framework.test import APIClient

from records.models import Game, Record, RecordEdit, Upload
from tests.conftest import Kgn, make_upload, make_user

POLL_TIMEOUT = 120.0


def _bad_upload(owner: Any, *, seed: int = 3, visibility: str = "public") -> Upload:
    illegal, _ = Kgn.illegal(seed=seed)
    return make_upload(
        owner=owner, text=Kgn.valid(1, seed=seed + 100) + "\n" + illegal, visibility=visibility
    )


def _url(upload: Upload, index: int = 2, tail: str = "") -> str:
    return f"/api/uploads/{upload.pk}/records/{index}/{tail}"


def _state(upload: Upload) -> tuple[Any, ...]:
    """What a refused request must leave as it was."""
    upload.refresh_from_db()
    records = list(
        Record.objects.filter(upload=upload)
        .order_by("index")
        .values_list("source", "status", "game_id", "duplicate")
    )
    counts = (upload.records_verified, upload.records_rejected, upload.records_duplicate)
    return records, counts, Game.objects.count(), RecordEdit.objects.count()


@pytest.mark.django_db
def test_a_record_shows_its_text_error_and_links(client: APIClient) -> None:
    owner = make_user("organiser")
    upload = _bad_upload(owner)
    record = upload.records.get(index=2)
    body = client.get(_url(upload)).json()
    assert (body["upload"], body["index"], body["record_id"]) == (upload.pk, 2, record.pk)
    assert body["status"] == "rejected" and body["text"] == record.source
    assert body["original_text"] == record.source and body["edits"] == []
    assert body["error"]["line"] == record.error_line
    assert record.error_line is not None
    assert body["error"]["text_line"] == record.error_line - record.first_line + 1
    assert body["error"]["action"] == record.error_action
    assert body["may_edit"] is False and body["pending"] is False  # anonymous
    assert body["links"]["self"].endswith(_url(upload))
    assert body["links"]["edits"].endswith(_url(upload, tail="edits/"))
    assert body["links"]["page"].endswith(f"/uploads/{upload.pk}/records/2/")
    client.force_authenticate(owner)
    assert client.get(_url(upload)).json()["may_edit"] is True
    assert client.get(_url(upload, index=3)).status_code == 404


@pytest.mark.django_db
def test_a_private_uploads_records_are_not_found_for_others(client: APIClient) -> None:
    owner = make_user("organiser")
    upload = _bad_upload(owner, visibility="private")
    before = _state(upload)
    assert client.get(_url(upload)).status_code == 404
    client.force_authenticate(make_user("other"))
    assert client.get(_url(upload)).status_code == 404
    response = client.post(_url(upload, tail="edits/"), {"text": Kgn.valid(1, seed=3)})
    assert response.status_code == 404
    assert _state(upload) == before
    client.force_authenticate(make_user("staff", staff=True))
    assert client.get(_url(upload)).json()["may_edit"] is True


@pytest.mark.django_db
def test_an_edit_of_someone_elses_record_is_refused(client: APIClient) -> None:
    upload = _bad_upload(make_user("organiser"))
    before = _state(upload)
    fixed = Kgn.valid(1, seed=3)
    response = client.post(_url(upload, tail="edits/"), {"text": fixed}, format="json")
    assert response.status_code == 401
    client.force_authenticate(make_user("other"))
    response = client.post(_url(upload, tail="edits/"), {"text": fixed}, format="json")
    assert response.status_code == 403 and response.json()["code"] == "permission_denied"
    assert "uploader" in response.json()["detail"]
    assert _state(upload) == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "no_record"),
        ("just some words\n", "no_record"),
        (Kgn.valid(2, seed=4), "several_records"),
    ],
)
def test_an_edit_that_is_not_one_record_is_a_positioned_400(
    client: APIClient, text: str, code: str
) -> None:
    owner = make_user("organiser")
    upload = _bad_upload(owner)
    before = _state(upload)
    client.force_authenticate(owner)
    response = client.post(_url(upload, tail="edits/"), {"text": text}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == code and body["column"] == 1
    assert body["detail"].startswith(f"line {body['line']}, column 1: ")
    assert body["errors"] == {"text": [body["detail"]]}
    if code == "several_records":
        second = [k for k, t in enumerate(text.split("\n"), 1) if t.startswith("[Game")][1]
        assert body["line"] == second and "2 records" in body["detail"]
    # the same as a raw KGN body
    response = client.post(
        _url(upload, tail="edits/"), text.encode(), content_type="application/x-kgn"
    )
    assert response.status_code == 400 and response.json()["code"] == code
    assert _state(upload) == before


@pytest.mark.django_db
def test_other_bad_bodies_are_400s_and_change_nothing(client: APIClient) -> None:
    owner = make_user("organiser")
    upload = _bad_upload(owner)
    before = _state(upload)
    client.force_authenticate(owner)
    edits = _url(upload, tail="edits/")
    response = client.post(edits, b"[Game \xff\xfe", content_type="application/x-kgn")
    assert response.status_code == 400 and "not UTF-8" in response.json()["detail"]
    response = client.post(edits, {"words": "no text field"}, format="json")
    assert response.status_code == 400 and "text" in response.json()["errors"]
    source = upload.records.get(index=2).source
    response = client.post(edits, {"text": source}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "unchanged"
    assert _state(upload) == before


@pytest.mark.django_db
def test_a_second_edit_waits_for_the_first_verdict(client: APIClient) -> None:
    owner = make_user("organiser")
    upload = _bad_upload(owner)
    client.force_authenticate(owner)
    edits = _url(upload, tail="edits/")
    first = client.post(edits, {"text": Kgn.valid(1, seed=3)}, format="json")
    assert first.status_code == 202 and first.json()["edit"]["status"] == "pending"
    assert first["Location"] == "http://testserver" + _url(upload)
    before = _state(upload)
    second = client.post(edits, Kgn.valid(1, seed=5).encode(), content_type="application/x-kgn")
    assert second.status_code == 409 and second.json()["code"] == "busy"
    assert _state(upload) == before
    record = client.get(_url(upload)).json()
    assert record["pending"] is True and record["status"] == "rejected"  # not judged yet
    assert [e["status"] for e in record["edits"]] == ["pending"]


def _poll(client: APIClient, url: str, worker: Any) -> dict[str, Any]:
    deadline = time.monotonic() + POLL_TIMEOUT
    while time.monotonic() < deadline:
        body: dict[str, Any] = client.get(url).json()
        if not body["pending"]:
            return body
        time.sleep(0.25)
    raise AssertionError(f"the edit was not verified; worker log:\n{worker.log_tail()}")


@pytest.mark.broker
@pytest.mark.django_db(transaction=True)
def test_an_edit_is_verified_by_the_worker_and_its_verdict_shows(
    client: APIClient, celery_worker_process: Any
) -> None:
    owner = make_user("organiser")
    upload = _bad_upload(owner, seed=6)
    bad = upload.records.get(index=2)
    client.force_authenticate(owner)
    # a raw KGN body, with Windows line ends
    fixed = Kgn.valid(1, seed=6)
    response = client.post(
        _url(upload, tail="edits/"),
        fixed.replace("\n", "\r\n").encode(),
        content_type="application/x-kgn",
    )
    assert response.status_code == 202, response.json()
    accepted = response.json()
    assert accepted["record"].endswith(_url(upload))
    edit = accepted["edit"]
    assert (edit["status"], edit["verdict"], edit["author"]) == ("pending", None, "organiser")

    body = _poll(client, _url(upload), celery_worker_process)
    assert body["status"] == "verified" and body["error"] is None
    assert body["text"] == fixed.strip() and body["original_text"] == bad.source
    (done,) = body["edits"]
    assert (done["id"], done["status"], done["verdict"]) == (edit["id"], "done", "verified")
    assert done["text_before"] == bad.source and done["text_after"] == fixed.strip()
    assert done["diff"].startswith("--- record 2, before\n+++ record 2, after\n@@")
    assert body["game_id"] != bad.game_id
    assert not Game.objects.filter(pk=bad.game_id).exists()
    game = client.get(body["links"]["game"]).json()
    assert game["status"] == "verified" and game["id"] == body["game_id"]
    counts = client.get(f"/api/uploads/{upload.pk}/").json()["counts"]
    assert (counts["verified"], counts["rejected"], counts["found"]) == (2, 0, 2)

    # mended again (JSON this time) into a rejected record: its error shows, placed
    illegal, action = Kgn.illegal(seed=6)
    response = client.post(_url(upload, tail="edits/"), {"text": illegal}, format="json")
    assert response.status_code == 202
    body = _poll(client, _url(upload), celery_worker_process)
    assert body["status"] == "rejected" and body["error"]["action"] == action
    assert [e["verdict"] for e in body["edits"]] == ["verified", "rejected"]
    assert body["edits"][1]["error"] == body["error"]
    counts = client.get(f"/api/uploads/{upload.pk}/").json()["counts"]
    assert (counts["verified"], counts["rejected"]) == (1, 1)
