"""The game search (search/selectors.py): every filter, alone and combined, checked
against what the stored games say, computed here independently of the query."""

from __future__ import annotations

import importlib
from dataclasses import replace
from typing import Any

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError

from records.models import Fact, Game, Record
from replay import registry
from replay.load import parse
from replay.record import Variant
from search.filter_fields import SORTS
from search.selectors import game_list
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db

GAMES = {
    "escalation-pierce": 6,
    "escalation-knizia": 4,
    "escalative-tricks": 4,
    "head-to-head": 4,
    "wild-escape": 3,
}


def _records(game: str, count: int, *, seed: int, date: str, match: str = "") -> list[Any]:
    out = []
    for k, record in enumerate(Kgn.records(count, seed=seed, game=game)):
        tags = [(n, v) for n, v in record.tags if n not in ("Date", "Match")]
        tags.append(("Date", f"{date}.{k + 1:02d}"))
        if match:
            tags.append(("Match", match))
        out.append(replace(record, tags=tuple(tags)))
    return out


@pytest.fixture
def archive() -> dict[str, Any]:
    """Games of every game id in public uploads (dated 2024.MM.DD by game), and one
    private upload of someone else's."""
    owner = make_user("organiser")
    for n, (game, count) in enumerate(GAMES.items()):
        records = _records(game, count, seed=40 + n, date=f"2024.{n + 1:02d}")
        make_upload(owner=owner, text=Kgn.write(records), name=f"{game}.kgn")
    stranger = make_user("stranger")
    hidden = _records("escalation-pierce", 2, seed=99, date="2024.01")
    private = make_upload(owner=stranger, text=Kgn.write(hidden), visibility="private")
    return {"owner": owner, "stranger": stranger, "private": private}


def _ids(filters: dict[str, str], user: Any = None) -> set[int]:
    return set(game_list(user=user, filters=filters).values_list("pk", flat=True))


def _visible() -> list[Game]:
    return list(Game.objects.visible_to(None).prefetch_related("seats__player"))


def test_every_game_id_and_status_filter_finds_exactly_its_games(archive: Any) -> None:
    games = _visible()
    for game in GAMES:
        assert _ids({"game": game}) == {g.pk for g in games if g.game == game}
        assert _ids({"game": game})
    assert _ids({"status": "verified"}) == {g.pk for g in games if g.status == "verified"}


