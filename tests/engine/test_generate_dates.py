"""The generator's ``Date`` tags (issue 26, Build 9): spread over a given range, in
order, deterministic from the seed, one day per match; the games themselves are those
generated without dates, and every record verifies."""

from __future__ import annotations

import dataclasses
import io
from datetime import date, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay import registry
from replay.cli import main
from replay.generate import DateRange, generate_matches, generate_records, kgn_date
from replay.kgn import write_records
from replay.pipeline import check_bytes, matches_of
from replay.record import GameRecord
from replay.verify import Status

GAMES = registry.game_ids()


def _tags(record: GameRecord) -> dict[str, str]:
    return dict(record.tags)


def _without_date(record: GameRecord) -> GameRecord:
    return dataclasses.replace(record, tags=tuple(t for t in record.tags if t[0] != "Date"))


@st.composite
def date_ranges(draw: st.DrawFn) -> DateRange:
    first = draw(st.dates(min_value=date(1990, 1, 1), max_value=date(2099, 12, 31)))
    length = draw(st.integers(min_value=0, max_value=400))
    return DateRange(first, first + timedelta(days=length))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(min_value=0, max_value=2**32),
    count=st.integers(min_value=1, max_value=4),
    dates=date_ranges(),
)
def test_every_generated_record_verifies_with_a_date_in_its_range(
    game: str, seed: int, count: int, dates: DateRange
) -> None:
    records = list(generate_records(game, count=count, seed=seed, dates=dates))
    days = [_tags(r)["Date"] for r in records]
    assert all(day in dates for day in days), (days, dates)
    assert days == sorted(days)  # played in the file's order
    checked = list(check_bytes(write_records(records).encode()))
    assert [c.status for c in checked] == [Status.VERIFIED] * count
    # the tag as the engine reads it back, not only as written
    assert [c.tag_value("Date") for c in checked] == days
    # dates never change the games: the same seed without dates, Date tags aside
    plain = list(generate_records(game, count=count, seed=seed))
    assert [_without_date(r) for r in records] == plain


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(["escalation-knizia", "wild-escape", "escalation-pierce"]),
    seed=st.integers(min_value=0, max_value=2**32),
    dates=date_ranges(),
)
def test_a_matchs_hands_share_their_matchs_day(game: str, seed: int, dates: DateRange) -> None:
    records = list(generate_matches(game, count=2, seed=seed, dates=dates))
    by_match: dict[str, set[str]] = {}
    for record in records:
        tags = _tags(record)
        by_match.setdefault(tags["Match"], set()).add(tags["Date"])
    assert set(by_match) == {"M1", "M2"}
    assert all(len(days) == 1 for days in by_match.values())
    (first,), (second,) = by_match["M1"], by_match["M2"]
    assert first in dates and second in dates and first <= second
    checked = list(check_bytes(write_records(records).encode()))
    assert {c.status for c in checked} == {Status.VERIFIED}
    assert {m.status.value for m in matches_of(checked)} == {"complete"}


def test_the_same_seed_gives_the_same_dates_and_another_seed_others() -> None:
    season = DateRange.parse("2026.01.01-2026.03.31")
    assert season.spread(40, 7) == season.spread(40, 7)
    assert season.spread(40, 7) != season.spread(40, 8)
    days = season.spread(200, 3)
    assert days[0] >= "2026.01.01" and days[-1] <= "2026.03.31"
    assert len(set(days)) > 30  # spread over the range, not piled on a few days


def test_without_dates_the_generator_writes_no_date_tag() -> None:
    for game in GAMES:
        (record,) = generate_records(game, count=1, seed=11)
        assert "Date" not in _tags(record)


@pytest.mark.parametrize(
    ("text", "first", "last"),
    [
        ("2026.01.01-2026.03.31", date(2026, 1, 1), date(2026, 3, 31)),
        ("2026.01.01 - 2026.01.01", date(2026, 1, 1), date(2026, 1, 1)),
        ("2024.02.29", date(2024, 2, 29), date(2024, 2, 29)),
    ],
)
def test_date_ranges_parse(text: str, first: date, last: date) -> None:
    assert DateRange.parse(text) == DateRange(first, last)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("2026.03.31-2026.01.01", "before it starts"),
        ("2026.02.30-2026.03.01", "not a day of the calendar"),
        ("2026-01-01", "not a date range"),
        ("2026.01-2026.02", "not a date range"),
        ("", "not a date range"),
    ],
)
def test_bad_date_ranges_are_refused(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        DateRange.parse(text)


def test_kgn_date_pads_every_part() -> None:
    assert kgn_date(date(987, 3, 4)) == "0987.03.04"


def test_cli_generate_dates(capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    argv = ["generate", "--game", "escalation-pierce", "--count", "5", "--seed", "2"]
    assert main([*argv, "--dates", "2026.01.01-2026.03.31"], out=out) == 0
    records = list(check_bytes(out.getvalue().encode()))
    days = [c.tag_value("Date") or "" for c in records]
    assert days == sorted(days) and all("2026.01.01" <= d <= "2026.03.31" for d in days)
    assert {c.status for c in records} == {Status.VERIFIED}
    again = io.StringIO()
    assert main([*argv, "--dates", "2026.01.01-2026.03.31"], out=again) == 0
    assert again.getvalue() == out.getvalue()
    assert main([*argv, "--dates", "2026.13.01-2026.12.31"], out=io.StringIO()) == 2
    assert "not a day of the calendar" in capsys.readouterr().err
