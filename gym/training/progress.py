"""The member's app, Progress: every number the screens draw, computed here from the training record.

- `history`: the days the member trained, newest first (the gym's days), each workout with its exercises, their
  sets as logged (each set's load, reps, RPE, seconds) and the records each set earned (gym.training.records);
- `weekly_volume`: Σ reps × load of every set per week (Monday first, the gym's weeks), empty weeks included;
- `exercise_progress`: one exercise's heaviest set and best estimated 1RM (Epley) per session, and its bests;
- `calendar`: the days of a range with what was done and what is scheduled (the member's own and published coach
  assignments), and the streak: consecutive weeks with at least one workout, this week counting once it has one.

Loads are shown in the member's unit; undone logs and sets never count.
"""

from __future__ import annotations

import uuid
from collections import Counter, defaultdict
from datetime import date, datetime, time, timedelta, tzinfo
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from gym.assignments import Assignment
from gym.errors import GymError
from gym.training.entries import LogEntry
from gym.training.exercise_words import display_name
from gym.training.logs import MAX_HISTORY_DAYS, as_entry, logs_since
from gym.training.models import ExerciseLog, ScheduledWorkout, TrainerWorkout, WorkoutPlan
from gym.training.movements import canonical_name, same_exercise
from gym.training.profiles import Units, get_units
from gym.training.records import FORMULA, bests, estimated_1rm, exercise_key, records_by_log
from gym.training.today import EPOCH, exercise_sets_of, record_dict
from gym.training.units import show_distance, show_load
from gym.training.workout_titles import shown_title
from gym.workouts import Workout as CoachWorkout

MAX_WEEKS = 52
MAX_CALENDAR_DAYS = 62


def _day(at: datetime, tz: tzinfo) -> date:
    return at.astimezone(tz).date()


def _week(day: date) -> date:
    return day - timedelta(days=day.weekday())


async def _all(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, now: datetime) -> list[ExerciseLog]:
    """Every live log up to now, oldest first."""
    return list(reversed(await logs_since(session, org_id, member_id, EPOCH, until=now)))


async def entries_since(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, since: datetime,
                        now: datetime) -> list[LogEntry]:
    return [as_entry(r) for r in await logs_since(session, org_id, member_id, since, until=now)]


def _set_rows(log: ExerciseLog, sets: list, units: Units, earned: dict[int, list]) -> list[dict[str, Any]]:
    """A log's sets as logged (the app's set rows, warm-ups marked: a record names the n-th working set) or as the
    log says (the same reps and load for each)."""
    if sets:
        working = {s.set_number: n for n, s in enumerate((s for s in sets if not s.warmup), start=1)}
        return [{"setNumber": s.set_number, "reps": s.reps, "load": show_load(s.load_kg, units.weight_unit),
                 "durationSec": s.duration_sec, "rpe": float(s.rpe) if s.rpe is not None else None,
                 "warmup": bool(s.warmup),
                 "records": [record_dict(r, units) for r in earned.get(working.get(s.set_number, 0), [])]}
                for s in sets]
    entry = as_entry(log)
    loads = entry.set_loads()
    return [{"setNumber": n, "reps": reps, "load": show_load(load, units.weight_unit), "durationSec": None,
             "rpe": float(log.rpe) if log.rpe is not None else None,
             "records": [record_dict(r, units) for r in earned.get(n, [])]}
            for n, (reps, load) in enumerate(zip(entry.done_reps or (), loads, strict=True), start=1)]


