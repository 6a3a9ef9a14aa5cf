"""The archive's pages through Django's test client: home, the game list and its
filters, the upload pages, the error pages, and escaping of user data."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, RequestFactory, override_settings

from config import errors
from records.models import Game, GameStatus, Upload, UploadStatus, Visibility
from search import views as browse

pytestmark = pytest.mark.django_db

EXTERNAL = re.compile(r"""(?:src|href)=["'](?:https?:)?//""", re.I)


def _kgn_file(text: str, name: str = "cup.kgn") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(), content_type="application/octet-stream")


def test_home_shows_counts_recent_games_and_public_uploads(
    upload_factory: Callable[..., Any], kgn: Any
) -> None:
    upload = upload_factory(text=kgn.valid(3, seed=1, event="Spring Cup"), name="spring-cup.kgn")
    upload_factory(
        text=kgn.valid(1, seed=2, event="Secret Cup"), name="secret.kgn", visibility="private"
    )
    response = Client().get("/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "spring-cup.kgn" in body
    assert "secret.kgn" not in body and "Secret Cup" not in body
    events = body[body.index('id="recent-events"') :]
    assert f'<a href="/events/{upload.event_id}/">Spring Cup</a>' in events
    assert "3 games" in events
    assert re.search(r'escalation-pierce</a> <span class="num">3</span>', body)
    assert 'action="/games/"' in body and 'name="q"' in body


def test_pages_load_nothing_from_other_hosts(game_factory: Callable[..., Game]) -> None:
    game = game_factory()
    upload_id = game.records.get().upload_id
    client = Client()
    for url in ("/", "/games/", f"/games/{game.pk}/", f"/uploads/{upload_id}/"):
        body = client.get(url).content.decode()
        assert not EXTERNAL.search(body), url
        assert "/static/css/kibitz.css" in body


def test_game_list_shows_columns_and_links_players(game_factory: Callable[..., Game]) -> None:
    game = game_factory(players=("Ann", "Bob", "Cid"), event="Spring Cup")
    body = Client().get("/games/").content.decode()
    assert f'href="/games/{game.pk}/"' in body
    ann = game.seats.get(letter="A").player
    assert f'href="/players/{ann.pk}/">Ann</a>' in body
    event = game.records.get().upload.event
    assert event is not None
    assert f'href="/events/{event.pk}/">Spring Cup</a>' in body
    assert "badge-verified" in body
    winner = game.seats.get(won=True)
    # names first, the seat letter after: "Bob +12 ★ (B)"
    assert re.search(
        rf'class="score won"[^>]*><span class="named">{winner.player.name}</span> \+\d+.*?'
        rf'<span class="seat-of">\({winner.letter}\)</span>',
        body,
    )


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("player=alma", {"ann"}),
        ("player=Bram", {"bob"}),
        ("player=Alma,Bram", set()),
        ("player=Alma,Cora", {"ann"}),
        ("event=Spring+Cup", {"ann"}),
        ("game=escalation-pierce", {"ann", "bob", "rejected"}),
        ("game=head-to-head", set()),
        ("status=rejected", {"rejected"}),
        ("status=verified&player=Bram", {"bob"}),
        ("q=spring", {"ann"}),
    ],
)
def test_game_list_filters_by_query_parameters(
    game_factory: Callable[..., Game],
    upload_factory: Callable[..., Any],
    kgn: Any,
    query: str,
    expected: set[str],
) -> None:
    games = {
        "ann": game_factory(seed=1, players=("Alma", "Cora"), event="Spring Cup"),
        "bob": game_factory(seed=2, players=("Bram", "Dirk")),
    }
    illegal, _ = kgn.illegal()
    games["rejected"] = upload_factory(text=illegal).records.get().game
    body = Client().get(f"/games/?{query}").content.decode()
    shown = {key for key, game in games.items() if f'href="/games/{game.pk}/"' in body}
    assert shown == expected


def test_game_list_reports_a_bad_status_instead_of_failing(
    game_factory: Callable[..., Game],
) -> None:
    game_factory()
    response = Client().get("/games/?status=bogus")
    assert response.status_code == 400  # the form says why, and lists nothing
    assert "Select a valid choice" in response.content.decode()


