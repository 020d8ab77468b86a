"""Changes to the member's current workout during the session — swap, adjust, remove, add — as one service the
trainer's workout tools and the member's app both call, so the chat and the app change one workout.

Each change is validated against the §4.9 schema, then the rules in code (gym.training.workout_check: injuries
and hard preferences for what it adds or alters, equipment at the current location, units, exercise order) before
it is stored; a refusal is a typed GymError the model reads as a tool result and the app as an HTTP error.
Exercises are named by id (`ex_003`) or order number. What was logged stays true: an exercise with logged sets is
not swapped (undo them, or add the other exercise), adjusting one re-measures its log against the new
prescription, and removing one takes its logged sets out of the record with it.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection
from datetime import datetime
from typing import Any

from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from gym.errors import GymError
from gym.training.logs import retire_log
from gym.training.models import ExerciseLog, TrainerWorkout
from gym.training.trainer_workouts import issue_exercise_id
from gym.training.validation import WorkoutCheck
from gym.training.workout import MAX_EXERCISES, Workout
from gym.training.workout_check import check_member_workout
from gym.training.workout_sets import exercise_in, live_sets, rebuild, require_current_workout

ExerciseRef = str | int
ORDER_FIELDS = frozenset({"order", "name", "group", "type"})  # changes that can break the exercise order


def find_exercise(exercises: list[dict[str, Any]], ref: ExerciseRef) -> int:
    """The index of the exercise `ref` names: its id (ex_003) or its order number (3 or "3")."""
    text = str(ref).strip()
    for i, ex in enumerate(exercises):
        if ex.get("id") == text:
            return i
    if text.isdigit():
        for i, ex in enumerate(exercises):
            if ex.get("order") == int(text):
                return i
    raise GymError("exercise_not_found", f"No exercise {text} in the current workout.",
                   "Use an exercise id (ex_001) or order number from the current workout.", status=404)


def renumber(exercises: list[dict[str, Any]]) -> list[dict[str, Any]]:
    ordered = sorted(exercises, key=lambda e: e["order"])
    return [{**ex, "order": n} for n, ex in enumerate(ordered, start=1)]


def as_workout(row: TrainerWorkout, exercises: list[dict[str, Any]]) -> Workout:
    """The stored workout with changed exercises, validated against the §4.9 schema (a ValueError if not)."""
    return Workout.model_validate({"id": row.workout_key, "title": row.title, "exercises": exercises,
                                   "summary": row.summary})


async def save_changed(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, row: TrainerWorkout,
                       exercises: list[dict[str, Any]], *, now: datetime, touched: Collection[str],
                       check_order: bool = True) -> WorkoutCheck:
    """Check the changed exercises and store them; nothing is stored when a rule refuses them."""
    try:
        candidate = as_workout(row, exercises)
    except ValidationError as exc:
        raise GymError("invalid_workout", "; ".join(e["msg"] for e in exc.errors()[:5]),
                       "Fix the exercise so it matches the schema of its type.") from exc
    result = await check_member_workout(session, org_id, member_id, candidate, now, touched=touched,
                                        check_order=check_order)
    named = {e.id: e for e in candidate.exercises if e.id in touched}  # the library's name and equipment
    row.exercises = [{**e, "name": named[e["id"]].name, "equipment": list(named[e["id"]].equipment)}
                     if e.get("id") in named else e for e in exercises]
    row.updated_at = now
    await session.flush()
    return result


async def _exercise_log(session: AsyncSession, row: TrainerWorkout, exercise_id: str) -> ExerciseLog | None:
    """The live log the app or the trainer built for this exercise of the workout, if any."""
    return await session.scalar(select(ExerciseLog).where(
        ExerciseLog.org_id == row.org_id, ExerciseLog.workout_id == row.id, ExerciseLog.exercise_key == exercise_id,
        ExerciseLog.undone_at.is_(None)).limit(1))


async def swap_exercise(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, ref: ExerciseRef,
                        new_exercise: dict[str, Any], *, now: datetime) -> tuple[TrainerWorkout, WorkoutCheck, dict]:
    """Replace one exercise; the new one takes its id and order. Returns the workout, the check, the old one."""
    row = await require_current_workout(session, org_id, member_id)
    exercises = [dict(e) for e in row.exercises]
    i = find_exercise(exercises, ref)
    old = exercises[i]
    if await live_sets(session, row.id, old["id"]):
        raise GymError("exercise_has_sets", f"{old['name']} already has logged sets.",
                       "Undo its sets first, or add the other exercise instead.", status=409)
    exercises[i] = {**new_exercise, "id": old["id"], "order": old["order"]}
    result = await save_changed(session, org_id, member_id, row, exercises, now=now, touched={old["id"]})
    return row, result, old


async def adjust_exercise(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, ref: ExerciseRef,
                          changes: dict[str, Any], *, now: datetime) -> tuple[TrainerWorkout, WorkoutCheck, str]:
    """Change fields of one exercise (never its id or type). Returns the workout, the check, the exercise's id."""
    forbidden = sorted({"id", "type"} & set(changes))
    if forbidden:
        raise GymError("immutable_field", f"adjust_exercise cannot change {', '.join(forbidden)}.",
                       "Use workout__swap_exercise to replace the exercise with one of another type.")
    row = await require_current_workout(session, org_id, member_id)
    exercises = [dict(e) for e in row.exercises]
    i = find_exercise(exercises, ref)
    target = exercises[i]["id"]
    exercises[i] = {**exercises[i], **changes}
    if "order" in changes:
        exercises = renumber(exercises)
    result = await save_changed(session, org_id, member_id, row, exercises, now=now, touched={target},
                                check_order=bool(ORDER_FIELDS & set(changes)))
    log = await _exercise_log(session, row, target)
    if log is not None:
        await rebuild(session, row, exercise_in(row, target), log, now)
    return row, result, target


