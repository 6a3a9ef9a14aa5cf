"""Location headers are absolute, like every `url` field."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db


def test_the_201_of_an_upload_names_it_by_its_absolute_url() -> None:
    client = APIClient()
    client.force_authenticate(make_user())
    file = SimpleUploadedFile("a.kgn", Kgn.valid(1, seed=81).encode())
    response = client.post("/api/uploads/", {"file": file})
    assert response.status_code == 201
    body = response.json()
    assert response["Location"] == f"http://testserver/api/uploads/{body['id']}/"


def test_an_api_redirect_is_absolute_too() -> None:
    # an old match link, by the event's name, is redirected to the event's id
    text = Kgn.valid(1, seed=82, event="Harbour Cup").replace(
        '[Event "Harbour Cup"]', '[Event "Harbour Cup"]\n[Match "Final"]'
    )
    upload = make_upload(text=text)
    assert upload.event_id is not None
    response = APIClient().get("/api/matches/Harbour%20Cup/Final/")
    assert response.status_code == 302
    assert response["Location"] == f"http://testserver/api/matches/{upload.event_id}/Final/"


def test_the_202_of_a_record_edit_names_the_record_by_its_absolute_url() -> None:
    owner = make_user()
    upload = make_upload(owner=owner, text=Kgn.valid(1, seed=83))
    record = upload.records.get()
    client = APIClient()
    client.force_authenticate(owner)
    text = record.source.replace("[Game ", '[Site "Harbour Hall"]\n[Game ', 1)
    response = client.post(
        f"/api/uploads/{upload.pk}/records/{record.index}/edits/",
        text,
        content_type="application/x-kgn",
    )
    assert response.status_code == 202, response.json()
    where = f"http://testserver/api/uploads/{upload.pk}/records/{record.index}/"
    assert response["Location"] == where == response.json()["record"]
