"""Dedup (issue 5): a game is stored once however many records hold it; each record
keeps its own tags, position and Result check; duplicates are counted only against
games the uploader may see.  Events belong to their creator; matches span uploads."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile

from events.matches import match_sheet
from records.models import Event, Game, Record
from records.selectors import game_records
from records.services import event_pick, upload_create, upload_verify
from replay.generate import generate_match
from replay.kgn import write_records
from replay.matches import MatchStatus
from replay.record import Outcome
from search.selectors import game_list
from tests.conftest import Kgn, make_user

pytestmark = pytest.mark.django_db


def upload(text: str, *, owner: Any, visibility: str = "public", event: str = "") -> Any:
    """An upload through the real services (into ``event`` if named), verified here."""
    made = upload_create(
        owner=owner,
        file=ContentFile(text.encode(), name="event.kgn"),
        visibility=visibility,
        event=event_pick(owner=owner, name=event),
        enqueue=False,
    )
    upload_verify(upload_id=made.pk)
    made.refresh_from_db()
    return made


def retagged(text_records: list[Any], **tags: str) -> str:
    """The same games with other tags (Event, Site, Date...) and a comment: the same
    identities, other occurrences."""
    out = []
    for record in text_records:
        kept = tuple((k, v) for k, v in record.tags if k not in tags)
        first = replace(record.actions[0], comments=("seen at the other event",))
        out.append(
            replace(
                record,
                tags=kept + tuple(tags.items()),
                actions=(first, *record.actions[1:]),
            )
        )
    return write_records(out)


def test_the_same_file_uploaded_twice_stores_each_game_once() -> None:
    owner = make_user()
    text = Kgn.valid(4, seed=11)
    first = upload(text, owner=owner)
    second = upload(text, owner=owner)
    assert (first.records_found, second.records_found) == (4, 4)
    assert first.records_verified == second.records_verified == 4
    assert first.records_duplicate == 0
    assert second.records_duplicate == 4
    assert Game.objects.count() == 4
    assert Record.objects.count() == 8
    for a, b in zip(first.records.order_by("index"), second.records.order_by("index"), strict=True):
        assert a.game_id == b.game_id
        assert (a.duplicate, b.duplicate) == (False, True)
    assert game_list(user=owner).count() == 4


def test_one_game_in_two_events_files_keeps_each_records_tags_and_position() -> None:
    owner = make_user()
    games = Kgn.records(2, seed=12)
    spring = upload(Kgn.write(games), owner=owner, event="Spring Open")
    autumn_text = retagged(list(reversed(games)), Event="Autumn Cup", Site="Hall 2")
    autumn = upload(autumn_text, owner=owner, event="Autumn Cup")
    assert Game.objects.count() == 2
    assert autumn.records_duplicate == 2
    for game in Game.objects.all():
        held = list(game.records.order_by("upload_id"))
        assert [r.upload_id for r in held] == [spring.pk, autumn.pk]
        assert held[0].index != held[1].index  # each keeps its own position
        assert held[1].site == "Hall 2" and held[0].site != "Hall 2"
        assert "seen at the other event" in held[1].source
        assert "seen at the other event" not in held[0].source
    assert spring.event.name == "Spring Open" and autumn.event.name == "Autumn Cup"
    # the game shows up under either event, once
    assert game_list(user=owner, filters={"event": "Spring Open"}).count() == 2
    assert game_list(user=owner, filters={"event": "Autumn Cup"}).count() == 2


def test_duplicates_never_count_against_someone_elses_private_games() -> None:
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    text = Kgn.valid(3, seed=13)
    private = upload(text, owner=alice, visibility="private")
    assert Game.objects.filter(public=True).count() == 0
    assert game_list(user=AnonymousUser()).count() == 0
    assert game_list(user=bob).count() == 0

    public = upload(text, owner=bob)
    # stored once, but bob is not told that alice holds these games
    assert Game.objects.count() == 3
    assert public.records_duplicate == 0
    assert not public.records.filter(duplicate=True).exists()
    # the games are public now, through bob's records only
    anonymous = AnonymousUser()
    assert game_list(user=anonymous).count() == 3
    for game in Game.objects.all():
        seen = game_records(user=anonymous, game=game)
        assert [r.upload_id for r in seen] == [public.pk]
        assert [r.upload_id for r in game_records(user=alice, game=game)] == [
            private.pk,
            public.pk,
        ]
    # carol can see bob's public records: hers are duplicates of those
    third = upload(text, owner=carol, visibility="private")
    assert third.records_duplicate == 3
    # alice uploading again counts against her own private upload (and bob's)
    again = upload(text, owner=alice, visibility="private")
    assert again.records_duplicate == 3


def test_two_private_uploads_of_one_game_reveal_nothing_to_each_other() -> None:
    alice, bob = make_user("alice2"), make_user("bob2")
    text = Kgn.valid(2, seed=14)
    upload(text, owner=alice, visibility="private")
    second = upload(text, owner=bob, visibility="private")
    assert second.records_duplicate == 0
    assert Game.objects.count() == 2
    assert game_list(user=AnonymousUser()).count() == 0
    assert game_list(user=bob).count() == 2
    for game in game_list(user=bob):
        assert [r.upload_id for r in game_records(user=bob, game=game)] == [second.pk]


def test_staff_uploads_count_duplicates_against_everything_staff_can_see() -> None:
    owner, staff = make_user("owner3"), make_user("staff3", staff=True)
    text = Kgn.valid(2, seed=15)
    upload(text, owner=owner, visibility="private")
    assert upload(text, owner=staff).records_duplicate == 2


def test_a_wrong_result_rejects_its_record_not_the_game() -> None:
    owner = make_user()
    (game,) = Kgn.records(1, seed=16)
    assert game.result is not None and game.result.scores is not None
    wrong = replace(game, result=Outcome(scores=tuple(s + 1 for s in game.result.scores)))
    good = upload(Kgn.write([game]), owner=owner)
    bad = upload(Kgn.write([wrong]), owner=owner)
    (stored,) = Game.objects.all()
    assert stored.status == "verified"
    assert good.records.get().status == "verified"
    bad_record = bad.records.get()
    assert bad_record.status == "rejected"
    assert "Result says" in bad_record.error_message
    assert bad_record.game_id == stored.pk


def test_uploads_go_only_into_their_owners_events() -> None:
    alice, bob = make_user("alice4"), make_user("bob4")
    mine = event_pick(owner=alice, name="  Club   Night ")
    assert mine is not None and mine.name == "Club Night" and mine.owner == alice
    assert event_pick(owner=alice, name="Club Night") == mine  # picked, not made again
    theirs = event_pick(owner=bob, name="Club Night")
    assert theirs is not None and theirs != mine  # same name, another organiser's event
    with pytest.raises(ValidationError, match="not one of your events"):
        event_pick(owner=bob, event_id=mine.pk)
    with pytest.raises(ValidationError, match="not yours"):
        upload_create(owner=bob, file=ContentFile(b"x", name="a.kgn"), event=mine, enqueue=False)


def test_an_upload_without_an_event_is_named_by_its_first_event_tag() -> None:
    owner = make_user()
    tagged = upload(Kgn.valid(2, seed=17, event="Friday Blitz"), owner=owner)
    assert tagged.event is not None
    assert (tagged.event.name, tagged.event.owner) == ("Friday Blitz", owner)
    untagged = upload(Kgn.valid(1, seed=18), owner=owner)
    assert untagged.event is not None and untagged.event.name == "event"  # event.kgn
    other = upload(Kgn.valid(1, seed=19, event="Friday Blitz"), owner=make_user())
    assert other.event != tagged.event
    assert Event.objects.filter(name="Friday Blitz").count() == 2


def _knizia_match(players: int = 3) -> list[Any]:
    return generate_match(
        "escalation-knizia",
        random.Random(5),
        match="Table 1",
        players=players,
        tags=(("Event", "Knizia Night"),),
    )


def test_a_match_arriving_in_two_uploads_is_judged_over_both() -> None:
    owner = make_user()
    rounds = _knizia_match()
    assert len(rounds) == 3
    first = upload(write_records(rounds[:2]), owner=owner, event="Knizia Night")
    event = str(first.event_id)
    assert match_sheet(user=owner, event=event, key="Table 1").verdict.status == (
        MatchStatus.UNFINISHED
    )
    second = upload(write_records(rounds[2:]), owner=owner, event="Knizia Night")
    assert second.event_id == first.event_id
    sheet = match_sheet(user=owner, event=event, key="Table 1")
    assert sheet.verdict.status == MatchStatus.COMPLETE
    uploads = [row.record.upload_id if row.record else None for row in sheet.rows]
    assert uploads == [first.pk, first.pk, second.pk]


def test_a_match_split_across_two_owners_events_stays_unfinished() -> None:
    rounds = _knizia_match()
    first = upload(write_records(rounds[:2]), owner=make_user(), event="Knizia Night")
    upload(write_records(rounds[2:]), owner=make_user(), event="Knizia Night")
    sheet = match_sheet(user=None, event=str(first.event_id), key="Table 1")
    assert sheet.verdict.status == MatchStatus.UNFINISHED
