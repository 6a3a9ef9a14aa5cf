"""Template filters for the replay pages: card faces, seat names, results.

``{{ "TH"|cards }}`` -> a red "10♥" face read out as "ten of hearts";
``{{ hand|cards }}`` -> the faces of a list of codes.  Codes are the engine's: rank +
suit for standard cards (``T`` = 10), ``BJ``/``SJ`` for jokers (faces of their own,
"BJ" gold and "SJ" silver, so that they differ in text as well as colour), ``SJ=QS``-style
wild declarations (the joker's face with the card it stands for inset);
``cards:"knizia"`` reads Knizia's numbers, ``W`` (``W=5``) and ``P``, and
``cards:"rank"`` head-to-head's bare ranks.  ``card_kind`` gives a game's kind
(:attr:`replay.rules.Rules.card_kind`).
A hidden card (``?``, :data:`replay.rules.HIDDEN_CARD`, in a table seen from one
seat's perspective) is a patterned card back read out as "hidden card".

``card_buttons`` and ``move_buttons`` draw the same faces as buttons carrying
``data-card`` (the physical card: a wild joker's own code, not what it stands for),
which the replay page opens a card's history from; hidden cards stay plain backs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from lib.text import ordinal
from replay import registry
from replay.rules import HIDDEN_CARD

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
#: jokers: visible text, spoken name, colour class (styled as their own faces)
JOKERS = {"BJ": ("BJ", "big joker", "joker-big"), "SJ": ("SJ", "small joker", "joker-small")}


#: words of the notation that are never cards (NOTATION.md §3)
KEYWORDS = frozenset({"take", "pass", "bid", "trump", "tribute", "return"})
KNIZIA_SPECIAL = {"W": ("W", "wild card", "wild"), "P": ("P", "Pass card", "pass")}


def _standard(base: str) -> tuple[str, str, str] | None:
    if base in JOKERS:
        return JOKERS[base]
    if len(base) == 2 and base[0] in RANKS and base[1] in SUITS:
        shown, rank_name = RANKS[base[0]]
        symbol, suit_name, red = SUITS[base[1]]
        return f"{shown}{symbol}", f"{rank_name} of {suit_name}", "red" if red else "black"
    return None


def _knizia(base: str) -> tuple[str, str, str] | None:
    if base in KNIZIA_SPECIAL:
        return KNIZIA_SPECIAL[base]
    if base.isdigit() and 1 <= int(base) <= 13:
        return str(int(base)), f"number {int(base)}", "number"
    return None


def _rank(base: str) -> tuple[str, str, str] | None:
    base = "T" if base == "10" else base
    if base in RANKS:
        shown, rank_name = RANKS[base]
        return shown, rank_name, "rank"
    return None


_READERS = {"standard": _standard, "knizia": _knizia, "rank": _rank}


def face_parts(code: str, kind: str = "standard") -> tuple[str, str, str]:
    """(visible text, spoken name, colour class) of one card code of ``kind``
    ("standard", "knizia" or "rank").  Anything else is shown as written, "plain"."""
    code = str(code).strip().upper()
    base, _, stands_for = code.partition("=")
    if stands_for:
        text, name, colour = face_parts(base, kind)
        shown, spoken, _ = face_parts(stands_for, kind)
        if kind == "knizia":
            return f"{text}={shown}", f"{name} as {stands_for}", colour
        return f"{text}={shown}", f"{name} as {spoken}", colour
    found = _READERS.get(kind, _standard)(base)
    if found is None and kind == "standard":
        found = _rank(base)
    return found if found is not None else (base, base, "plain")


def _back() -> SafeString:
    return SafeString('<span class="card card-back" role="img" aria-label="hidden card"></span>')


def _face(code: str, kind: str = "standard", *, button: bool = False) -> SafeString:
    """One card face: a read-out ``<span role="img">``, or with ``button`` a ``<button>``
    whose ``data-card`` is the card's own code (``SJ`` for ``SJ=QS``)."""
    if str(code).strip() == HIDDEN_CARD:
        return _back()
    text, name, colour = face_parts(code, kind)
    base, _, stands_for = str(code).strip().upper().partition("=")
    if button:
        start = format_html(
            '<button type="button" class="card card-{}{}" data-card="{}" aria-label="{}"'
            ' aria-haspopup="dialog">',
            colour,
            " card-declared" if stands_for and kind == "standard" and base in JOKERS else "",
            base,
            name,
        )
        end = SafeString("</button>")
    else:
        start = format_html(
            '<span class="card card-{}{}" role="img" aria-label="{}">',
            colour,
            " card-declared" if stands_for and kind == "standard" and base in JOKERS else "",
            name,
        )
        end = SafeString("</span>")
    if stands_for and kind == "standard" and base in JOKERS:
        # a wild joker: its own face, with the card it stands for inset in that card's colour
        shown, _, inset = face_parts(stands_for, kind)
        body = format_html(
            '{}<span class="as as-{}"><span class="eq">=</span>{}</span>',
            JOKERS[base][0],
            inset,
            shown,
        )
    else:
        body = format_html("{}", text)
    return SafeString(start + body + end)


def _faces(value: str | Iterable[str] | None, kind: str, *, button: bool) -> SafeString:
    if value is None:
        return SafeString("")
    if isinstance(value, str):
        return _face(value, kind, button=button)
    return SafeString("".join(_face(code, kind, button=button) for code in value))


