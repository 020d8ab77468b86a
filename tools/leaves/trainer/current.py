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
from gym.training.workout import Exercise, Workout
from gym.training.workout_changes import ExerciseRef, find_exercise
from gym.training.workout_check import check_member_workout
from tools.context import ToolContext
from tools.errors import ToolFailed

__all__ = ["ExerciseRef", "brief", "check", "details", "find_exercise", "require_current"]


async def require_current(ctx: ToolContext, member_id: uuid.UUID) -> TrainerWorkout:
    row = await current_workout(ctx.session, ctx.org_id, member_id)
    if row is None:
        raise ToolFailed("no_current_workout", "The member has no current workout.",
                         "Generate a workout first (workout__generate_workout).")
    return row


async def check(ctx: ToolContext, member_id: uuid.UUID, workout: Workout, *, touched: Collection[str] | None = None,
                check_order: bool = True) -> WorkoutCheck:
    """The rules in code (gym.training.workout_check); a failing check raises a typed error the model must fix.
    `touched`: the ids of the exercises this change adds or alters (None: a whole new workout)."""
    return await check_member_workout(ctx.session, ctx.org_id, member_id, workout, ctx.now, touched=touched,
                                      check_order=check_order)


def brief(exercises: list[Exercise]) -> list[str]:
    """One short line per exercise: what the model needs to refer to them."""
    return [f"{e.order}. {e.id} {e.name} ({e.type})" for e in sorted(exercises, key=lambda e: e.order)]


def details(exercises: list[Exercise], result: WorkoutCheck) -> list[dict[str, Any]]:
    """Per exercise, what the card shows beside the prescription: recovering muscles with their recovery
    percentage, and the progression suggestion for loaded work (None otherwise)."""
    out = []
    for e in sorted(exercises, key=lambda e: e.order):
        suggestion = result.suggestion_for(e.order)
        out.append({"id": e.id, "order": e.order, "name": e.name,
                    "recovery": result.recovery.get(e.order, []),
                    "suggestion": {k: v for k, v in suggestion.items() if k != "order"} if suggestion else None})
    return out
