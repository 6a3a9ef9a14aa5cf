"""Syntax-level records -> typed GameRecords (NOTATION.md §2, §3, §5, §6).

The loader checks everything generic about a record's tags — Game, Players, First,
Variant, Date, Round, Result — and hands the setup tags and each action's words to
the game's plug-in.  Every fault is a NotationError at the offending tag or word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import cast

from replay import memo, registry
from replay.errors import ActionSyntaxError, NotationError, Pos, SetupError, make_pos
from replay.kgn.reader import read_records
from replay.kgn.writer import SETUP_ORDER
from replay.numbers import too_long
from replay.player_ids import PlayerIdsFault, parse_player_ids
from replay.raw_action import CompactAction
from replay.record import (
    Action,
    GameRecord,
    Outcome,
    RawRecord,
    Tag,
    Variant,
    seat_letter,
)
from replay.rules import AnyRules

MAX_NAME = 100
TEAM_RESULTS = ("offense-win", "draw", "defense-win")
_STRUCTURAL = ("Game", "Players", "First", "Variant", "Result")
_DATE_RE = re.compile(r"^(\d{4}|\?{4})\.(\d{2}|\?\?)\.(\d{2}|\?\?)$")
_SCORE_RE = re.compile(r"^([A-Za-z])\s+([+-]?[0-9]+)$")
#: a Round: a positive whole number, no sign, spaces or leading zeros (NOTATION.md §2)
_ROUND_RE = re.compile(r"[1-9][0-9]*")
_PLAIN_SCORES_RE = re.compile(r"[A-Z] -?[0-9]+(?:, [A-Z] -?[0-9]+)*")
_SEAT_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_KNOWN_TAG_ORDER = ("Event", "Site", "Date", "Round", "Match", "Table")


def _err(message: str, pos: Pos, record: RawRecord) -> NotationError:
    return NotationError(message, pos, record=record.index)


def _tag_pos(raw: RawRecord, name: str) -> Pos:
    tag = raw.tag(name)
    return tag.pos if tag else Pos(raw.first_line, 1)


def _players(raw: RawRecord, rules: AnyRules, tag: Tag | None) -> tuple[str, ...]:
    """The names in the Players tag ``tag``, checked.  Cost: linear in the tag."""
    if tag is None:
        raise _err("the Players tag is missing", _tag_pos(raw, "Players"), raw)
    pos = tag.pos
    names = tuple(n.strip() for n in tag.value.split(";"))
    if (
        all(names)
        and max(map(len, names)) <= MAX_NAME
        and len(set(names)) == len(names)
        and rules.min_players <= len(names) <= rules.max_players
    ):
        return names  # the usual case; the checks below say which fault, in order
    for k, name in enumerate(names):
        if not name:
            raise _err(f"seat {seat_letter(k)} has an empty name in Players", pos, raw)
        if len(name) > MAX_NAME:
            raise _err(
                f"seat {seat_letter(k)}'s name is {len(name)} characters (at most {MAX_NAME})",
                pos,
                raw,
            )
    seen: dict[str, int] = {}
    for k, name in enumerate(names):
        if name in seen:
            raise _err(
                f"{name!r} sits at both seat {seat_letter(seen[name])} and seat {seat_letter(k)}",
                pos,
                raw,
            )
        seen[name] = k
    if not rules.min_players <= len(names) <= rules.max_players:
        span = (
            f"exactly {rules.min_players}"
            if rules.min_players == rules.max_players
            else f"{rules.min_players} to {rules.max_players}"
        )
        raise _err(f"{rules.game} is played by {span} players, not {len(names)}", pos, raw)
    return names


def parse_variant(
    value: str,
    rules: AnyRules,
    pos: Pos,
    raw: RawRecord,
) -> Variant:
    """``"a=b, c=d"`` -> the full option map, in the game's docs order."""
    chosen: dict[str, str] = {}
    for part in value.split(","):
        part = part.strip()
        if not part:
            if value.strip():
                raise _err("the Variant tag has an empty option (two commas?)", pos, raw)
            continue
        name, eq, val = (s.strip() for s in part.partition("="))
        if not eq or not name or not val:
            raise _err(f"Variant option {part!r} is not written option=value", pos, raw)
        try:
            opt = rules.option(name)
        except KeyError:
            owners = [
                g for g, r in registry.games().items() if any(o.name == name for o in r.options)
            ]
            where = f" (it belongs to {', '.join(owners)})" if owners else ""
            raise _err(f"{rules.game} has no option {name!r}{where}", pos, raw) from None
        if name in chosen:
            raise _err(f"Variant sets {name} twice", pos, raw)
        if val not in opt.values:
            raise _err(
                f"{name}={val} is not an option value; {name} is one of {', '.join(opt.values)}",
                pos,
                raw,
            )
        chosen[name] = val
    return Variant(tuple((o.name, chosen.get(o.name, o.default)) for o in rules.options))


