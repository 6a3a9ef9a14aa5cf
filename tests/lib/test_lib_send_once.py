"""One drain task in flight (lib/send_once.py): with a shared cache a send is
skipped while a sent task has not started; the task's start lets the next one go."""

from __future__ import annotations

import pytest
from django.test import override_settings

from lib import send_once as module
from lib.send_once import send_once, started

SHARED = override_settings(CACHE_URL="redis://127.0.0.1:6379/9")


def _sender(sent: list[str], name: str) -> bool:
    return send_once(name, lambda: sent.append(name))


def test_without_a_shared_cache_every_send_goes_out() -> None:
    sent: list[str] = []
    assert _sender(sent, "update_profiles") and _sender(sent, "update_profiles")
    assert sent == ["update_profiles", "update_profiles"]


@SHARED
def test_a_send_waits_for_the_sent_task_to_start() -> None:
    sent: list[str] = []
    assert _sender(sent, "update_ratings:wild-escape")
    assert not _sender(sent, "update_ratings:wild-escape")  # sent, not started
    assert _sender(sent, "update_ratings:head-to-head")  # another queue
    started("update_ratings:wild-escape")  # the task reads the queue after this
    assert _sender(sent, "update_ratings:wild-escape")
    assert sent == [
        "update_ratings:wild-escape",
        "update_ratings:head-to-head",
        "update_ratings:wild-escape",
    ]


@SHARED
def test_a_failing_cache_never_holds_a_send_back(monkeypatch: pytest.MonkeyPatch) -> None:
    def down(*args: object, **kwargs: object) -> None:
        raise ConnectionError("cache down")

    monkeypatch.setattr(module.cache, "add", down)
    monkeypatch.setattr(module.cache, "delete", down)
    sent: list[str] = []
    assert _sender(sent, "update_profiles") and _sender(sent, "update_profiles")
    started("update_profiles")  # logs, does not raise
    assert sent == ["update_profiles", "update_profiles"]


@SHARED
def test_the_mark_expires_so_a_lost_message_holds_nothing_back_for_long(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    added: list[tuple[str, int]] = []

    def add(key: str, value: object, timeout: int) -> bool:
        added.append((key, timeout))
        return True

    monkeypatch.setattr(module.cache, "add", add)
    sent: list[str] = []
    _sender(sent, "update_profiles")
    assert added == [("kibitz:sent:update_profiles", module.TTL)] and module.TTL <= 60
