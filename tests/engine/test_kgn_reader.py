"""The KGN reader: syntax only (NOTATION.md §1, §2, §4), independent of any game."""

from __future__ import annotations

import pytest

from replay.errors import NotationError, Pos
from replay.kgn.reader import MAX_TAG_VALUE, decode, read_records


def one(text: str):
    records = list(read_records(text))
    assert len(records) == 1
    return records[0]


def test_reads_tags_actions_numbers_and_comments() -> None:
    rec = one(
        '[Game "escalation-pierce"]\n[Players "Ann; Bob"]\n\n'
        "1. A: 7H {nice} 2.B:8C ; dropped\n% dropped too\n*\n"
    )
    assert rec.error is None
    assert [(t.name, t.value) for t in rec.tags] == [
        ("Game", "escalation-pierce"),
        ("Players", "Ann; Bob"),
    ]
    first, second = rec.actions
    assert (first.index, first.seat, first.words, first.number) == (1, "A", ("7H",), 1)
    assert first.pos == Pos(4, 1) and first.comments == ("nice",)
    assert (second.seat, second.words, second.number) == ("B", ("8C",), 2)
    assert second.pos == Pos(4, 17)  # errors point at the action's first token
    assert rec.star and (rec.first_line, rec.last_line) == (1, 6)


def test_bom_crlf_and_escapes() -> None:
    rec = one('\ufeff[Game "x"]\r\n[Event "a \\"q\\" \\\\ b"]\r\n\r\nA: 7H\r\n')
    assert rec.error is None
    assert rec.tag_value("Event") == 'a "q" \\ b'
    assert rec.actions[0].pos == Pos(4, 1)


def test_multi_line_comment_is_kept_with_its_action() -> None:
    rec = one('[Game "x"]\n\nA: 7H {first\n   second}  B: 8C\n')
    assert rec.actions[0].comments == ("first second",)
    assert rec.actions[1].pos == Pos(4, 13)


def test_comment_before_first_action_annotates_the_record() -> None:
    rec = one('[Game "x"]\n\n{opening remark} A: 7H\n')
    assert rec.comments == ("opening remark",)
    assert rec.actions[0].comments == ()


def test_splits_records_at_a_bracket_in_column_one() -> None:
    records = list(read_records('[Game "x"]\n\nA: 7H\n\n[Game "y"]\n\nB: 8C\n'))
    assert [r.index for r in records] == [1, 2]
    assert [r.tag_value("Game") for r in records] == ["x", "y"]
    assert [(r.first_line, r.last_line) for r in records] == [(1, 3), (5, 7)]


def test_a_bracket_inside_a_comment_does_not_start_a_record() -> None:
    rec = one('[Game "x"]\n\nA: 7H {see\n[this] line}\n')
    assert rec.error is None
    assert rec.actions[0].comments == ("see [this] line",)


def test_unclosed_comment_is_an_error_and_reading_resumes() -> None:
    records = list(read_records('[Game "x"]\n\nA: 7H {oops\nB: 8C\n[Game "y"]\n\nA: 2C\n'))
    assert len(records) == 2
    err = records[0].error
    assert err is not None and err.pos == Pos(3, 7) and "never closed" in err.message
    assert records[1].error is None and records[1].tag_value("Game") == "y"


@pytest.mark.parametrize(
    ("text", "pos", "fragment", "action"),
    [
        ('[Game "x"] [Event "y"]\n\nA: 7H\n', Pos(1, 12), "one tag", None),
        ('[Game "x"]\n[Game "y"]\n\nA: 7H\n', Pos(2, 1), "appears twice", None),
        ("[Game x]\n\nA: 7H\n", Pos(1, 1), "malformed", None),
        ('[Game "x"]\n\n', Pos(1, 1), "no movetext", None),
        ('[Game "x"]\n\nA: 7H * B: 8C\n', Pos(3, 9), "follows the closing *", 2),
        ('[Game "x"]\n\n7H A: 8C\n', Pos(3, 1), "seat label", 1),
        ('[Game "x\\n"]\n\nA: 7H\n', Pos(1, 9), "not an escape", None),
    ],
)
def test_syntax_errors_are_positioned(
    text: str, pos: Pos, fragment: str, action: int | None
) -> None:
    """Whole-record faults have no action; unreadable movetext is the fault of the
    action it stands in or before (NOTATION.md §8)."""
    err = one(text).error
    assert isinstance(err, NotationError)
    assert err.pos == pos
    assert fragment in err.message
    assert err.record == 1 and err.action == action


def test_tag_value_length_limit() -> None:
    ok = one(f'[Game "{"x" * MAX_TAG_VALUE}"]\n\nA: 7H\n')
    assert ok.error is None
    err = one(f'[Game "{"x" * (MAX_TAG_VALUE + 1)}"]\n\nA: 7H\n').error
    assert err is not None and "at most" in err.message


def test_a_bad_record_does_not_hide_the_next_one() -> None:
    records = list(read_records('[Game x]\n\nA: 7H\n\n[Game "y"]\n\nA: 7H\n'))
    assert records[0].error is not None
    assert records[1].error is None


def test_decode_strips_bom_and_positions_invalid_utf8() -> None:
    assert decode(b"\xef\xbb\xbf[Game]") == "[Game]"
    with pytest.raises(NotationError) as info:
        decode(b'[Game "x"]\n\nA: \xff\n')
    assert info.value.pos == Pos(3, 4)


def test_reader_never_raises_on_arbitrary_text() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    alphabet = st.sampled_from([*'[]{}"\\;%*:.AB 7HSCD\n\r\tx1', "take", "Game"])

    @settings(max_examples=300, deadline=None)
    @given(st.lists(alphabet, max_size=60).map("".join))
    def check(text: str) -> None:
        for rec in read_records(text):
            if rec.error is not None:
                assert rec.error.pos.line >= 1 and rec.error.pos.column >= 1

    check()