def parse_result(
    value: str,
    rules: AnyRules,
    players: int,
    pos: Pos,
    raw: RawRecord,
) -> Outcome | None:
    """The claimed outcome, or None for ``*``."""
    value = value.strip()
    if value == "*":
        return None
    if rules.result_kind == "team":
        if value not in TEAM_RESULTS:
            raise _err(f"Result {value!r} must be one of {', '.join(TEAM_RESULTS)} or *", pos, raw)
        return Outcome(team_result=value)
    if _PLAIN_SCORES_RE.fullmatch(value):  # "A 17, B -4": seats in order, one each
        parts = value.split(", ")
        if (
            len(parts) == players
            and all(map(str.startswith, parts, _SEAT_LETTERS))
            and not any(too_long(p[2:]) for p in parts)
        ):
            return Outcome(scores=tuple(int(p[2:]) for p in parts))
    scores: dict[int, int] = {}
    for part in value.split(","):
        m = _SCORE_RE.match(part.strip())
        if not m:
            raise _err(
                f'Result part {part.strip()!r} is not a seat and a score like "A 17"', pos, raw
            )
        if m.group(1).islower():
            raise _err(
                f"Result part {part.strip()!r}: seat letters are upper-case ({m.group(1).upper()})",
                pos,
                raw,
            )
        if why := too_long(m.group(2)):
            raise _err(f"Result part {part.strip()[:20]!r}…: the score is {why}", pos, raw)
        seat = ord(m.group(1)) - ord("A")
        if seat >= players:
            raise _err(
                f"Result names seat {m.group(1).upper()}, which is not at the table", pos, raw
            )
        if seat in scores:
            raise _err(f"Result gives seat {seat_letter(seat)} twice", pos, raw)
        scores[seat] = int(m.group(2))
    missing = [seat_letter(s) for s in range(players) if s not in scores]
    if missing:
        raise _err(f"Result gives no score for seat {', '.join(missing)}", pos, raw)
    return Outcome(scores=tuple(scores[s] for s in range(players)))


def _check_common_tags(raw: RawRecord) -> None:
    date = raw.tag("Date")
    if date is not None:
        m = _DATE_RE.match(date.value)
        ok = m is not None
        if m:
            month, day = m.group(2), m.group(3)
            ok = (month == "??" or 1 <= int(month) <= 12) and (day == "??" or 1 <= int(day) <= 31)
        if not ok:
            raise _err(
                f"Date {date.value!r} is not YYYY.MM.DD (?? for unknown parts)", date.pos, raw
            )
    rnd = raw.tag("Round")
    if rnd is not None and not _ROUND_RE.fullmatch(rnd.value):
        raise _err(
            f"Round {rnd.value[:20]!r} is not a positive whole number written without a "
            "sign, spaces or leading zeros",
            rnd.pos,
            raw,
        )
    if rnd is not None and (why := too_long(rnd.value)):
        raise _err(f"Round {rnd.value[:12]!r}… is {why}", rnd.pos, raw)


def _check_player_ids(raw: RawRecord, tag: Tag, seats: int) -> None:
    """A PlayerIds tag's fault as a NotationError at the offending id (the column of
    the value's text: ``[Name "`` before it, exact unless an escape precedes it)."""
    found = parse_player_ids(tag.value, seats)
    if isinstance(found, PlayerIdsFault):
        column = tag.pos.column + len(tag.name) + 3 + found.offset
        raise _err(found.message, Pos(tag.pos.line, column), raw)


