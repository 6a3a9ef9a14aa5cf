"""The canonical KGN writer (NOTATION.md §9).

``write_record`` is the reader's partner: for every valid record,
``load(read(write_record(r))) == r``.  Tags come in the canonical order, defaults are
dropped, cards are upper case with ``T``, keywords lower case, move numbers stand
where §9 puts them, and lines wrap at 80 characters (never inside a token).
"""

from __future__ import annotations

from collections.abc import Iterable

from replay import registry
from replay.errors import RuleViolation
from replay.record import GameRecord, seat_letter
from replay.rules import AnyRules

WIDTH = 80
#: tags written before Players, in this order, when present
_HEAD = ("Event", "Site", "Date", "Round", "Match", "Table")
#: setup tags of every game, in canonical order (§9: own tags, then Deal, Stock)
SETUP_ORDER = ("Levels", "Offense", "Tribute", "Deal", "Stock")


def escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _tag(name: str, value: str) -> str:
    return f'[{name} "{escape(value)}"]'


def _trick_numbers(rules: AnyRules, record: GameRecord) -> list[int | None]:
    """Trick numbers before each action, from a replay that stops at the first fault."""
    numbers: list[int | None] = [None] * len(record.actions)
    state = rules.start(
        setup=record.setup, variant=record.variant, players=len(record.players), first=record.first
    )
    for k, action in enumerate(record.actions):
        if rules.is_over(state):
            break
        numbers[k] = rules.trick_number(state, action.seat, action.move)
        try:
            rules.apply(state, action.seat, action.move)
        except RuleViolation:
            numbers[k] = None
            break
    return numbers


def _wrap(units: Iterable[str]) -> list[str]:
    lines: list[str] = []
    cur = ""
    for unit in units:
        if not cur:
            cur = unit
        elif len(cur) + 1 + len(unit) <= WIDTH:
            cur += " " + unit
        else:
            lines.append(cur)
            cur = unit
    if cur:
        lines.append(cur)
    return lines


def _comment_units(text: str) -> list[str]:
    words = text.split()
    if not words:
        return ["{}"]
    words[0] = "{" + words[0]
    words[-1] = words[-1] + "}"
    return words


def write_tags(record: GameRecord, rules: AnyRules) -> list[str]:
    tags = dict(record.tags)
    out = [_tag("Game", record.game)]
    out += [_tag(name, tags.pop(name)) for name in _HEAD if name in tags]
    out.append(_tag("Players", "; ".join(record.players)))
    if rules.has_first and record.first != 0:
        out.append(_tag("First", seat_letter(record.first)))
    options = [
        f"{opt.name}={record.variant[opt.name]}"
        for opt in rules.options
        if record.variant.get(opt.name, opt.default) != opt.default
    ]
    if options:
        out.append(_tag("Variant", ", ".join(options)))
    setup = rules.write_setup(record.setup)
    out += [_tag(name, setup[name]) for name in SETUP_ORDER if name in setup]
    if record.result is not None:
        result = record.result
        if result.scores is not None:
            value = ", ".join(f"{seat_letter(i)} {s}" for i, s in enumerate(result.scores))
        else:
            value = result.team_result or "*"
        out.append(_tag("Result", value))
    out += [_tag(name, tags[name]) for name in sorted(tags)]
    return out


def write_movetext(record: GameRecord, rules: AnyRules) -> list[str]:
    units: list[str] = []
    for comment in record.comments:
        units += _comment_units(comment)
    numbers: list[int | None]
    if rules.numbering == "action":
        numbers = list(range(1, len(record.actions) + 1))
    else:
        numbers = _trick_numbers(rules, record)
    for action, number in zip(record.actions, numbers, strict=True):
        text = f"{seat_letter(action.seat)}: {rules.write_move(action.move)}"
        units.append(f"{number}. {text}" if number is not None else text)
        for comment in action.comments:
            units += _comment_units(comment)
    if record.star:
        units.append("*")
    return _wrap(units)


def write_record(record: GameRecord) -> str:
    """The canonical text of one record, ending with a blank line."""
    rules = registry.get(record.game)
    if rules is None:
        raise ValueError(f"unknown game {record.game!r}")
    lines = write_tags(record, rules)
    lines.append("")
    lines += write_movetext(record, rules)
    lines.append("")
    return "\n".join(lines) + "\n"


def write_records(records: Iterable[GameRecord]) -> str:
    """Several records as one KGN file."""
    return "".join(write_record(r) for r in records)
