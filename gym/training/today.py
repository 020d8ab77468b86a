"""The member's app, Today: the current workout as a logging screen, and what the screen does to it.

The workout is the trainer's card (gym.training.workout_view: each exercise's recovering muscles with their
percentage and its progression suggestion with why) plus, per exercise, its name in the member's language, its
three cues, how many sets it prescribes, the sets logged so far (each with the records it earned), whether it
is done, what the member did last time, per set (gym.training.previous), and their own note on it. Logging, undoing, adding, swapping
and removing go through the services the trainer's tools call (workout_sets, workout_changes), so the next chat
turn reads what the app did. Loads are in the member's unit.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from gym.errors import GymError
from gym.training import library_plan, workout_changes, workout_sets
from gym.training.entries import LogEntry
from gym.training.exercise_notes import notes_for
from gym.training.exercise_order import fitting_position
from gym.training.exercise_words import display_name, how_to
from gym.training.logs import as_entry, logs_since
from gym.training.models import ExerciseLog, ExerciseSet, TrainerWorkout
from gym.training.movements import same_exercise
from gym.training.previous import previous_sets
from gym.training.profiles import Units, current_location, get_units
from gym.training.progression import PROGRESSION_DAYS
from gym.training.records import Record, exercise_key, records_by_log
from gym.training.stored_exercises import exercises_of, key_of, prescribed_sets
from gym.training.timers import run_phases
from gym.training.trainer_workouts import current_workout, finish_workout
from gym.training.units import show_load
from gym.training.workout import EXERCISE, Exercise
from gym.training.workout_view import workout_view

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


async def history_of(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, names: Iterable[str],
                     now: datetime) -> list[LogEntry]:
    """Every live log of these exercises (under any of their names), oldest first: what records are measured on."""
    wanted = {exercise_key(n) for n in names}
    rows = await logs_since(session, org_id, member_id, EPOCH, until=now + timedelta(minutes=5))
    return [as_entry(r) for r in reversed(rows) if exercise_key(r.name) in wanted]


def record_dict(record: Record, units: Units) -> dict[str, Any]:
    return record.as_dict(lambda kg: show_load(kg, units.weight_unit))


def _sets_by_log(found: dict[object, list[Record]], log_id: object) -> dict[int, list[Record]]:
    out: dict[int, list[Record]] = {}
    for r in found.get(log_id, []):
        out.setdefault(r.set_number, []).append(r)
    return out


async def _logged(session: AsyncSession, row: TrainerWorkout) -> dict[str, list[ExerciseSet]]:
    out: dict[str, list[ExerciseSet]] = {}
    for item in await workout_sets.live_sets(session, row.id):
        out.setdefault(item.exercise_key, []).append(item)
    return out


def _set_items(sets: list[ExerciseSet], found: dict[object, list[Record]], units: Units) -> list[dict[str, Any]]:
    """The sets as the screen shows them, each with its records (a record names the n-th set of the log, which
    holds the working sets only: warm-ups earn none)."""
    by_set = _sets_by_log(found, sets[0].log_id) if sets else {}
    working = [s.set_number for s in sets if not s.warmup]
    shown = {number: by_set.get(n, []) for n, number in enumerate(working, start=1)}
    return [{**workout_sets.set_dict(s, units), "records": [record_dict(r, units) for r in shown.get(s.set_number, [])]}
            for s in sets]


async def workout_screen(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, row: TrainerWorkout | None,
                         now: datetime, locale: str) -> dict[str, Any]:
    units = await get_units(session, org_id, member_id)
    if row is None:
        return {"workout": None, "units": units.as_dict()}
    view = await workout_view(session, org_id, member_id, row, now, locale)
    assert view is not None
    logged = await _logged(session, row)
    typed = exercises_of(row)
    prescribed = {key_of(e): prescribed_sets(e, typed) for e in typed}
    names = [e.name for e in typed]
    history = await history_of(session, org_id, member_id, names, now)
    found = records_by_log(history)
    notes = await notes_for(session, org_id, member_id, names)
    exercises = []
    for ex in view["exercises"]:
        sets = logged.get(ex["id"], [])
        exercises.append({**ex, "displayName": display_name(ex["name"], locale), "how": how_to(ex["name"], locale),
                          "prescribedSets": prescribed[ex["id"]],
                          "logged": _set_items(sets, found, units), "done": ex["id"] in (row.completed or {}),
                          "previous": previous_sets(history, ex["name"], row.id, units.weight_unit),
                          "note": notes.get(exercise_key(ex["name"]))})
    return {"workout": {
        "id": view["id"], "title": view["title"], "summary": view["summary"], "status": view["status"],
        "createdAt": row.created_at.isoformat(), "startedAt": row.started_at.isoformat() if row.started_at else None,
        "exercises": exercises, "progress": _progress(row, logged, units)},
        "units": units.as_dict()}


def _progress(row: TrainerWorkout, logged: dict[str, list[ExerciseSet]], units: Units) -> dict[str, Any]:
    """The workout so far: working sets done of planned, exercises done, volume (each working set's own load × reps;
    warm-ups count in neither)."""
    exercises = exercises_of(row)
    done = [s for ex in exercises for s in logged.get(key_of(ex), []) if not s.warmup]
    volume = sum(float(s.load_kg or 0) * (s.reps or 0) for s in done)
    return {"setsDone": len(done), "setsPlanned": sum(prescribed_sets(ex, exercises) for ex in exercises),
            "exercisesDone": sum(1 for ex in exercises if key_of(ex) in (row.completed or {})),
            "exercises": len(exercises), "volume": show_load(volume, units.weight_unit) or 0.0,
            "unit": units.weight_unit}


async def today(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, now: datetime,
                locale: str) -> dict[str, Any]:
    return await workout_screen(session, org_id, member_id, await current_workout(session, org_id, member_id), now,
                                locale)


async def record_set(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, entry: workout_sets.SetInput,
                     now: datetime) -> dict[str, Any]:
    """Log one set; the answer has the set, the exercise's sets with their records, whether it is done, and `new`
    (False: the set was logged before, under its client id or time: workout_sets)."""
    row, item, log, new = await workout_sets.log_set(session, org_id, member_id, entry, now=now)
    return {**await _exercise_answer(session, org_id, member_id, row, item, log, now), "new": new}


async def _exercise_answer(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, row: TrainerWorkout,
                           item: ExerciseSet, log: ExerciseLog, now: datetime) -> dict[str, Any]:
    units = await get_units(session, org_id, member_id)
    sets = [s for s in await workout_sets.live_sets(session, row.id, item.exercise_key) if s.log_id == log.id]
    found = records_by_log(await history_of(session, org_id, member_id, [log.name], now))
    items = _set_items(sets, found, units)
    this = next((s for s in items if s["id"] == str(item.id)), {**workout_sets.set_dict(item, units), "records": []})
    exercises = exercises_of(row)
    ex = next((e for e in exercises if e.id == item.exercise_key), None)
    return {"set": this, "exercise": {
        "id": item.exercise_key, "logged": items, "done": item.exercise_key in (row.completed or {}),
        "prescribedSets": prescribed_sets(ex, exercises) if ex else len(items)},
        "progress": _progress(row, await _logged(session, row), units)}


async def take_back_set(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, set_id: uuid.UUID,
                        now: datetime) -> dict[str, Any]:
    row, item = await workout_sets.undo_set(session, org_id, member_id, set_id, now=now)
    log = await session.get(ExerciseLog, item.log_id)
    assert log is not None
    return await _exercise_answer(session, org_id, member_id, row, item, log, now)


async def start(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, now: datetime,
                locale: str) -> dict[str, Any]:
    """Press Start: the workout's clock starts (once)."""
    row = await workout_sets.require_current_workout(session, org_id, member_id)
    if row.started_at is None:
        row.started_at = now
        await session.flush()
    return await workout_screen(session, org_id, member_id, row, now, locale)


