"""Text search (``q``) on PostgreSQL: the games found through the GIN indexes (the games
holding a word of the query, then the whole query checked) are exactly those whose one
visible record's whole vector matches, as the search always defined it; and the plans
use the indexes."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from django.contrib.postgres.search import SearchQuery, SearchVector
from django.db import connection
from django.db.models import Exists, OuterRef

from records.models import Game, Record
from search.selectors import game_list
from search.text import _text_query
from tests.conftest import Kgn, make_upload, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def _commented(record: Any, comment: str) -> Any:
    first = replace(record.actions[0], comments=(comment,))
    return replace(record, actions=(first, *record.actions[1:]))


def _tagged(record: Any, **tags: str) -> Any:
    kept = [(n, v) for n, v in record.tags if n not in tags]
    return replace(record, tags=(*kept, *tags.items()))


@pytest.fixture
def archive() -> dict[str, Any]:
    """Games in public uploads with events, sites and comments; one game held by two
    uploads whose records differ (Site Porto in one, Lisbon in the other); a private
    upload of a stranger's with a word nobody else wrote."""
    owner = make_user("organiser")
    a, b, c, d = Kgn.records(4, seed=71)
    make_upload(
        owner=owner,
        name="open.kgn",
        text=Kgn.write(
            [
                _tagged(
                    _commented(a, "a zugzwang and a comeback"), Event="Kibitz Open", Site="Porto"
                ),
                _tagged(b, Event="Kibitz Open", Site="Porto"),
                _tagged(_commented(c, "foo-bar play, it's late"), Event="Kibitz Open"),
            ]
        ),
    )
    make_upload(
        owner=make_user("second"),
        name="club.kgn",
        text=Kgn.write([_tagged(a, Event="Club Night", Site="Lisbon")]),
    )
    stranger = make_user("stranger")
    make_upload(
        owner=stranger,
        visibility="private",
        text=Kgn.write([_tagged(_commented(d, "secretword"), Event="Hidden", Site="Riga")]),
    )
    return {"stranger": stranger, "players": list(a.players) + list(d.players)}


def _reference(user: Any, text: str) -> set[int]:
    """The search as written before the indexes: one visible record's whole vector."""
    records = Record.objects.visible_to(user)
    vector = SearchVector(
        "upload__event__name",
        "site",
        "event_tag",
        "comments",
        "game__players_text",
        config="simple",
    )
    query = SearchQuery(text, config="simple", search_type="websearch")
    matching = records.annotate(search=vector).filter(search=query, game=OuterRef("pk"))
    return set(Game.objects.visible_to(user).filter(Exists(matching)).values_list("pk", flat=True))


QUERIES = [
    "zugzwang",
    "ZUGZWANG",
    "comeback zugzwang",
    "zugzwang or secretword",
    "porto lisbon",  # two records of one game: no one record has both
    "kibitz porto",
    "club lisbon",
    '"kibitz open"',
    '"open kibitz"',
    "kibitz -porto",
    "-porto",
    "-nothing-like-it",
    "foo-bar",
    "it's",
    "secretword",
    "riga",
    "--",
    "'",
    "nothing",
]


@pytest.mark.parametrize("text", QUERIES)
def test_text_search_finds_what_one_visible_records_vector_matches(
    archive: dict[str, Any], text: str
) -> None:
    for user in (None, archive["stranger"], make_user("staff", staff=True)):
        found = set(game_list(user=user, filters={"q": text}).values_list("pk", flat=True))
        assert found == _reference(user, text), (text, user)


def test_player_names_are_searched(archive: dict[str, Any]) -> None:
    for name in archive["players"]:
        assert set(game_list(user=None, filters={"q": name}).values_list("pk", flat=True)) == (
            _reference(None, name)
        )
    assert _reference(None, "zugzwang") and not _reference(None, "secretword")


def test_the_query_shape() -> None:
    assert _text_query("zugzwang") == (["'zugzwang'"], True, False)
    assert _text_query("ann or bob") == (["'ann'", "'bob'"], True, False)
    lexemes, only_or, empty = _text_query("ann -eve")
    assert lexemes == ["'ann'", "'eve'"] and not only_or and not empty
    assert _text_query('"kibitz open"')[1] is False
    assert _text_query("-eve")[2] is True
    assert _text_query("--")[0] == []


def test_a_word_is_found_through_the_indexes(archive: dict[str, Any]) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")
        try:
            plan = game_list(user=None, filters={"q": "zugzwang"}).explain()
        finally:
            cursor.execute("RESET enable_seqscan")
    for index in ("game_players_text", "record_text", "event_name_text"):
        assert index in plan
