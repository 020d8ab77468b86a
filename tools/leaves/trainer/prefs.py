"""prefs: the member's preferences (001 §4.4 types); temporary ones expire, one-shot ones go after the next
generated workout. Setting one can be undone (its inverse deletes it)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from gym.training.preferences import as_pref, delete_preference, pref_dict, set_preference
from tools.context import ToolContext
from tools.leaves.trainer.member import MEMBER, me
from tools.registry import Audit, Inverse, ToolRouter, by_id

prefs = ToolRouter("prefs")
PreferenceType = Literal["workout", "injury", "time", "equipment", "intensity", "muscle_group", "exercise", "goal",
                         "recovery", "other"]


class SetPreferenceInput(BaseModel):
    type: PreferenceType
    description: str = Field(min_length=1, max_length=300, description="What the member said, briefly.")
    guidance: str = Field(min_length=1, max_length=500, description="How workouts must honour it.")
    expires_at: datetime | None = Field(None, description="ISO 8601 with offset; omit for a permanent preference.")
    delete_after_use: bool = Field(False, description="True for a one-time request (gone after the next workout).")


class DeletePreferenceInput(BaseModel):
    id: uuid.UUID


@prefs.agent_tool(action="set_preference", input=SetPreferenceInput, roles=MEMBER, side_effects="write",
                  audit=Audit("member_preference", "trainer.preference.set"),
                  inverse=Inverse("prefs", "delete_preference", by_id),
                  summary="Save a member preference or injury (temporary with expires_at, one-time with "
                          "delete_after_use).")
async def set_pref(ctx: ToolContext, input: SetPreferenceInput) -> dict:
    row = await set_preference(ctx.session, ctx.org_id, await me(ctx), now=ctx.now, **input.model_dump())
    return pref_dict(as_pref(row))


@prefs.agent_tool(action="delete_preference", input=DeletePreferenceInput, roles=MEMBER, side_effects="write",
                  audit=Audit("member_preference", "trainer.preference.delete"),
                  summary="Delete one of the member's preferences by id.")
async def delete_pref(ctx: ToolContext, input: DeletePreferenceInput) -> dict:
    await delete_preference(ctx.session, ctx.org_id, await me(ctx), input.id)
    return {"id": str(input.id), "deleted": True}
