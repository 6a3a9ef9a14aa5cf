"""The reader and loader never raise on any input (issue 27): Hypothesis builds files
from every kind of token the notation has (tags well and badly formed, move numbers of
any length, seat labels, words, ``*``, comments closed and unclosed, ``%`` lines) mixed
with empty, huge and binary runs, and the whole pipeline (check_bytes, then the
matches) answers each with verdicts; a rejected record's error has a line and column.
Bounded (derandomized, ``EXAMPLES`` files) so that it runs in ``make test``."""

from __future__ import annotations

import hypothesis
from hypothesis import strategies as st

from replay import registry
from replay.pipeline import check_bytes, matches_of
from replay.verify import Status

EXAMPLES = 300

_digits = st.one_of(
    st.text("0123456789", min_size=1, max_size=12),
    st.integers(min_value=4_000, max_value=200_000).map(lambda n: "9" * n),  # huge runs
)
_word = st.text(st.characters(codec="utf-8", exclude_characters="\n"), max_size=12)
_tag_name = st.sampled_from(
    ["Game", "Players", "Result", "Round", "Match", "Event", "Date", "Variant", "Deal",
     "Stock", "First", "PlayerIds", "Trump", "x", ""]
)  # fmt: skip
_tag_value = st.one_of(
    st.sampled_from([*registry.game_ids(), "*", "A 1, B 2", "a 1, b 2", "01", "1"]),
    _digits,
    _word,
)
_tag = st.one_of(
    st.builds(lambda n, v: f'[{n} "{v}"]', _tag_name, _tag_value),
    st.builds(lambda n, v: f"[{n} {v}", _tag_name, _word),  # unclosed
)
_token = st.one_of(
    _tag,
    st.builds(lambda d: f"{d}.", _digits),
    st.sampled_from(["A:", "B:", "a:", "Z:", ":", "*", "{", "}", ";", "%", "\\", '"']),
    st.builds(lambda w: "{" + w + "}", _word),
    st.builds(lambda w: "{" + w, _word),  # an unclosed comment
    st.builds(lambda w: "; " + w, _word),
    st.sampled_from(["7H", "KH", "take", "pass", "W=7", "SJ=9S", "3", "T", "Q"]),
    _word,
    _digits,
)
_separator = st.sampled_from([" ", "\n", "\n\n", "\t", "\r\n", ""])
_text_file = st.lists(st.tuples(_token, _separator), max_size=60).map(
    lambda parts: "".join(token + sep for token, sep in parts)
)
#: a record that reads: the fuzz mutates it (a tag added, tokens put in its movetext)
_HEAD = '[Game "head-to-head"]\n[Players "Bob; Jon"]\n[Stock "A 3 4 8 Q T 5 2 K 6 J 7 9"]\n'
_MOVES = "B: 7 A: 7 A: 6 B: 3 B: 8 A: T B: T A: A B: A A: 8 A: 3 B: 5 B: 9 A: 9 B: J"
_mutated = st.builds(
    lambda tag, before, number, after: f"{_HEAD}{tag}\n\n{before} {number}. {_MOVES} {after}",
    st.one_of(st.just(""), _tag),
    st.one_of(st.just(""), _text_file),
    _digits,
    st.one_of(st.just(""), _text_file),
)
_file = st.one_of(
    _mutated.map(str.encode),
    _text_file.map(str.encode),
    st.binary(max_size=2000),
    st.builds(lambda a, b: a.encode() + b, _text_file, st.binary(max_size=200)),
    st.just(b""),
)


@hypothesis.settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=list(hypothesis.HealthCheck),
)
@hypothesis.given(data=_file)
def test_every_file_gets_verdicts_and_positioned_errors(data: bytes) -> None:
    checked = list(check_bytes(data))
    for each in checked:
        assert each.verdict.status in set(Status)
        if each.verdict.status is Status.REJECTED:
            error = each.verdict.error
            assert error is not None and error.pos.line >= 1 and error.pos.column >= 1
            assert error.message
    matches_of(checked)