async def remove_exercise(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, ref: ExerciseRef, *,
                          now: datetime) -> tuple[TrainerWorkout, WorkoutCheck, dict]:
    """Remove one exercise (a workout keeps at least one); its logged sets leave the record with it."""
    row = await require_current_workout(session, org_id, member_id)
    exercises = [dict(e) for e in row.exercises]
    i = find_exercise(exercises, ref)
    if len(exercises) == 1:
        raise GymError("last_exercise", "A workout needs at least one exercise.", "Generate a new workout instead.")
    gone = exercises.pop(i)
    result = await save_changed(session, org_id, member_id, row, renumber(exercises), now=now, touched=(),
                                check_order=False)
    log = await _exercise_log(session, row, gone["id"])
    if log is not None:
        await retire_log(session, log, now)
    return row, result, gone


async def add_exercise(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, exercise: dict[str, Any],
                       position: int | None, *, now: datetime) -> tuple[TrainerWorkout, WorkoutCheck, str]:
    """Add one exercise at a position (default: the end), checked like a new workout's. Returns its new id."""
    row = await require_current_workout(session, org_id, member_id)
    exercises = sorted((dict(e) for e in row.exercises), key=lambda e: e["order"])
    if len(exercises) >= MAX_EXERCISES:
        raise GymError("invalid_workout", f"A workout holds at most {MAX_EXERCISES} exercises.",
                       "Remove one first.")
    position = position or len(exercises) + 1
    if position > len(exercises) + 1:
        raise GymError("invalid_position", f"The workout has {len(exercises)} exercises; position must be "
                                           f"1..{len(exercises) + 1}.", "Leave position out to add it at the end.")
    new_id = issue_exercise_id(row)
    exercises.insert(position - 1, {**exercise, "id": new_id})
    exercises = [{**e, "order": n} for n, e in enumerate(exercises, start=1)]
    result = await save_changed(session, org_id, member_id, row, exercises, now=now, touched={new_id})
    return row, result, new_id
