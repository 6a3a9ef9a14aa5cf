"""Upload reports: every rejected record with its place and reason, as JSON, CSV and on
the upload page with the record's lines around the fault; private uploads stay private."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections.abc import Callable, Iterator
from typing import Any, cast

import pytest
from django.http import StreamingHttpResponse
from django.test import Client

from records.models import GameStatus, Record

pytestmark = pytest.mark.django_db


def _mixed(kgn: Any) -> tuple[str, int]:
    illegal, action = kgn.illegal()
    return kgn.valid(2) + "\n" + illegal + "\n" + kgn.valid(1, seed=8), action


def _download(client: Client, pk: int, fmt: str) -> tuple[int, str]:
    response = client.get(f"/uploads/{pk}/report.{fmt}")
    if response.status_code != 200:
        return response.status_code, ""
    streamed = cast(Iterator[bytes], cast(StreamingHttpResponse, response).streaming_content)
    return response.status_code, b"".join(streamed).decode()


def test_the_json_and_csv_reports_give_each_rejected_record_its_place_and_reason(
    upload_factory: Callable[..., Any], kgn: Any
) -> None:
    text, action = _mixed(kgn)
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        archive.writestr("day1.kgn", kgn.valid(2, seed=5))
        archive.writestr("day2.kgn", text)
    upload = upload_factory(text=data.getvalue(), name="cup.zip")
    bad = Record.objects.get(upload=upload, status=GameStatus.REJECTED)
    status, body = _download(Client(), upload.pk, "json")
    assert status == 200
    report = json.loads(body)
    (row,) = report["rejected"]
    assert (row["index"], row["file"], row["file_index"]) == (5, "day2.kgn", 3)
    assert (row["line"], row["action"]) == (bad.error_line, action)
    assert row["reason"] == bad.error_message and "over" in row["reason"]
    faulty = [line for line in row["lines"] if line["fault"]]
    assert [line["line"] for line in faulty] == [bad.error_line]
    assert bad.error_line is not None
    assert faulty[0]["text"] == text.split("\n")[bad.error_line - 1]
    status, body = _download(Client(), upload.pk, "csv")
    rows = list(csv.DictReader(io.StringIO(body)))
    assert status == 200 and len(rows) == 1
    assert rows[0]["file"] == "day2.kgn" and rows[0]["line"] == str(bad.error_line)
    assert rows[0]["action"] == str(action)


def test_the_upload_page_shows_the_lines_around_the_fault_and_the_report_links(
    upload_factory: Callable[..., Any], kgn: Any
) -> None:
    text, _ = _mixed(kgn)
    upload = upload_factory(text=text)
    bad = Record.objects.get(upload=upload, status=GameStatus.REJECTED)
    body = Client().get(f"/uploads/{upload.pk}/").content.decode()
    assert f"/uploads/{upload.pk}/report.csv" in body and 'class="excerpt"' in body
    assert f'<span class="ln">{bad.error_line}</span>' in body


def test_a_private_uploads_report_is_not_found_for_others(
    upload_factory: Callable[..., Any], user_factory: Callable[..., Any], kgn: Any
) -> None:
    owner = user_factory()
    text, _ = _mixed(kgn)
    upload = upload_factory(owner=owner, text=text, visibility="private")
    assert _download(Client(), upload.pk, "json")[0] == 404
    other = Client()
    other.force_login(user_factory())
    assert _download(other, upload.pk, "csv")[0] == 404
    mine = Client()
    mine.force_login(owner)
    assert _download(mine, upload.pk, "csv")[0] == 200
    assert Client().get(f"/uploads/{upload.pk}/report.xml").status_code == 404