def test_number_of_players_and_actions_filter_by_range(archive: Any) -> None:
    games = _visible()
    lengths = sorted(g.num_actions for g in games)
    low, high = lengths[len(lengths) // 4], lengths[3 * len(lengths) // 4]
    found = _ids({"actions_min": str(low), "actions_max": str(high)})
    assert found == {g.pk for g in games if low <= g.num_actions <= high}
    assert 0 < len(found) < len(games)
    for seats in {g.num_players for g in games}:
        assert _ids({"players": str(seats)}) == {g.pk for g in games if g.num_players == seats}


def test_players_together_or_any_and_the_winner(archive: Any) -> None:
    games = _visible()
    pierce = [g for g in games if g.game == "escalation-pierce"]
    first = pierce[0]
    a, b = first.players[0], first.players[1]
    together = {g.pk for g in games if a in g.players and b in g.players}
    either = {g.pk for g in games if a in g.players or b in g.players}
    assert first.pk in together
    assert _ids({"player": f"{a}, {b}"}) == together
    assert _ids({"player": f"{a.upper()},{b}", "player_mode": "any"}) == either
    winner = next(s.player.name for s in first.seats.all() if s.won)
    won = {g.pk for g in games for s in g.seats.all() if s.won and s.player.name == winner}
    assert first.pk in won and _ids({"winner": winner}) == won
    assert _ids({"player": "nobody-of-that-name"}) == set()


def test_event_match_and_date_range_use_the_visible_records(archive: Any) -> None:
    games = _visible()
    knizia = {g.pk for g in games if g.game == "escalation-knizia"}  # dated 2024.02.*
    assert _ids({"date_from": "2024.02", "date_to": "2024.02"}) == knizia
    assert _ids({"date_from": "2024-02-01", "date_to": "2024.02.02"}) == {
        r.game_id for r in Record.objects.filter(game__in=knizia, date__lte="2024.02.02")
    }
    record = Record.objects.filter(game__game="head-to-head").first()
    assert record is not None and record.upload.event is not None
    event = record.upload.event.name
    assert _ids({"event": event}) == {g.pk for g in games if g.game == "head-to-head"}
    # the stranger's private games are dated 2024.01 too: never found by others
    january = _ids({"date_from": "2024.01", "date_to": "2024.01"})
    assert january == {g.pk for g in games if g.game == "escalation-pierce"}
    assert len(_ids({"date_from": "2024.01", "date_to": "2024.01"}, archive["stranger"])) == (
        len(january) + 2
    )


def test_date_bounds_take_in_unknown_parts_and_undated_games_sort_last(archive: Any) -> None:
    (dated, undated, unknown) = Kgn.records(3, seed=808)
    tags = [(n, v) for n, v in dated.tags if n != "Date"]
    upload = make_upload(
        text=Kgn.write(
            [
                replace(dated, tags=(*tags, ("Date", "2030.05.17"))),
                replace(undated, tags=tuple(tags)),
                replace(unknown, tags=(*tags, ("Date", "2030.05.??"))),
            ]
        )
    )
    ids = [r.game_id for r in upload.records.order_by("index")]
    assert _ids({"date_from": "2030.05", "date_to": "2030.05"}) == {ids[0], ids[2]}
    assert _ids({"date_from": "2030", "date_to": "2030"}) == {ids[0], ids[2]}
    assert _ids({"date_to": "2030.05.16", "date_from": "2030"}) == set()
    for sort in ("played", "played-asc"):
        order = list(game_list(user=None, filters={"sort": sort}).values_list("pk", flat=True))
        assert order[-1] == ids[1], sort  # no Date tag: last both ways


def test_a_match_tag_filters(archive: Any) -> None:
    records = _records("escalation-pierce", 2, seed=7, date="2025.05", match="Final")
    make_upload(text=Kgn.write(records))
    found = _ids({"match": "final"})
    assert found == set(Record.objects.filter(match="Final").values_list("game_id", flat=True))
    assert len(found) == 2


def test_variant_options_match_their_games_and_defaults(archive: Any) -> None:
    rules = registry.games()["escalation-pierce"]
    option = next(o for o in rules.options if len(o.values) > 1)
    other = next(v for v in option.values if v != option.default)
    (record,) = Kgn.records(1, seed=321)
    variant = Variant(
        tuple((o.name, other if o.name == option.name else o.default) for o in rules.options)
    )
    upload = make_upload(text=Kgn.write([replace(record, variant=variant)]))
    mine = upload.records.get().game_id
    played: dict[int, str] = {}  # each public Pierce game's value, read from its record
    for r in Record.objects.filter(game__game="escalation-pierce", game__public=True):
        played[r.game_id] = parse(r.canonical)[0].variant[option.name]
    key = f"opt.{option.name}"
    changed = _ids({"game": "escalation-pierce", key: other})
    assert mine in changed
    assert changed == {pk for pk, value in played.items() if value == other}
    default = _ids({"game": "escalation-pierce", key: option.default})
    assert default == {pk for pk, value in played.items() if value == option.default}
    with pytest.raises(ValidationError) as bad:
        game_list(user=None, filters={"game": "escalation-pierce", key: "no-such-value"})
    assert key in bad.value.message_dict


def _expected(game: Game, spec: Any) -> Any:
    return registry.games()[game.game].fact_values(game.facts).get(spec.name)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_fact_filter_finds_the_games_whose_facts_say_so(archive: Any, game_id: str) -> None:
    rules = registry.games()[game_id]
    games = [g for g in _visible() if g.game == game_id]
    assert rules.fact_specs, f"{game_id} has no searchable facts"
    for spec in rules.fact_specs:
        key = f"fact.{spec.name}"
        values = [(g, _expected(g, spec)) for g in games]
        known = [v for _, v in values if v is not None]
        if spec.kind == "count" and known:
            middle = sorted(known)[len(known) // 2]
            want = {g.pk for g, v in values if v is not None and v >= middle}
            assert _ids({"game": game_id, f"{key}.min": str(middle)}) == want, spec.name
            want = {g.pk for g, v in values if v is not None and v <= middle}
            assert _ids({"game": game_id, f"{key}.max": str(middle)}) == want, spec.name
        elif spec.kind == "flag":
            for word, flag in (("yes", True), ("no", False)):
                want = {g.pk for g, v in values if v is not None and bool(v) is flag}
                assert _ids({"game": game_id, key: word}) == want, spec.name
        elif spec.kind == "choice":
            for choice in set(known):
                want = {g.pk for g, v in values if v == choice}
                assert _ids({"game": game_id, key: str(choice)}) == want, spec.name
        else:  # seat: by the player in it
            for game, letter in values:
                if letter is None:
                    continue
                name = next(s.player.name for s in game.seats.all() if s.letter == letter)
                found = _ids({"game": game_id, key: name})
                assert game.pk in found, spec.name
                for other in found:
                    g = Game.objects.get(pk=other)
                    seat = g.seats.get(letter=_expected(g, spec))
                    assert seat.player.name.casefold() == name.casefold()


def test_facts_of_private_games_are_not_searchable_by_others(archive: Any) -> None:
    hidden = set(archive["private"].records.values_list("game_id", flat=True))
    assert Fact.objects.filter(game__in=hidden).exists()
    spec = registry.games()["escalation-pierce"].fact_specs[0]
    key = f"fact.{spec.name}" + (".min" if spec.kind == "count" else "")
    value = "0" if spec.kind == "count" else "yes"
    assert not hidden & _ids({"game": "escalation-pierce", key: value})
    assert hidden <= _ids({"game": "escalation-pierce", key: value}, archive["stranger"])


@pytest.mark.parametrize("sort", list(SORTS))
def test_every_sort_is_total_and_ordered(archive: Any, sort: str) -> None:
    games = list(game_list(user=None, filters={"sort": sort}))
    assert len(games) == len({g.pk for g in games}) == len(_visible())
    if sort in ("longest", "shortest"):
        lengths = [g.num_actions for g in games]
        assert lengths == sorted(lengths, reverse=sort == "longest")
    if sort.startswith("score"):
        scored = [g.best_score for g in games if g.best_score is not None]
        assert scored == sorted(scored, reverse=sort == "score")
        assert all(g.best_score is None for g in games[len(scored) :])
    if sort.startswith("played"):
        dates = [g.records.order_by("upload_id", "index")[0].date for g in games]
        assert dates == sorted(dates, reverse=sort == "played")


def test_the_winning_score_follows_the_games_score_order(archive: Any) -> None:
    for game in _visible():
        scores = [s.score for s in game.seats.all() if s.score is not None]
        if not scores:
            assert game.best_score is None
            continue
        low = registry.games()[game.game].score_order == "low"
        assert game.best_score == (min(scores) if low else max(scores))


def test_games_dealt_alike_share_a_deal_key(archive: Any) -> None:
    (record,) = Kgn.records(1, seed=555)
    renamed = replace(record, players=tuple(f"Other {p}" for p in record.players))
    upload = make_upload(text=Kgn.write([record, renamed]))
    a, b = upload.records.order_by("index")
    assert a.game_id != b.game_id
    assert a.game.deal == b.game.deal != ""
    assert _ids({"deal": a.game.deal}) == {a.game_id, b.game_id}


def test_text_search_covers_comments(archive: Any) -> None:
    (record,) = Kgn.records(1, seed=777)
    first = replace(record.actions[0], comments=("a daring zugzwang opening",))
    make_upload(text=Kgn.write([replace(record, actions=(first, *record.actions[1:]))]))
    found = _ids({"q": "zugzwang"})
    assert found == set(
        Record.objects.filter(comments__contains="zugzwang").values_list("game_id", flat=True)
    )
    assert len(found) == 1


@pytest.mark.parametrize(
    ("filters", "field"),
    [
        ({"actions_min": "many"}, "actions_min"),
        ({"date_from": "last week"}, "date_from"),
        ({"sort": "random"}, "sort"),
        ({"player": "x", "player_mode": "some"}, "player_mode"),
        ({"fact.pile_takes.min": "two"}, "fact.pile_takes.min"),
        ({"game": "escalation-pierce", "fact.no_such_fact": "1"}, "fact.no_such_fact"),
        ({"status": "lost"}, "status"),
        ({"opt.x__isnull": "maybe"}, "opt.x__isnull"),
        ({"match": "a\x00b"}, "match"),
    ],
)
def test_a_bad_filter_value_is_refused_naming_it(filters: dict[str, str], field: str) -> None:
    with pytest.raises(ValidationError) as bad:
        game_list(user=None, filters=filters)
    assert field in bad.value.message_dict


def test_the_backfill_migration_rebuilds_the_search_fields(archive: Any) -> None:
    games = _visible()
    before = {g.pk: (g.deal, g.variant, g.best_score) for g in games}
    facts = set(Fact.objects.values_list("game_id", "name", "number", "text", "player_id"))
    comments = dict(Record.objects.values_list("pk", "comments"))
    Game.objects.update(deal="", variant={}, best_score=None)
    Record.objects.update(comments="")
    Fact.objects.all().delete()
    module = importlib.import_module("records.migrations.0008_search_backfill")
    module.backfill(apps, None)
    after = {g.pk: (g.deal, g.variant, g.best_score) for g in _visible()}
    assert after == before
    assert set(Fact.objects.values_list("game_id", "name", "number", "text", "player_id")) == facts
    assert dict(Record.objects.values_list("pk", "comments")) == comments
