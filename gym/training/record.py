"""Read views over one member's training record: distribution, recovery, progression, history, and the
whole record as staff see it (read__member_training). Every number comes from the pure rules."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from sqlalchemy.ext.asyncio import AsyncSession

from gym.errors import GymError
from gym.training.distribution import WINDOW_DAYS, distribution
from gym.training.goals import category_weights, list_milestones, milestone_dict, muscle_weights
from gym.training.logs import MAX_HISTORY_DAYS, as_entry, log_dict, logs_since
from gym.training.movements import same_exercise
from gym.training.preference_rules import injuries
from gym.training.preferences import active_preferences, pref_dict
from gym.training.profiles import (
    current_location,
    get_profile,
    get_units,
    location_dict,
    profile_dict,
    require_member,
)
from gym.training.progression import PROGRESSION_DAYS, suggest
from gym.training.recovery import LARGE_HOURS, all_muscles, recovery_status
from gym.training.schedule import upcoming
from gym.training.statistics import period_start, statistics, trend

STAFF_LOG_DAYS = 14
STAFF_AHEAD_DAYS = 14


async def distribution_view(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, now: datetime) -> dict:
    """Category and muscle goals with target, actual and debt over the last 28 days."""
    entries = [as_entry(r) for r in await logs_since(session, org_id, member_id, now - timedelta(days=WINDOW_DAYS),
                                                     until=now)]
    categories = distribution(await category_weights(session, org_id, member_id), entries, "goals", now).as_dict()
    muscles = distribution(await muscle_weights(session, org_id, member_id), entries, "muscles", now).as_dict()
    return {"windowDays": WINDOW_DAYS, "exercisesCounted": categories["exercisesCounted"],
            "categories": categories["goals"], "muscles": muscles["goals"],
            "untrackedCategories": categories["untracked"], "untrackedMuscles": muscles["untracked"]}


async def recovery_view(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, now: datetime) -> list[dict]:
    rows = await logs_since(session, org_id, member_id, now - timedelta(hours=LARGE_HOURS), until=now)
    return [r.as_dict() for r in recovery_status([as_entry(r) for r in rows], now)]


async def recovery_overview(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                            now: datetime) -> list[dict]:
    """All 16 muscles with their recovery percentage (the recovery view; recovering ones with their times)."""
    rows = await logs_since(session, org_id, member_id, now - timedelta(hours=LARGE_HOURS), until=now)
    return all_muscles([as_entry(r) for r in rows], now)


async def progression_view(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, now: datetime) -> list[dict]:
    """Per recently logged loaded or bodyweight set-and-rep exercise (one entry per exercise, however it was
    named): the last session (load, reps reached and prescribed, RPE, success or miss) and the suggestion (load,
    reps, why), in the member's unit."""
    units = await get_units(session, org_id, member_id)
    entries = [as_entry(r) for r in await logs_since(session, org_id, member_id,
                                                     now - timedelta(days=PROGRESSION_DAYS), until=now)]
    names: list[str] = []
    for e in entries:
        progresses = e.load_kg or (e.exercise_type == "bodyweight" and e.done_reps)
        if progresses and not any(same_exercise(e.name, n) for n in names):
            names.append(e.name)
    return [suggest(name, entries, units.weight_unit).as_dict() for name in names]


async def history_view(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, now: datetime,
                       days: int) -> dict:
    days = max(1, min(days, MAX_HISTORY_DAYS))
    units = await get_units(session, org_id, member_id)
    rows = await logs_since(session, org_id, member_id, now - timedelta(days=days), until=now)
    return {"days": days, "units": units.as_dict(), "count": len(rows), "items": [log_dict(r, units) for r in rows]}


async def _entries_since(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, start: datetime | None,
                         now: datetime) -> list:
    since = start or datetime(1970, 1, 1, tzinfo=UTC)
    return [as_entry(r) for r in await logs_since(session, org_id, member_id, since, until=now)]


async def statistics_view(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, now: datetime,
                          period: str = "month", tz: tzinfo = UTC, *, start_date: date | None = None,
                          end_date: date | None = None) -> dict:
    """001 §4.8 statistics over `period` (week, month, quarter, year, all_time) ending now, or over the days
    `start_date`..`end_date` (both included, in the gym's timezone; either may be left open)."""
    if start_date is None and end_date is None:
        entries = await _entries_since(session, org_id, member_id, period_start(period, now), now)
        return statistics(entries, period, now, tz)
    if start_date is not None and end_date is not None and start_date > end_date:
        raise GymError("invalid_range", f"start_date {start_date} is after end_date {end_date}",
                       "Give the earlier day as start_date.")
    start = datetime.combine(start_date, time(0), tz) if start_date else None
    end = datetime.combine(end_date + timedelta(days=1), time(0), tz) if end_date else now
    if start is not None and start > now:
        raise GymError("invalid_range", f"start_date {start_date} is in the future", "Pick a past start date.")
    entries = await _entries_since(session, org_id, member_id, start, min(end, now))
    return statistics(entries, "custom", now, tz, start=start, end=end)


async def trend_view(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, now: datetime, *,
                     metric: str, period: str = "quarter", exercise: str | None = None, tz: tzinfo = UTC) -> dict:
    """Weekly points for a month or quarter, monthly points for a year."""
    by = "month" if period == "year" else "week"
    entries = await _entries_since(session, org_id, member_id, period_start(period, now), now)
    return {"metric": metric, "period": period, "by": by, "exercise": exercise,
            "points": trend(entries, metric, by=by, exercise=exercise, tz=tz)}


def _brief(item: dict) -> dict:
    """A log as one compact line of data for a coach (no shares, no empty fields)."""
    keep = ("name", "performedAt", "sets", "reps", "load", "loadUnit", "durationMin", "distance", "distanceUnit",
            "rpe", "notes")
    return {k: item[k] for k in keep if item.get(k) is not None}


async def member_training(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, now: datetime,
                          today: date | None = None) -> dict:
    """Everything a coach needs about one member's training, in the member's units."""
    member = await require_member(session, org_id, member_id)
    units = await get_units(session, org_id, member_id)
    prefs = await active_preferences(session, org_id, member_id, now)
    logs = await logs_since(session, org_id, member_id, now - timedelta(days=STAFF_LOG_DAYS), until=now)
    location = await current_location(session, org_id, member_id)
    recovering = [r for r in await recovery_view(session, org_id, member_id, now) if r["recovering"]]
    return {
        "member": {"id": str(member.id), "name": member.full_name},
        "units": units.as_dict(),
        "profile": profile_dict(await get_profile(session, org_id, member_id)),
        "goals": await distribution_view(session, org_id, member_id, now),
        "injuries": [pref_dict(p) for p in injuries(prefs, now)],
        "preferences": [pref_dict(p) for p in prefs if p.type != "injury"],
        "recentLogs": {"days": STAFF_LOG_DAYS, "count": len(logs), "items": [_brief(log_dict(r, units)) for r in logs]},
        "recovering": recovering,
        "currentLocation": location_dict(location) if location else None,
        "upcoming": await upcoming(session, org_id, member_id, now=now, days_ahead=STAFF_AHEAD_DAYS, today=today),
        "milestones": [milestone_dict(m) for m in await list_milestones(session, org_id, member_id)],
    }
