"""Scheduled workouts and multi-week plans (001 §4.7); the schedule also shows coach assignments, read-only.

A scheduled workout may carry pre-planned §4.9 exercises (checked by the caller against the rules active at its
time: gym.training.workout_check.check_planned_exercises). A plan schedules its workouts: on the preferred days,
or spread over the week when only a count is given (3 a week when neither is), at one time of day in the gym's
timezone, each week of the plan, none in the past.
"""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from gym.assignments import Assignment
from gym.errors import GymError
from gym.training.models import ScheduledWorkout, WorkoutPlan
from gym.training.profiles import require_member
from gym.training.vocab import PLAN_STATUSES, SCHEDULE_STATUSES
from gym.workouts import Workout

SCHEDULE_FIELDS = {"scheduled_at", "workout_type", "duration_minutes", "notes", "exercises", "status"}
MAX_PLAN_WEEKS = 52
DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
DEFAULT_PER_WEEK = 3
DEFAULT_TIME = time(18, 0)


def _scheduled_not_found(workout_id: object) -> GymError:
    return GymError("scheduled_workout_not_found", f"No scheduled workout {workout_id} for this member.",
                    "Read the scheduled workouts and use one of their ids.", status=404)


def _check(fields: dict, now: datetime) -> None:
    when = fields.get("scheduled_at")
    if when is not None and (when.tzinfo is None):
        raise GymError("invalid_schedule", "scheduled_at needs a timezone (ISO 8601 with offset)")
    if when is not None and when < now - timedelta(days=1):
        raise GymError("invalid_schedule", "a workout cannot be scheduled in the past", "Pick a future date.")
    if fields.get("status") not in (None, *SCHEDULE_STATUSES):
        raise GymError("invalid_schedule", f"status must be one of {', '.join(SCHEDULE_STATUSES)}")
    minutes = fields.get("duration_minutes")
    if minutes is not None and not 1 <= minutes <= 600:
        raise GymError("invalid_schedule", "duration_minutes must be between 1 and 600")
    if "workout_type" in fields and not (fields["workout_type"] or "").strip():
        raise GymError("invalid_schedule", "workout_type cannot be empty")


async def schedule_workout(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, *, now: datetime,
                           scheduled_at: datetime, workout_type: str, duration_minutes: int | None = None,
                           notes: str | None = None, exercises: list | None = None,
                           plan_id: uuid.UUID | None = None) -> ScheduledWorkout:
    await require_member(session, org_id, member_id)
    _check({"scheduled_at": scheduled_at, "workout_type": workout_type, "duration_minutes": duration_minutes}, now)
    row = ScheduledWorkout(org_id=org_id, member_id=member_id, scheduled_at=scheduled_at,
                           workout_type=workout_type.strip(), duration_minutes=duration_minutes, notes=notes,
                           exercises=exercises or [], plan_id=plan_id, status="scheduled")
    session.add(row)
    await session.flush()
    return row


async def get_scheduled(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                        workout_id: uuid.UUID) -> ScheduledWorkout:
    return await _own(session, org_id, member_id, workout_id)


async def _own(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, workout_id: uuid.UUID):
    row = await session.scalar(select(ScheduledWorkout).where(
        ScheduledWorkout.org_id == org_id, ScheduledWorkout.member_id == member_id, ScheduledWorkout.id == workout_id))
    if row is None:
        raise _scheduled_not_found(workout_id)
    return row


async def update_scheduled_workout(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                                   workout_id: uuid.UUID, *, now: datetime, **changes) -> ScheduledWorkout:
    if set(changes) - SCHEDULE_FIELDS:
        raise GymError("invalid_schedule", f"cannot change {', '.join(sorted(set(changes) - SCHEDULE_FIELDS))}")
    row = await _own(session, org_id, member_id, workout_id)
    _check(changes, now)
    for key, value in changes.items():
        setattr(row, key, value)
    await session.flush()
    return row


async def delete_scheduled_workout(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                                   workout_id: uuid.UUID) -> None:
    await _own(session, org_id, member_id, workout_id)
    await session.execute(delete(ScheduledWorkout).where(ScheduledWorkout.org_id == org_id,
                                                         ScheduledWorkout.id == workout_id))


async def upcoming(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, *, now: datetime,
                   days_ahead: int = 7, today: date | None = None) -> list[dict]:
    """The member's scheduled workouts and the coach assignments published for them, soonest first."""
    until = now + timedelta(days=days_ahead)
    own = (await session.scalars(select(ScheduledWorkout).where(
        ScheduledWorkout.org_id == org_id, ScheduledWorkout.member_id == member_id,
        ScheduledWorkout.status == "scheduled", ScheduledWorkout.scheduled_at >= now,
        ScheduledWorkout.scheduled_at <= until))).all()
    first_day = today or now.date()
    coach = (await session.execute(select(Assignment.id, Assignment.scheduled_on, Workout.title).join(
        Workout, Workout.id == Assignment.workout_id).where(
        Assignment.org_id == org_id, Assignment.member_id == member_id, Assignment.published,
        Assignment.deleted_at.is_(None), Assignment.scheduled_on >= first_day,
        Assignment.scheduled_on <= first_day + timedelta(days=days_ahead)))).all()
    rows = [scheduled_dict(r) for r in own]
    rows += [{"id": str(aid), "when": day.isoformat(), "workoutType": title, "source": "coach", "readOnly": True}
             for aid, day, title in coach]
    return sorted(rows, key=lambda r: r["when"])