def _first(raw: RawRecord, rules: AnyRules, players: int) -> int:
    tag = raw.tag("First")
    if tag is None:
        return 0
    if not rules.has_first:
        raise _err(f"{rules.game} has no First tag (every seat acts in each trick)", tag.pos, raw)
    letter = tag.value.strip().upper()
    if len(letter) != 1 or not "A" <= letter <= "Z":
        raise _err(f"First {tag.value!r} is not a seat letter", tag.pos, raw)
    seat = ord(letter) - ord("A")
    if seat >= players:
        raise _err(f"First names seat {letter}, but only {players} players sit", tag.pos, raw)
    return seat


#: tags that are not kept in GameRecord.tags (the loader reads them itself)
_SKIP = frozenset(_STRUCTURAL) | frozenset(SETUP_ORDER)
#: per game id, _SKIP and the game's own setup tags (a plug-in may read tags of its own)
_SKIPS: dict[str, frozenset[str]] = memo.table()
_ORDER = {name: k for k, name in enumerate(_KNOWN_TAG_ORDER)}
#: the Variants the loader read before, by game and tag text (a file's records repeat
#: a few); only those that loaded without fault.  (Players and Result values vary
#: too much to be worth keeping, and read fast enough.)
_SEEN: dict[tuple[str, str, str], object] = memo.table()


def _other_tags_key(kv: tuple[str, str]) -> tuple[int, str]:
    return (_ORDER.get(kv[0], len(_ORDER)), kv[0])


def load_record(raw: RawRecord) -> GameRecord:
    """Understand one record.  Raises NotationError (with the record's index) on a fault:
    the record's own (tags, setup, ...) first, else its earliest unreadable action."""
    record, fault = load_prefix(raw)
    if fault is not None:
        raise fault
    return record


def load_prefix(raw: RawRecord) -> tuple[GameRecord, NotationError | None]:
    """Understand one record up to its first unreadable action (NOTATION.md §8).

    Raises NotationError for a fault of the whole record (a tag, the setup, the
    Variant, a malformed Result, an unclosed ``{``...).  Otherwise returns the record
    with the actions before its first unreadable one (a word no move reads as, a seat
    not at the table, junk where a seat label should stand, a token after ``*``) and
    that action's error, or every action and None.  The caller replays the actions
    first: an illegal one among them comes before the unreadable one in reading order.
    """
    if raw.error is not None and raw.error.action is None:
        raise raw.error
    tags = raw.tags
    by_name = {t.name: t for t in tags}
    game_tag = by_name.get("Game")
    if game_tag is None:
        raise _err("the Game tag is missing", Pos(raw.first_line, 1), raw)
    game = game_tag.value
    rules = registry.get(game)
    if rules is None:
        raise _err(
            f"unknown game {game!r}; Game is one of {', '.join(registry.game_ids())}",
            game_tag.pos,
            raw,
        )
    seen = _SEEN
    players = _players(raw, rules, by_name.get("Players"))
    n = len(players)
    first = _first(raw, rules, n) if "First" in by_name else 0
    if "Date" in by_name or "Round" in by_name:
        _check_common_tags(raw)
    if "PlayerIds" in by_name:
        _check_player_ids(raw, by_name["PlayerIds"], n)
    vtag = by_name.get("Variant")
    if vtag is None:
        key = (game, "Variant", "")
        variant = seen.get(key)
        if variant is None:
            variant = memo.remember(seen, key, rules.default_variant())
    else:
        key = (game, "Variant", f"{n}:{vtag.value}")
        variant = seen.get(key)
        if variant is None:
            variant = parse_variant(vtag.value, rules, vtag.pos, raw)
            problem = rules.check_variant(players=n, variant=variant)
            if problem:
                raise _err(problem, vtag.pos, raw)
            memo.remember(seen, key, variant)
    variant = cast(Variant, variant)
    setup_values: dict[str, str] = {}
    own = rules.setup_tags
    for name in SETUP_ORDER:
        tag = by_name.get(name)
        if tag is not None and name not in own:
            raise _err(f"{game} has no {name} tag", tag.pos, raw)
    for name in own:
        tag = by_name.get(name)
        if tag is not None:
            setup_values[name] = tag.value
    try:
        setup = rules.parse_setup(players=n, first=first, tags=setup_values, variant=variant)
    except SetupError as exc:
        raise _err(exc.message, _tag_pos(raw, exc.tag), raw) from None
    rtag = by_name.get("Result")
    result = parse_result(rtag.value, rules, n, rtag.pos, raw) if rtag else None
    actions, fault = _actions(raw, rules, n)
    if fault is None:
        fault = raw.error  # the reader's fault comes after every action it kept
    skip = _SKIPS.get(game)
    if skip is None:
        skip = memo.remember(_SKIPS, game, _SKIP | frozenset(own))
    others = (
        [] if skip.issuperset(by_name) else [(t.name, t.value) for t in tags if t.name not in skip]
    )
    if len(others) > 1:
        others.sort(key=_other_tags_key)
    record = GameRecord(
        game=game,
        players=players,
        first=first,
        variant=variant,
        setup=setup,
        actions=actions,
        tags=tuple(others),
        result=result,
        comments=raw.comments,
        star=raw.star,
        index=raw.index,
        source=raw,
    )
    return record, fault


