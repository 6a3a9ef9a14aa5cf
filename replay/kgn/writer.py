"""The canonical KGN writer (NOTATION.md §9).

``write_record`` is the reader's partner: for every valid record,
``load(read(write_record(r))) == r``.  Tags come in the canonical order, defaults are
dropped, cards are upper case with ``T``, keywords lower case, move numbers stand
where §9 puts them, and lines wrap at 80 characters (never inside a token).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from replay import memo, registry
from replay.errors import RuleViolation
from replay.player_ids import parse_player_ids, write_player_ids
from replay.record import GameRecord, seat_letter
from replay.rules import AnyRules

WIDTH = 80
#: tags written before Players, in this order, when present
_HEAD = ("Event", "Site", "Date", "Round", "Match", "Table")
#: the setup tags NOTATION.md names, in canonical order (§9: own tags, then Deal,
#: Stock).  A game writes its own in its ``Rules.setup_tags`` order; the loader refuses
#: one of these in a record of a game that does not read it.
SETUP_ORDER = ("Levels", "Offense", "Tribute", "Deal", "Stock")


def escape(value: str) -> str:
    if "\\" not in value and '"' not in value:
        return value
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _tag(name: str, value: str) -> str:
    return f'[{name} "{escape(value)}"]'


#: tag lines the writer made before, by game and what they say (the Variant and Result
#: of a file's records repeat)
_LINES: dict[tuple[str, object], str | None] = memo.table()


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


def _comment_units(text: str) -> list[str]:
    words = text.split()
    if not words:
        return ["{}"]
    words[0] = "{" + words[0]
    words[-1] = words[-1] + "}"
    return words


def write_tags(record: GameRecord, rules: AnyRules) -> list[str]:
    lines = _LINES
    tags = dict(record.tags) if record.tags else {}
    out = [_tag("Game", record.game)]
    if tags:
        out += [_tag(name, tags.pop(name)) for name in _HEAD if name in tags]
    out.append(_tag("Players", "; ".join(record.players)))
    if rules.has_first and record.first != 0:
        out.append(_tag("First", seat_letter(record.first)))
    if "PlayerIds" in tags:
        value = tags.pop("PlayerIds")
        ids = parse_player_ids(value, len(record.players))
        out.append(_tag("PlayerIds", write_player_ids(ids) if isinstance(ids, tuple) else value))
    key: tuple[str, object] = (rules.game, record.variant.options)
    if key in lines:
        variant = lines[key]
    else:
        options = [
            f"{opt.name}={record.variant[opt.name]}"
            for opt in rules.options
            if record.variant.get(opt.name, opt.default) != opt.default
        ]
        variant = memo.remember(
            lines, key, _tag("Variant", ", ".join(options)) if options else None
        )
    if variant is not None:
        out.append(variant)
    setup = rules.write_setup(record.setup)
    out += [_tag(name, setup[name]) for name in rules.setup_tags if name in setup]
    result = record.result
    if result is not None:
        key = ("Result", (result.scores, result.team_result))
        line = lines.get(key)
        if line is None:
            if result.scores is not None:
                value = ", ".join(f"{seat_letter(i)} {s}" for i, s in enumerate(result.scores))
            else:
                value = result.team_result or "*"
            line = _tag("Result", value)
            memo.remember(lines, key, line)
        out.append(line)
    if tags:
        out += [_tag(name, tags[name]) for name in sorted(tags)]
    return out


#: canonical move texts by move object: moves are immutable values and the loader
#: shares one object among equal moves, so a move is written once.  Each entry keeps
#: its move alive, so an id in the table is never another object's.
_TEXTS: dict[int, tuple[object, str]] = memo.table()
_LETTERS = tuple(seat_letter(s) for s in range(26))


def move_texts(record: GameRecord, rules: AnyRules) -> list[str]:
    """Each action's move as canonical text, through the same table as
    :func:`write_movetext` (a move the writer has just written is looked up)."""
    texts = _TEXTS
    get = texts.get
    out = []
    for action in record.actions:
        move = action.move
        known = get(id(move))
        if known is not None and known[0] is move:
            out.append(known[1])
        else:
            text = rules.write_move(move)
            memo.remember(texts, id(move), (move, text))
            out.append(text)
    return out


def write_movetext(
    record: GameRecord, rules: AnyRules, numbers: Sequence[int | None] | None = None
) -> list[str]:
    """The movetext lines.  ``numbers`` are the move numbers before the actions when
    the caller knows them (the verifier's replay); else they are worked out here.

    Units (an action, a comment's word, ``*``) fill lines of at most :data:`WIDTH`
    characters, one space apart, a unit that does not fit starting the next line."""
    actions = record.actions
    if numbers is None:
        if rules.numbering == "action":
            numbers = range(1, len(actions) + 1)
        else:
            numbers = _trick_numbers(rules, record)
    lines: list[str] = []
    cur: list[str] = []  # the units of the line being filled
    width = 0  # len(" ".join(cur))

    def put(unit: str) -> None:
        nonlocal cur, width
        n = len(unit)
        if cur and width + 1 + n <= WIDTH:
            cur.append(unit)
            width += 1 + n
        else:
            if cur:
                lines.append(" ".join(cur))
            cur = [unit]
            width = n

    for comment in record.comments:
        for unit in _comment_units(comment):
            put(unit)
    texts = _TEXTS
    get = texts.get
    write_move = rules.write_move
    letters = _LETTERS
    for action, number in zip(actions, numbers, strict=True):
        move = action.move
        known = get(id(move))
        if known is not None and known[0] is move:
            text = known[1]
        else:
            text = write_move(move)
            memo.remember(texts, id(move), (move, text))
        seat = action.seat
        letter = letters[seat] if 0 <= seat < 26 else seat_letter(seat)
        unit = f"{number}. {letter}: {text}" if number is not None else f"{letter}: {text}"
        n = len(unit)  # put(unit), inline: this is the loop over every action
        if cur and width + 1 + n <= WIDTH:
            cur.append(unit)
            width += 1 + n
        else:
            if cur:
                lines.append(" ".join(cur))
            cur = [unit]
            width = n
        if action.comments:
            for comment in action.comments:
                for unit in _comment_units(comment):
                    put(unit)
    if record.star:
        put("*")
    if cur:
        lines.append(" ".join(cur))
    return lines


def write_record(record: GameRecord, *, numbers: Sequence[int | None] | None = None) -> str:
    """The canonical text of one record, ending with a blank line.

    ``numbers``: the move number before each action, when the caller has them from a
    replay of the whole record (:func:`replay.verify.replay_verdict`)."""
    rules = registry.get(record.game)
    if rules is None:
        raise ValueError(f"unknown game {record.game!r}")
    lines = write_tags(record, rules)
    lines.append("")
    lines += write_movetext(record, rules, numbers)
    lines.append("")
    return "\n".join(lines) + "\n"


def write_records(records: Iterable[GameRecord]) -> str:
    """Several records as one KGN file."""
    return "".join(write_record(r) for r in records)
