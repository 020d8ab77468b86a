"""What a task's values mean: `@` names resolved against the try's database, and how an expected value matches
a row's JSON.

Names (resolved once per try, before the conversation):
  @today @tomorrow @today+N @today-N          a local date in the gym's timezone (YYYY-MM-DD)
  @next_week_start @next_week_end              next week's Monday and Sunday (weeks start Monday)
  @next_week_from @next_week_until             the instants next week starts and ends (local midnights)
  @day:<day>                                   a local date: today, tomorrow, +N, a weekday, next <weekday>
  @at:<day> HH:MM                              a local time on a day (today, tomorrow, +N, a weekday)
  @now+Nd @now-Nh                              an instant
  @org:harbor @org:northside                   an org id
  @user:<email>                                a user id
  @member:<full name> (Harbor; @northside-member:<name>)      and the ids of
  @workout:<title> @program:<name> @class_type:<name> @plan:<name> @task:<title> @template:<name>
  @session:<class type>@<day> HH:MM            a class session starting then
  @preference:<description> @scheduled:<workout type> @milestone:<name> @location:<name>   (Dani's)
  @run:<member full name>                      the member's newest nutrition run
A reference step's `@out:N.path` is read from the conversation when the step is played (evals/reference.py).

Matching (`where`, `set`): a plain value equals (instants compared as instants, numbers as numbers), `~text`
is a case-insensitive substring, `@any` is any non-null value, `@null` is null, `{ from = .., to = .. }` is a
range (inclusive; dates or instants).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from gym.demo.seed import DANI_MEMBER_ID
from gym.demo.tenancy import HARBOR, NORTHSIDE
from gym.periods import resolve_local_day

TZ = ZoneInfo(HARBOR.timezone)
_LOOKUPS: dict[str, tuple[str, str]] = {
    # name → (statement, what it looks up); :v is the name, :org Harbor, :dani Dani's member id
    "member": ("SELECT id FROM members WHERE org_id = :org AND lower(full_name) = lower(:v) AND deleted_at IS NULL "
               "ORDER BY created_at LIMIT 1", "member"),
    "northside-member": ("SELECT id FROM members WHERE org_id = :northside AND lower(full_name) = lower(:v) "
                         "AND deleted_at IS NULL LIMIT 1", "member"),
    "user": ("SELECT id FROM users WHERE lower(email) = lower(:v)", "user"),
    "workout": ("SELECT id FROM workouts WHERE org_id = :org AND lower(title) = lower(:v) AND deleted_at IS NULL "
                "ORDER BY scheduled_on DESC NULLS LAST, created_at DESC LIMIT 1", "workout"),
    "program": ("SELECT id FROM programs WHERE org_id = :org AND lower(name) = lower(:v) AND deleted_at IS NULL",
                "program"),
    "class_type": ("SELECT id FROM class_types WHERE org_id = :org AND lower(name) = lower(:v)", "class type"),
    "plan": ("SELECT id FROM membership_plans WHERE org_id = :org AND lower(name) = lower(:v)", "plan"),
    "task": ("SELECT id FROM tasks WHERE org_id = :org AND lower(title) = lower(:v) AND deleted_at IS NULL "
             "ORDER BY created_at DESC LIMIT 1", "task"),
    "template": ("SELECT id FROM program_templates WHERE org_id = :org AND lower(name) = lower(:v)", "template"),
    "preference": ("SELECT id FROM member_preferences WHERE member_id = :dani AND lower(description) = lower(:v)",
                   "preference"),
    "scheduled": ("SELECT id FROM scheduled_workouts WHERE member_id = :dani AND lower(workout_type) = lower(:v) "
                  "ORDER BY scheduled_at LIMIT 1", "scheduled workout"),
    "milestone": ("SELECT id FROM milestone_goals WHERE member_id = :dani AND lower(name) = lower(:v)", "milestone"),
    "location": ("SELECT id FROM member_locations WHERE member_id = :dani AND lower(name) = lower(:v)", "location"),
    "run": ("SELECT r.id FROM nutrition_runs r JOIN members m ON m.id = r.member_id WHERE r.org_id = :org "
            "AND lower(m.full_name) = lower(:v) ORDER BY r.created_at DESC LIMIT 1", "nutrition run"),
}
_OFFSET = re.compile(r"@(today|now)([+-]\d+)([dh]?)$")


class UnknownName(LookupError):
    """A task names something the seeded gym does not hold (the task, or the seed, is wrong)."""


def local_day(word: str, now: datetime) -> date:
    word = word.strip()
    if re.fullmatch(r"[+-]\d+", word):
        return now.astimezone(TZ).date() + timedelta(days=int(word))
    return resolve_local_day(word, TZ, now)


def next_week(today: date) -> tuple[date, date]:
    """Next week's Monday and Sunday (gym.periods' weeks)."""
    monday = today - timedelta(days=today.weekday()) + timedelta(days=7)
    return monday, monday + timedelta(days=6)


def local_at(spec: str, now: datetime) -> datetime:
    """'tomorrow 13:00' → that local time as an aware datetime (the gym's offset)."""
    day, _, clock = spec.strip().rpartition(" ")
    hour, minute = (int(x) for x in clock.split(":"))
    return datetime.combine(local_day(day or "today", now), time(hour, minute), tzinfo=TZ)


class Resolver:
    """Resolves `@` names in task values against one database (an owner session) at one instant."""

    def __init__(self, session: AsyncSession, now: datetime) -> None:
        self.session, self.now = session, now
        self.cache: dict[str, Any] = {}

    def params(self) -> dict[str, Any]:
        """The bound parameters a task's SQL checks may use."""
        today = self.now.astimezone(TZ).date()
        start, end = next_week(today)
        return {"harbor": HARBOR.id, "northside": NORTHSIDE.id, "dani": DANI_MEMBER_ID, "today": today,
                "tomorrow": today + timedelta(days=1), "now": self.now, "next_week_start": start,
                "next_week_end": end}

    async def resolve(self, value: Any) -> Any:
        if isinstance(value, Mapping):
            return {k: await self.resolve(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [await self.resolve(v) for v in value]
        if isinstance(value, str) and value.startswith("@") and not value.startswith(("@out:", "@any", "@null")):
            if value not in self.cache:
                self.cache[value] = await self._name(value)
            return self.cache[value]
        return value

    async def _name(self, name: str) -> Any:
        today = self.now.astimezone(TZ).date()
        if name == "@today":
            return today.isoformat()
        if name == "@tomorrow":
            return (today + timedelta(days=1)).isoformat()
        if name in ("@next_week_start", "@next_week_end"):
            return next_week(today)[name == "@next_week_end"].isoformat()
        if name in ("@next_week_from", "@next_week_until"):
            monday = next_week(today)[0] + timedelta(days=7 if name == "@next_week_until" else 0)
            return datetime.combine(monday, time(0), tzinfo=TZ).isoformat()
        if m := _OFFSET.match(name):
            amount = int(m.group(2))
            if m.group(1) == "today":
                return (today + timedelta(days=amount)).isoformat()
            return (self.now + (timedelta(hours=amount) if m.group(3) == "h" else timedelta(days=amount))).isoformat()
        kind, _, arg = name[1:].partition(":")
        if kind == "at":
            return local_at(arg, self.now).isoformat()
        if kind == "day":
            return local_day(arg, self.now).isoformat()
        if kind == "org":
            return str({"harbor": HARBOR.id, "northside": NORTHSIDE.id}[arg])
        if kind == "session":
            type_name, _, when = arg.partition("@")
            found = await self.session.scalar(text(
                "SELECT s.id FROM class_sessions s JOIN class_types t ON t.id = s.class_type_id "
                "WHERE s.org_id = :org AND lower(t.name) = lower(:type) AND s.starts_at = :at"),
                {"org": HARBOR.id, "type": type_name.strip(), "at": local_at(when, self.now)})
            if found is None:
                raise UnknownName(f"{name}: no such class session in the seeded gym")
            return str(found)
        if kind not in _LOOKUPS:
            raise UnknownName(f"{name}: unknown name kind")
        statement, what = _LOOKUPS[kind]
        found = await self.session.scalar(text(statement), {"v": arg, "org": HARBOR.id, "northside": NORTHSIDE.id,
                                                            "dani": DANI_MEMBER_ID})
        if found is None:
            raise UnknownName(f"{name}: no such {what} in the seeded gym")
        return str(found)


# ---- matching a row's JSON -------------------------------------------------------------------------------

def _instant(value: Any) -> datetime | None:
    if not isinstance(value, str) or len(value) < 16 or "T" not in value:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _within(bounds: Mapping[str, Any], actual: Any) -> bool:
    def key(value: Any) -> Any:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        return _instant(value) or str(value)

    low, high = bounds.get("from"), bounds.get("to")
    try:
        return (low is None or key(low) <= key(actual)) and (high is None or key(actual) <= key(high))
    except TypeError:  # an instant against a date: compare the text
        return (low is None or str(low) <= str(actual)) and (high is None or str(actual) <= str(high))


def matches(expected: Any, actual: Any) -> bool:
    """Whether a row's JSON value `actual` is what a task expects."""
    if expected == "@any":
        return actual is not None
    if expected == "@null":
        return actual is None
    if isinstance(expected, Mapping) and set(expected) <= {"from", "to"} and expected:
        return actual is not None and _within(expected, actual)
    if isinstance(expected, str) and expected.startswith("~"):
        return actual is not None and expected[1:].lower() in str(actual).lower()
    if isinstance(expected, bool) or isinstance(actual, bool):
        return isinstance(expected, bool) and isinstance(actual, bool) and expected == actual
    if isinstance(expected, int | float) and isinstance(actual, int | float):
        return abs(float(expected) - float(actual)) < 1e-6
    if (left := _instant(expected)) is not None and (right := _instant(actual)) is not None:
        return left == right
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(matches(e, a) for e, a in zip(expected, actual, strict=True))
    return expected == actual


def row_matches(where: Mapping[str, Any], row: Mapping[str, Any]) -> bool:
    return all(matches(v, row.get(k)) for k, v in where.items())


def describe(row: Mapping[str, Any], limit: int = 4) -> str:
    """A row in a few words for a failure message: its naming columns first."""
    keys = [k for k in ("title", "full_name", "name", "workout_type", "description", "state", "status", "date",
                        "scheduled_on", "starts_at", "checkin_date") if row.get(k) is not None][:limit]
    if not keys:
        keys = [k for k in row if k not in ("org_id", "created_at", "updated_at")][:limit]
    return ", ".join(f"{k}={str(row.get(k))[:60]}" for k in keys)