#: parsed moves by game and words as written: parse_move is a function of the words
#: alone and moves are immutable values, so equal words share one move
_MOVES: dict[str, dict[str, object]] = {}


def _actions(
    raw: RawRecord, rules: AnyRules, players: int
) -> tuple[tuple[Action, ...], NotationError | None]:
    """The record's actions up to its first unreadable one, and that one's error."""
    if raw.compact is not None:
        fast = _compact_actions(raw.compact, rules, players)
        if fast is not None:
            return fast, None
    # the general path, which alone reports errors (at the word that is wrong)
    out: list[Action] = []
    try:
        for action in _raw_actions(raw, rules, players):
            out.append(action)
    except NotationError as fault:
        return tuple(out), fault
    return tuple(out), None


def _compact_actions(
    compact: tuple[CompactAction, ...], rules: AnyRules, players: int
) -> tuple[Action, ...] | None:
    """The actions of a record the fast reader read; None at the first that is wrong
    (the general path then reports it).  Cost: a dictionary lookup per action, plus a
    parse for words not seen before."""
    cache = _MOVES.get(rules.game)
    if cache is None:
        cache = _MOVES[rules.game] = memo.table()
    parse = rules.parse_move
    out = []
    pos_of = make_pos
    for index, (seat, words, number, line, col) in enumerate(compact, 1):
        if seat >= players:
            return None
        move = cache.get(words)
        if move is None:
            try:
                move = parse(tuple(words.split()))
            except ActionSyntaxError:
                return None
            memo.remember(cache, words, move)
        pos = pos_of((line, col))
        out.append(Action(seat, move, (), index, pos, number, pos if number is not None else None))
    return tuple(out)


def _raw_actions(raw: RawRecord, rules: AnyRules, players: int) -> Iterator[Action]:
    parse = rules.parse_move
    for ra in raw.actions:
        seat = ord(ra.seat) - ord("A")
        if seat >= players:
            raise NotationError(
                f"there is no seat {ra.seat} at a table of {players}",
                ra.pos,
                action=ra.index,
                seat=ra.seat,
                record=raw.index,
            )
        try:
            move = parse(ra.words)
        except ActionSyntaxError as exc:
            k = min(exc.word, len(ra.word_pos) - 1)
            raise NotationError(
                exc.message, ra.word_pos[k], action=ra.index, seat=ra.seat, record=raw.index
            ) from None
        yield Action(
            seat,
            move,
            ra.comments,
            index=ra.index,
            pos=ra.pos,
            number=ra.number,
            number_pos=ra.number_pos,
        )


def parse(text: str) -> list[GameRecord]:
    """Read and load every record of ``text``; raise the first NotationError met."""
    return [load_record(raw) for raw in read_records(text)]


def load_all(raws: Iterable[RawRecord]) -> Iterator[GameRecord | NotationError]:
    """Load each record, yielding its error in its place when it fails."""
    for raw in raws:
        try:
            yield load_record(raw)
        except NotationError as err:
            yield err
