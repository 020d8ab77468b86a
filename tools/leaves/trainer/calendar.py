"""calendar: the member's scheduled workouts and multi-week plans (001 §4.7). A scheduled workout may carry its
pre-planned exercises (§4.9, checked against the injuries and hard preferences active when it happens, the
member's units and the exercise order); a plan schedules its workouts. Scheduling can be undone (its inverse
deletes it); deleting waits for the member's confirmation."""

from __future__ import annotations

import uuid
from datetime import datetime, time
from typing import Any, Literal

from pydantic import BaseModel, Field

from gym.training.schedule import (
    create_plan,
    delete_scheduled_workout,
    get_scheduled,
    plan_dict,
    schedule_workout,
    scheduled_dict,
    update_scheduled_workout,
)
from gym.training.workout import MAX_EXERCISES, Exercise
from gym.training.workout_check import check_planned_exercises
from tools import observations
from tools.context import ToolContext
from tools.dates import ToolDate
from tools.leaves.trainer.member import MEMBER, me
from tools.registry import Audit, Inverse, ToolRouter, by_id

calendar = ToolRouter("calendar")
Day = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
EXERCISES = ("Optional pre-planned exercises (the generate_workout schema: order 1..n); checked against the "
             "injuries and never-rules active on that date.")


class ScheduleInput(BaseModel):
    scheduled_at: datetime = Field(description="ISO 8601 with offset.")
    workout_type: str = Field(min_length=1, max_length=100, description='e.g. "Upper body strength".')
    duration_minutes: int | None = Field(None, ge=1, le=600)
    notes: str | None = Field(None, max_length=1000)
    exercises: list[Exercise] = Field(default_factory=list, max_length=MAX_EXERCISES, description=EXERCISES)


class UpdateScheduleInput(BaseModel):
    id: uuid.UUID
    scheduled_at: datetime | None = None
    workout_type: str | None = Field(None, min_length=1, max_length=100)
    duration_minutes: int | None = Field(None, ge=1, le=600)
    notes: str | None = Field(None, max_length=1000)
    status: Literal["scheduled", "completed", "skipped", "cancelled"] | None = None
    exercises: list[Exercise] | None = Field(None, max_length=MAX_EXERCISES, description="Replaces the exercises. "
                                                                                         + EXERCISES)


class DeleteScheduleInput(BaseModel):
    id: uuid.UUID


class PlanInput(BaseModel):
    name: str = Field(min_length=1, max_length=200)
    start_date: ToolDate
    duration_weeks: int = Field(ge=1, le=52)
    goal_description: str | None = Field(None, max_length=500)
    workouts_per_week: int | None = Field(None, ge=1, le=14, description="Without preferred_days they are spread "
                                                                        "over the week; default 3.")
    preferred_days: list[Day] = Field(default_factory=list, max_length=7)
    time_of_day: time = Field(time(18, 0), description='Local time of every session, "HH:MM" (default 18:00).')
    session_types: list[str] = Field(default_factory=list, max_length=7, description=(
        'Workout types the sessions rotate through, e.g. ["Upper body", "Lower body"] (default: the plan name).'))
    duration_minutes: int | None = Field(None, ge=1, le=600)


@calendar.agent_tool(action="schedule_workout", input=ScheduleInput, roles=MEMBER, side_effects="write",
                     audit=Audit("scheduled_workout", "trainer.schedule.create"),
                     inverse=Inverse("calendar", "delete_scheduled_workout", by_id),
                     summary="Schedule a workout for the member at a date and time, optionally with its exercises.",
                     observe=observations.ok_with_id)
async def schedule(ctx: ToolContext, input: ScheduleInput) -> dict:
    member_id = await me(ctx)
    exercises = await check_planned_exercises(ctx.session, ctx.org_id, member_id, input.exercises,
                                              at=input.scheduled_at)
    row = await schedule_workout(ctx.session, ctx.org_id, member_id, now=ctx.now,
                                 **input.model_dump(exclude={"exercises"}), exercises=exercises)
    return scheduled_dict(row)


@calendar.agent_tool(action="update_scheduled_workout", input=UpdateScheduleInput, roles=MEMBER, side_effects="write",
                     summary="Move, rename, re-plan the exercises of, or mark (completed, skipped, cancelled) a "
                             "scheduled workout by id.",
                     observe=observations.ok_with_id)
async def update(ctx: ToolContext, input: UpdateScheduleInput) -> dict:
    member_id = await me(ctx)
    changes: dict[str, Any] = input.model_dump(exclude_none=True, exclude={"id", "exercises"})
    if input.exercises is not None:
        at = input.scheduled_at or (await get_scheduled(ctx.session, ctx.org_id, member_id, input.id)).scheduled_at
        changes["exercises"] = await check_planned_exercises(ctx.session, ctx.org_id, member_id, input.exercises,
                                                             at=at)
    row = await update_scheduled_workout(ctx.session, ctx.org_id, member_id, input.id, now=ctx.now, **changes)
    return scheduled_dict(row)


@calendar.agent_tool(action="delete_scheduled_workout", input=DeleteScheduleInput, roles=MEMBER,
                     side_effects="write", confirm="destructive",
                     audit=Audit("scheduled_workout", "trainer.schedule.delete"),
                     summary="Delete a scheduled workout by id (the member confirms first).",
                     observe=observations.confirmed)
async def delete(ctx: ToolContext, input: DeleteScheduleInput) -> dict:
    await delete_scheduled_workout(ctx.session, ctx.org_id, await me(ctx), input.id)
    return {"id": str(input.id), "deleted": True}


@calendar.agent_tool(action="create_workout_plan", input=PlanInput, roles=MEMBER, side_effects="write",
                     summary="Create a multi-week workout plan and schedule its workouts (preferred days or a "
                             "count per week, at one time of day, rotating session types).",
                     observe=observations.ok_with_id)
async def plan(ctx: ToolContext, input: PlanInput) -> dict:
    row, sessions = await create_plan(
        ctx.session, ctx.org_id, await me(ctx), now=ctx.now, tz=ctx.tz, at=input.time_of_day,
        **input.model_dump(exclude={"time_of_day"}))
    return {**plan_dict(row), "scheduled": {"count": len(sessions), "first": sessions[0].scheduled_at.isoformat(),
                                            "last": sessions[-1].scheduled_at.isoformat(),
                                            "types": list(dict.fromkeys(s.workout_type for s in sessions))}}
