"""forms: who still owes which form (waiver, PAR-Q, health declaration, custom); read only."""

from __future__ import annotations

import uuid
from datetime import date
from typing import Literal

from pydantic import AliasChoices, BaseModel, Field

from core.member_text import MemberName
from gym import forms as service
from gym import members
from gym.periods import local_today
from tools.context import ToolContext
from tools.errors import not_found
from tools.registry import STAFF, ToolRouter

forms = ToolRouter("forms")
TypeKey = Literal["waiver", "parq", "health", "custom"]


class PendingInput(BaseModel):
    typeKey: TypeKey | None = Field(None, description="Only forms of this type (parq = PAR-Q health questionnaire).")
    limit: int = Field(50, ge=1, le=100)


class PendingOut(BaseModel):
    id: uuid.UUID = Field(description="The form assignment id.")
    formName: str
    typeKey: str
    memberId: uuid.UUID
    memberName: MemberName
    assignedOn: date
    dueOn: date | None = None
    overdue: bool


class PendingList(BaseModel):
    count: int = Field(description="All pending assignments (the list is capped by limit).")
    overdue: int
    assignments: list[PendingOut]


@forms.agent_tool(action="list_pending_for_org",
                  summary="Forms members still have to fill (pending assignments), soonest due first, with how many "
                          "are overdue; optionally one type (waiver, parq, health, custom).",
                  input=PendingInput, roles=STAFF,
                  loaded=True)
async def list_pending_for_org(ctx: ToolContext, input: PendingInput) -> PendingList:
    today = local_today(ctx.tz, ctx.now)
    found = await service.list_pending_for_org(ctx.session, ctx.org_id, type_key=input.typeKey, today=today,
                                               limit=input.limit)
    return PendingList(count=found["count"], overdue=found["overdue"], assignments=[
        PendingOut(id=a["id"], formName=a["form_name"], typeKey=a["type_key"], memberId=a["member_id"],
                   memberName=a["full_name"], assignedOn=a["assigned_at"].astimezone(ctx.tz).date(),
                   dueOn=a["due_on"], overdue=a["due_on"] is not None and a["due_on"] < today)
        for a in found["assignments"]])


class ComplianceInput(BaseModel):
    memberId: uuid.UUID = Field(validation_alias=AliasChoices("memberId", "membershipId"),
                                description="Member id from read__members_search (also accepted as membershipId).")


class TypeStatus(BaseModel):
    status: str = Field(description="completed | pending | expired | missing (never assigned).")
    required: bool = Field(description="False when the gym has no active form of this type.")
    formName: str | None = None
    dueOn: date | None = None
    completedOn: date | None = None


class Compliance(BaseModel):
    memberId: uuid.UUID
    memberName: MemberName
    compliant: bool = Field(description="Every required form type is completed.")
    outstanding: list[str] = Field(description="Required form types not completed.")
    byType: dict[str, TypeStatus]


@forms.agent_tool(action="compliance_status_for_member",
                  summary="A member's form compliance per type (waiver, parq, health, custom): completed, pending, "
                          "expired or missing, and whether the gym requires it.",
                  input=ComplianceInput, roles=STAFF)
async def compliance_status_for_member(ctx: ToolContext, input: ComplianceInput) -> Compliance:
    found = await service.compliance_status_for_member(ctx.session, ctx.org_id, input.memberId)
    member = await members.get_member(ctx.session, ctx.org_id, input.memberId)
    if found is None or member is None:
        raise not_found("member", input.memberId)
    by_type = {key: TypeStatus(status=s["status"], required=s["required"], formName=s["form_name"],
                               dueOn=s["due_on"],
                               completedOn=s["completed_at"].astimezone(ctx.tz).date() if s["completed_at"] else None)
               for key, s in found["by_type"].items()}
    return Compliance(memberId=input.memberId, memberName=member.full_name, compliant=found["compliant"],
                      outstanding=[k for k, s in by_type.items() if s.required and s.status != "completed"],
                      byType=by_type)
