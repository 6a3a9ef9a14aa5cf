"""The game search's one filter set: every filter of the /games/ page and of the API's
game lists (``GET /api/games/`` and the event's, player's and head-to-head games),
declared once here.  The page renders its form; the API documents its filters
(api/schema.py ``filter_parameters``) and both run it through
``search.selectors.game_list``.  A search is its URL: the filters are query parameters,
every one optional; a bad value is an error naming the parameter.

Once a game is chosen (``game``), its options (``opt.<name>``) and searchable facts
(``fact.<name>``, counts as ``.min`` / ``.max``) take its labels and values, so that a
search by what happened works on the page without JavaScript: pick the game, filter,
then refine.  Without a game, an option or a fact finds the games of every game that
has it; filters combine with AND, so with a game that lacks it (or that value) no game
matches, and the page notes why (``notes``).  A name no game has is a 400.

Event, match, date and text match only records the user may see.  Dates are the
records' ``Date`` tags (``YYYY.MM.DD``, ``??`` for unknown parts) and compare as text:
a date with unknown parts sorts after every known date of the same prefix
(``2024.??.??`` is after ``2024.12.31``).
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

import django_filters
from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import NullIf

from events.lookup import event_find
from records.identity import players_named
from records.models import Event, Fact, Game, GameStatus, Record, Seat
from records.selectors import first_visible
from replay import registry
from search.date_bounds import UNBOUNDED, date_filter, newest_bound
from search.filter_fields import (
    FACT_PREFIX,
    OPTION_PREFIX,
    PLAYER_MODES,
    SEAT_COUNTS,
    SORTS,
    DateBoundFilter,
    OfferedChoiceFilter,
    WholeNumberFilter,
    choice_label,
    choices,
    date_bound,
    described,
    fact_filters,
    fact_kinds,
    option_filters,
)
from search.game_ids import ids_filter
from search.stored_time import stored_filter
from search.text import text_search


def _game_choices() -> list[tuple[str, str]]:
    """The registry's games, read when a form is drawn (a plug-in may join later)."""
    return choices(registry.game_ids(), "Any game")


#: the /games/ filters shown first; the rest sit under "More filters"
MAIN_FILTERS = ("q", "game", "player", "event", "status", "sort")
#: filters applied together rather than one by one (GameFilterSet.filter_queryset)
_TOGETHER = frozenset({"player", "player_mode", "event", "match", "date_from", "date_to", "sort"})
_PREFIXES = (OPTION_PREFIX, FACT_PREFIX)
#: how a fact's filters end: a count's bounds, or nothing
_BOUNDS = ("", ".min", ".max")
#: the form of each chosen game's search (and of a search without one), made once
_FORMS: dict[str, type[forms.Form]] = {}
#: the values that filter nothing
_DEFAULTS = {"sort": "newest", "player_mode": "together"}
_STATUSES = ", ".join(GameStatus.values)