async def finish(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, now: datetime, locale: str, *,
                 discard: bool = False) -> dict[str, Any]:
    """Finish (or discard) the current workout; the answer sums it up: time, sets, volume, the records earned."""
    row = await workout_sets.require_current_workout(session, org_id, member_id)
    screen = await workout_screen(session, org_id, member_id, row, now, locale)
    progress = screen["workout"]["progress"]
    if not discard and progress["setsDone"] == 0:
        raise GymError("nothing_logged", "No set of this workout is logged yet.",
                       "Log a set first, or discard the workout.", status=409)
    await finish_workout(session, org_id, member_id, row.id, now=now, status="abandoned" if discard else "completed")
    records = [{**r, "exercise": e["displayName"]} for e in screen["workout"]["exercises"] for s in e["logged"]
               for r in s["records"]]
    started = row.started_at or row.created_at
    minutes = max(0.0, (now - started).total_seconds() / 60) if started else 0.0
    return {"status": row.status, "title": row.title, "durationMin": round(minutes, 1),
            "setsDone": progress["setsDone"], "exercisesDone": progress["exercisesDone"],
            "volume": progress["volume"], "unit": progress["unit"], "records": records}


async def _library_context(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, now: datetime,
                           name: str) -> tuple[list[str] | None, Units, list[LogEntry]]:
    location = await current_location(session, org_id, member_id)
    units = await get_units(session, org_id, member_id)
    history = [as_entry(r) for r in await logs_since(session, org_id, member_id,
                                                     now - timedelta(days=PROGRESSION_DAYS), until=now)
               if same_exercise(r.name, name)]
    return (list(location.equipment) if location else None), units, history


