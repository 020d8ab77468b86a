"""location: which of the member's locations is current (its equipment bounds generated workouts)."""

from __future__ import annotations

import uuid

from pydantic import BaseModel, Field, model_validator

from gym.training.profiles import location_dict, set_current_location
from tools.context import ToolContext
from tools.leaves.trainer.member import MEMBER, me
from tools.registry import ToolRouter

location = ToolRouter("location")


class SetLocationInput(BaseModel):
    location_id: uuid.UUID | None = None
    location_name: str | None = Field(None, min_length=1, max_length=120, description="Case-insensitive.")

    @model_validator(mode="after")
    def _one(self) -> SetLocationInput:
        if (self.location_id is None) == (self.location_name is None):
            raise ValueError("give location_id or location_name")
        return self


@location.agent_tool(action="set_current_location", input=SetLocationInput, roles=MEMBER, side_effects="write",
                     summary="Make one of the member's locations current, by id or name (case-insensitive).")
async def set_location(ctx: ToolContext, input: SetLocationInput) -> dict:
    row = await set_current_location(ctx.session, ctx.org_id, await me(ctx), location_id=input.location_id,
                                     name=input.location_name)
    return location_dict(row)
