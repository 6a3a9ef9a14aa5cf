"""The growth benchmark's archive (bench/growth.py): derived rows agree with each other as
the ingest writes them, and the real search and stats read them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection

from bench import growth, growth_copy, growth_data, growth_profiles
from players.aggregated_profile import player_profile
from players.aggregates import KIND_FIELDS, ROW_FIELDS, profiles_rebuild
from players.models import ProfileGame, ProfileKind, ProfilePair
from players.profile import player_results, profile_from_results
from records.facts import fact_values
from records.models import Fact, Game, Player, Record, Seat, Upload
from search.selectors import game_list

SMALL_POOL = (
    ("escalation-pierce", "records", 4),
    ("head-to-head", "matches", 1),
    ("wild-escape", "records", 1),
)


def test_tags_pattern_fills_and_drops() -> None:
    tags = [
        ["Game", "head-to-head"],
        ["Event", "Pool"],
        ["Players", "Ann; Bob"],
        ["Round", "2"],
        ["Match", "M1"],
        ["Result", "A 3, B 1"],
    ]
    pattern = growth_data.tags_pattern(tags)
    filled = json.loads(
        growth_data.tags_json(
            pattern, {"Event": "Riga Cup", "Site": "Riga", "Date": "", "Players": 'Al "X"; Bo'}
        )
    )
    assert filled == [
        ["Game", "head-to-head"],
        ["Event", "Riga Cup"],
        ["Site", "Riga"],
        ["Players", 'Al "X"; Bo'],
        ["Result", "A 3, B 1"],
    ]


def test_player_names_are_distinct_and_not_the_generators() -> None:
    import random

    from replay.generate import NAMES

    names = growth_data.player_names(20_000, random.Random(1))
    assert len(set(names)) == 20_000
    assert not set(names) & set(NAMES)


def test_copy_text_escapes() -> None:
    assert growth_copy.esc(None) == "\\N"
    assert growth_copy.esc(True) == "t"
    assert growth_copy.esc("a\tb\nc\\d") == "a\\tb\\nc\\\\d"
    assert growth_copy.esc(7) == "7"


def test_archive_key_follows_data_version(monkeypatch: pytest.MonkeyPatch) -> None:
    key = growth.archive_key("10k")
    assert key == growth.archive_key("10k")
    assert key != growth.archive_key("1m")
    monkeypatch.setattr(growth, "DATA_VERSION", growth.DATA_VERSION + 1)
    assert key != growth.archive_key("10k")


def _indexes() -> set[str]:
    with connection.cursor() as cur:
        cur.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename IN "
            "('records_game', 'records_record', 'records_seat', 'records_fact')"
        )
        return {row[0] for row in cur.fetchall()}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_build_small_archive_is_consistent(capsys: Any) -> None:
    before = _indexes()
    growth_data.build(60, pool=SMALL_POOL)
    assert _indexes() == before  # dropped for the COPY, built again
    pooled = Record.objects.filter(upload__owner__username="pool").values("game").distinct()
    derived = Game.objects.exclude(pk__in=pooled)
    assert Game.objects.count() == 60
    assert derived.count() == 60 - pooled.count() > 0
    seen_facts = 0
    for game in derived.prefetch_related("seats__player", "records__upload"):
        seats = list(game.seats.order_by("seat"))
        assert [s.player.name for s in seats] == game.players
        assert len(seats) == game.num_players
        (record,) = game.records.all()
        assert dict(record.tags)["Players"] == game.players_text
        event = record.upload.event
        assert event is not None and record.event_tag == dict(record.tags)["Event"] == event.name
        assert game.public == (record.upload.visibility == "public")
        by_letter = {s.letter: s.player_id for s in seats}
        for fact in Fact.objects.filter(game=game, player__isnull=False):
            assert fact.player_id == by_letter[fact.text]
            seen_facts += 1
        assert Fact.objects.filter(game=game).count() == len(fact_values(game.game, game.facts))
    assert seen_facts  # pierce's went_out, wild-escape's first_escaper
    assert Upload.objects.filter(event__isnull=False).exclude(owner__username="pool").exists()
    # new rows take ids after the loaded ones
    assert Player.objects.create(name="Zed Q. New", key="zed q. new").pk > max(
        Seat.objects.values_list("player_id", flat=True)
    )
    # the real search and stats read the derived rows
    viewer = AnonymousUser()
    busiest = Seat.objects.filter(game__in=derived, game__public=True).values_list(
        "player", flat=True
    )[0]
    player = Player.objects.get(pk=busiest)
    found = game_list(user=viewer, filters={"player": player.name})
    assert found.exists()
    assert player_profile(user=viewer, player=player).games == found.count()
    assert "COPY" in capsys.readouterr().out


def test_profile_columns_are_the_models() -> None:
    assert growth_profiles.PROFILE_GAME == ROW_FIELDS
    assert growth_profiles.KIND_FIELDS == KIND_FIELDS
    fields = {f.attname for f in ProfilePair._meta.concrete_fields}
    assert set(growth_profiles.PAIR_FIELDS) == fields - {"id", "key", "player_id", "other_id"}


def _profile_tables() -> tuple[set[Any], ...]:
    """The three tables' rows, ids left out (JSON as text)."""
    kind = {
        (*row[:-2], json.dumps(row[-2]), json.dumps(row[-1], sort_keys=True))
        for row in ProfileKind.objects.values_list("player_id", "kind", *KIND_FIELDS)
    }
    pair_fields = ("key", "player_id", "other_id", *growth_profiles.PAIR_FIELDS)
    return (
        set(ProfileGame.objects.values_list(*ROW_FIELDS)),
        kind,
        set(ProfilePair.objects.values_list(*pair_fields)),
    )


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_build_loads_the_profiles_the_hook_keeps() -> None:
    """The archive's aggregates (COPY) are what players.aggregates computes from its games,
    and the profile and the date-range search read them as the plain queries do."""
    growth_data.build(120, pool=SMALL_POOL)
    loaded = _profile_tables()
    assert loaded[0] and loaded[1] and loaded[2]
    profiles_rebuild()
    assert _profile_tables() == loaded
    viewer = AnonymousUser()
    busiest = Seat.objects.filter(game__public=True, player__name__contains=" ").values_list(
        "player", flat=True
    )[0]
    player = Player.objects.get(pk=busiest)
    found = player_results(user=viewer, player=player)
    assert player_profile(user=viewer, player=player) == profile_from_results(
        player, found.results, games=found.games
    )
    dated = Record.objects.exclude(date="").order_by("date").values_list("date", flat=True)
    middle = dated[len(dated) // 2][:7]
    filters = {"date_from": middle, "date_to": middle}
    plain = list(game_list(user=viewer, filters={**filters, "sort": "oldest"}))
    assert plain
    assert list(game_list(user=viewer, filters=filters)) == plain[::-1]
