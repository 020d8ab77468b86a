"""calendar: the member's scheduled workouts and multi-week plans (001 §4.7). Scheduling can be undone (its
inverse deletes it); deleting waits for the member's confirmation."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from gym.training.schedule import (
    create_plan,
    delete_scheduled_workout,
    plan_dict,
    schedule_workout,
    scheduled_dict,
    update_scheduled_workout,
)
from tools.context import ToolContext
from tools.dates import ToolDate
from tools.leaves.trainer.member import MEMBER, me
from tools.registry import Audit, Inverse, ToolRouter, by_id

calendar = ToolRouter("calendar")
Day = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


class ScheduleInput(BaseModel):
    scheduled_at: datetime = Field(description="ISO 8601 with offset.")
    workout_type: str = Field(min_length=1, max_length=100, description='e.g. "Upper body strength".')
    duration_minutes: int | None = Field(None, ge=1, le=600)
    notes: str | None = Field(None, max_length=1000)


class UpdateScheduleInput(BaseModel):
    id: uuid.UUID
    scheduled_at: datetime | None = None
    workout_type: str | None = Field(None, min_length=1, max_length=100)
    duration_minutes: int | None = Field(None, ge=1, le=600)
    notes: str | None = Field(None, max_length=1000)
    status: Literal["scheduled", "completed", "skipped", "cancelled"] | None = None


class DeleteScheduleInput(BaseModel):
    id: uuid.UUID


class PlanInput(BaseModel):
    name: str = Field(min_length=1, max_length=200)
    start_date: ToolDate
    duration_weeks: int = Field(ge=1, le=52)
    goal_description: str | None = Field(None, max_length=500)
    workouts_per_week: int | None = Field(None, ge=1, le=14)
    preferred_days: list[Day] = Field(default_factory=list, max_length=7)


@calendar.agent_tool(action="schedule_workout", input=ScheduleInput, roles=MEMBER, side_effects="write",
                     audit=Audit("scheduled_workout", "trainer.schedule.create"),
                     inverse=Inverse("calendar", "delete_scheduled_workout", by_id),
                     summary="Schedule a workout for the member at a date and time.")
async def schedule(ctx: ToolContext, input: ScheduleInput) -> dict:
    row = await schedule_workout(ctx.session, ctx.org_id, await me(ctx), now=ctx.now, **input.model_dump())
    return scheduled_dict(row)


@calendar.agent_tool(action="update_scheduled_workout", input=UpdateScheduleInput, roles=MEMBER, side_effects="write",
                     summary="Move, rename or mark (completed, skipped, cancelled) a scheduled workout by id.")
async def update(ctx: ToolContext, input: UpdateScheduleInput) -> dict:
    row = await update_scheduled_workout(ctx.session, ctx.org_id, await me(ctx), input.id, now=ctx.now,
                                         **input.model_dump(exclude_none=True, exclude={"id"}))
    return scheduled_dict(row)


@calendar.agent_tool(action="delete_scheduled_workout", input=DeleteScheduleInput, roles=MEMBER,
                     side_effects="write", confirm="destructive",
                     audit=Audit("scheduled_workout", "trainer.schedule.delete"),
                     summary="Delete a scheduled workout by id (the member confirms first).")
async def delete(ctx: ToolContext, input: DeleteScheduleInput) -> dict:
    await delete_scheduled_workout(ctx.session, ctx.org_id, await me(ctx), input.id)
    return {"id": str(input.id), "deleted": True}


@calendar.agent_tool(action="create_workout_plan", input=PlanInput, roles=MEMBER, side_effects="write",
                     summary="Create a multi-week workout plan (name, start date, weeks, days).")
async def plan(ctx: ToolContext, input: PlanInput) -> dict:
    row = await create_plan(ctx.session, ctx.org_id, await me(ctx), **input.model_dump())
    return plan_dict(row)
