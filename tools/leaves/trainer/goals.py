"""goals: the member's category / muscle goal weights (normalized to 100) and milestone goals."""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import BaseModel, Field

from gym.training.goals import (
    create_milestone,
    milestone_dict,
    set_category_goals,
    set_muscle_goals,
    update_milestone,
)
from tools.context import ToolContext
from tools.dates import ToolDate
from tools.leaves.trainer.member import MEMBER, me
from tools.registry import ToolRouter

goals = ToolRouter("goals")
MilestoneType = Literal["distance", "weight", "time", "event", "other"]


class GoalWeight(BaseModel):
    name: str = Field(min_length=1, max_length=100, description="Category (Strength…) or one of the 16 muscles.")
    weight: float = Field(gt=0, le=1000, description="Relative weight; all are normalized to 100.")
    description: str | None = Field(None, max_length=300)


class SetGoalsInput(BaseModel):
    goal_type: Literal["category", "muscle"]
    goals: list[GoalWeight] = Field(min_length=1, max_length=20)


class CreateMilestoneInput(BaseModel):
    name: str = Field(min_length=1, max_length=200)
    goal_type: MilestoneType
    target_value: float | None = None
    target_unit: str | None = Field(None, max_length=50)
    target_date: ToolDate | None = None
    current_value: float | None = None


class UpdateMilestoneInput(BaseModel):
    id: uuid.UUID
    current_value: float | None = None
    target_value: float | None = None
    target_date: ToolDate | None = None
    status: Literal["active", "achieved", "abandoned"] | None = None


@goals.agent_tool(action="set_goals", input=SetGoalsInput, roles=MEMBER, side_effects="write",
                  summary="Replace the member's category or muscle goals; weights are normalized to 100.")
async def set_goals(ctx: ToolContext, input: SetGoalsInput) -> dict:
    member_id = await me(ctx)
    if input.goal_type == "category":
        rows = await set_category_goals(ctx.session, ctx.org_id, member_id,
                                        [(g.name, g.description, g.weight) for g in input.goals])
        return {"goals": {r.name: round(float(r.weight) * 100, 1) for r in rows}}
    muscle_rows = await set_muscle_goals(ctx.session, ctx.org_id, member_id, {g.name: g.weight for g in input.goals})
    return {"goals": {r.muscle: round(float(r.weight) * 100, 1) for r in muscle_rows}}


@goals.agent_tool(action="create_milestone", input=CreateMilestoneInput, roles=MEMBER, side_effects="write",
                  summary="Create a milestone goal (distance, weight, time, event or other).")
async def create(ctx: ToolContext, input: CreateMilestoneInput) -> dict:
    row = await create_milestone(ctx.session, ctx.org_id, await me(ctx), **input.model_dump())
    return milestone_dict(row)


@goals.agent_tool(action="update_milestone", input=UpdateMilestoneInput, roles=MEMBER, side_effects="write",
                  summary="Update a milestone's progress, target or status by id.")
async def update(ctx: ToolContext, input: UpdateMilestoneInput) -> dict:
    changes = input.model_dump(exclude_none=True, exclude={"id"})
    row = await update_milestone(ctx.session, ctx.org_id, await me(ctx), input.id, now=ctx.now, **changes)
    return milestone_dict(row)
