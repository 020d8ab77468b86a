"""workout: build the member's structured workout (001 §4.9) and change it during the session.

`generate_workout` validates the schema, then the rules in code — every exercise a library exercise (else
`unknown_exercise` with the nearest library names), injuries and hard preferences on the library's tags (refused
with `injury_conflict` / `preference_conflict`), the library's equipment at the current location, units, exercise
order (warm-up first, compounds before isolation, cool-down last) — stores it as the current workout with server ids
(`workout_N`, `ex_NNN`) and removes the one-shot preferences it used. swap / adjust / remove / add are the service
the member's app calls too (gym.training.workout_changes): they run the same check on the exercise they change.
Every result lists the exercises (ids for the model) and, per exercise, its recovering muscles with their recovery
percentage and the progression suggestion. swap / adjust / remove take an exercise id or order number;
`adjust_exercise` may not change `id` or `type`. The input is typed here, once: a swapped or added exercise is the
§4.9 `Exercise` the input model parsed, an adjustment's `changes` become a `workout_changes.ExerciseChanges`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from gym.training import workout_changes as changes
from gym.training.models import TrainerWorkout
from gym.training.preferences import active_preferences, consume_after_generation
from gym.training.stored_exercises import exercises_of
from gym.training.trainer_workouts import save_workout
from gym.training.validation import WorkoutCheck
from gym.training.workout import Exercise, Workout
from tools.context import ToolContext
from tools.leaves.trainer.current import ExerciseRef, brief, check, details
from tools.leaves.trainer.member import MEMBER, me, session_uuid
from tools.registry import ToolRouter

workout = ToolRouter("workout")


class SwapInput(BaseModel):
    exercise_id: ExerciseRef = Field(description="The exercise id (ex_003) or its order number (3).")
    new_exercise: Exercise = Field(description="The replacement; it takes the replaced exercise's id and order.")


class AdjustInput(BaseModel):
    exercise_id: ExerciseRef = Field(description="The exercise id (ex_003) or its order number (3).")
    changes: dict[str, Any] = Field(min_length=1, description="Fields to change (sets, reps, load, rest_sec, "
                                                              "hold_sec, duration_min…); never id or type.")


class RemoveInput(BaseModel):
    exercise_id: ExerciseRef = Field(description="The exercise id (ex_003) or its order number (3).")


class AddInput(BaseModel):
    exercise: Exercise = Field(description="The exercise to add (same schema as generate_workout's); its id is "
                                           "assigned and its order is set by position.")
    position: int | None = Field(None, ge=1, le=31, description="Where it goes (1 = first); default: the end.")


def _result(row: TrainerWorkout, result: WorkoutCheck, extra: dict | None = None) -> dict:
    exercises = exercises_of(row)
    out: dict[str, Any] = {"workoutId": row.workout_key, "exercises": brief(exercises),
                           "details": details(exercises, result)}
    if result.warnings:
        out["warnings"] = [w.message for w in result.warnings]
    return {**out, **(extra or {})}


@workout.agent_tool(action="generate_workout", input=Workout, roles=MEMBER, side_effects="write",
                    summary="Build the member's workout from the exercise library (library names; unknown names are "
                            "refused with the nearest ones): exercises of type reps, hold, duration or intervals with "
                            "muscles and goals shares (each summing to 1), equipment the library's at the current "
                            "location, "
                            "loads in the member's unit, warm-up first, compound lifts before isolation, cool-down "
                            "last. Injuries and never-rules are enforced. Stored as the current workout; ids are "
                            "assigned.",
                    artifact="workout")
async def generate(ctx: ToolContext, input: Workout) -> dict:
    member_id = await me(ctx)
    result = await check(ctx, member_id, input)
    prefs = await active_preferences(ctx.session, ctx.org_id, member_id, ctx.now)
    row = await save_workout(ctx.session, ctx.org_id, member_id, input, now=ctx.now, session_id=session_uuid(ctx))
    consumed = await consume_after_generation(ctx.session, ctx.org_id, member_id, ctx.now)
    extra: dict[str, Any] = {}
    if soft := [p for p in prefs if not p.enforced]:
        extra["honour"] = [f"{p.type}: {p.guidance}" for p in soft]
    if consumed:
        extra["consumedPreferences"] = [str(i) for i in consumed]
    return _result(row, result, extra)


@workout.agent_tool(action="swap_exercise", input=SwapInput, roles=MEMBER, side_effects="write",
                    summary="Replace one exercise of the current workout (by id or order number).",
                    artifact="workout")
async def swap(ctx: ToolContext, input: SwapInput) -> dict:
    row, result, old = await changes.swap_exercise(ctx.session, ctx.org_id, await me(ctx), input.exercise_id,
                                                   input.new_exercise, now=ctx.now)
    new = next(e for e in exercises_of(row) if e.id == old.id)
    return _result(row, result, {"swapped": f"{old.name} → {new.name}"})


@workout.agent_tool(action="adjust_exercise", input=AdjustInput, roles=MEMBER, side_effects="write",
                    summary="Change fields of one exercise of the current workout (by id or order number); "
                            "id and type cannot change (swap instead).",
                    artifact="workout")
async def adjust(ctx: ToolContext, input: AdjustInput) -> dict:
    row, result, target = await changes.adjust_exercise(ctx.session, ctx.org_id, await me(ctx), input.exercise_id,
                                                        changes.ExerciseChanges.parse(input.changes), now=ctx.now)
    return _result(row, result, {"adjusted": target})


@workout.agent_tool(action="remove_exercise", input=RemoveInput, roles=MEMBER, side_effects="write",
                    summary="Remove one exercise from the current workout (by id or order number); sets logged for "
                            "it are undone with it.",
                    artifact="workout")
async def remove(ctx: ToolContext, input: RemoveInput) -> dict:
    row, result, gone = await changes.remove_exercise(ctx.session, ctx.org_id, await me(ctx), input.exercise_id,
                                                      now=ctx.now)
    return _result(row, result, {"removed": f"{gone.id} {gone.name}"})


@workout.agent_tool(action="add_exercise_to_workout", input=AddInput, roles=MEMBER, side_effects="write",
                    summary="Add one exercise to the current workout at a position (default: the end); the same "
                            "rules as generate_workout apply to it.",
                    artifact="workout")
async def add(ctx: ToolContext, input: AddInput) -> dict:
    row, result, new_id = await changes.add_exercise(ctx.session, ctx.org_id, await me(ctx), input.exercise,
                                                     input.position, now=ctx.now)
    return _result(row, result, {"added": f"{new_id} {input.exercise.name}", "addedId": new_id})
