"""Template filters for the replay pages: card faces, seat names, results.

``{{ "TH"|cards }}`` -> a red "10♥" face read out as "ten of hearts";
``{{ hand|cards }}`` -> the faces of a list of codes.  Codes are the engine's: rank +
suit for standard cards (``T`` = 10), ``BJ``/``SJ`` for jokers, ``W=5``-style wild
declarations, and bare ranks or numbers (head-to-head, Knizia), shown as they are.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

register = template.Library()

SUITS = {
    "C": ("♣", "clubs", False),
    "D": ("♦", "diamonds", True),
    "H": ("♥", "hearts", True),
    "S": ("♠", "spades", False),
}
RANKS = {
    "2": ("2", "two"),
    "3": ("3", "three"),
    "4": ("4", "four"),
    "5": ("5", "five"),
    "6": ("6", "six"),
    "7": ("7", "seven"),
    "8": ("8", "eight"),
    "9": ("9", "nine"),
    "T": ("10", "ten"),
    "J": ("J", "jack"),
    "Q": ("Q", "queen"),
    "K": ("K", "king"),
    "A": ("A", "ace"),
}
JOKERS = {"BJ": ("★", "big joker", True), "SJ": ("☆", "small joker", False)}


def face_parts(code: str) -> tuple[str, str, str]:
    """(visible text, spoken name, colour class) of one card code."""
    code = str(code).strip().upper()
    base, _, stands_for = code.partition("=")
    if stands_for:
        text, name, colour = face_parts(base)
        shown, spoken, _ = face_parts(stands_for)
        return f"{text}={shown}", f"{name} as {spoken}", colour
    if base in JOKERS:
        symbol, name, red = JOKERS[base]
        return f"{symbol}J", name, "red" if red else "black"
    if len(base) == 2 and base[0] in RANKS and base[1] in SUITS:
        shown, rank_name = RANKS[base[0]]
        symbol, suit_name, red = SUITS[base[1]]
        return f"{shown}{symbol}", f"{rank_name} of {suit_name}", "red" if red else "black"
    if base in RANKS:
        shown, rank_name = RANKS[base]
        return shown, rank_name, "plain"
    return base, base, "plain"


def _face(code: str) -> SafeString:
    text, name, colour = face_parts(code)
    return format_html(
        '<span class="card card-{}" role="img" aria-label="{}">{}</span>', colour, name, text
    )


@register.filter
def cards(value: str | Iterable[str] | None) -> SafeString:
    """One card code, or a list of them, as card faces (empty for None)."""
    if value is None:
        return SafeString("")
    if isinstance(value, str):
        return _face(value)
    return format_html_join("", "{}", ((_face(code),) for code in value))


@register.filter
def card_names(value: Iterable[str] | None) -> str:
    """The spoken names of cards, comma-separated (for aria-labels and titles)."""
    return ", ".join(face_parts(code)[1] for code in value or ())


@register.filter
def lookup(mapping: Mapping[str, Any] | None, key: Any) -> Any:
    """``{{ table.hands|lookup:seat }}``: a mapping's value for a variable key."""
    if not mapping:
        return None
    return mapping.get(key) if hasattr(mapping, "get") else None


@register.filter
def seat_letter(index: int) -> str:
    return chr(ord("A") + int(index))


@register.filter
def result_items(game: Any) -> list[dict[str, Any]]:
    """A game's result as rows ``{"seat", "score", "won"}`` in seat order (empty when
    the result is not per-seat scores)."""
    result = getattr(game, "result", None)
    if not isinstance(result, Mapping):
        return []
    winners = {chr(ord("A") + int(i)) for i in getattr(game, "winners", None) or ()}
    return [
        {"seat": seat, "score": score, "won": seat in winners}
        for seat, score in sorted(result.items())
    ]


@register.filter
def signed(value: Any) -> str:
    """17 -> "+17", -3 -> "−3" (a true minus sign), 0 -> "0"."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return str(value)
    if number > 0:
        return f"+{number}"
    if number < 0:
        return f"−{-number}"
    return "0"


@register.filter
def move_faces(text: str | None) -> SafeString:
    """A move as written (``take 9D 9S``): card tokens as faces, words as text."""
    parts = []
    for token in (text or "").split():
        if face_parts(token)[2] == "plain":
            parts.append(format_html('<span class="word">{}</span>', token))
        else:
            parts.append(_face(token))
    return SafeString(" ".join(parts))
