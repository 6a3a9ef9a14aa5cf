"""The game-list filters of the /games/ page."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django import forms

from records.models import GameStatus
from replay import registry
from search.selectors import FACT_PREFIX, OPTION_PREFIX, PLAYER_MODES, SORTS

if TYPE_CHECKING:
    from replay.rules import FactSpec


def seat_counts() -> range:
    """Every number of seats some registered game is played with (read when a form is
    made, not at import: a plug-in may join the registry later)."""
    games = registry.games().values()
    return range(min(r.min_players for r in games), max(r.max_players for r in games) + 1)


#: the /games/ filters shown first; the rest sit under "More filters"
MAIN_FILTERS = ("q", "game", "player", "event", "status", "sort")


def _choices(values: Iterable[str], empty: str) -> list[tuple[str, str]]:
    return [("", empty), *((v, v) for v in values)]


def _game_choices() -> list[tuple[str, str]]:
    return _choices(registry.game_ids(), "Any game")


def _seat_choices() -> list[tuple[str, str]]:
    return [("", "Any number"), *((str(n), str(n)) for n in seat_counts())]


class GameFilterForm(forms.Form):
    """The /games/ filters, named as the API's (search/selectors.py).  Every field is
    optional.  Once a game is chosen, its options (``opt.<name>``) and searchable facts
    (``fact.<name>``, counts as ``.min`` / ``.max``) join the form, so that a search
    by what happened works without JavaScript: pick the game, filter, then refine.
    ``filters()`` is what the game_list selector takes (valid, non-empty values)."""

    q = forms.CharField(
        label="Text",
        required=False,
        max_length=200,
        help_text="Words of the event, site, comments or player names.",
        widget=forms.TextInput({"type": "search"}),
    )
    game = forms.ChoiceField(label="Game", required=False, choices=_game_choices)
    player = forms.CharField(
        label="Players",
        required=False,
        max_length=300,
        help_text="One name, or several separated by commas.",
    )
    player_mode = forms.ChoiceField(
        label="With several players", required=False, choices=list(PLAYER_MODES.items())
    )
    winner = forms.CharField(label="Winner", required=False, max_length=100)
    event = forms.CharField(label="Event", required=False, max_length=200)
    match = forms.CharField(label="Match", required=False, max_length=200)
    date_from = forms.CharField(
        label="Played from",
        required=False,
        max_length=10,
        widget=forms.TextInput({"placeholder": "YYYY.MM.DD"}),
    )
    date_to = forms.CharField(
        label="Played until",
        required=False,
        max_length=10,
        widget=forms.TextInput({"placeholder": "YYYY.MM.DD"}),
    )
    status = forms.ChoiceField(
        label="Status", required=False, choices=[("", "Any status"), *GameStatus.choices]
    )
    players = forms.TypedChoiceField(
        label="Number of players",
        required=False,
        coerce=int,
        empty_value=None,
        choices=_seat_choices,
    )
    actions_min = forms.IntegerField(label="At least … actions", required=False, min_value=0)
    actions_max = forms.IntegerField(label="At most … actions", required=False, min_value=0)
    sort = forms.ChoiceField(
        label="Sort", required=False, choices=[(k, label) for k, (label, _) in SORTS.items()]
    )
    deal = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.option_fields: list[str] = []
        self.fact_fields: list[str] = []
        rules = registry.get(self.data.get("game") or "") if self.is_bound else None
        if rules is None:
            return
        for option in rules.options:
            name = f"{OPTION_PREFIX}{option.name}"
            self.fields[name] = forms.ChoiceField(
                label=option.name,
                required=False,
                choices=_choices(option.values, "Any"),
                help_text=option.doc,
            )
            self.option_fields.append(name)
        for spec in rules.fact_specs:
            for name, field in _fact_fields(spec):
                self.fields[name] = field
                self.fact_fields.append(name)

    def main_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in MAIN_FILTERS]

    def more_fields(self) -> list[forms.BoundField]:
        fixed = [n for n in self.base_fields if n not in MAIN_FILTERS and n != "deal"]
        return [self[name] for name in fixed]

    def option_bound(self) -> list[forms.BoundField]:
        return [self[name] for name in self.option_fields]

    def fact_bound(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fact_fields]

    def more_used(self) -> bool:
        """Whether a filter under "More filters" is set (the section then opens)."""
        used = self.filters()
        return any(k not in MAIN_FILTERS for k in used)

    def filters(self) -> dict[str, str]:
        if not self.is_bound:
            return {}
        self.is_valid()
        cleaned = getattr(self, "cleaned_data", {})
        # an option or fact the chosen game lacks goes to the selector, which says why
        stray = {
            key: str(self.data[key])
            for key in self.data
            if key.startswith((OPTION_PREFIX, FACT_PREFIX))
            and key not in self.fields
            and self.data.get(key)
        }
        return stray | {
            name: str(value)
            for name, value in cleaned.items()
            if value not in (None, "")
            and not (name == "sort" and value == "newest")
            and not (name == "player_mode" and value == "together")
        }


def _fact_fields(spec: FactSpec) -> list[tuple[str, forms.Field]]:
    """The form fields that filter on one fact."""
    name = f"{FACT_PREFIX}{spec.name}"
    if spec.kind == "count":
        return [
            (f"{name}.min", forms.IntegerField(label=f"{spec.label}: at least", required=False)),
            (f"{name}.max", forms.IntegerField(label=f"{spec.label}: at most", required=False)),
        ]
    if spec.kind == "flag":
        choices = [("", "Either"), ("yes", "Yes"), ("no", "No")]
        return [(name, forms.ChoiceField(label=spec.label, required=False, choices=choices))]
    if spec.kind == "choice":
        field = forms.ChoiceField(
            label=spec.label, required=False, choices=_choices(spec.choices, "Any")
        )
        return [(name, field)]
    return [
        (
            name,
            forms.CharField(
                label=spec.label, required=False, max_length=100, help_text="A player's name."
            ),
        )
    ]
