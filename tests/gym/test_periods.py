"""Named periods and day words resolve in the gym's own timezone, across DST changes."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from gym.errors import GymError
from gym.periods import (
    bucket_starts,
    local_instant,
    parse_clock,
    parse_local_time_range,
    resolve_local_day,
    resolve_period,
)

TZ = "Asia/Jerusalem"  # DST 2026: starts Fri 27 March 02:00, ends Sun 25 October 02:00


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_this_month_spans_the_spring_dst_change_from_local_midnight_to_local_midnight() -> None:
    period = resolve_period("this_month", None, None, TZ, utc(2026, 3, 15, 12))
    assert period.start == utc(2026, 2, 28, 22)  # 1 March 00:00 at +02:00
    assert period.end == utc(2026, 3, 31, 21)  # 1 April 00:00 at +03:00
    assert (period.first_day, period.last_day) == (date(2026, 3, 1), date(2026, 3, 31))


def test_this_month_spans_the_autumn_dst_change() -> None:
    period = resolve_period("this_month", None, None, TZ, utc(2026, 10, 20, 9))
    assert period.start == utc(2026, 9, 30, 21)  # +03:00
    assert period.end == utc(2026, 10, 31, 22)  # +02:00


def test_this_month_uses_the_local_date_not_the_utc_date() -> None:
    """At 01:00 local on 1 April it is still 31 March in UTC; the gym's month is April."""
    period = resolve_period("this_month", None, None, TZ, utc(2026, 3, 31, 22))
    assert period.first_day == date(2026, 4, 1)


def test_last_month_crosses_a_year_boundary() -> None:
    period = resolve_period("last_month", None, None, TZ, utc(2026, 1, 10, 8))
    assert (period.first_day, period.last_day) == (date(2025, 12, 1), date(2025, 12, 31))
    assert period.start == utc(2025, 11, 30, 22)
    assert period.end == utc(2025, 12, 31, 22)


def test_this_week_starts_on_the_local_monday() -> None:
    sunday = resolve_period("this_week", None, None, TZ, utc(2026, 11, 22, 10))
    assert (sunday.first_day, sunday.last_day) == (date(2026, 11, 16), date(2026, 11, 22))
    # 00:30 on Monday 23 Nov in Jerusalem is still Sunday in UTC: the week is already the new one.
    monday = resolve_period("this_week", None, None, TZ, utc(2026, 11, 22, 22, 30))
    assert monday.first_day == date(2026, 11, 23)
    assert monday.start == utc(2026, 11, 22, 22)


def test_rolling_quarter_year_and_explicit_periods() -> None:
    now = utc(2026, 5, 20, 12)
    last_7 = resolve_period("last_7_days", None, None, TZ, now)
    assert (last_7.first_day, last_7.last_day) == (date(2026, 5, 14), date(2026, 5, 20))
    quarter = resolve_period("this_quarter", None, None, TZ, now)
    assert (quarter.first_day, quarter.last_day) == (date(2026, 4, 1), date(2026, 6, 30))
    year = resolve_period("this_year", None, None, TZ, now)
    assert (year.first_day, year.last_day) == (date(2026, 1, 1), date(2026, 12, 31))
    explicit = resolve_period("this_year", date(2026, 2, 1), date(2026, 2, 3), TZ, now)
    assert (explicit.first_day, explicit.last_day, explicit.end) == (date(2026, 2, 1), date(2026, 2, 3),
                                                                     utc(2026, 2, 3, 22))
    assert resolve_period(None, None, None, TZ, now).label == "last_30_days"


def test_bad_periods_are_refused_with_codes() -> None:
    with pytest.raises(GymError) as unknown:
        resolve_period("fortnight", None, None, TZ, utc(2026, 5, 20))
    assert unknown.value.code == "unknown_period"
    with pytest.raises(GymError) as backwards:
        resolve_period(None, date(2026, 5, 3), date(2026, 5, 1), TZ, utc(2026, 5, 20))
    assert backwards.value.code == "invalid_period"


def test_tomorrow_at_13_local_is_the_right_utc_instant() -> None:
    # 00:30 local on Monday 23 Nov (still Sunday in UTC): tomorrow is Tuesday 24 Nov, 13:00 at +02:00.
    starts, ends = parse_local_time_range("tomorrow", "13:00", "14:00", TZ, utc(2026, 11, 22, 22, 30))
    assert (starts, ends) == (utc(2026, 11, 24, 11), utc(2026, 11, 24, 12))
    summer, _ = parse_local_time_range("tomorrow", "1pm", "2pm", TZ, utc(2026, 7, 1, 8))
    assert summer == utc(2026, 7, 2, 10)  # +03:00


def test_local_instants_around_the_spring_change() -> None:
    assert local_instant(date(2026, 3, 26), "13:00", TZ) == utc(2026, 3, 26, 11)
    assert local_instant(date(2026, 3, 27), "13:00", TZ) == utc(2026, 3, 27, 10)
    assert local_instant(date(2026, 3, 27), "01:30", TZ) == utc(2026, 3, 26, 23, 30)
    # 02:30 does not exist that night (clocks jump 02:00 → 03:00): it lands on 03:30 local.
    assert local_instant(date(2026, 3, 27), "02:30", TZ) == utc(2026, 3, 27, 0, 30)


def test_day_words_and_weekdays() -> None:
    wednesday = utc(2026, 11, 25, 9)
    assert resolve_local_day("today", TZ, wednesday) == date(2026, 11, 25)
    assert resolve_local_day("Friday", TZ, wednesday) == date(2026, 11, 27)
    assert resolve_local_day("wed", TZ, wednesday) == date(2026, 11, 25)
    assert resolve_local_day("next wednesday", TZ, wednesday) == date(2026, 12, 2)
    assert resolve_local_day("מחר", TZ, wednesday) == date(2026, 11, 26)
    assert resolve_local_day("2026-12-31", TZ, wednesday) == date(2026, 12, 31)
    with pytest.raises(GymError):
        resolve_local_day("someday", TZ, wednesday)


def test_times_that_cannot_be_read_or_run_backwards_are_refused() -> None:
    assert parse_clock("0930").hour == 9
    for bad in ("25:00", "13pm", "noonish"):
        with pytest.raises(GymError):
            parse_clock(bad)
    with pytest.raises(GymError) as backwards:
        parse_local_time_range("today", "14:00", "13:00", TZ, utc(2026, 11, 25, 9))
    assert backwards.value.code == "invalid_time_range"


def test_week_buckets_start_on_mondays_covering_the_period() -> None:
    period = resolve_period(None, date(2026, 11, 4), date(2026, 11, 20), TZ, utc(2026, 11, 25))
    assert bucket_starts(period, "week") == [date(2026, 11, 2), date(2026, 11, 9), date(2026, 11, 16)]
    assert bucket_starts(period, "month") == [date(2026, 11, 1)]
