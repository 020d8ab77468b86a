"""The member's current workout as the workout, logbook and timer tools use it: lookup, exercise references by
id (`ex_003`) or order number, and the rule check (equipment, units, recovery, progression) a change must pass."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

from gym.training.logs import as_entry, logs_since
from gym.training.models import TrainerWorkout
from gym.training.profiles import Units, current_location
from gym.training.record import PROGRESSION_DAYS
from gym.training.recovery import LARGE_HOURS, recovering_muscles
from gym.training.trainer_workouts import current_workout
from gym.training.validation import WorkoutCheck, check_workout
from gym.training.workout import Workout
from tools.context import ToolContext
from tools.errors import ToolFailed

ExerciseRef = str | int


async def require_current(ctx: ToolContext, member_id: uuid.UUID) -> TrainerWorkout:
    row = await current_workout(ctx.session, ctx.org_id, member_id)
    if row is None:
        raise ToolFailed("no_current_workout", "The member has no current workout.",
                         "Generate a workout first (workout__generate_workout).")
    return row


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
    raise ToolFailed("exercise_not_found", f"No exercise {text} in the current workout.",
                     "Use an exercise id (ex_001) or order number from the current workout.")


async def check(ctx: ToolContext, member_id: uuid.UUID, workout: Workout, units: Units) -> WorkoutCheck:
    """The rules in code; a failing check raises the first error as a typed tool error the model must fix."""
    location = await current_location(ctx.session, ctx.org_id, member_id)
    recent = [as_entry(r) for r in await logs_since(ctx.session, ctx.org_id, member_id,
                                                    ctx.now - timedelta(days=PROGRESSION_DAYS), until=ctx.now)]
    recovering = recovering_muscles([e for e in recent if e.performed_at > ctx.now - timedelta(hours=LARGE_HOURS)],
                                    ctx.now)
    result = check_workout(workout, weight_unit=units.weight_unit, distance_unit=units.distance_unit,
                           equipment=list(location.equipment) if location else None, recovering=recovering,
                           history=recent)
    if result.errors:
        first = result.errors[0]
        raise ToolFailed(first.code, "; ".join(p.message for p in result.errors),
                         "Pick exercises the current location's equipment allows, in the member's units."
                         if first.code == "equipment_unavailable" else None)
    return result


def renumber(exercises: list[dict[str, Any]]) -> list[dict[str, Any]]:
    ordered = sorted(exercises, key=lambda e: e["order"])
    return [{**ex, "order": n} for n, ex in enumerate(ordered, start=1)]


def as_workout(row: TrainerWorkout, exercises: list[dict[str, Any]]) -> Workout:
    """The stored workout with changed exercises, validated against the §4.9 schema (a ValueError if not)."""
    return Workout.model_validate({"id": row.workout_key, "title": row.title, "exercises": exercises,
                                   "summary": row.summary})


def brief(exercises: list[dict[str, Any]]) -> list[str]:
    """One short line per exercise: what the model needs to refer to them."""
    return [f"{e['order']}. {e['id']} {e['name']} ({e['type']})" for e in sorted(exercises, key=lambda e: e["order"])]
