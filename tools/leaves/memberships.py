"""memberships: freeze ↺ unfreeze a member's membership (owner, admin, front desk; always confirmed).

Thin leaves over gym.freezes, where the rules live; days are the gym's local days.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field, model_validator

from core.member_text import MemberName
from gym import freezes as service
from gym.periods import local_today
from tools import desk_summaries
from tools.context import ToolContext
from tools.dates import ToolDate
from tools.registry import Audit, Inverse, ToolRouter

memberships = ToolRouter("memberships")
DESK = frozenset({"owner", "admin", "front_desk"})


class FreezeInput(BaseModel):
    memberId: uuid.UUID = Field(description="Member id from read__members_search.")
    from_: ToolDate | None = Field(None, alias="from", description="First frozen local day (YYYY-MM-DD); default "
                                                                 "today.")
    to: ToolDate | None = Field(None, description="Last frozen local day (YYYY-MM-DD), inclusive; or give days.")
    days: int | None = Field(None, ge=1, le=service.MAX_FREEZE_DAYS,
                             description="Length in days instead of 'to' (two weeks = 14).")
    reason: str | None = Field(None, max_length=300, description="Why, in the user's words (travel, injury...).")

    model_config = {"populate_by_name": True}

    @model_validator(mode="after")
    def _one_end(self) -> FreezeInput:
        if (self.to is None) == (self.days is None):
            raise ValueError("give exactly one of 'to' or 'days'")
        return self


class FreezeOut(BaseModel):
    id: uuid.UUID
    memberId: uuid.UUID
    member: MemberName
    status: str = Field(description="The member's status now (frozen once the freeze has started).")
    from_: dt.date = Field(alias="from")
    to: dt.date
    days: int
    reason: str | None = None
    unfrozen: bool = False
    refreezeFrom: dt.date | None = Field(None, description="For an undo of an unfreeze: the first day to freeze "
                                                           "again.")

    model_config = {"populate_by_name": True}


def _out(row: service.MembershipFreeze, member, today: dt.date) -> FreezeOut:
    return FreezeOut(id=row.id, memberId=member.id, member=member.full_name, status=member.status,
                     from_=row.starts_on, to=row.ends_on, days=(row.ends_on - row.starts_on).days + 1,
                     reason=row.reason, unfrozen=row.unfrozen_at is not None,
                     refreezeFrom=max(row.starts_on, today) if row.unfrozen_at is not None else None)


def _unfreeze_input(output: Mapping[str, Any]) -> dict[str, Any]:
    return {"memberId": output["memberId"]}


def _refreeze_input(output: Mapping[str, Any]) -> dict[str, Any]:
    return {"memberId": output["memberId"], "from": output.get("refreezeFrom") or output["from"],
            "to": output["to"], "reason": output.get("reason")}


@memberships.agent_tool(
    action="freeze",
    summary="Freeze a member's membership from a local day (default today) to a last day or for a number of days, "
            "with the reason. While frozen they cannot book or check in. Always asks the user first. Undoable "
            "(unfreeze).",
    input=FreezeInput, roles=DESK, side_effects="write", confirm="always",
    audit=Audit("membership_freeze", "membership.freeze"), inverse=Inverse("memberships", "unfreeze", _unfreeze_input),
    describe=desk_summaries.freeze)
async def freeze(ctx: ToolContext, input: FreezeInput) -> FreezeOut:
    today = local_today(ctx.tz, ctx.now)
    first = input.from_ or today
    last = input.to or first + dt.timedelta(days=(input.days or 1) - 1)
    row, member = await service.freeze(ctx.session, ctx.org_id, input.memberId, starts_on=first, ends_on=last,
                                       reason=input.reason, today=today, created_by=ctx.caller.user_id, tz=ctx.tz,
                                       now=ctx.now)
    return _out(row, member, today)


class UnfreezeInput(BaseModel):
    memberId: uuid.UUID = Field(description="Member id from read__members_search.")


@memberships.agent_tool(
    action="unfreeze",
    summary="Lift a member's freeze now (the one that holds today, else the next one); their status comes back. "
            "Always asks the user first. Undoable (freezes again to the same last day).",
    input=UnfreezeInput, roles=DESK, side_effects="write", confirm="always",
    audit=Audit("membership_freeze", "membership.unfreeze"), inverse=Inverse("memberships", "freeze", _refreeze_input),
    describe=desk_summaries.unfreeze)
async def unfreeze(ctx: ToolContext, input: UnfreezeInput) -> FreezeOut:
    today = local_today(ctx.tz, ctx.now)
    row, member = await service.unfreeze(ctx.session, ctx.org_id, input.memberId, today=today, now=ctx.now,
                                         created_by=ctx.caller.user_id)
    return _out(row, member, today)
