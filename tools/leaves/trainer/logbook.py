"""logbook: what the member did. Loads and distances come in the member's units and are stored in kg / km.
A log keeps the reps each set reached and, for an exercise of the workout, what each set was prescribed, so
progression can tell a success from a miss. Marking an exercise done goes through the same service as the
member's app (gym.training.workout_sets), so the chat and the app write one record: without actuals, the sets the
app logged stand; with none logged, a uniform prescription (3×10) is logged as prescribed and the result says so,
an uneven one (10/8/8/6) needs the member's reps per set (or their word that they did exactly that). Logging can be
undone (its inverse marks the log undone, with its sets); completing every exercise of the current workout closes
it."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, Field

from gym.training.logs import LoggedExercise, log_exercise, undo_log
from gym.training.models import ExerciseLog, TrainerWorkout
from gym.training.movements import same_exercise
from gym.training.profiles import Units
from gym.training.stored_exercises import exercises_of, key_of
from gym.training.trainer_workouts import close_if_done, current_workout, finish_workout, mark_done
from gym.training.units import show_load, to_kg, to_km
from gym.training.vocab import ExerciseType
from gym.training.workout import Exercise, RepsExercise
from gym.training.workout_sets import Actuals, complete_exercise
from tools import observations
from tools.context import ToolContext
from tools.leaves.trainer.current import ExerciseRef, find_exercise, require_current
from tools.leaves.trainer.member import MEMBER, me, units
from tools.registry import Audit, Inverse, ToolRouter, by_id

logbook = ToolRouter("logbook")


SetReps = Annotated[int, Field(ge=1, le=1000)]


class LogInput(BaseModel):
    exercise_name: str = Field(min_length=1, max_length=120)
    exercise_type: ExerciseType
    sets: int | None = Field(None, ge=1, le=100)
    reps: int | None = Field(None, ge=1, le=1000, description="The reps of every set (when they were the same).")
    reps_per_set: list[SetReps] | None = Field(None, min_length=1, max_length=100,
                                               description="The reps each set reached, when they differ: [10, 8, 8, 6].")
    target_reps: list[SetReps] | None = Field(None, min_length=1, max_length=100,
                                              description="What each set was meant to reach, if the member says.")
    equipment: list[Annotated[str, Field(min_length=1, max_length=60)]] = Field(
        default_factory=list, max_length=10, description="Library equipment names.")
    load: float | None = Field(None, ge=0, le=2000, description="Per rep, in the member's weight unit.")
    duration_min: float | None = Field(None, gt=0, le=1440)
    distance: float | None = Field(None, gt=0, le=2000, description="In the member's distance unit.")
    rpe: float | None = Field(None, ge=1, le=10)
    muscles: list[str] = Field(default_factory=list, max_length=16, description="Muscles worked (the 16 names).")
    goals: list[str] = Field(default_factory=list, max_length=10, description="Goal categories it served.")
    notes: str | None = Field(None, max_length=1000)
    performed_at: datetime | None = Field(None, description="ISO 8601 with offset; default now.")


class UndoInput(BaseModel):
    id: uuid.UUID


class MarkInput(BaseModel):
    exercise_id: ExerciseRef = Field(description="The exercise id (ex_003) or its order number (3).")
    actuals: Actuals = Field(default_factory=Actuals, description="What was done: reps per set (or as_prescribed), "
                                                                  "load and RPE if they differ from the plan.")


class LogWorkoutInput(BaseModel):
    completed_exercises: list[LogInput] = Field(min_length=1, max_length=40)
    notes: str | None = Field(None, max_length=1000)


def _entry(data: dict[str, Any], u: Units) -> LoggedExercise:
    load, distance = data.pop("load", None), data.pop("distance", None)
    return LoggedExercise(**data, load_kg=None if load is None else round(to_kg(load, u.weight_unit), 2),
                          distance_km=None if distance is None else round(to_km(distance, u.distance_unit), 3))


def _of_current(data: dict[str, Any], current: TrainerWorkout | None) -> Exercise | None:
    """The exercise of the current workout this log is of: the same exercise, done since the workout was built."""
    when = data.get("performed_at")
    if current is None or (when is not None and (when.tzinfo is None or when < current.created_at)):
        return None
    return next((e for e in exercises_of(current) if same_exercise(e.name, data["exercise_name"])), None)


def _with_prescription(data: dict[str, Any], current: TrainerWorkout | None) -> dict[str, Any]:
    """A log of a reps exercise of the current workout, done since it was built, is measured against its
    prescription (target reps per set, equipment) unless the log says otherwise, so progression can tell a miss."""
    ex = _of_current(data, current)
    if not isinstance(ex, RepsExercise):
        return data
    if data.get("target_reps") is None:
        data["target_reps"] = list(ex.reps)
    if not data.get("equipment"):
        data["equipment"] = list(ex.equipment)
    return data


@logbook.agent_tool(action="log_completed_exercise", input=LogInput, roles=MEMBER, side_effects="write",
                    audit=Audit("exercise_log", "trainer.log.create"),
                    inverse=Inverse("logbook", "undo_logged_exercise", by_id),
                    summary="Log one exercise the member did (load and distance in the member's units).",
                    observe=observations.logged)
async def log_one(ctx: ToolContext, input: LogInput) -> dict:
    """An exercise of the current workout not yet done counts it done (the workout closes when every exercise
    is); undoing the log un-counts it and reopens a workout it closed."""
    member_id = await me(ctx)
    current = await current_workout(ctx.session, ctx.org_id, member_id)
    data = _with_prescription(input.model_dump(), current)
    ex = _of_current(data, current)
    counted = ex.id if current is not None and ex is not None and ex.id not in (current.completed or {}) else None
    row = await log_exercise(ctx.session, ctx.org_id, member_id, _entry(data, await units(ctx, member_id)),
                             now=ctx.now, workout_id=current.id if counted and current else None,
                             exercise_key=counted)
    out: dict[str, Any] = {"id": str(row.id), "logged": row.name}
    if counted and current is not None:
        mark_done(current, counted, row.id)
        remaining = await close_if_done(ctx.session, ctx.org_id, member_id, current, now=ctx.now)
        out |= {"exercise": counted, "remaining": remaining, "workoutCompleted": not remaining}
    return out


@logbook.agent_tool(action="undo_logged_exercise", input=UndoInput, roles=MEMBER, side_effects="write",
                    audit=Audit("exercise_log", "trainer.log.undo"),
                    summary="Undo a logged exercise by id (it stops counting everywhere).",
                    observe=observations.confirmed)
async def undo(ctx: ToolContext, input: UndoInput) -> dict:
    row = await undo_log(ctx.session, ctx.org_id, await me(ctx), input.id, now=ctx.now)
    return {"id": str(row.id), "undone": True}


@logbook.agent_tool(action="mark_exercise_complete", input=MarkInput, roles=MEMBER, side_effects="write",
                    summary="Mark one exercise of the current workout done (logs it with the reps each set reached; "
                            "an uneven prescription needs actuals.reps_per_set or as_prescribed); the workout closes "
                            "when every exercise is done.")
async def mark(ctx: ToolContext, input: MarkInput) -> dict:
    member_id = await me(ctx)
    u = await units(ctx, member_id)
    row = await require_current(ctx, member_id)
    exercises = exercises_of(row)
    exercise_id = key_of(exercises[find_exercise(exercises, input.exercise_id)])
    row, log, assumed = await complete_exercise(ctx.session, ctx.org_id, member_id, exercise_id, input.actuals,
                                                now=ctx.now)
    remaining = await close_if_done(ctx.session, ctx.org_id, member_id, row, now=ctx.now)
    out: dict[str, Any] = {"id": str(log.id), "exercise": exercise_id, "logged": _logged(log, u),
                           "remaining": remaining, "workoutCompleted": not remaining}
    if assumed:
        out["assumed"] = "prescription"
        out["note"] = (f"Logged as prescribed ({_logged(log, u)}) because no actuals were given; tell the member, "
                       "and log what they really did if it differed.")
    return out


def _logged(log: ExerciseLog, u: Units) -> str:
    """What was logged, in the member's unit: "3×10 at 40 kg" / "4 sets: 10/8/8/5 at 40 kg"."""
    reps = list(log.reps_per_set or ([log.reps] * (log.sets or 1) if log.reps else []))
    sets = f"{len(reps)}×{reps[0]}" if reps and len(set(reps)) == 1 else (
        f"{len(reps)} sets: {'/'.join(map(str, reps))}" if reps else f"{log.sets or 1} sets")
    load = show_load(log.load_kg, u.weight_unit)
    return sets if load is None else f"{sets} at {load:g} {u.weight_unit}"


@logbook.agent_tool(action="log_workout", input=LogWorkoutInput, roles=MEMBER, side_effects="write",
                    audit=Audit("exercise_log", "trainer.log.workout"),
                    summary="Log a whole finished workout at once; closes the current workout.")
async def log_workout(ctx: ToolContext, input: LogWorkoutInput) -> dict:
    member_id = await me(ctx)
    u = await units(ctx, member_id)
    current = await current_workout(ctx.session, ctx.org_id, member_id)
    ids = []
    for item in input.completed_exercises:
        data = _with_prescription(item.model_dump(), current)
        if input.notes and not data.get("notes"):
            data["notes"] = input.notes
        row = await log_exercise(ctx.session, ctx.org_id, member_id, _entry(data, u), now=ctx.now,
                                 workout_id=current.id if current else None)
        ids.append(str(row.id))
    if current is not None:
        await finish_workout(ctx.session, ctx.org_id, member_id, current.id, now=ctx.now)
    return {"ids": ids, "logged": len(ids), "workoutCompleted": current is not None}