def test_game_list_pages_keep_the_filters(
    upload_factory: Callable[..., Any], kgn: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(browse, "GAMES_PER_PAGE", 2)
    upload_factory(text=kgn.valid(5, seed=4))
    client = Client()
    first = client.get("/games/?status=verified").content.decode()
    assert "page 1 of 3" in first
    assert 'href="?status=verified&amp;page=2"' in first
    third = client.get("/games/?status=verified&page=3").content.decode()
    assert "page 3 of 3" in third
    assert client.get("/games/?page=zzz").status_code == 200


def test_upload_page_requires_login() -> None:
    response = Client().get("/uploads/new/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/uploads/new/"


def test_upload_form_offers_kgn_and_public_by_default(user_factory: Callable[..., Any]) -> None:
    client = Client()
    client.force_login(user_factory())
    body = client.get("/uploads/new/").content.decode()
    assert 'type="file"' in body and 'accept=".kgn,.gz,.zip"' in body
    assert re.search(r'value="public"[^>]*checked', body)
    assert "csrfmiddlewaretoken" in body


def test_upload_post_creates_a_pending_upload_and_redirects(
    user_factory: Callable[..., Any], kgn: Any, django_capture_on_commit_callbacks: Any
) -> None:
    user = user_factory()
    client = Client()
    client.force_login(user)
    with django_capture_on_commit_callbacks() as callbacks:
        response = client.post(
            "/uploads/new/", {"file": _kgn_file(kgn.valid(2)), "visibility": "private"}
        )
    upload = Upload.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/uploads/{upload.pk}/"
    assert (upload.owner, upload.visibility, upload.status) == (
        user,
        Visibility.PRIVATE,
        UploadStatus.PENDING,
    )
    assert upload.original_name == "cup.kgn"
    assert len(callbacks) == 1  # verification is sent after the commit


def test_upload_post_without_a_file_shows_the_error(user_factory: Callable[..., Any]) -> None:
    client = Client()
    client.force_login(user_factory())
    response = client.post("/uploads/new/", {"visibility": "public"})
    assert response.status_code == 400
    assert "Choose a .kgn file to upload." in response.content.decode()
    assert not Upload.objects.exists()


@override_settings(KIBITZ_UPLOAD_MAX_BYTES=100)
def test_upload_post_of_a_too_big_file_shows_the_limit(
    user_factory: Callable[..., Any], kgn: Any
) -> None:
    client = Client()
    client.force_login(user_factory())
    response = client.post("/uploads/new/", {"file": _kgn_file(kgn.valid(1))})
    assert response.status_code == 400
    assert "larger than the 100 bytes" in response.content.decode()
    assert not Upload.objects.exists()


def test_upload_detail_lists_records_with_verdicts(
    upload_factory: Callable[..., Any], kgn: Any
) -> None:
    illegal, bad_action = kgn.illegal()
    upload = upload_factory(text=kgn.valid(2) + "\n" + illegal, name="mixed.kgn")
    response = Client().get(f"/uploads/{upload.pk}/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "mixed.kgn" in body
    assert body.count("<tr data-index=") == 3
    assert f'data-live="/uploads/{upload.pk}/live/"' in body
    assert 'data-status="done"' in body
    rejected = upload.records.get(status=GameStatus.REJECTED)
    assert (
        f"line {rejected.error_line}, column {rejected.error_column}, action {bad_action}:" in body
    )
    assert 'http-equiv="refresh"' not in body  # finished: nothing to wait for


def test_pending_upload_page_polls_and_refreshes_without_js(
    upload_factory: Callable[..., Any],
) -> None:
    upload = upload_factory(verify=False)
    body = Client().get(f"/uploads/{upload.pk}/").content.decode()
    assert 'data-status="pending"' in body
    assert "/static/js/upload.js" in body
    assert 'http-equiv="refresh"' in body


def test_private_upload_is_seen_by_its_owner_and_staff_only(
    upload_factory: Callable[..., Any], user_factory: Callable[..., Any]
) -> None:
    owner = user_factory()
    upload = upload_factory(owner=owner, visibility="private")
    game = upload.records.first().game
    for who, status in (
        (None, 404),
        (user_factory(), 404),
        (owner, 200),
        (user_factory(staff=True), 200),
    ):
        client = Client()
        if who is not None:
            client.force_login(who)
        assert client.get(f"/uploads/{upload.pk}/").status_code == status
        assert client.get(f"/games/{game.pk}/").status_code == status


def test_not_found_page_is_friendly() -> None:
    response = Client().get("/games/987654/")
    assert response.status_code == 404
    body = response.content.decode()
    assert "Nothing here" in body
    assert "Traceback" not in body and "no such game" not in body
    assert Client().get("/no/such/page/").status_code == 404


def test_server_error_page_renders_without_a_request_context() -> None:
    response = errors.server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    body = response.content.decode()
    assert "Something went wrong" in body and "Traceback" not in body


def test_html_in_names_and_comments_is_shown_as_text(game_factory: Callable[..., Game]) -> None:
    game = game_factory(
        players=("<script>alert(1)</script>", "Bob & <b>Co</b>"),
        comment='<img src=x onerror="alert(2)">',
        event="<i>Cup</i>",
    )
    upload_id = game.records.get().upload_id
    client = Client()
    for url in (f"/games/{game.pk}/", "/games/", "/", f"/uploads/{upload_id}/"):
        body = client.get(url).content.decode()
        assert "<script>alert(1)" not in body and "<b>Co</b>" not in body, url
        assert "<i>Cup</i>" not in body, url
    detail = client.get(f"/games/{game.pk}/").content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in detail
    assert "&lt;img src=x onerror=&quot;alert(2)&quot;&gt;" in detail


def test_step_links_keep_the_record_that_was_asked_for(client: Any) -> None:
    """Without JavaScript, stepping through the second record of a game stays on it
    (its event, comments and verdict), not on the game's first record."""
    from dataclasses import replace

    from tests.conftest import Kgn, make_upload

    (record,) = Kgn.records(1, seed=81)
    make_upload(text=Kgn.write([record]))
    first = replace(record.actions[0], comments=("only in the second record",))
    second_upload = make_upload(
        text=Kgn.write([replace(record, actions=(first, *record.actions[1:]))])
    )
    second = second_upload.records.get()
    page = client.get(f"/games/{second.game_id}/?record={second.pk}&step=2")
    html = page.content.decode()
    assert "only in the second record" in html
    assert f'href="?record={second.pk}&amp;step=3"' in html
    followed = client.get(f"/games/{second.game_id}/?record={second.pk}&step=3")
    assert "only in the second record" in followed.content.decode()
    plain = client.get(f"/games/{second.game_id}/?step=2").content.decode()
    assert 'href="?step=3"' in plain and "only in the second record" not in plain


def test_the_navigation_links_the_api_docs() -> None:
    body = Client().get("/games/").content.decode()
    nav = re.search(r'<nav class="bar".*?</nav>', body, re.S)
    assert nav and '<a href="/api/docs/">API</a>' in nav.group(0)
    assert Client().get("/api/docs/").status_code == 200