@register.filter
def cards(value: str | Iterable[str] | None, kind: str = "standard") -> SafeString:
    """One card code, or a list of them, as card faces (empty for None).

    ``{{ hand|cards:"knizia" }}`` reads Knizia's numbers, ``W`` and ``P``;
    ``{{ hand|cards:"rank" }}`` reads head-to-head's bare ranks.
    """
    return _faces(value, kind, button=False)


@register.filter
def card_buttons(value: str | Iterable[str] | None, kind: str = "standard") -> SafeString:
    """As ``cards``, each face a button with ``data-card`` that opens the card's history
    on the replay page (hidden cards stay plain backs).  Never inside a link."""
    return _faces(value, kind, button=True)


@register.filter
def card_kind(game: str | None) -> str:
    """The card kind of a game id (its ``Rules.card_kind``; "standard" for a game no
    plug-in registered), for ``cards``: ``{{ x|cards:kind }}``."""
    rules = registry.get(game) if game else None
    return rules.card_kind if rules is not None else "standard"


@register.filter
def suit(code: str | None) -> SafeString:
    """A suit letter (``S``) as its coloured symbol, read out by name."""
    found = SUITS.get(str(code or "").strip().upper())
    if found is None:
        return format_html("{}", code or "")
    symbol, name, red = found
    return format_html(
        '<span class="suit suit-{}" role="img" aria-label="{}">{}</span>',
        "red" if red else "black",
        name,
        symbol,
    )


@register.filter
def card_names(value: Iterable[str] | None, kind: str = "standard") -> str:
    """The spoken names of cards, comma-separated (for aria-labels and titles)."""
    return ", ".join(face_parts(code, kind)[1] for code in value or ())


@register.filter
def lookup(mapping: Mapping[str, Any] | None, key: Any) -> Any:
    """``{{ table.hands|lookup:seat }}``: a mapping's value for a variable key."""
    if not mapping:
        return None
    return mapping.get(key) if hasattr(mapping, "get") else None


@register.filter
def index(sequence: Any, k: Any) -> Any:
    """``{{ names|index:k }}``: the k-th item of a sequence (None when out of range)."""
    try:
        return sequence[int(k)]
    except (IndexError, TypeError, ValueError):
        return None


@register.filter
def rank_text(code: str | None) -> str:
    """A bare rank as people write it: ``"T"`` -> ``"10"``, ``"Q"`` -> ``"Q"``."""
    return face_parts(code or "", "rank")[0]


#: the rank letter T alone or as a plural ("Ts") inside a play's label
_TEN = re.compile(r"\bT(s?)\b")


@register.filter
def play_label(label: str | None) -> str:
    """A play's label as people read it, with 10 for the rank letter T: ``"pair of Ts"``
    -> ``"pair of 10s"``, ``"straight to T"`` -> ``"straight to 10"``."""
    return _TEN.sub(r"10\1", label or "")


register.filter("ordinal", ordinal)


@register.filter
def place_in(item: Any, sequence: Any) -> str:
    """``{{ seat|place_in:table.escaped }}``: the item's 1-based place in the sequence as
    an ordinal ("2nd"), or "" when it is not there.  Cost: linear in the sequence."""
    try:
        return ordinal(list(sequence).index(item) + 1)
    except (TypeError, ValueError):
        return ""


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
def game_title(game: str | None) -> str:
    """A game's name for people ("Escalation! (Reiner Knizia)"); its id when unknown."""
    rules = registry.get(game) if game else None
    return rules.title if rules is not None else (game or "Unknown game")


@register.filter
def score(value: Any, game: str | None = None) -> str:
    """A score as its game shows it: signed where scores are payments between players
    (Pierce: +12, −4), plain where they are counts or points (Knizia's cards, tricks'
    points, which may still be negative: −3)."""
    rules = registry.get(game) if game else None
    if rules is not None and rules.zero_sum:
        return signed(value)
    try:
        number = int(value)
    except (TypeError, ValueError):
        return str(value)
    return f"−{-number}" if number < 0 else str(number)


@register.filter
def move_faces(text: str | None, game: str | None = None) -> SafeString:
    """A move as written (``take 9D 9S``, ``bid 5``, ``trump S``): keywords and bids as
    words, a named trump as its suit, cards as faces of ``game``'s kind, hidden cards
    (``tribute ?``) as card backs."""
    return _move(text, game, button=False)


@register.filter
def move_buttons(text: str | None, game: str | None = None) -> SafeString:
    """As ``move_faces``, the cards as buttons opening their history (see
    ``card_buttons``).  Never inside a link."""
    return _move(text, game, button=True)


def _move(text: str | None, game: str | None, *, button: bool) -> SafeString:
    kind = card_kind(game)
    parts = []
    after = ""
    for token in (text or "").split():
        if token == HIDDEN_CARD:
            parts.append(_back())
        elif token.lower() in KEYWORDS or after == "bid":
            parts.append(format_html('<span class="word">{}</span>', token))
        elif after == "trump":
            parts.append(suit(token))
        elif (
            face_parts(token, kind)[2] == "plain"
            and _READERS[kind](token.upper().partition("=")[0]) is None
        ):
            parts.append(format_html('<span class="word">{}</span>', token))
        else:
            parts.append(_face(token, kind, button=button))
        after = token.lower()
    return SafeString(" ".join(parts))
