"""Movetext tokens -> actions: NOTATION.md §4's generic shape ``[N.] X: words``, and
§8's rule of whose fault unreadable movetext is.

The line scanner (:mod:`replay.kgn.reader`) turns a record's movetext into tokens
(move numbers, seat labels, words, ``*``, comments, stray ``}``); :func:`group_actions`
groups them into actions and stops at the first text that cannot be read, keeping the
actions before it.  Cost: one pass over the tokens.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from replay.errors import NotationError, Pos
from replay.numbers import too_long
from replay.raw_action import RawAction


@dataclass
class Tok:
    """A movetext token as the line scanner found it."""

    kind: str  # "num" | "seat" | "word" | "star" | "comment" | "junk" (a stray })
    text: str
    pos: Pos


@dataclass
class _Open:
    """An action being collected."""

    seat: str
    pos: Pos
    number: int | None
    number_pos: Pos | None
    words: list[str] = field(default_factory=list)
    word_pos: list[Pos] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)


def _shown(tok: Tok) -> str:
    """A token as written (a move number with its dot, a seat label with its colon)."""
    return (
        f"{tok.text}." if tok.kind == "num" else f"{tok.text}:" if tok.kind == "seat" else tok.text
    )


def _next_seat(tokens: Sequence[Tok], k: int) -> str | None:
    """The seat label that follows ``tokens[k]`` before any move number or ``*``."""
    for tok in tokens[k + 1 :]:
        if tok.kind == "seat":
            return tok.text
        if tok.kind in ("num", "star"):
            return None
    return None


def group_actions(
    tokens: list[Tok], end: Pos
) -> tuple[tuple[RawAction, ...], tuple[str, ...], bool, Pos | None, NotationError | None]:
    """Movetext tokens -> actions (NOTATION.md §4's generic shape), and the first
    fault of the movetext's text, if any, with the actions before it.

    NOTATION.md §8 says whose fault unreadable text is: text after a seat label, up to
    the next move number, seat label or ``*``, is that action's; text before a seat
    label (after a move number, or before the first action) is the next action's;
    text after ``*`` is the last action's + 1.  Such a fault carries that action's
    number and the position of the offending token; a movetext with no action and no
    ``*`` is the record's fault (action None).
    """
    actions: list[RawAction] = []
    pre: list[str] = []
    cur: _Open | None = None
    number: Tok | None = None
    star: Tok | None = None

    def fault(message: str, pos: Pos, seat: str | None) -> NotationError:
        return NotationError(message, pos, action=len(actions) + 1, seat=seat)

    def close() -> NotationError | None:
        nonlocal cur
        if cur is None:
            return None
        if not cur.words:
            return fault(f"{cur.seat}: is followed by no move", cur.number_pos or cur.pos, cur.seat)
        actions.append(
            RawAction(
                index=len(actions) + 1,
                seat=cur.seat,
                words=tuple(cur.words),
                word_pos=tuple(cur.word_pos),
                number=cur.number,
                number_pos=cur.number_pos,
                # NOTATION.md §8: errors point at the action's first token
                pos=cur.number_pos or cur.pos,
                comments=tuple(cur.comments),
            )
        )
        cur = None
        return None

    def result(
        error: NotationError | None,
    ) -> tuple[tuple[RawAction, ...], tuple[str, ...], bool, Pos | None, NotationError | None]:
        return tuple(actions), tuple(pre), star is not None, star.pos if star else None, error

    for k, tok in enumerate(tokens):
        if tok.kind == "comment":
            if cur is not None:
                cur.comments.append(tok.text)
            elif actions:
                last = actions[-1]
                actions[-1] = RawAction(
                    last.index,
                    last.seat,
                    last.words,
                    last.word_pos,
                    last.number,
                    last.number_pos,
                    last.pos,
                    (*last.comments, tok.text),
                )
            else:
                pre.append(tok.text)
            continue
        if star is not None:
            return result(fault(f"{_shown(tok)!r} follows the closing *", tok.pos, None))
        if number is not None and tok.kind != "seat":
            return result(
                fault(
                    f"move number {number.text}. must be followed by a seat label such as "
                    f"A:, not {_shown(tok)!r}",
                    tok.pos,
                    _next_seat(tokens, k),
                )
            )
        if tok.kind == "junk":
            if cur is not None:
                return result(fault("a } closes no comment", tok.pos, cur.seat))
            return result(fault("a } closes no comment", tok.pos, _next_seat(tokens, k)))
        if tok.kind == "num":
            if error := close():
                return result(error)
            if why := too_long(tok.text):
                return result(
                    fault(f"move number {tok.text[:12]}… is {why}", tok.pos, _next_seat(tokens, k))
                )
            number = tok
        elif tok.kind == "seat":
            if error := close():
                return result(error)
            cur = _Open(
                tok.text,
                tok.pos,
                int(number.text) if number else None,
                number.pos if number else None,
            )
            number = None
        elif tok.kind == "star":
            if error := close():
                return result(error)
            star = tok
        else:
            if cur is None:
                return result(
                    fault(
                        f"{tok.text!r} stands where a seat label such as A: is expected",
                        tok.pos,
                        _next_seat(tokens, k),
                    )
                )
            cur.words.append(tok.text)
            cur.word_pos.append(tok.pos)
    if number is not None:
        return result(
            fault(
                f"move number {number.text}. must be followed by a seat label such as A:",
                number.pos,
                None,
            )
        )
    if error := close():
        return result(error)
    if not actions and star is None:
        return result(NotationError("the record has no movetext: at least one action, or *", end))
    return result(None)