async def add_from_library(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, now: datetime,
                           locale: str, *, name: str, position: int | None = None,
                           chosen: library_plan.Prescription | None = None) -> dict[str, Any]:
    """Add a library exercise to the current workout (the rules of generate_workout apply to it) at `position`, by
    default where it keeps compound lifts before isolation work (exercise_order.fitting_position)."""
    exercise = library_plan.find(name)
    available, units, history = await _library_context(session, org_id, member_id, now, exercise.name)
    plan = library_plan.build(exercise, available=available, unit=units.weight_unit, history=history, chosen=chosen)
    added = _check_schema(plan)
    if position is None:
        current = await workout_sets.require_current_workout(session, org_id, member_id)
        position = fitting_position(exercises_of(current), added.name, added.type)
    row, _, _ = await workout_changes.add_exercise(session, org_id, member_id, added, position, now=now)
    return await workout_screen(session, org_id, member_id, row, now, locale)


async def swap_from_library(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, now: datetime,
                            locale: str, *, exercise_id: str, name: str, load: float | None = None) -> dict[str, Any]:
    """Swap an exercise (with no logged sets) for a library one, keeping its prescription when it is the same kind."""
    row = await workout_sets.require_current_workout(session, org_id, member_id)
    old = workout_sets.exercise_in(row, exercise_id)
    exercise = library_plan.find(name)
    available, units, history = await _library_context(session, org_id, member_id, now, exercise.name)
    plan = library_plan.build(exercise, available=available, unit=units.weight_unit, history=history, like=old,
                              chosen=library_plan.Prescription(load=load))
    replacement = _check_schema({**plan, "order": old.order})
    row, _, _ = await workout_changes.swap_exercise(session, org_id, member_id, exercise_id, replacement, now=now)
    return await workout_screen(session, org_id, member_id, row, now, locale)


async def remove(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, now: datetime, locale: str, *,
                 exercise_id: str) -> dict[str, Any]:
    row = await workout_sets.require_current_workout(session, org_id, member_id)
    workout_sets.exercise_in(row, exercise_id)
    row, _, _ = await workout_changes.remove_exercise(session, org_id, member_id, exercise_id, now=now)
    return await workout_screen(session, org_id, member_id, row, now, locale)


def _check_schema(plan: dict[str, Any]) -> Exercise:
    """The library's plan as the §4.9 exercise it must be: typed here, once, before it changes the workout."""
    try:
        return EXERCISE.validate_python({"order": 1, **plan})
    except ValueError as exc:  # a library entry the §4.9 schema refuses is a bug here, said plainly
        raise GymError("invalid_workout", str(exc)[:300], "Pick another exercise.") from exc


async def timers(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, locale: str) -> dict[str, Any]:
    """The current workout's phases in the order the app runs them, with each exercise's name in `locale`."""
    row = await workout_sets.require_current_workout(session, org_id, member_id, for_update=False)
    exercises = exercises_of(row)
    phases = run_phases(exercises)
    names = {e.id: display_name(e.name, locale) for e in exercises}
    for p in phases:
        if p.get("exercise_id") in names:
            p["display_name"] = names[p["exercise_id"]]
    logged = await _logged(session, row)
    done = {(key, s.set_number) for key, sets in logged.items() for s in sets}
    for p in phases:
        p["done"] = (p.get("exercise_id"), p.get("set_number")) in done if p.get("exercise_id") else False
    return {"phases": phases, "totalDurationSec": sum(p["duration_sec"] for p in phases)}


async def exercise_sets_of(session: AsyncSession, log_ids: list[uuid.UUID]) -> dict[uuid.UUID, list[ExerciseSet]]:
    """The live sets of these logs (history shows each set's own load, reps and RPE)."""
    if not log_ids:
        return {}
    rows = (await session.scalars(select(ExerciseSet).where(
        ExerciseSet.log_id.in_(log_ids), ExerciseSet.undone_at.is_(None)).order_by(ExerciseSet.set_number))).all()
    out: dict[uuid.UUID, list[ExerciseSet]] = {}
    for s in rows:
        out.setdefault(s.log_id, []).append(s)
    return out