def scheduled_dict(row: ScheduledWorkout) -> dict:
    return {"id": str(row.id), "when": row.scheduled_at.isoformat(), "workoutType": row.workout_type,
            "durationMinutes": row.duration_minutes, "notes": row.notes, "status": row.status,
            "exercises": row.exercises, "planId": str(row.plan_id) if row.plan_id else None, "source": "trainer",
            "readOnly": False}


# --- plans ---------------------------------------------------------------------------------------------------

def plan_days(start: date, preferred_days: list[str], workouts_per_week: int | None) -> list[int]:
    """The weekdays (0 = Monday) a plan trains on: the preferred ones, else `workouts_per_week` spread evenly from
    the start's weekday (3 → start, +2, +5)."""
    if preferred_days:
        days = sorted({DAYS.index(d.strip().lower()) for d in preferred_days})
        if workouts_per_week is not None and workouts_per_week != len(days):
            raise GymError("invalid_plan", f"{len(days)} preferred days but {workouts_per_week} workouts per week",
                           "Give as many preferred days as workouts per week, or leave one of them out.")
        return days
    count = workouts_per_week or DEFAULT_PER_WEEK
    if count > 7:
        raise GymError("invalid_plan", "more than 7 workouts a week need preferred days and times",
                       "Schedule the extra sessions with calendar__schedule_workout.")
    return sorted({(start.weekday() + round(i * 7 / count)) % 7 for i in range(count)})


def plan_dates(start: date, weeks: int, days: list[int], at: time, tz: tzinfo, now: datetime) -> list[datetime]:
    """Every session of the plan: each week, each training day, at `at` local time; none before `now`."""
    out = []
    for week in range(weeks):
        first = start + timedelta(weeks=week)
        for offset in range(7):
            day = first + timedelta(days=offset)
            when = datetime.combine(day, at, tz)
            if day.weekday() in days and when >= now:
                out.append(when)
    return out


async def create_plan(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, *, name: str,
                      start_date: date, duration_weeks: int, goal_description: str | None = None,
                      workouts_per_week: int | None = None, preferred_days: list[str] | None = None,
                      now: datetime | None = None, tz: tzinfo | None = None, at: time = DEFAULT_TIME,
                      session_types: list[str] | None = None,
                      duration_minutes: int | None = None) -> tuple[WorkoutPlan, list[ScheduledWorkout]]:
    """The plan and its scheduled workouts (`session_types` rotate over them; default: the plan's name). With no
    `now` the plan's sessions are all scheduled from its start."""
    await require_member(session, org_id, member_id)
    if not name.strip():
        raise GymError("invalid_plan", "a plan needs a name")
    if not 1 <= duration_weeks <= MAX_PLAN_WEEKS:
        raise GymError("invalid_plan", f"duration_weeks must be between 1 and {MAX_PLAN_WEEKS}")
    if workouts_per_week is not None and not 1 <= workouts_per_week <= 14:
        raise GymError("invalid_plan", "workouts_per_week must be between 1 and 14")
    days = plan_days(start_date, preferred_days or [], workouts_per_week)
    row = WorkoutPlan(org_id=org_id, member_id=member_id, name=name.strip(), goal_description=goal_description,
                      start_date=start_date, end_date=start_date + timedelta(weeks=duration_weeks, days=-1),
                      workouts_per_week=workouts_per_week or len(days),
                      preferred_days=[DAYS[d] for d in days] if preferred_days else [], status="active")
    session.add(row)
    await session.flush()
    zone = tz or UTC
    whens = plan_dates(start_date, duration_weeks, days, at, zone,
                       now or datetime.combine(start_date, time(0), zone))
    if not whens:
        raise GymError("invalid_plan", "every session of this plan would be in the past",
                       "Start the plan today or later.")
    types = [t.strip() for t in session_types or [] if t.strip()] or [row.name]
    scheduled = [ScheduledWorkout(org_id=org_id, member_id=member_id, scheduled_at=when,
                                  workout_type=types[n % len(types)][:100], duration_minutes=duration_minutes,
                                  exercises=[], plan_id=row.id, status="scheduled")
                 for n, when in enumerate(whens)]
    session.add_all(scheduled)
    await session.flush()
    return row, scheduled


async def list_plans(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                     status: str = "active") -> list[WorkoutPlan]:
    if status not in (*PLAN_STATUSES, "all"):
        raise GymError("invalid_plan", f"status must be one of {', '.join((*PLAN_STATUSES, 'all'))}")
    where = [WorkoutPlan.org_id == org_id, WorkoutPlan.member_id == member_id]
    if status != "all":
        where.append(WorkoutPlan.status == status)
    return list((await session.scalars(select(WorkoutPlan).where(*where).order_by(WorkoutPlan.start_date))).all())


def plan_dict(row: WorkoutPlan) -> dict:
    return {"id": str(row.id), "name": row.name, "goalDescription": row.goal_description,
            "startDate": row.start_date.isoformat(), "endDate": row.end_date.isoformat(),
            "workoutsPerWeek": row.workouts_per_week, "preferredDays": list(row.preferred_days), "status": row.status}
