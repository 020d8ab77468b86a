"""logbook: what the member did. Loads and distances come in the member's units and are stored in kg / km.
Logging can be undone (its inverse marks the log undone); completing every exercise of the current workout
closes it."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from gym.training.logs import LoggedExercise, log_exercise, undo_log
from gym.training.profiles import Units
from gym.training.trainer_workouts import current_workout, finish_workout
from gym.training.units import to_kg, to_km
from gym.training.vocab import ExerciseType
from tools.context import ToolContext
from tools.leaves.trainer.current import ExerciseRef, find_exercise, require_current
from tools.leaves.trainer.member import MEMBER, me, units
from tools.registry import Audit, Inverse, ToolRouter, by_id

logbook = ToolRouter("logbook")


class LogInput(BaseModel):
    exercise_name: str = Field(min_length=1, max_length=120)
    exercise_type: ExerciseType
    sets: int | None = Field(None, ge=1, le=100)
    reps: int | None = Field(None, ge=1, le=1000)
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


class Actuals(BaseModel):
    sets: int | None = Field(None, ge=1, le=100)
    reps: int | None = Field(None, ge=1, le=1000)
    load: float | None = Field(None, ge=0, le=2000)
    duration_min: float | None = Field(None, gt=0, le=1440)
    distance: float | None = Field(None, gt=0, le=2000)
    rpe: float | None = Field(None, ge=1, le=10)


class MarkInput(BaseModel):
    exercise_id: ExerciseRef = Field(description="The exercise id (ex_003) or its order number (3).")
    actuals: Actuals = Field(default_factory=Actuals, description="What was done, if it differs from the plan.")


class LogWorkoutInput(BaseModel):
    completed_exercises: list[LogInput] = Field(min_length=1, max_length=40)
    notes: str | None = Field(None, max_length=1000)


def _entry(data: dict[str, Any], u: Units) -> LoggedExercise:
    load, distance = data.pop("load", None), data.pop("distance", None)
    return LoggedExercise(**data, load_kg=None if load is None else round(to_kg(load, u.weight_unit), 2),
                          distance_km=None if distance is None else round(to_km(distance, u.distance_unit), 3))


def _log_type(ex: dict[str, Any]) -> str:
    if ex["type"] == "reps":
        return "strength" if ex.get("load") is not None else "bodyweight"
    if ex["type"] == "hold":
        return "isometric"
    if ex["type"] == "intervals":
        return "hiit"
    return "cardio_distance" if ex.get("distance") is not None else "cardio_time"


def _planned(ex: dict[str, Any], u: Units) -> dict[str, Any]:
    """What the workout planned for one exercise, as a log in the member's units."""
    out: dict[str, Any] = {"exercise_name": ex["name"], "exercise_type": _log_type(ex),
                           "muscles": ex.get("muscles", []), "goals": ex.get("goals", [])}
    if ex["type"] in ("reps", "hold"):
        out["sets"] = ex["sets"]
    if ex["type"] == "reps":
        out["reps"] = max(ex["reps"])
        if ex.get("load") is not None:
            out["load"] = ex["load"]
    elif ex["type"] == "duration":
        out["duration_min"] = ex["duration_min"]
        if ex.get("distance") is not None:
            out["distance"] = ex["distance"]
    elif ex["type"] == "intervals":
        out["duration_min"] = round(ex["rounds"] * (ex["work_sec"] + ex["rest_sec"]) / 60, 2)
    return out


@logbook.agent_tool(action="log_completed_exercise", input=LogInput, roles=MEMBER, side_effects="write",
                    audit=Audit("exercise_log", "trainer.log.create"),
                    inverse=Inverse("logbook", "undo_logged_exercise", by_id),
                    summary="Log one exercise the member did (load and distance in the member's units).")
async def log_one(ctx: ToolContext, input: LogInput) -> dict:
    member_id = await me(ctx)
    row = await log_exercise(ctx.session, ctx.org_id, member_id, _entry(input.model_dump(), await units(ctx, member_id)),
                             now=ctx.now)
    return {"id": str(row.id), "logged": row.name}


@logbook.agent_tool(action="undo_logged_exercise", input=UndoInput, roles=MEMBER, side_effects="write",
                    audit=Audit("exercise_log", "trainer.log.undo"),
                    summary="Undo a logged exercise by id (it stops counting everywhere).")
async def undo(ctx: ToolContext, input: UndoInput) -> dict:
    row = await undo_log(ctx.session, ctx.org_id, await me(ctx), input.id, now=ctx.now)
    return {"id": str(row.id), "undone": True}


@logbook.agent_tool(action="mark_exercise_complete", input=MarkInput, roles=MEMBER, side_effects="write",
                    summary="Mark one exercise of the current workout done (logs it, with actuals if they differ); "
                            "the workout closes when every exercise is done.")
async def mark(ctx: ToolContext, input: MarkInput) -> dict:
    member_id = await me(ctx)
    u = await units(ctx, member_id)
    row = await require_current(ctx, member_id)
    ex = row.exercises[find_exercise(row.exercises, input.exercise_id)]
    data = {**_planned(ex, u), **input.actuals.model_dump(exclude_none=True)}
    log = await log_exercise(ctx.session, ctx.org_id, member_id, _entry(data, u), now=ctx.now, workout_id=row.id,
                             exercise_key=ex["id"])
    row.completed = {**(row.completed or {}), ex["id"]: str(log.id)}
    await ctx.session.flush()
    remaining = [e["id"] for e in row.exercises if e["id"] not in row.completed]
    if not remaining:
        await finish_workout(ctx.session, ctx.org_id, member_id, row.id, now=ctx.now)
    return {"id": str(log.id), "exercise": ex["id"], "remaining": remaining, "workoutCompleted": not remaining}


@logbook.agent_tool(action="log_workout", input=LogWorkoutInput, roles=MEMBER, side_effects="write",
                    audit=Audit("exercise_log", "trainer.log.workout"),
                    summary="Log a whole finished workout at once; closes the current workout.")
async def log_workout(ctx: ToolContext, input: LogWorkoutInput) -> dict:
    member_id = await me(ctx)
    u = await units(ctx, member_id)
    current = await current_workout(ctx.session, ctx.org_id, member_id)
    ids = []
    for item in input.completed_exercises:
        data = item.model_dump()
        if input.notes and not data.get("notes"):
            data["notes"] = input.notes
        row = await log_exercise(ctx.session, ctx.org_id, member_id, _entry(data, u), now=ctx.now,
                                 workout_id=current.id if current else None)
        ids.append(str(row.id))
    if current is not None:
        await finish_workout(ctx.session, ctx.org_id, member_id, current.id, now=ctx.now)
    return {"ids": ids, "logged": len(ids), "workoutCompleted": current is not None}
