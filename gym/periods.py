"""Named periods and day words in a gym's own timezone, turned into half-open UTC instants.

Analytics take `[start, end)`; scheduling takes a local day plus "HH:MM". zoneinfo does the DST
arithmetic: a local midnight is resolved on its own date, never by adding 24 hours to another instant.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from gym.errors import GymError

PERIOD_NAMES: tuple[str, ...] = (
    "today", "yesterday", "this_week", "last_week", "last_7_days", "last_30_days", "last_90_days",
    "this_month", "last_month", "this_quarter", "last_quarter", "this_year", "last_year", "last_12_months",
)
DEFAULT_PERIOD = "last_30_days"
Tz = ZoneInfo | str  # a gym timezone, as a ZoneInfo or its IANA name
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAY_WORDS = {
    "today": 0, "tonight": 0, "tomorrow": 1, "yesterday": -1, "day after tomorrow": 2,
    "היום": 0, "מחר": 1, "אתמול": -1, "מחרתיים": 2,
    "сегодня": 0, "завтра": 1, "вчера": -1, "послезавтра": 2,
}
_TIME = re.compile(r"^\s*(\d{1,2})(?::?(\d{2}))?\s*(am|pm)?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Period:
    """A half-open interval `[start, end)` of aware instants, with the local days it covers."""

    start: datetime
    end: datetime
    label: str
    first_day: date
    last_day: date

    def as_dict(self) -> dict:
        return {"from": self.first_day.isoformat(), "to": self.last_day.isoformat(), "label": self.label,
                "start": self.start.isoformat(), "end": self.end.isoformat()}


def zone(tz: Tz) -> ZoneInfo:
    if isinstance(tz, ZoneInfo):
        return tz
    try:
        return ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        raise GymError("invalid_timezone", f"unknown timezone {tz!r}") from None


def local_today(tz: Tz, now: datetime) -> date:
    return now.astimezone(zone(tz)).date()


def local_midnight(day: date, tz: Tz) -> datetime:
    """The instant the local `day` begins, as an aware UTC datetime."""
    return datetime.combine(day, time(0), tzinfo=zone(tz)).astimezone(UTC)


def day_range(first: date, last: date, tz: Tz, label: str) -> Period:
    """The local days `first..last` inclusive as `[midnight(first), midnight(last + 1))`."""
    if last < first:
        raise GymError("invalid_period", f"{first} is after {last}")
    return Period(local_midnight(first, tz), local_midnight(last + timedelta(days=1), tz), label, first, last)


def _month_start(day: date, months_back: int = 0) -> date:
    index = day.year * 12 + day.month - 1 - months_back
    return date(index // 12, index % 12 + 1, 1)


def _named(name: str, today: date) -> tuple[date, date]:
    """The local first and last day (inclusive) of a named period."""
    if name == "today":
        return today, today
    if name == "yesterday":
        return today - timedelta(days=1), today - timedelta(days=1)
    if name in ("this_week", "last_week"):
        monday = today - timedelta(days=today.weekday()) - timedelta(days=7 if name == "last_week" else 0)
        return monday, monday + timedelta(days=6)
    if name.startswith("last_") and name.endswith("_days"):
        days = int(name.removeprefix("last_").removesuffix("_days"))
        return today - timedelta(days=days - 1), today
    if name == "last_12_months":
        return _month_start(today, 11), today
    if name in ("this_month", "last_month"):
        first = _month_start(today, 1 if name == "last_month" else 0)
        return first, _month_start(first, -1) - timedelta(days=1)
    if name in ("this_quarter", "last_quarter"):
        first = date(today.year, 3 * ((today.month - 1) // 3) + 1, 1)
        if name == "last_quarter":
            first = _month_start(first, 3)
        return first, _month_start(first, -3) - timedelta(days=1)
    if name in ("this_year", "last_year"):
        year = today.year - (1 if name == "last_year" else 0)
        return date(year, 1, 1), date(year, 12, 31)
    raise GymError("unknown_period", f"unknown period {name!r}", allowed=list(PERIOD_NAMES))


def resolve_period(name: str | None, from_date: date | None, to_date: date | None, tz: Tz,
                   now: datetime) -> Period:
    """A named period or explicit local dates (inclusive) → `[start, end)`; explicit dates win.

    Calendar periods cover whole days, weeks (Monday first), months, quarters and years, including the
    part still ahead; rolling periods (last_N_days) end with today.
    """
    today = local_today(tz, now)
    if from_date or to_date:
        last = to_date or today
        first = from_date or last - timedelta(days=29)
        return day_range(first, last, tz, f"{first.isoformat()}..{last.isoformat()}")
    name = (name or DEFAULT_PERIOD).strip().lower()
    first, last = _named(name, today)
    return day_range(first, last, tz, name)


def resolve_local_day(word: str, tz: Tz, now: datetime) -> date:
    """today / tomorrow / yesterday / a weekday (next one on or after today; "next friday" is after today)
    / YYYY-MM-DD → a local date. Hebrew and Russian words for today/tomorrow/yesterday work too."""
    text = " ".join(word.strip().lower().replace("_", " ").split())
    today = local_today(tz, now)
    if text in _DAY_WORDS:
        return today + timedelta(days=_DAY_WORDS[text])
    strictly_after = text.startswith("next ")
    day_name = text.removeprefix("next ").removeprefix("this ")
    for index, name in enumerate(WEEKDAYS):
        if len(day_name) >= 3 and name.startswith(day_name):
            ahead = (index - today.weekday()) % 7
            return today + timedelta(days=ahead or (7 if strictly_after else 0))
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise GymError("invalid_date", f"cannot read {word!r} as a day") from None


def parse_clock(value: str) -> time:
    """"13:00", "9:30", "0930", "1pm", "7:15 am" → a wall-clock time."""
    match = _TIME.match(value)
    if not match:
        raise GymError("invalid_time", f"cannot read {value!r} as a time of day")
    hour, minute, ampm = int(match.group(1)), int(match.group(2) or 0), (match.group(3) or "").lower()
    if ampm:
        if not 1 <= hour <= 12:
            raise GymError("invalid_time", f"cannot read {value!r} as a time of day")
        hour = hour % 12 + (12 if ampm == "pm" else 0)
    if hour > 23 or minute > 59:
        raise GymError("invalid_time", f"cannot read {value!r} as a time of day")
    return time(hour, minute)


def local_instant(day: date, clock: str | time, tz: Tz) -> datetime:
    """Local `day` at wall-clock `clock` → an aware UTC instant (a time inside a DST gap moves forward)."""
    wall = clock if isinstance(clock, time) else parse_clock(clock)
    return datetime.combine(day, wall, tzinfo=zone(tz)).astimezone(UTC)


def parse_local_time_range(text_date: str, start: str, end: str, tz: Tz,
                           today: date | datetime) -> tuple[datetime, datetime]:
    """("tomorrow", "13:00", "14:00") in the gym's timezone → (starts_at, ends_at) in UTC.

    `today` is the current instant (or the gym's local date); an end at or before the start is refused.
    """
    now = today if isinstance(today, datetime) else local_midnight(today, tz)
    day = resolve_local_day(text_date, tz, now)
    starts_at, ends_at = local_instant(day, start, tz), local_instant(day, end, tz)
    if ends_at <= starts_at:
        raise GymError("invalid_time_range", f"{end} is not after {start}",
                       "A session must end after it starts on the same local day; check start and end.")
    return starts_at, ends_at


BUCKETS: tuple[str, ...] = ("day", "week", "month")


def bucket_starts(period: Period, bucket: str) -> list[date]:
    """The local start date of every day/week (Monday)/month bucket that overlaps the period, in order.

    Matches Postgres `date_trunc(bucket, <local timestamp>)`, so SQL groups can be looked up by these keys.
    """
    if bucket not in BUCKETS:
        raise GymError("invalid_bucket", f"bucket must be one of {', '.join(BUCKETS)}")
    if bucket == "day":
        day, step = period.first_day, None
    elif bucket == "week":
        day, step = period.first_day - timedelta(days=period.first_day.weekday()), None
    else:
        day, step = period.first_day.replace(day=1), "month"
    starts: list[date] = []
    while day <= period.last_day:
        starts.append(day)
        day = _month_start(day, -1) if step == "month" else day + timedelta(days=7 if bucket == "week" else 1)
    return starts
