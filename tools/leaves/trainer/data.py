"""data: load more of the member's record into the context (appended as knowledge by the trainer loop)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from tools import observations
from tools.context import ToolContext
from tools.errors import ToolFailed
from tools.leaves.trainer.member import MEMBER, me
from tools.leaves.trainer.sources import SOURCES, load, params_for
from tools.registry import ToolRouter

data = ToolRouter("data")

SourceName = Literal["user_profile", "user_settings", "category_goals", "muscle_goals", "active_preferences",
                     "workout_history", "recovery_status", "progression", "current_location", "all_locations",
                     "current_workout", "scheduled_workouts", "workout_plans", "milestone_goals", "nutrition_plan"]


class SourceParams(BaseModel):
    days_back: int | None = Field(None, ge=1, le=365)
    days_ahead: int | None = Field(None, ge=1, le=365)
    status: str | None = Field(None, max_length=20)


class FetchInput(BaseModel):
    sources: dict[SourceName, SourceParams] = Field(min_length=1, description="Source name → parameters.")


@data.agent_tool(action="fetch_data", input=FetchInput, roles=MEMBER,
                 summary="Load data sources about the member into the context: " + ", ".join(SOURCES)
                         + ". workout_history takes days_back (default 14), scheduled_workouts days_ahead (7).",
                 artifact="knowledge", observe=observations.sources_in_context)
async def fetch_data(ctx: ToolContext, input: FetchInput) -> dict:
    member_id = await me(ctx)
    loaded = {}
    for name, given in input.sources.items():
        params = params_for(name, given.model_dump(exclude_none=True))
        try:
            loaded[name] = {"params": params, "data": await load(ctx.session, ctx.org_id, member_id, name, params,
                                                                 ctx.now, ctx.tz)}
        except KeyError as exc:
            raise ToolFailed("unknown_source", f"No data source {name}.") from exc
    return {"sources": loaded}
