"""Headers that keep answers where they belong (issue 27): a token's answers are
``Cache-Control: private`` and every API answer varies by ``Authorization``, so no
shared cache hands one caller's data to another; a download's file name goes through
Django's header helper, so an uploader's name with a ``"`` cannot break the header."""

from __future__ import annotations

import re
from email.message import Message
from typing import Any

import pytest
from django.test import Client

from accounts.models import ApiToken
from records.models import Upload

pytestmark = pytest.mark.django_db

WELL_FORMED = (
    r"attachment; (?:filename=\"(?:[^\"\\]|\\.)*\"|filename\*=utf-8''[A-Za-z0-9%!#$&+.^_`|~-]*)"
)


def _vary(response: Any) -> set[str]:
    return {v.strip().lower() for v in response.get("Vary", "").split(",") if v.strip()}


def test_a_tokens_answers_are_private_and_every_api_answer_varies_by_authorization(
    user_factory: Any, upload_factory: Any, kgn: Any
) -> None:
    owner = user_factory("owner")
    upload = upload_factory(owner=owner, text=kgn.valid(2, seed=5))
    token = ApiToken.issue(owner=owner, name="bot")[1]
    auth = f"Bearer {token}"
    client = Client()
    for path in ("/api/games/", f"/api/uploads/{upload.pk}/", "/api/uploads/?mine=1",
                 "/api/games/999999/", f"/uploads/{upload.pk}/report.json"):  # fmt: skip
        answer = client.get(path, HTTP_AUTHORIZATION=auth)
        assert answer.status_code in (200, 404), (path, answer.status_code)
        assert "private" in answer["Cache-Control"] or "no-store" in answer["Cache-Control"], (
            path,
            answer["Cache-Control"],
        )
        assert "authorization" in _vary(answer), path
    anonymous = client.get("/api/games/")
    assert "authorization" in _vary(anonymous)
    assert "private" not in anonymous.get("Cache-Control", "")


@pytest.mark.parametrize("name", ['he said "hi".kgn', "naïve;x.kgn", "a\\b.kgn"])
def test_a_report_download_names_the_file_whatever_its_name(
    user_factory: Any, upload_factory: Any, kgn: Any, name: str
) -> None:
    owner = user_factory("owner")
    upload = upload_factory(owner=owner, text=kgn.valid(1, seed=6))
    Upload.objects.filter(pk=upload.pk).update(original_name=name)
    client = Client()
    client.force_login(owner)
    response = client.get(f"/uploads/{upload.pk}/report.csv")
    assert response.status_code == 200
    # RFC 6266: a quoted-string (inner quotes escaped) or an RFC 5987 ext-value
    assert re.fullmatch(WELL_FORMED, response["Content-Disposition"]), response[
        "Content-Disposition"
    ]
    header = Message()
    header["Content-Disposition"] = response["Content-Disposition"]
    stem = name.split(".")[0]
    assert header.get_content_disposition() == "attachment"
    assert header.get_filename() == f"{stem}-report.csv", response["Content-Disposition"]
