"""``{% fixed_url %}`` (records/templatetags/links.py): the navigation's links, reversed
once per script prefix, are those ``reverse`` gives, also under a prefix and on the
500 page, which renders without a request."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.test import Client
from django.urls import clear_script_prefix, reverse, set_script_prefix

from records.templatetags.links import fixed_url

pytestmark = pytest.mark.django_db


def test_fixed_url_is_reverse_and_keeps_the_script_prefix() -> None:
    assert fixed_url("search:game-list") == reverse("search:game-list") == "/games/"
    set_script_prefix("/kibitz/")
    try:
        assert fixed_url("search:game-list") == "/kibitz/games/"
    finally:
        clear_script_prefix()
    assert fixed_url("search:game-list") == "/games/"


def test_every_page_links_the_sections_and_marks_the_current_one(client: Client) -> None:
    html = client.get(reverse("events:event-list")).content.decode()
    for name in ("search:game-list", "players:player-list", "accounts:login"):
        assert f'href="{reverse(name)}"' in html
    assert f'<a href="{reverse("events:event-list")}" aria-current="page">Events</a>' in html


def test_the_500_page_rendered_without_a_request_has_its_links() -> None:
    from django.template import loader

    html = loader.get_template("500.html").render()
    assert f'class="brand" href="{reverse("search:home")}"' in html
    assert f'href="{reverse("search:game-list")}"' in html
    assert Template("{% load links %}{% fixed_url 'search:home' %}").render(Context()) == "/"