async def history(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, now: datetime, tz: tzinfo,
                  locale: str, *, days: int = 30) -> dict[str, Any]:
    days = max(1, min(days, MAX_HISTORY_DAYS))
    units = await get_units(session, org_id, member_id)
    everything = await _all(session, org_id, member_id, now)
    since = now - timedelta(days=days)
    shown = [r for r in everything if r.performed_at > since]
    keys = {exercise_key(r.name) for r in shown}
    earned = records_by_log(as_entry(r) for r in everything if exercise_key(r.name) in keys)
    sets = await exercise_sets_of(session, [r.id for r in shown])
    titles = {w: shown_title(title, locale) for w, title in (await session.execute(
        select(TrainerWorkout.id, TrainerWorkout.title).where(
            TrainerWorkout.org_id == org_id, TrainerWorkout.id.in_({r.workout_id for r in shown if r.workout_id}))))
        .all()} if shown else {}
    by_day: dict[date, dict[str, dict[str, Any]]] = defaultdict(dict)
    for r in sorted(shown, key=lambda r: r.performed_at):
        key = f"workout:{r.workout_id}" if r.workout_id else "free"
        workout = by_day[_day(r.performed_at, tz)].setdefault(key, {
            "title": titles.get(r.workout_id) if r.workout_id else None, "exercises": []})
        by_set: dict[int, list] = {}
        for record in earned.get(r.id, []):
            by_set.setdefault(record.set_number, []).append(record)
        entry = as_entry(r)
        workout["exercises"].append({
            "name": r.name, "displayName": display_name(r.name, locale), "exerciseType": r.exercise_type,
            "performedAt": r.performed_at.isoformat(), "sets": _set_rows(r, sets.get(r.id, []), units, by_set),
            "volume": show_load(entry.volume_kg, units.weight_unit) or 0.0, "unit": units.weight_unit,
            "durationMin": float(r.duration_min) if r.duration_min is not None else None,
            "distance": show_distance(r.distance_km, units.distance_unit),
            "distanceUnit": units.distance_unit if r.distance_km is not None else None,
            "records": [record_dict(x, units) for x in earned.get(r.id, [])]})
    items = []
    for day in sorted(by_day, reverse=True):
        workouts = list(by_day[day].values())
        exercises = [e for w in workouts for e in w["exercises"]]
        items.append({"date": day.isoformat(), "workouts": workouts, "totals": {
            "exercises": len(exercises), "sets": sum(1 for e in exercises for s in e["sets"] if not s.get("warmup")),
            "volume": round(sum(e["volume"] for e in exercises), 1),
            "records": sum(len(e["records"]) for e in exercises)}})
    return {"days": days, "units": units.as_dict(), "items": items}


async def weekly_volume(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, now: datetime, tz: tzinfo,
                        *, weeks: int = 12) -> dict[str, Any]:
    weeks = max(1, min(weeks, MAX_WEEKS))
    units = await get_units(session, org_id, member_id)
    this_week = _week(_day(now, tz))
    first = this_week - timedelta(weeks=weeks - 1)
    start = datetime.combine(first, time(0), tz)
    rows = await logs_since(session, org_id, member_id, start - timedelta(seconds=1), until=now)
    volume: dict[date, float] = defaultdict(float)
    sessions: dict[date, set[str]] = defaultdict(set)
    for r in rows:
        week = _week(_day(r.performed_at, tz))
        volume[week] += as_entry(r).volume_kg
        sessions[week].add(str(r.workout_id) if r.workout_id else _day(r.performed_at, tz).isoformat())
    points = [{"weekStart": (first + timedelta(weeks=i)).isoformat(),
               "volume": show_load(volume[first + timedelta(weeks=i)], units.weight_unit) or 0.0,
               "workouts": len(sessions[first + timedelta(weeks=i)])} for i in range(weeks)]
    return {"weeks": weeks, "unit": units.weight_unit, "points": points}


def _loaded_names(entries: list[LogEntry]) -> list[tuple[str, int]]:
    counts = Counter(canonical_name(e.name) for e in entries if e.load_kg)
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


async def exercise_progress(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, now: datetime,
                            tz: tzinfo, locale: str, *, name: str | None = None, days: int = 180) -> dict[str, Any]:
    """One exercise's load over time: per session its heaviest set and best estimated 1RM (Epley); `name` left out
    picks the loaded exercise logged most often in the window."""
    days = max(7, min(days, MAX_HISTORY_DAYS))
    units = await get_units(session, org_id, member_id)
    everything = [as_entry(r) for r in await _all(session, org_id, member_id, now)]
    window = [e for e in everything if e.performed_at > now - timedelta(days=days)]
    choices = _loaded_names(window)
    chosen = canonical_name(name) if name else (choices[0][0] if choices else None)
    if name and not any(same_exercise(e.name, name) for e in everything):
        raise GymError("exercise_not_logged", f"No logged sets of {name}.", "Pick an exercise from the choices.",
                       status=404)
    points = []
    for e in window:
        if chosen is None or not same_exercise(e.name, chosen) or not e.load_kg:
            continue
        pairs = [(load, reps) for reps, load in zip(e.done_reps or (), e.set_loads(), strict=True) if load]
        if not pairs:
            continue
        top = max(pairs, key=lambda p: (p[0], p[1]))
        e1rm = max((v for v in (estimated_1rm(load, reps) for load, reps in pairs) if v is not None), default=None)
        points.append({"date": _day(e.performed_at, tz).isoformat(), "performedAt": e.performed_at.isoformat(),
                       "topLoad": show_load(top[0], units.weight_unit), "topReps": top[1],
                       "e1rm": show_load(e1rm, units.weight_unit) if e1rm is not None else None})
    best = bests(e for e in everything if chosen is not None and same_exercise(e.name, chosen)).get(chosen or "", {})
    return {"exercise": chosen, "displayName": display_name(chosen, locale) if chosen else None,
            "unit": units.weight_unit, "formula": FORMULA, "days": days, "points": points,
            "bests": {"heaviestLoad": show_load(best.get("heaviestLoadKg"), units.weight_unit),
                      "heaviestAt": best.get("heaviestAt"),
                      "e1rm": show_load(best.get("bestE1rmKg"), units.weight_unit), "e1rmAt": best.get("bestE1rmAt")},
            "choices": [{"name": n, "displayName": display_name(n, locale), "sessions": c} for n, c in choices]}


