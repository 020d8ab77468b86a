"""read.member_training: one member's training record for staff (TRAINER.md "Staff side").

Goals with target / actual / debt (percent, over the last 28 days), active injuries and preferences, the
last 14 days of logs, upcoming scheduled workouts (the trainer's and published coach assignments) and
milestones, all computed by `gym.training.record`. A separate leaf of the `read` router.
"""

from __future__ import annotations

import uuid

from pydantic import BaseModel, Field

from core.member_text import EACH, Marks
from gym.training.record import member_training as training_record
from tools.context import ToolContext
from tools.registry import HEALTH_DATA, ToolRouter

member_training = ToolRouter("read")


_PREFERENCE: Marks = {"description": "preference", "guidance": "preference"}
# Where the record (gym.training.record.member_training) carries what the member wrote (core/member_text.py).
TRAINING_RECORD: Marks = {"member": {"name": "member_name"}, "injuries": {EACH: {"description": "injury", "guidance": "injury"}},
                   "preferences": {EACH: _PREFERENCE}, "recentLogs": {"items": {EACH: {"notes": "workout_comment"}}},
                   "currentLocation": {"name": "location_name"}, "milestones": {EACH: {"name": "milestone"}}}


class MemberTrainingInput(BaseModel):
    membershipId: uuid.UUID = Field(description="Member id from read__members_search (the spec calls it "
                                                "membershipId).")


@member_training.agent_tool(
    action="member_training",
    summary="One member's personal-trainer record by membershipId: category and muscle goals with target, actual "
            "and debt in percent over the last 28 days (debt > 0 = under-trained), active injuries and preferences, "
            "the last 14 days of logged exercises (loads in the member's unit), recovering muscles, current "
            "location, upcoming scheduled workouts and milestones.",
    input=MemberTrainingInput, roles=HEALTH_DATA, member_text=TRAINING_RECORD,
                            loaded=True)
async def member_training_tool(ctx: ToolContext, input: MemberTrainingInput) -> dict:
    return await training_record(ctx.session, ctx.org_id, input.membershipId, ctx.now, today=ctx.local_now.date())
