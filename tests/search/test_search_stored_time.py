"""The search's ``since`` / ``until`` and ``ids`` on the /games/ page: hidden fields
that keep a search's URL (its bounds, its ids) and say why a bad one is refused."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.test import Client

from search.game_ids import GameIdsField
from search.stored_time import stored_time
from tests.conftest import Kgn, make_upload

pytestmark = pytest.mark.django_db


def test_stored_time_reads_dates_times_and_offsets() -> None:
    assert stored_time("2026-11-27") == datetime(2026, 11, 27, tzinfo=UTC)
    assert stored_time("2026-11-27T12:30") == datetime(2026, 11, 27, 12, 30, tzinfo=UTC)
    assert stored_time("2026-11-27t12:30:00z") == datetime(2026, 11, 27, 12, 30, tzinfo=UTC)
    assert stored_time("2026-11-27T12:30:00+01:00") == datetime(2026, 11, 27, 11, 30, tzinfo=UTC)
    assert stored_time("2026-11-27T12:30:00 0100") == datetime(2026, 11, 27, 11, 30, tzinfo=UTC)
    # beyond what a datetime holds once in UTC: the first or the last instant
    assert stored_time("0001-01-01T00:00+01:00") == datetime.min.replace(tzinfo=UTC)
    assert stored_time("9999-12-31T23:59-01:00") == datetime.max.replace(tzinfo=UTC)
    for bad in ("2026-11-27 12:30", "27.11.2026", "2026-11-27T12:30:00+1", "2026-W48"):
        with pytest.raises(ValueError, match="ISO 8601"):
            stored_time(bad)


def test_game_ids_keep_their_order_once_each() -> None:
    assert GameIdsField(required=False).clean("5,3,5,12") == [5, 3, 12]
    assert GameIdsField(required=False).clean("") is None


def test_the_page_keeps_them_hidden_and_says_why_a_bad_one_is_refused() -> None:
    upload = make_upload(text=Kgn.valid(2, seed=95))
    pk = upload.records.first().game_id
    page = Client().get(f"/games/?since=2000-01-01&ids={pk}").content.decode()
    assert 'type="hidden" name="since" value="2000-01-01"' in page
    assert f'type="hidden" name="ids" value="{pk}"' in page
    assert 'name="until"' not in page  # not set: not carried
    assert f'href="/games/{pk}/"' in page
    refused = Client().get("/games/?since=yesterday").content.decode()
    assert "since: " in refused and "ISO 8601" in refused
