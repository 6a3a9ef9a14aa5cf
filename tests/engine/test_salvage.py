"""Bytes that are not clean UTF-8 KGN (replay.kgn.salvage through check_bytes): the
records holding a bad byte or a NUL are rejected at its line and column; the others
are judged as in a clean file; nothing unsafe to store is left in a rejected record."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from replay.generate import generate_records
from replay.kgn import write_records
from replay.kgn.salvage import has_bad_text
from replay.pipeline import check_bytes
from replay.verify import Status

GOOD = [r for r in generate_records("escalation-pierce", count=5, seed=71)]


def _text() -> str:
    return write_records(GOOD)


def _lines_of_record(text: str, n: int) -> int:
    """The line on which record ``n`` (1-based) starts."""
    starts = [i + 1 for i, line in enumerate(text.splitlines()) if line.startswith("[Game ")]
    return starts[n - 1]


def test_a_latin1_byte_rejects_its_record_only_at_its_place() -> None:
    text = _text()
    line = _lines_of_record(text, 3)
    lines = text.splitlines(keepends=True)
    lines[line - 1] = lines[line - 1].replace('[Game "', '[Game "\xe9', 1)
    data = "".join(lines).encode("utf-8").replace("\xe9".encode(), b"\xe9")
    checked = list(check_bytes(data))
    assert [c.status for c in checked] == [Status.VERIFIED] * 2 + [Status.REJECTED] + [
        Status.VERIFIED
    ] * 2
    error = checked[2].verdict.error
    assert error is not None and "not valid UTF-8 (byte 0xe9)" in error.message
    assert (error.pos.line, error.pos.column, error.record) == (line, 8, 3)
    raw = checked[2].raw
    assert raw is not None
    assert "\ufffd" in raw.text and not any(
        "\udce9" in value for tag in raw.tags for value in (tag.name, tag.value)
    )


def test_a_nul_rejects_its_record_at_its_place() -> None:
    text = _text()
    line = _lines_of_record(text, 2)
    lines = text.splitlines(keepends=True)
    column = lines[line].index('"') + 2
    lines[line] = lines[line].replace('"', '"\x00', 1)  # inside the next tag's value
    checked = list(check_bytes("".join(lines).encode()))
    statuses = [c.status for c in checked]
    assert statuses == [Status.VERIFIED, Status.REJECTED] + [Status.VERIFIED] * 3
    error = checked[1].verdict.error
    assert error is not None and "NUL character" in error.message
    assert (error.pos.line, error.pos.column) == (line + 1, column)
    nul_raw = checked[1].raw
    assert nul_raw is not None and "\x00" not in nul_raw.text


def test_clean_bytes_are_judged_as_text() -> None:
    assert [c.status for c in check_bytes(_text().encode())] == [Status.VERIFIED] * 5


_PIECES = st.sampled_from(
    [_text(), '[Game "escalation-pierce"]\n', "1. A: 3C\n", "\u00a0", "\x1c", "\x85", "\x00",
     "{", "}", ";", "[", "]", '"', "\n", "\r\n", "\u2028", "*", "é"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.binary(max_size=3000), st.lists(_PIECES, max_size=40).map("".join)))
def test_any_input_gets_verdicts_never_an_exception(data: bytes | str) -> None:
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    for checked in check_bytes(raw):
        if checked.status is Status.REJECTED:
            error = checked.verdict.error
            assert error is not None and error.pos.line >= 1 and error.pos.column >= 1
        if checked.raw is not None:
            assert not has_bad_text(checked.raw.text)