def streak(done_days: set[date], today: date) -> int:
    """Consecutive weeks (Monday first) with a workout, counted back from this week — or from last week while this
    one has none yet (the week is not over)."""
    weeks = {_week(d) for d in done_days if d <= today}
    week = _week(today)
    if week not in weeks:
        week -= timedelta(weeks=1)
    count = 0
    while week in weeks:
        count += 1
        week -= timedelta(weeks=1)
    return count


async def calendar(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, now: datetime, tz: tzinfo,
                   locale: str, *, start: date | None = None, end: date | None = None) -> dict[str, Any]:
    """The days from `start` to `end` (both included; default: this month) with what was done and scheduled."""
    today = _day(now, tz)
    start = start or (end or today).replace(day=1)  # only the last day given: that day's month
    end = end or ((start.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1))
    if end < start or (end - start).days >= MAX_CALENDAR_DAYS:
        raise GymError("invalid_range", f"{start}..{end} is not a range of 1 to {MAX_CALENDAR_DAYS} days",
                       "Give the first and last day, the first not after the last.", status=422)
    first, last = datetime.combine(start, time(0), tz), datetime.combine(end + timedelta(days=1), time(0), tz)
    everything = await _all(session, org_id, member_id, now)
    done: dict[date, list[ExerciseLog]] = defaultdict(list)
    for r in everything:
        done[_day(r.performed_at, tz)].append(r)
    titles = {w: shown_title(title, locale) for w, title in (await session.execute(
        select(TrainerWorkout.id, TrainerWorkout.title).where(
            TrainerWorkout.org_id == org_id, TrainerWorkout.member_id == member_id))).all()}
    own = (await session.scalars(select(ScheduledWorkout).where(
        ScheduledWorkout.org_id == org_id, ScheduledWorkout.member_id == member_id,
        ScheduledWorkout.scheduled_at >= first, ScheduledWorkout.scheduled_at < last)
        .order_by(ScheduledWorkout.scheduled_at))).all()
    coach = (await session.execute(select(Assignment.scheduled_on, CoachWorkout.title).join(
        CoachWorkout, CoachWorkout.id == Assignment.workout_id).where(
        Assignment.org_id == org_id, Assignment.member_id == member_id, Assignment.published,
        Assignment.deleted_at.is_(None), Assignment.scheduled_on >= start, Assignment.scheduled_on <= end))).all()
    scheduled: dict[date, list[dict[str, Any]]] = defaultdict(list)
    for s in own:
        scheduled[_day(s.scheduled_at, tz)].append({
            "at": s.scheduled_at.isoformat(), "workoutType": shown_title(s.workout_type, locale),
            "durationMinutes": s.duration_minutes,
            "status": s.status, "source": "trainer"})
    for day, title in coach:
        scheduled[day].append({"at": None, "workoutType": title, "durationMinutes": None, "status": "scheduled",
                               "source": "coach"})
    days = []
    for i in range((end - start).days + 1):
        day = start + timedelta(days=i)
        logs = done.get(day, [])
        workouts = list(dict.fromkeys(
            (titles.get(r.workout_id) or "") if r.workout_id else "" for r in logs)) if logs else []
        days.append({"date": day.isoformat(), "done": {"exercises": len(logs), "titles": [t for t in workouts if t]}
                     if logs else None, "scheduled": scheduled.get(day, [])})
    plan = await session.scalar(select(WorkoutPlan.workouts_per_week).where(
        WorkoutPlan.org_id == org_id, WorkoutPlan.member_id == member_id, WorkoutPlan.status == "active",
        WorkoutPlan.start_date <= today, WorkoutPlan.end_date >= today).limit(1))
    this_week = _week(today)
    sessions_this_week = {str(r.workout_id) if r.workout_id else _day(r.performed_at, tz).isoformat()
                          for d, logs in done.items() if _week(d) == this_week for r in logs}
    return {"start": start.isoformat(), "end": end.isoformat(), "today": today.isoformat(), "days": days,
            "streak": {"weeks": streak(set(done), today), "thisWeek": len(sessions_this_week),
                       "target": plan}}