class GameFilterForm(forms.Form):
    """The filter set's form (the /games/ form): the checks that need the chosen game,
    and the page's layout.  ``option_fields`` / ``fact_fields``: the chosen game's."""

    fixed: tuple[str, ...] = ()
    option_fields: list[str] = []
    fact_fields: list[str] = []
    rules: Any = None
    user: Any = None  # the viewer (GameFilterSet.form sets it): events are theirs to see
    event_found: Event | None = None  # the event ``event`` names (events/lookup.py)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        self.notes: list[str] = []
        if cleaned.get("event"):
            try:
                self.event_found = event_find(user=self.user, ref=cleaned["event"])
            except ValidationError as refused:
                self._refuse("event", refused.messages[0])
                cleaned.pop("event")
        game = self.data.get("game") or ""
        for key in self.data:
            value = str(self.data.get(key) or "").strip()
            if not value or not key.startswith((OPTION_PREFIX, FACT_PREFIX)):
                continue
            if key not in self.fields:  # no game has it: say why
                self._refuse(key, _stray(key, value, game))
                continue
            if cleaned.get(key) in (None, ""):  # refused by its field already
                continue
            if message := self._for_game(key, str(cleaned[key]), game):
                self.notes.append(f"{key}: {message}, so no game matches")
        return cleaned

    def _refuse(self, key: str, message: str) -> None:
        self.errors.setdefault(key, self.error_class()).append(message)

    def _for_game(self, key: str, value: str, game: str) -> str | None:
        """Why the chosen game meets no filter on this option or fact, or None."""
        rules = self.rules
        if key.startswith(OPTION_PREFIX):
            name = key[len(OPTION_PREFIX) :]
            options = {o.name: o for o in rules.options} if rules is not None else {}
            if rules is not None and (name not in options or value not in options[name].values):
                return f"{game} has no option {name}={value}"
            return None
        # without a game, every game's (a fact has one kind across games: fact_kinds)
        name = key[len(FACT_PREFIX) :].partition(".")[0]
        every = [rules] if rules is not None else list(registry.games().values())
        specs = [spec for each in every for spec in each.fact_specs if spec.name == name]
        if not specs:
            return f"{game} has no fact {name!r}"
        choices = sorted({choice for spec in specs for choice in spec.choices or ()})
        if specs[0].kind == "choice" and choices and value not in choices:
            return f"use one of {', '.join(choices)}"
        return None

    def main_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in MAIN_FILTERS]

    def more_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in self.fixed if n not in MAIN_FILTERS and not self[n].is_hidden]

    def option_bound(self) -> list[forms.BoundField]:
        return [self[name] for name in self.option_fields]

    def fact_bound(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fact_fields]

    def match_notes(self) -> list[str]:
        """Why a filter meets no game of the chosen game (``clean``): said above the
        results."""
        return list(getattr(self, "notes", []))

    def unshown_errors(self) -> list[str]:
        """The errors of filters the page does not show (another game's option or
        fact, or a parameter no game has): said above the form."""
        shown = {*self.fixed, *self.option_fields, *self.fact_fields} - {
            field.name for field in self.hidden_fields()
        }
        return [
            f"{key}: {message}"
            for key, messages in self.errors.items()
            if key not in shown and key != "__all__"
            for message in messages
        ]

    def used(self) -> dict[str, Any]:
        """The filters set to something that filters, and those refused."""
        if not self.is_bound:
            return {}
        cleaned = getattr(self, "cleaned_data", {})
        refused = {key: self.data.get(key) for key in self.errors if key != "__all__"}
        return refused | {
            name: value
            for name, value in cleaned.items()
            if value not in (None, "") and _DEFAULTS.get(name) != value
        }

    def more_used(self) -> bool:
        """Whether a filter under "More filters" is set (the section then opens)."""
        return any(k not in MAIN_FILTERS for k in self.used())


def _stray(key: str, value: str, game: str) -> str:
    """Why a parameter with a filter's prefix that no game has is refused."""
    if key.startswith(OPTION_PREFIX):
        name = key[len(OPTION_PREFIX) :]
        rules = registry.get(game) if game else None
        return (
            f"{game} has no option {name}={value}" if rules else f"no game has an option {name!r}"
        )
    name = key[len(FACT_PREFIX) :]
    if f"{key}.min" in GameFilterSet.every_filter():
        return f"{name} is a count: use {key}.min or {key}.max"
    return f"no game has a fact {name.partition('.')[0]!r}"


