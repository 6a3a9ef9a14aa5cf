"""The organiser's desk (issue 24, points 5 and 7): "My uploads" (list, counts, event,
reports, delete), re-verifying an upload with a real worker, pasting KGN text into the
upload form, junk refused with nothing stored, and no event made by an upload whose
records are all rejected."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.test import Client

from records.models import Event, Game, Player, Record, Reverify, Upload, UploadStatus
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db

POLL_TIMEOUT = 120.0


def _signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _rows() -> dict[str, int]:
    return {m.__name__: m.objects.count() for m in (Upload, Event, Player, Game, Record)}


def test_my_uploads_sends_anonymous_visitors_to_log_in() -> None:
    response = Client().get("/uploads/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/uploads/"


def test_my_uploads_lists_your_uploads_newest_first_with_counts_and_actions() -> None:
    ann, bob = make_user("ann"), make_user("bob")
    illegal, _ = Kgn.illegal(seed=41)
    first = make_upload(owner=ann, text=Kgn.valid(2, seed=42, event="Spring Open") + illegal)
    second = make_upload(owner=ann, text=Kgn.valid(1, seed=43), visibility="private")
    pending = make_upload(owner=ann, text=Kgn.valid(1, seed=44), name="later.kgn", verify=False)
    make_upload(owner=bob, text=Kgn.valid(1, seed=45), name="bobs.kgn")
    page = _signed_in(ann).get("/uploads/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "bobs.kgn" not in html
    ids = [int(pk) for pk in re.findall(r'<tr data-upload="(\d+)">', html)]
    assert ids == [pending.pk, second.pk, first.pk]
    row = html[html.index(f'<tr data-upload="{first.pk}">') :].split("</tr>")[0]
    counts = dict(re.findall(r'data-count="(\w+)">(\d+)<', row))
    assert counts == {
        "found": "3",
        "verified": "2",
        "rejected": "1",
        "incomplete": "0",
        "duplicates": "0",
    }
    first.refresh_from_db()
    assert f'href="/events/{first.event_id}/">Spring Open</a>' in row
    assert f'href="/uploads/{first.pk}/report.json"' in row
    assert f'href="/uploads/{first.pk}/report.csv"' in row
    assert f'href="/uploads/{first.pk}/delete/"' in row
    assert f'action="/uploads/{first.pk}/reverify/"' in row
    assert "badge-done" in row and "Public" in row
    busy = html[html.index(f'<tr data-upload="{pending.pk}">') :].split("</tr>")[0]
    assert "verifying…" in busy and "reverify" not in busy and "badge-pending" in busy
    # the navigation names the page for signed-in users only
    assert 'href="/uploads/" aria-current="page">My uploads</a>' in html
    assert "My uploads" not in Client().get("/games/").content.decode()


def test_my_uploads_pages_through_many_uploads() -> None:
    ann = make_user("ann")
    for k in range(27):
        make_upload(owner=ann, text=Kgn.valid(1, seed=100 + k), verify=False)
    client = _signed_in(ann)
    first = client.get("/uploads/").content.decode()
    second = client.get("/uploads/?page=2").content.decode()
    assert first.count("<tr data-upload=") == 25 and second.count("<tr data-upload=") == 2
    assert "27 uploads, newest first" in first


def test_deleting_from_my_uploads_removes_the_upload() -> None:
    ann = make_user("ann")
    upload = make_upload(owner=ann)
    client = _signed_in(ann)
    confirm = client.get(f"/uploads/{upload.pk}/delete/")
    assert (
        confirm.status_code == 200 and "Its 3 records will be deleted" in confirm.content.decode()
    )
    assert client.post(f"/uploads/{upload.pk}/delete/").status_code == 302
    assert not Upload.objects.exists() and not Game.objects.exists()
    assert "No uploads yet" in client.get("/uploads/").content.decode()


def test_only_the_uploader_or_staff_may_reverify() -> None:
    ann = make_user("ann")
    upload = make_upload(owner=ann)
    url = f"/uploads/{upload.pk}/reverify/"
    assert _signed_in(make_user("bob")).post(url).status_code == 403
    assert not Reverify.objects.exists()
    assert _signed_in(make_user("staff", staff=True)).post(url).status_code == 302
    pending = make_upload(owner=ann, verify=False)
    refused = _signed_in(ann).post(f"/uploads/{pending.pk}/reverify/")
    assert refused.status_code == 409 and "still being verified" in refused.content.decode()


@pytest.mark.broker
@pytest.mark.django_db(transaction=True)
def test_reverify_has_the_worker_judge_the_uploads_records_again(
    celery_worker_process: Any,
) -> None:
    ann = make_user("ann")
    illegal, action = Kgn.illegal(seed=46)
    upload = make_upload(owner=ann, text=Kgn.valid(2, seed=47) + illegal)
    other = make_upload(owner=ann, text=Kgn.valid(1, seed=48))
    # verdicts spoiled in the database (as an old engine could have left them)
    upload.records.filter(status="rejected").update(status="verified", error_message="")
    Upload.objects.filter(pk=upload.pk).update(records_verified=3, records_rejected=0)
    client = _signed_in(ann)
    response = client.post(f"/uploads/{upload.pk}/reverify/")
    assert response.status_code == 302 and response["Location"] == f"/uploads/{upload.pk}/reverify/"
    run = Reverify.objects.get()
    assert (run.upload_id, run.requested_by_id, run.total) == (upload.pk, ann.pk, 3)
    deadline = time.monotonic() + POLL_TIMEOUT
    while run.status != "done" and time.monotonic() < deadline:
        time.sleep(0.25)
        run.refresh_from_db()
    assert run.status == "done", celery_worker_process.log_tail()
    assert (run.checked, run.changed) == (3, 1)  # this upload's records only
    upload.refresh_from_db()
    assert (upload.records_verified, upload.records_rejected) == (2, 1)  # counts follow
    spoiled = upload.records.get(index=3)
    assert spoiled.status == "rejected" and spoiled.error_action == action
    assert not Reverify.objects.filter(upload=other).exists()
    page = client.get(f"/uploads/{upload.pk}/reverify/").content.decode()
    assert 'id="reverify-status"' in page and ">done<" in page
    assert 'id="reverify-changes"' in page and "badge-rejected" in page
    desk = client.get("/uploads/").content.decode()
    assert "re-verified: 1 changed" in desk


def test_pasted_text_is_uploaded_as_pasted_kgn(django_capture_on_commit_callbacks: Any) -> None:
    ann = make_user("ann")
    client = _signed_in(ann)
    text = Kgn.valid(2, seed=49, event="Paste Cup")
    with django_capture_on_commit_callbacks() as callbacks:
        response = client.post("/uploads/new/", {"text": text, "visibility": "private"})
    upload = Upload.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/uploads/{upload.pk}/"
    assert (upload.original_name, upload.visibility, upload.event_tag) == (
        "pasted.kgn",
        "private",
        "Paste Cup",
    )
    assert len(callbacks) == 1  # sent to the workers like a file
    with upload.file.open("rb") as fh:
        assert fh.read() == text.encode()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "Choose a .kgn file to upload. Or paste KGN text below."),
        ({"text": "   \n"}, "Choose a .kgn file to upload. Or paste KGN text below."),
        ({"text": "Dear organiser, the results.", "event": "Junk Night"}, "no KGN record"),
        ({"text": "[not a tag line\n* \n"}, "pasted.kgn, line 1, column 1: no KGN record"),
    ],
)
def test_the_form_refuses_no_input_and_junk_with_nothing_stored(
    data: dict[str, str], message: str
) -> None:
    client = _signed_in(make_user("ann"))
    before = _rows()
    response = client.post("/uploads/new/", data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert _rows() == before  # not even the event named in the form


def test_the_form_refuses_a_file_and_text_together() -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = _signed_in(make_user("ann"))
    text = Kgn.valid(1, seed=50)
    upload = SimpleUploadedFile("a.kgn", text.encode())
    response = client.post("/uploads/new/", {"file": upload, "text": text})
    assert response.status_code == 400
    assert "Give a file or pasted text, not both." in response.content.decode()
    assert not Upload.objects.exists()


def test_an_upload_whose_records_are_all_rejected_makes_no_event(settings: Any) -> None:
    settings.KIBITZ_BATCH_SIZE = 1
    ann = make_user("ann")
    junk = '[Game "no-such-game"]\n[Event "Junk Cup"]\n[Players "A1; B1"]\n\n1. A: 5S *\n'
    rejected = make_upload(owner=ann, text=junk * 3, name="junk.kgn")
    assert rejected.status == UploadStatus.DONE and rejected.records_rejected == 3
    assert rejected.event is None and not Event.objects.exists()
    assert "Junk Cup" not in Client().get("/events/").content.decode()
    # one good record after two rejected ones (three batches): the event is made
    mixed = make_upload(owner=ann, text=junk * 2 + Kgn.valid(1, seed=51), name="mixed.kgn")
    assert mixed.event is not None and mixed.event.name == "Junk Cup"
    assert "Junk Cup" in Client().get("/events/").content.decode()
