"""read.member_training: one member's training record for staff (TRAINER.md "Staff side").

Goals with target / actual / debt (percent, over the last 28 days), active injuries and preferences, the
last 14 days of logs, upcoming scheduled workouts (the trainer's and published coach assignments) and
milestones, all computed by `gym.training.record`. A separate leaf of the `read` router.
"""

from __future__ import annotations

import uuid

from pydantic import BaseModel, Field

from gym.training.record import member_training as training_record
from tools.context import ToolContext
from tools.registry import HEALTH_DATA, ToolRouter

member_training = ToolRouter("read")


class MemberTrainingInput(BaseModel):
    membershipId: uuid.UUID = Field(description="Member id from read__members_search (the spec calls it "
                                                "membershipId).")


@member_training.agent_tool(
    action="member_training",
    summary="One member's personal-trainer record by membershipId: category and muscle goals with target, actual "
            "and debt in percent over the last 28 days (debt > 0 = under-trained), active injuries and preferences, "
            "the last 14 days of logged exercises (loads in the member's unit), recovering muscles, current "
            "location, upcoming scheduled workouts and milestones.",
    input=MemberTrainingInput, roles=HEALTH_DATA)
async def member_training_tool(ctx: ToolContext, input: MemberTrainingInput) -> dict:
    return await training_record(ctx.session, ctx.org_id, input.membershipId, ctx.now, today=ctx.local_now.date())