class GameFilterSet(django_filters.FilterSet):
    """The games ``user`` (or the request's user) may see, each once however many
    records hold it, filtered, in the order ``sort`` names (default newest first),
    always total (stable)."""

    q = described(
        django_filters.CharFilter(
            label="Text",
            method="by_text",
            max_length=200,
            help_text="Words of the event, site, comments or player names.",
            widget=forms.TextInput({"type": "search"}),
        ),
        "text over events, sites, comments and players",
    )
    game = described(
        OfferedChoiceFilter(label="Game", choices=_game_choices, empty_label=None),
        "game id: " + ", ".join(registry.game_ids()),
    )
    player = described(
        django_filters.CharFilter(
            label="Players", max_length=300, help_text="One name, or several separated by commas."
        ),
        "a player name, matched as its player identity; several comma-separated names",
    )
    player_mode = described(
        django_filters.ChoiceFilter(
            label="With several players", choices=list(PLAYER_MODES.items()), empty_label=None
        ),
        "with several players: all of them in the same game (default) or any of them",
    )
    winner = described(
        django_filters.CharFilter(label="Winner", method="by_winner", max_length=100),
        "a player name: games that player won",
    )
    event = described(
        django_filters.CharFilter(
            label="Event",
            max_length=300,
            help_text="Its id, or owner/name (alice/Bot Cup 2025).",
        ),
        "an event: its id (`12`), or its owner's username and its name "
        "(`alice/Bot Cup 2025`, name case-insensitive); a name alone only when a single "
        "event you can see has it, else a 400 listing the events' ids",
    )
    match = described(
        django_filters.CharFilter(label="Match", max_length=200), "a Match tag (case-insensitive)"
    )
    date_from = described(
        DateBoundFilter(label="Played from"),
        "lower bound on the Date tag: YYYY, YYYY.MM or YYYY.MM.DD (dots or dashes)",
    )
    date_to = described(
        DateBoundFilter(label="Played until"),
        "upper bound on the Date tag: YYYY, YYYY.MM or YYYY.MM.DD (dots or dashes)",
    )
    status = described(
        django_filters.ChoiceFilter(
            label="Status",
            choices=[("", "Any status"), *GameStatus.choices],
            empty_label=None,
            error_messages={
                "invalid_choice": "Select a valid choice: unknown status %(value)r; use one "
                f"of {_STATUSES}."
            },
        ),
        "the game's status",
    )
    players = described(
        WholeNumberFilter(
            label="Number of players",
            field_name="num_players",
            min_value=1,
            widget=forms.Select(choices=choices((str(n) for n in SEAT_COUNTS), "Any number")),
        ),
        "number of seats",
    )
    actions_min = described(
        WholeNumberFilter(
            label="At least … actions", field_name="num_actions", lookup_expr="gte", min_value=0
        ),
        "at least this many actions",
    )
    actions_max = described(
        WholeNumberFilter(
            label="At most … actions", field_name="num_actions", lookup_expr="lte", min_value=0
        ),
        "at most this many actions",
    )
    sort = described(
        django_filters.ChoiceFilter(
            label="Sort", choices=[(k, label) for k, (label, _) in SORTS.items()], empty_label=None
        ),
        "order (default newest first)",
    )
    deal = described(
        django_filters.CharFilter(max_length=64, widget=forms.HiddenInput),
        "a deal key (a game's `deal`): games dealt alike",
    )
    since = stored_filter("since")
    until = stored_filter("until")
    ids = ids_filter()

    #: every filter (the metaclass sets it: get_filters)
    base_filters: ClassVar[dict[str, django_filters.Filter]]

    class Meta:
        model = Game
        fields: list[str] = []
        form = GameFilterForm

    #: the registry's games when ``base_filters`` was last built
    _built_for: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def get_filters(cls) -> dict[str, django_filters.Filter]:
        """The declared filters, then ``opt.*`` and ``fact.*`` from the registry."""
        cls._built_for = tuple(registry.games())
        return {**super().get_filters(), **option_filters(), **fact_filters()}

    @classmethod
    def every_filter(cls) -> dict[str, django_filters.Filter]:
        """``base_filters``, built again when the registry's games have changed since
        (a plug-in that joined it after this module was imported gets its filters)."""
        if cls._built_for != tuple(registry.games()):
            cls.base_filters = cls.get_filters()
            _FORMS.clear()
        return cls.base_filters

    def __init__(
        self, data: Any = None, queryset: Any = None, *, user: Any = None, **kwargs: Any
    ) -> None:
        request = kwargs.get("request")
        self.user = request.user if user is None and request is not None else user
        if queryset is None:
            queryset = Game.objects.visible_to(self.user)
        self.rules = registry.get(str(data.get("game") or "")) if data else None
        # this search's filters only (FilterSet.__init__ copies them, then the form its
        # fields, on every request): the fixed ones, the chosen game's options and
        # facts, and any other opt./fact. parameter given (which the form refuses)
        given = {str(key) for key in data or () if str(key).startswith(_PREFIXES)}
        if self.rules is not None:
            given |= {f"{OPTION_PREFIX}{o.name}" for o in self.rules.options}
            given |= {f"{FACT_PREFIX}{s.name}{b}" for s in self.rules.fact_specs for b in _BOUNDS}
        every = type(self).every_filter()
        chosen = {n: f for n, f in every.items() if n in given or n in _FIXED}
        # FilterSet.__init__ deep-copies the filters: none here, a plain copy below will do
        setattr(self, "base_filters", {})  # noqa: B010
        super().__init__(data, queryset, **kwargs)
        delattr(self, "base_filters")
        self.filters = {name: _copy(f, self) for name, f in chosen.items()}
        self.records = Record.objects.visible_to(self.user)
        self.option_fields: list[str] = []
        self.fact_fields: list[str] = []
        if self.rules is not None:
            self._choose_game(self.rules)

    def _choose_game(self, rules: Any) -> None:
        """The chosen game's options and facts, with its labels and values."""
        for option in rules.options:
            name = f"{OPTION_PREFIX}{option.name}"
            self.filters[name].extra.update(
                choices=choices(option.values, "Any"), help_text=option.doc
            )
            self.option_fields.append(name)
        for spec in rules.fact_specs:
            key = f"{FACT_PREFIX}{spec.name}"
            if spec.kind == "count":
                self.fact_fields += [f"{key}.min", f"{key}.max"]
                continue
            self.filters[key].label = spec.label
            if spec.kind == "choice":
                labelled = ((c, choice_label(c, [rules.game])) for c in spec.choices)
                self.filters[key].extra["choices"] = [("", "Any"), *labelled]
            self.fact_fields.append(key)

    def get_form_class(self) -> type[forms.Form]:
        """The form of this search's filters, made once per chosen game (or none) and
        kept; one with other parameters of a filter's prefix is made each time."""
        plain = all(name in _FIXED or self._of_game(name) for name in self.filters)
        key = self.rules.game if self.rules is not None else ""
        if plain and key in _FORMS:
            return _FORMS[key]
        form = super().get_form_class()
        form.fixed = _FIXED
        form.option_fields = self.option_fields
        form.fact_fields = self.fact_fields
        form.rules = self.rules
        if plain:
            _FORMS[key] = form
        return form

    @property
    def form(self) -> Any:
        """The filter set's form, knowing the viewer (the ``event`` filter reads the
        events they may see)."""
        form = super().form
        form.user = self.user
        return form

    def _of_game(self, name: str) -> bool:
        return name in self.option_fields or name in self.fact_fields

    def filter_queryset(self, queryset: QuerySet[Game]) -> QuerySet[Game]:
        """Each filter on its own, then those that work together: the players (with
        ``player_mode``), the visible records (event, match and dates: one record
        matches all of them), and the order."""
        data = self.form.cleaned_data
        for name, value in data.items():
            if name not in _TOGETHER:
                queryset = self.filters[name].filter(queryset, value)
        sort = data.get("sort") or "newest"
        queryset = self._by_players(queryset, data.get("player") or "", data.get("player_mode"))
        return self._sorted(self._by_records(queryset, data, sort), sort)

    def by_text(self, qs: QuerySet[Game], name: str, value: str) -> QuerySet[Game]:
        return text_search(qs, self.records, value, user=self.user)

    def by_winner(self, qs: QuerySet[Game], name: str, value: str) -> QuerySet[Game]:
        found = players_named(value)
        return qs.filter(
            Exists(Seat.objects.filter(game=OuterRef("pk"), player__in=found, won=True))
        )

    def by_fact(self, qs: QuerySet[Game], name: str, value: Any) -> QuerySet[Game]:
        """``fact.<name>`` (``name`` with ``.min`` / ``.max`` for a count's bound) over
        the game's indexed Fact rows; the form checked that the game has the fact."""
        name, _, bound = name.partition(".")
        rows = Fact.objects.filter(game=OuterRef("pk"), name=name)
        kind = fact_kinds()[name]
        if kind == "count":
            rows = (
                rows.filter(number__gte=value) if bound == "min" else rows.filter(number__lte=value)
            )
        elif kind == "flag":
            rows = rows.filter(number=1 if value == "yes" else 0)
        elif kind == "choice":
            rows = rows.filter(text=value)
        else:  # seat: the player in it
            rows = rows.filter(player__in=players_named(value))
        return qs.filter(Exists(rows))

    def _by_players(self, qs: QuerySet[Game], names: str, mode: str | None) -> QuerySet[Game]:
        # a name finds its player in every namespace (the same name from two organisers
        # is two players), an id (fide:4100018) the one player it names
        wanted = [n.strip() for n in names.split(",") if n.strip()]
        found = [players_named(n) for n in wanted]
        if (mode or "together") == "together":
            for ids in found:
                qs = qs.filter(Exists(Seat.objects.filter(game=OuterRef("pk"), player__in=ids)))
            return qs
        if not wanted:
            return qs
        anyone = sorted({pk for ids in found for pk in ids})
        return qs.filter(Exists(Seat.objects.filter(game=OuterRef("pk"), player__in=anyone)))

    def _by_records(self, qs: QuerySet[Game], data: dict[str, Any], sort: str) -> QuerySet[Game]:
        in_records = self.records.filter(game=OuterRef("pk"))
        narrowed = False
        if data.get("event"):
            found = self.form.event_found
            in_records = in_records.filter(upload__event=found) if found else in_records.none()
            narrowed = True
        if match := data.get("match"):
            in_records, narrowed = in_records.filter(match__iexact=match), True
        start = date_bound(data["date_from"], end=False) if data.get("date_from") else None
        stop = date_bound(data["date_to"], end=True) if data.get("date_to") else None
        if start is None and stop is None:
            return qs.filter(Exists(in_records)) if narrowed else qs
        # by bytes, whatever the collation
        qs = qs.filter(Exists(date_filter(in_records, start, stop)))
        if sort == "newest":
            # no game in range is newer than the newest record in range: the walk newest
            # first starts there (search/date_bounds.py); the result is unchanged
            bound = newest_bound(start, stop)
            if bound is None:  # no record in range at all
                return qs.none()
            if bound is not UNBOUNDED:
                qs = qs.filter(listed_at__lte=bound)
        return qs

    def _sorted(self, qs: QuerySet[Game], sort: str) -> QuerySet[Game]:
        if sort.startswith("played"):
            # a record without a Date tag has "": as NULL it sorts last both ways
            date = Subquery(first_visible(self.user).values("date")[:1])
            qs = qs.annotate(played_on=NullIf(date, Value("")))
        return qs.order_by(*SORTS[sort][1])


def _copy(filter_: Any, parent: GameFilterSet) -> Any:
    """``filter_`` for one search: its own ``extra`` (the chosen game's values go there)
    and its own method, bound to ``parent``."""
    copied = copy.copy(filter_)
    copied.extra = dict(filter_.extra)
    copied.__dict__.pop("_field", None)
    if filter_.method is not None:
        copied.method = filter_.method  # a FilterMethod of the copy
    copied.model, copied.parent = Game, parent
    return copied


#: the filters every search has (those declared in the class, in their order)
_FIXED = tuple(GameFilterSet.declared_filters)
