"""The game page's header around the replay: the match navigation (previous / next hand,
the round menu, the scoresheet; never a result of any hand) and the links (Download
KGN, Share, Embed), with who may see what; the result table with names first; team
labels that do not read as cards.

Matches come from the engine's generator and are stored through the real upload
services (as tests/events do)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from django.test import Client

from records.match_nav import match_nav
from records.models import Game, Record
from replay.generate import generate_match
from replay.kgn import write_records
from replay.record import GameRecord
from viewer.templatetags.game_page import team_label

pytestmark = pytest.mark.django_db

EVENT = "Club Cup"


def pierce_match(rounds: int = 3, *, seed: int = 11) -> list[GameRecord]:
    return generate_match(
        "escalation-pierce",
        random.Random(seed),
        match="M7",
        players=3,
        rounds=rounds,
        tags=(("Event", EVENT),),
    )


def body_of(url: str, client: Client | None = None) -> str:
    response = (client or Client()).get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def nav_of(body: str) -> str:
    found = re.search(r'<nav class="match-nav".*?</nav>', body, re.S)
    assert found, "no match navigation on the page"
    return found.group(0)


def text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def hand_url(record: Record, **extra: str) -> str:
    query = "&amp;".join([f"record={record.pk}", *(f"{k}={v}" for k, v in extra.items())])
    return f"/games/{record.game_id}/?{query}"


def by_round(upload: Any) -> list[Record]:
    return list(upload.records.select_related("game", "upload").order_by("round"))


# --- the match navigation -----------------------------------------------------------


def test_every_hand_links_the_previous_and_next_hand_and_the_scoresheet(
    upload_factory: Callable[..., Any],
) -> None:
    upload = upload_factory(text=write_records(pierce_match(3)))
    first, second, third = by_round(upload)
    nav = nav_of(body_of(hand_url(second).replace("&amp;", "&")))
    assert f'href="{hand_url(first)}" rel="prev"' in nav
    assert f'href="{hand_url(third)}" rel="next"' in nav
    assert f'href="/matches/{upload.event_id}/M7/" id="match-sheet"' in nav
    # the first hand has no previous one, the last no next one
    assert 'rel="prev"' not in nav_of(body_of(hand_url(first).replace("&amp;", "&")))
    assert 'rel="next"' not in nav_of(body_of(hand_url(third).replace("&amp;", "&")))


def test_the_round_menu_lists_every_hand_marks_this_one_and_shows_no_result(
    upload_factory: Callable[..., Any],
) -> None:
    upload = upload_factory(text=write_records(pierce_match(3)))
    records = by_round(upload)
    nav = nav_of(body_of(hand_url(records[0]).replace("&amp;", "&")))
    items = re.findall(r"<li[^>]*>.*?</li>", nav, re.S)
    assert len(items) == 3
    for item, record in zip(items, records, strict=True):
        assert f'href="{hand_url(record)}"' in item
        # the round and the players, nothing else: no score, no winner, no status
        assert text(item) == f"Round {record.round} {', '.join(record.game.players)}"
    assert 'class="current"' in items[0] and 'aria-current="page"' in items[0]
    assert all("aria-current" not in item for item in items[1:])
    assert "Round 1 · hand 1 of 3" in text(nav)
    # nothing of any hand's result is in the navigation
    for record in records:
        for seat in record.game.seats.all():
            assert seat.score is not None
            assert f"{seat.score:+d}" not in nav and f"−{abs(seat.score)}" not in nav
    assert "★" not in nav and "badge" not in nav and "winner" not in nav


def test_the_hands_open_in_the_perspective_shown(upload_factory: Callable[..., Any]) -> None:
    upload = upload_factory(text=write_records(pierce_match(2)))
    first, second = by_round(upload)
    nav = nav_of(body_of(f"/games/{first.game_id}/?record={first.pk}&view=B&step=3"))
    assert f'href="{hand_url(second, view="B")}" rel="next"' in nav
    # an unknown perspective is "everything": the links carry none
    nav = nav_of(body_of(f"/games/{first.game_id}/?record={first.pk}&view=nobody"))
    assert "view=" not in nav


def test_a_hand_hidden_from_the_viewer_is_not_in_the_menu(
    upload_factory: Callable[..., Any], user_factory: Callable[..., Any]
) -> None:
    owner = user_factory()
    records = pierce_match(3)
    public = upload_factory(owner=owner, text=write_records([records[0], records[2]]))
    private = upload_factory(owner=owner, text=write_records([records[1]]), visibility="private")
    assert private.event_id == public.event_id  # the same owner's event: one match
    first, third = by_round(public)
    nav = nav_of(body_of(hand_url(first).replace("&amp;", "&")))
    assert "Round 2" not in nav and f'href="{hand_url(third)}" rel="next"' in nav
    client = Client()
    client.force_login(owner)
    nav = nav_of(body_of(hand_url(first).replace("&amp;", "&"), client))
    (middle,) = by_round(private)
    assert f'href="{hand_url(middle)}" rel="next"' in nav and "hand 1 of 3" in text(nav)


def test_a_game_in_no_match_has_no_match_navigation(game_factory: Callable[..., Game]) -> None:
    game = game_factory()
    assert match_nav(user=None, record=game.records.get()) is None
    assert 'class="match-nav"' not in body_of(f"/games/{game.pk}/")


# --- Download KGN, Share, Embed -------------------------------------------------------


def links_of(body: str) -> str:
    found = re.search(r'<div class="game-links" id="game-links">.*?\n</div>', body, re.S)
    assert found, "no game links on the page"
    return found.group(0)


def test_download_share_and_embed_on_a_public_game(game_factory: Callable[..., Game]) -> None:
    game = game_factory()
    record = game.records.get()
    links = links_of(body_of(f"/games/{game.pk}/?step=4"))
    kgn = f"/api/games/{game.pk}/?format=kgn&amp;record={record.pk}"
    assert f'href="{kgn}" download="kibitz-game-{game.pk}.kgn"' in links
    response = Client().get(unescape(kgn))
    assert response.status_code == 200 and response.content.decode() == record.canonical
    assert f'id="share-link" href="/games/{game.pk}/?step=4"' in links
    snippet = re.search(r'<textarea id="embed-code"[^>]*>(.*?)</textarea>', links, re.S)
    assert snippet, "no embed snippet"
    code = unescape(snippet.group(1))
    assert code.startswith(f'<iframe src="http://testserver/games/{game.pk}/embed/?step=4"')
    assert code.endswith("></iframe>")


def test_share_keeps_the_record_and_the_perspective_and_the_step_shown(
    game_factory: Callable[..., Game],
) -> None:
    game = game_factory()
    record = game.records.get()
    links = links_of(body_of(f"/games/{game.pk}/?record={record.pk}&view=A&step=999"))
    last = game.num_actions  # the step asked for is clamped to the last one
    share = f"/games/{game.pk}/?record={record.pk}&amp;step={last}&amp;view=A"
    assert f'id="share-link" href="{share}"' in links


def test_a_private_game_has_no_embed_and_stays_private(
    game_factory: Callable[..., Game], user_factory: Callable[..., Any]
) -> None:
    owner = user_factory()
    game = game_factory(owner=owner, visibility="private")
    client = Client()
    client.force_login(owner)
    links = links_of(body_of(f"/games/{game.pk}/", client))
    assert 'id="download-kgn"' in links and 'id="share-link"' in links
    assert "embed" not in links.lower()
    # the download follows the page's rules: the owner gets it, nobody else
    kgn = f"/api/games/{game.pk}/?format=kgn"
    assert client.get(kgn).status_code == 200
    assert Client().get(kgn).status_code == 404
    assert Client().get(f"/games/{game.pk}/").status_code == 404


# --- names first, teams as seats ----------------------------------------------------------


def test_the_score_table_puts_each_players_name_before_the_seat(
    game_factory: Callable[..., Game],
) -> None:
    game = game_factory(players=("Vic", "Gus", "Ann"))
    body = body_of(f"/games/{game.pk}/")
    table = re.search(r'<h2 id="h-score">Score</h2>.*?</table>', body, re.S)
    assert table
    assert '<th scope="col">Player</th><th scope="col">Seat</th>' in table.group(0)
    rows = re.findall(r"<tr[^>]*><td>(\w+)</td><td>([A-F])</td>", table.group(0))
    assert rows == [("Vic", "A"), ("Gus", "B"), ("Ann", "C")]


def test_a_team_game_names_its_teams_by_their_seats(game_factory: Callable[..., Game]) -> None:
    game = game_factory(game="wild-escape", seed=3)
    body = body_of(f"/games/{game.pk}/?step={game.num_actions}")
    table = re.search(r'<h2 id="h-score">Result</h2>.*?</table>', body, re.S)
    assert table
    teams = re.findall(r"<td>([A-F])</td><td>(Team [^<]*)</td>", table.group(0))
    assert teams == [
        (letter, "Team A·C·E" if letter in "ACE" else "Team B·D·F") for letter in "ABCDEF"
    ]
    assert '<option value="team-ACE">Team A·C·E</option>' in body
    assert "level of Team " in body and "level of ACE" not in body


@pytest.mark.parametrize(
    ("team", "form", "shown"),
    [("ACE", "", "Team A·C·E"), ("BDF", "short", "B·D·F"), ("North", "", "North"), ("", "", "")],
)
def test_team_labels_spell_out_seat_letters(team: str, form: str, shown: str) -> None:
    assert team_label(team, form) == shown
