"""The pieces the game search's FilterSet (search/filters.py) is declared with: the sort
orders, the player modes, the form fields with rules of their own (a date bound, a
flag), and the open-ended filters built from the engine registry: ``opt.<option>`` for
every option of every game and ``fact.<name>`` (a count: ``fact.<name>.min`` /
``.max``) for every searchable fact of every game.

Each filter carries the text the API's schema shows for it (:func:`described`,
:func:`description`); the page shows the field's label and help text."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any, TypeVar

import django_filters
from django import forms
from django.db.models import F

from replay import registry
from viewer.templatetags.game_page import team_label

#: the sort orders: key -> (label, order_by)
SORTS: dict[str, tuple[str, tuple[Any, ...]]] = {
    # by when a game was listed (``Game.listed_at``: made public, else stored)
    "newest": ("Newest first", ("-listed_at", "-id")),
    "oldest": ("Oldest first", ("listed_at", "id")),
    # the order games were listed in: the API's lists in it carry a sync cursor
    "stored": ("In the order stored", ("listed_at", "id")),
    "played": ("Date played, latest first", (F("played_on").desc(nulls_last=True), "-id")),
    "played-asc": ("Date played, earliest first", (F("played_on").asc(nulls_last=True), "id")),
    "longest": ("Most actions", ("-num_actions", "-id")),
    "shortest": ("Fewest actions", ("num_actions", "id")),
    "score": ("Winning score, highest first", (F("best_score").desc(nulls_last=True), "-id")),
    "score-asc": ("Winning score, lowest first", (F("best_score").asc(nulls_last=True), "id")),
}
PLAYER_MODES = {"together": "All of them, in the same game", "any": "Any of them"}
#: parameters naming an option (``opt.<name>``) or a fact (``fact.<name>[.min|.max]``)
OPTION_PREFIX = "opt."
FACT_PREFIX = "fact."
#: every number of seats some game is played with
SEAT_COUNTS = range(
    min(rules.min_players for rules in registry.games().values()),
    max(rules.max_players for rules in registry.games().values()) + 1,
)

_F = TypeVar("_F", bound=django_filters.Filter)


def described(filter_: _F, text: str) -> _F:
    """``filter_``, carrying ``text`` for the API's schema."""
    filter_.description = text
    return filter_


def description(filter_: django_filters.Filter) -> str:
    text = getattr(filter_, "description", "") or filter_.label or ""
    return str(text)


def choices(values: Iterable[str], empty: str) -> list[tuple[str, str]]:
    return [("", empty), *((v, v) for v in values)]


_SEP = r"[.-]"
_DAY31 = r"(?:0[1-9]|[12][0-9]|3[01]|\?\?)"
_DAY30 = r"(?:0[1-9]|[12][0-9]|30|\?\?)"
_DAY29 = r"(?:0[1-9]|[12][0-9]|\?\?)"
_MONTH_DAY = (
    rf"(?:(?:0[13578]|1[02]|\?\?)(?:{_SEP}{_DAY31})?"
    rf"|(?:0[469]|11)(?:{_SEP}{_DAY30})?"
    rf"|02(?:{_SEP}{_DAY29})?)"
)
#: a Date bound as the schema publishes it and the field takes it: a month 01-12 and a
#: day that month can have (29 for February, in any year: Date tags compare as text)
DATE_PATTERN = rf"^[0-9]{{4}}(?:{_SEP}{_MONTH_DAY})?$"
#: its parts (year, month, day), once DATE_PATTERN took it
_PARTS = re.compile(r"^([0-9]{4})(?:[.-]([0-9]{2}|\?\?))?(?:[.-]([0-9]{2}|\?\?))?$")


class DateBoundField(forms.CharField):
    """``YYYY``, ``YYYY.MM`` or ``YYYY.MM.DD`` (dots or dashes; ``??`` for an unknown
    part; a month 01-12 and a day the month can have): a bound on the records' Date
    tags, cleaned as written."""

    pattern = DATE_PATTERN

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 10)
        kwargs.setdefault("widget", forms.TextInput({"placeholder": "YYYY.MM.DD"}))
        super().__init__(**kwargs)

    def validate(self, value: Any) -> None:
        super().validate(value)
        if value and not re.match(self.pattern, value):
            raise forms.ValidationError(
                f"{value!r} is not a date; write YYYY.MM.DD (a month 01-12, a day it has)"
            )


def date_bound(text: str, *, end: bool) -> str:
    """A cleaned date (:class:`DateBoundField`) as a bound on the Date tag, compared as
    text: a partial date covers its whole year or month."""
    match = _PARTS.match(text)
    assert match is not None  # the field checked it (DATE_PATTERN)
    year, month, day = match.groups()
    if not end:
        return f"{year}.{month or '00'}.{day or '00'}"
    # "~" sorts after digits and "?", so the end of 2024.05 takes in 2024.05.?? too
    return f"{year}.{month or '~'}.{day or '~'}" if month and day else f"{year}.{month or '~'}~"


