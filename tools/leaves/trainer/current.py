"""The member's current workout as the workout, logbook and timer tools use it: lookup, exercise references by
id (`ex_003`) or order number, the rule check a change must pass (injuries and hard preferences, equipment,
units, exercise order; recovery and progression notes), and the per-exercise details a result carries."""

from __future__ import annotations

import uuid
from collections.abc import Collection
from typing import Any

from gym.training.models import TrainerWorkout
from gym.training.trainer_workouts import current_workout
from gym.training.validation import WorkoutCheck
from gym.training.workout import Workout
from gym.training.workout_check import check_member_workout
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


async def check(ctx: ToolContext, member_id: uuid.UUID, workout: Workout, *, touched: Collection[str] | None = None,
                check_order: bool = True) -> WorkoutCheck:
    """The rules in code (gym.training.workout_check); a failing check raises a typed error the model must fix.
    `touched`: the ids of the exercises this change adds or alters (None: a whole new workout)."""
    return await check_member_workout(ctx.session, ctx.org_id, member_id, workout, ctx.now, touched=touched,
                                      check_order=check_order)


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


def details(exercises: list[dict[str, Any]], result: WorkoutCheck) -> list[dict[str, Any]]:
    """Per exercise, what the card shows beside the prescription: recovering muscles with their recovery
    percentage, and the progression suggestion for loaded work (None otherwise)."""
    out = []
    for e in sorted(exercises, key=lambda e: e["order"]):
        suggestion = result.suggestion_for(e["order"])
        out.append({"id": e["id"], "order": e["order"], "name": e["name"],
                    "recovery": result.recovery.get(e["order"], []),
                    "suggestion": {k: v for k, v in suggestion.items() if k != "order"} if suggestion else None})
    return out
