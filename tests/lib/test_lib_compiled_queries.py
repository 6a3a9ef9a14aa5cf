"""Compiled queries (lib/compiled_queries.py) as the archive uses them: the game page's
``game_with_records`` and ``same_deal`` give what the plain ORM gives for every kind of
user and game, check their parameters, and run prepared when queries are not logged."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from django.db import connection
from django.http import Http404
from django.test.utils import CaptureQueriesContext

from records.models import Game
from records.selectors import game_records

pytestmark = pytest.mark.django_db


def test_compiled_reads_are_the_orms(
    game_factory: Callable[..., Game],
    user_factory: Callable[..., Any],
    upload_factory: Callable[..., Any],
    kgn: Any,
) -> None:
    """``game_with_records`` and ``same_deal`` (compiled once, run with other ids) give
    what ``game_get``, ``game_records`` and the plain ORM give, for every kind of
    visitor, a game with a private record among public ones included."""
    from django.contrib.auth.models import AnonymousUser

    from records.selectors import game_get, game_with_records, same_deal

    owner, other, staff = user_factory(), user_factory(), user_factory(staff=True)
    public = game_factory(seed=21, event="Open")
    text = kgn.write(kgn.records(1, seed=21, players=3))
    upload_factory(text=text, owner=owner, visibility="private")  # a private record of it
    private = game_factory(seed=22, owner=owner, visibility="private")
    # the public game's deal with other players: a game only its owner (and staff) see
    (dealt,) = kgn.records(1, seed=21, players=3)
    twin = replace(dealt, players=tuple(f"{name}2" for name in dealt.players))
    upload_factory(text=kgn.write([twin]), owner=owner, visibility="private")
    seen_twice = 0
    for user in (AnonymousUser(), owner, other, staff):
        for game in (public, private):
            try:
                expected_game = game_get(user=user, pk=game.pk)
                expected = list(game_records(user=user, game=expected_game))
            except Http404:
                expected = []
            if not expected:
                with pytest.raises(Http404):
                    game_with_records(user=user, pk=game.pk)
                continue
            got_game, got, dealt_alike = game_with_records(user=user, pk=game.pk, dealt_alike=True)
            fields = [f.attname for f in Game._meta.concrete_fields]
            assert [getattr(got_game, f) for f in fields] == [
                getattr(expected_game, f) for f in fields
            ]
            assert [r.pk for r in got] == [r.pk for r in expected]
            for mine, theirs in zip(got, expected, strict=True):
                assert mine.canonical == theirs.canonical and mine.tags == theirs.tags
                assert mine.created_at == theirs.created_at
                assert mine.upload.original_name == theirs.upload.original_name
                assert (mine.upload.event and mine.upload.event.name) == (
                    theirs.upload.event and theirs.upload.event.name
                )
            with CaptureQueriesContext(connection) as queries:
                seats = [
                    (s.letter, s.name, s.player.name, s.score, s.won) for s in got_game.seats.all()
                ]
            assert not queries.captured_queries
            assert seats == [
                (s.letter, s.name, s.player.name, s.score, s.won) for s in expected_game.seats.all()
            ]
            expected_deal = same_deal(user=user, game=expected_game)
            assert dealt_alike == bool(expected_deal)
            seen_twice += bool(expected_deal)
            assert same_deal(user=user, game=got_game, dealt_alike=dealt_alike) == expected_deal
    assert seen_twice == 2  # the owner and staff
    assert [r.pk for r in game_with_records(user=owner, pk=public.pk)[1]] != [
        r.pk for r in game_with_records(user=other, pk=public.pk)[1]
    ]
    with pytest.raises(Http404):
        game_with_records(user=None, pk="nope")


def test_a_compiled_query_checks_its_parameters() -> None:
    from lib.compiled_queries import CompiledValues

    ignores_it = CompiledValues(lambda shape, game_id: Game.objects.filter(pk=1).values("id"))
    with pytest.raises(ValueError, match="game_id"):
        ignores_it.rows("x", game_id=5)
    with pytest.raises(TypeError):
        CompiledValues(lambda shape, flag: Game.objects.filter(public=flag).values("id")).rows(
            "x", flag=True
        )
    by_id = CompiledValues(
        lambda shape, game_id: Game.objects.filter(pk=game_id).values("id", "deal")
    )
    assert by_id.rows("x", game_id=-5) == []


@pytest.mark.postgres
def test_compiled_reads_run_prepared_when_queries_are_not_logged(
    game_factory: Callable[..., Game], user_factory: Callable[..., Any], settings: Any
) -> None:
    """In production (queries not logged) the compiled query runs as a prepared
    statement on PostgreSQL and reads the same as the ORM."""
    from django.contrib.auth.models import AnonymousUser

    from records.selectors import game_get, game_with_records

    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    settings.DEBUG = False
    owner = user_factory()
    games = [game_factory(seed=31), game_factory(seed=32, owner=owner, visibility="private")]
    connection.force_debug_cursor = False
    assert not connection.queries_logged
    for _ in range(3):
        for user in (AnonymousUser(), owner):
            for game in games:
                try:
                    expected = list(game_records(user=user, game=game_get(user=user, pk=game.pk)))
                except Http404:
                    expected = []
                if not expected:
                    with pytest.raises(Http404):
                        game_with_records(user=user, pk=game.pk)
                    continue
                got = game_with_records(user=user, pk=game.pk).records
                assert [(r.pk, r.canonical, r.tags, r.created_at) for r in got] == [
                    (r.pk, r.canonical, r.tags, r.created_at) for r in expected
                ]
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements")
        assert cursor.fetchone()[0] >= 1