class FlagField(django_filters.fields.ChoiceField):
    """yes or no, in any case."""

    def to_python(self, value: Any) -> str:
        return str(super().to_python(value)).lower()


class AnyValueField(django_filters.fields.ChoiceField):
    """A choice offered from a list (the page's menu) that takes any value too: a game
    id the registry does not know finds no game rather than being refused."""

    def valid_value(self, value: Any) -> bool:
        return True


class OfferedChoiceFilter(django_filters.ChoiceFilter):
    field_class = AnyValueField


class WholeNumberFilter(django_filters.NumberFilter):
    field_class = forms.IntegerField


class DateBoundFilter(django_filters.CharFilter):
    field_class = DateBoundField


class FlagFilter(django_filters.ChoiceFilter):
    field_class = FlagField


def option_filters() -> dict[str, django_filters.Filter]:
    """``opt.<name>`` for every option of every game: games played with that value
    (stored with every default filled in, so a default matches games that never wrote
    the Variant tag).  With ``game``, the game's own values (search/filters.py)."""
    values: dict[str, list[str]] = {}
    games: dict[str, list[str]] = {}
    for game, rules in registry.games().items():
        for option in rules.options:
            known = values.setdefault(option.name, [])
            known += [v for v in option.values if v not in known]
            games.setdefault(option.name, []).append(game)
    return {
        f"{OPTION_PREFIX}{name}": described(
            django_filters.ChoiceFilter(
                field_name=f"variant__{name}",
                label=name,
                choices=choices(known, "Any"),
                empty_label=None,
            ),
            f"games played with this value of the option `{name}` "
            f"({', '.join(games[name])}); with `game`, an option the game lacks matches no game",
        )
        for name, known in values.items()
    }


def fact_kinds() -> dict[str, str]:
    """Every searchable fact's kind (count, flag, choice or seat), by its name: one kind
    for each name, whichever games have it.  Worked out again only when the registry's
    games change (a plug-in may join it after import)."""
    return _fact_kinds(tuple(registry.games()))


@lru_cache(maxsize=4)
def _fact_kinds(games: tuple[str, ...]) -> dict[str, str]:
    kinds: dict[str, str] = {}
    for game in games:
        for spec in registry.games()[game].fact_specs:
            if kinds.setdefault(spec.name, spec.kind) != spec.kind:
                raise TypeError(f"fact {spec.name!r} is a {kinds[spec.name]} and a {spec.kind}")
    return kinds


def choice_label(value: str, games: list[str]) -> str:
    """A choice as the form shows it: a team of one of ``games`` (wild-escape's "ACE")
    by its seats ("Team A·C·E", viewer's ``team_label``), anything else as written;
    the value sent stays the stored one."""
    for game in games:
        rules = registry.get(game)
        if rules is not None and value in rules.teams(players=rules.max_players).values():
            return team_label(value)
    return value


def fact_filters() -> dict[str, django_filters.Filter]:
    """``fact.<name>`` (a flag: yes/no; a choice; a seat: the player in it) and
    ``fact.<name>.min`` / ``.max`` (a count) for every searchable fact of every game;
    without ``game`` it finds the games of every game that has the fact; with a game
    that lacks it, no game."""
    found: dict[str, tuple[Any, list[str], list[str]]] = {}  # name -> spec, choices, games
    for game, rules in registry.games().items():
        for spec in rules.fact_specs:
            _, values, games = found.setdefault(spec.name, (spec, [], []))
            values += [c for c in spec.choices if c not in values]
            games.append(game)
    filters: dict[str, django_filters.Filter] = {}
    for name, (spec, values, games) in found.items():
        key = f"{FACT_PREFIX}{name}"
        needs = f"games of {', '.join(games)} (with `game`, one of them)"
        if spec.kind == "count":
            for bound, word in (("min", "at least"), ("max", "at most")):
                filters[f"{key}.{bound}"] = described(
                    WholeNumberFilter(
                        field_name=f"{name}.{bound}",
                        method="by_fact",
                        label=f"{spec.label}: {word}",
                    ),
                    f"{spec.label}: {word} this many; {needs}",
                )
        elif spec.kind == "flag":
            flag = [("", "Either"), ("yes", "Yes"), ("no", "No")]
            filters[key] = described(
                FlagFilter(
                    field_name=name,
                    method="by_fact",
                    label=spec.label,
                    choices=flag,
                    empty_label=None,
                ),
                f"{spec.label}: yes or no; {needs}",
            )
        elif spec.kind == "choice":
            filters[key] = described(
                django_filters.ChoiceFilter(
                    field_name=name,
                    method="by_fact",
                    label=spec.label,
                    choices=[("", "Any"), *((v, choice_label(v, games)) for v in values)],
                    empty_label=None,
                ),
                f"{spec.label}; {needs}",
            )
        else:  # seat: the player in it
            filters[key] = described(
                django_filters.CharFilter(
                    field_name=name,
                    method="by_fact",
                    label=spec.label,
                    max_length=100,
                    help_text="A player's name.",
                ),
                f"{spec.label}: a player's name; {needs}",
            )
    return filters
