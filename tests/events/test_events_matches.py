"""The match pages (NOTATION.md §7): the scoresheet, the verdict, and who sees what.

Matches are made by the engine's generator (``generate_match``), written as KGN and
stored through the real upload services; the page's totals are checked against the
records' own Results.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from events.matches import match_sheet
from records.models import Record
from replay.generate import generate_match
from replay.kgn import write_records
from replay.record import GameRecord, Variant
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

EVENT = "Club Cup"


def pierce_match(rounds: int = 3, *, seed: int = 11, players: int = 3) -> list[GameRecord]:
    return generate_match(
        "escalation-pierce",
        random.Random(seed),
        match="M7",
        players=players,
        rounds=rounds,
        tags=(("Event", EVENT),),
    )


def page(url: str, client: Client | None = None) -> str:
    response = (client or Client()).get(url)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def match_url(record: Record) -> str:
    """A match is the records of one event (their upload's) with the same Match tag."""
    return f"/matches/{record.upload.event_id}/{record.match}/"


def game_url(record: Record) -> str:
    return f"/games/{record.game_id}/?record={record.pk}"


def status_of(body: str) -> str:
    found = re.search(r'<dd id="match-status"><span class="badge [^"]*">(\w+)</span>', body)
    assert found, "no match status on the page"
    return found.group(1)


def sheet_rows(body: str) -> list[str]:
    table = re.search(r'<table class="scores scoresheet" id="scoresheet">(.*?)</table>', body, re.S)
    assert table
    tbody = re.search(r"<tbody>(.*?)</tbody>", table.group(1), re.S)
    assert tbody
    return re.findall(r"<tr[^>]*>(.*?)</tr>", tbody.group(1), re.S)


def test_a_complete_match_shows_every_round_linked_with_running_totals(
    upload_factory: Callable[..., Any],
) -> None:
    records = pierce_match(3)
    upload = upload_factory(text=write_records(records))
    stored = list(upload.records.order_by("round"))
    body = page(match_url(stored[0]))
    assert status_of(body) == "complete"
    rows = sheet_rows(body)
    assert len(rows) == 3
    names = records[0].players
    totals = [0] * len(names)
    for row, record, occurrence in zip(rows, records, stored, strict=True):
        assert f'href="{game_url(occurrence)}"' in row
        assert record.result is not None and record.result.scores is not None
        cells = re.findall(r'<td class="num[^"]*">(.*?)</td>', row, re.S)
        for k, score in enumerate(record.result.scores):
            totals[k] += score
            assert f">{score}</a>" in cells[k]
            assert f'<small class="muted running">{totals[k]}</small>' in cells[k]
    foot = re.search(r"<tfoot>(.*?)</tfoot>", body, re.S)
    assert foot
    for total in totals:
        assert f"<strong>{total}</strong>" in foot.group(1)
    best = max(totals)
    leaders = [names[k] for k, t in enumerate(totals) if t == best]
    assert all(f"<strong>{name}</strong>" in body for name in leaders)
    # the game page links back to its match
    assert f'href="{match_url(stored[1])}" id="match-link"' in page(game_url(stored[1]))


def test_a_missing_round_leaves_the_match_unfinished(upload_factory: Callable[..., Any]) -> None:
    records = pierce_match(3)
    upload = upload_factory(text=write_records([records[0], records[2]]))
    body = page(match_url(upload.records.first()))
    assert status_of(body) == "unfinished"
    assert "round 2 is missing" in body
    rows = sheet_rows(body)
    assert len(rows) == 3 and 'class="muted">missing</span>' in rows[1]


def test_a_changed_variant_breaks_the_match_at_that_round(
    upload_factory: Callable[..., Any],
) -> None:
    records = pierce_match(3)
    changed = dataclasses.replace(
        records[1], variant=Variant((("special-lead", "if-only-specials"),))
    )
    if changed.variant == records[0].variant:
        changed = dataclasses.replace(records[1], variant=Variant((("special-lead", "always"),)))
    upload = upload_factory(text=write_records([records[0], changed, records[2]]))
    body = page(match_url(upload.records.first()))
    assert status_of(body) == "broken"
    assert "Broken at round 2:</strong> the Variant changes within the match" in body


def test_a_repeated_round_breaks_the_match(upload_factory: Callable[..., Any]) -> None:
    records = pierce_match(2)
    upload = upload_factory(text=write_records([records[0], records[1], records[1]]))
    body = page(match_url(upload.records.first()))
    assert status_of(body) == "broken"
    assert "round 2 appears twice" in body


def test_a_private_round_is_invisible_to_others_and_does_not_change_their_verdict(
    upload_factory: Callable[..., Any], user_factory: Callable[..., Any]
) -> None:
    records = pierce_match(3)
    owner = user_factory()
    public = upload_factory(owner=owner, text=write_records([records[0], records[2]]))
    private = upload_factory(owner=owner, text=write_records([records[1]]), visibility="private")
    assert private.event_id == public.event_id  # the owner's one event named by the Event tag
    url = match_url(public.records.first())
    anonymous = page(url)
    assert status_of(anonymous) == "unfinished" and "round 2 is missing" in anonymous
    client = Client()
    client.force_login(owner)
    mine = page(url, client)
    assert status_of(mine) == "complete"
    sheet = match_sheet(user=None, event=str(public.event_id), key="M7")
    assert [row.round for row in sheet.rows if not row.missing] == [1, 3]


def test_a_round_in_another_owners_event_does_not_join_the_match(
    upload_factory: Callable[..., Any],
) -> None:
    records = pierce_match(3)
    public = upload_factory(text=write_records([records[0], records[2]]))
    another = make_user("another-owner")
    # same Event tag, another owner
    other = upload_factory(text=write_records([records[1]]), owner=another)
    assert other.event_id != public.event_id
    assert other.event is not None and other.event.name == public.event.name == EVENT
    body = page(match_url(public.records.first()))
    assert status_of(body) == "unfinished" and "round 2 is missing" in body


def test_a_match_nobody_may_see_is_not_found(
    upload_factory: Callable[..., Any], user_factory: Callable[..., Any]
) -> None:
    upload = upload_factory(
        owner=user_factory(), text=write_records(pierce_match(2)), visibility="private"
    )
    assert Client().get(match_url(upload.records.first())).status_code == 404
    assert Client().get("/matches/abc/M7/").status_code == 404


def test_the_match_list_links_each_match(upload_factory: Callable[..., Any]) -> None:
    upload = upload_factory(text=write_records(pierce_match(2)))
    body = page("/matches/")
    assert f'href="{match_url(upload.records.first())}"' in body
    assert EVENT in body
