"""Helpers of the wild-escape page tests (the replay table in tests/viewer, the match
page in tests/events): fetch a page, store the example match, read blocks and text."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Callable
from html import unescape
from pathlib import Path
from typing import Any

from django.test import Client

from records.models import Game, Record
from replay import registry
from replay.generate import generate_match
from replay.verify import Step

GAME = "wild-escape"
MATCH = Path(__file__).resolve().parents[1] / "data" / GAME / "example-match.kgn"
HAND_SIZE = 27

# --- helpers -------------------------------------------------------------------------


def _page(url: str) -> str:
    response = Client().get(url)
    assert response.status_code == 200, response.status_code
    body: str = response.content.decode()
    return body


def _game_page(game: Game, step: int | None = None) -> str:
    return _page(f"/games/{game.pk}/" + ("" if step is None else f"?step={step}"))


def _match(upload_factory: Callable[..., Any], text: str | None = None) -> list[Record]:
    """The records of one upload of a match, by round (each with its game)."""
    upload = upload_factory(text=text or MATCH.read_text(encoding="utf-8"))
    records = list(upload.records.select_related("game", "upload").order_by("round"))
    assert all(r.status == "verified" for r in records), [r.error_message for r in records]
    return records


def _match_url(record: Record) -> str:
    return f"/matches/{record.upload.event_id}/{record.match}/"


def _block(body: str, tag: str, cls: str) -> str:
    found = re.search(rf'<{tag} class="{cls}[^"]*".*?</{tag}>', body, flags=re.S)
    assert found, f"no <{tag} class={cls!r}> on the page"
    return found.group(0)


def _text(html: str) -> str:
    """Visible text, whitespace collapsed and none before punctuation ("B, D (3 left)")."""
    text = " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())
    return re.sub(r"\(\s+", "(", re.sub(r"\s+([,.;)])", r"\1", text))


def _labels(html: str) -> list[str]:
    """The spoken names of the card faces in ``html`` (plain faces and card buttons)."""
    found = re.findall(r'class="card[ "][^>]*?aria-label="([^"]*)"', html)
    return [unescape(label) for label in found]


def _chip_count(body: str, seat: str) -> int:
    found = re.search(
        rf'data-chip="{seat}".*?<span class="we-count"><strong>(\d+)</strong>', body, re.S
    )
    assert found, f"no seat chip for {seat}"
    return int(found.group(1))


def _played(steps: list[Step], upto: int) -> dict[str, int]:
    """Cards each seat has played in steps 1..upto, read from the actions (a play is
    its words; pass, tribute and return move no card out of the hands' total)."""
    rules = registry.get(GAME)
    assert rules is not None
    played = dict.fromkeys("ABCDEF", 0)
    for step in steps[1 : upto + 1]:
        assert step.action is not None
        words = rules.write_move(step.action.move).split()
        if words[0] not in ("pass", "tribute", "return"):
            played[step.action.seat_letter] += len(words)
    return played


def _first_step(steps: list[Step], test: Callable[[dict[str, Any]], bool]) -> int:
    found = next((k for k, step in enumerate(steps) if test(step.table)), None)
    assert found is not None, "no step of the hand fits"
    return found


def _mid_trick(table: dict[str, Any]) -> bool:
    trick = table["trick"]
    if table["phase"] != "play" or trick is None:
        return False
    plays = trick["plays"]
    passes = sum(1 for p in plays if p["pass"])
    return len(plays) >= 5 and passes >= 1 and len(plays) - passes >= 2


def _records(seed: int = 7, names: tuple[str, ...] | None = None) -> list[Any]:
    from replay.load import parse

    if names is None:
        return parse(MATCH.read_text(encoding="utf-8"))
    records = generate_match(GAME, random.Random(seed), match="M1", tags=(("Event", "Cup"),))
    return [dataclasses.replace(r, players=names) for r in records]
