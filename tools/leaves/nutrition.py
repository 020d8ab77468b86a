"""nutrition: the staff side of the nutrition pipeline (NUTRITION.md "Staff and trainer tools"): start a
run (confirm: always), read the current plan, submit a weekly check-in, record a medical clearance
(owner, admin; confirm: always; audited). The pipeline sits above tools, so these call its port in core."""

from __future__ import annotations

import uuid
from typing import Any

from pydantic import BaseModel, Field

from core.nutrition_port import nutrition_port
from tools.context import ToolContext
from tools.registry import HEALTH_DATA, OWNER_ADMIN, Audit, ToolRouter

nutrition = ToolRouter("nutrition")
MEMBER = "Member id (membershipId) from read__members_search."


class StartRunInput(BaseModel):
    membershipId: uuid.UUID = Field(description=MEMBER)
    intake: dict[str, Any] = Field(description=(
        "The intake (spec 004 §4.1 canonical names): sex, age, height_cm, current_weight_kg, target_weight_kg, "
        "training_phase, avg_daily_steps, training_experience, appetite_level, menstrual_status, "
        "medical_history, ... Ask the user for what you do not know; never guess numbers."))


class RunStarted(BaseModel):
    id: str
    state: str
    version: int


@nutrition.agent_tool(action="start_run", summary="Start a nutrition and training plan run for a member from their "
                      "intake. The run continues in the background. Needs the user's confirmation.",
                      input=StartRunInput, roles=HEALTH_DATA, side_effects="write", confirm="always",
                      audit=Audit("nutrition_run", "nutrition.run.start"))
async def start_run(ctx: ToolContext, input: StartRunInput) -> RunStarted:
    out = await nutrition_port().start_run(ctx.session, ctx.org_id, input.membershipId, input.intake,
                                           started_by=ctx.caller.user_id)
    return RunStarted.model_validate(out)


class MemberInput(BaseModel):
    membershipId: uuid.UUID = Field(description=MEMBER)


class PlanOut(BaseModel):
    found: bool
    plan: dict[str, Any] | None = None


@nutrition.agent_tool(action="get_plan", summary="The member's current nutrition and training plan: run state, "
                      "macros, strategy, weekly meal plan, recipes, training program, adjustments.",
                      input=MemberInput, roles=HEALTH_DATA)
async def get_plan(ctx: ToolContext, input: MemberInput) -> PlanOut:
    plan = await nutrition_port().current_plan(ctx.session, ctx.org_id, input.membershipId)
    return PlanOut(found=plan is not None, plan=plan)


class CheckinInput(BaseModel):
    membershipId: uuid.UUID = Field(description=MEMBER)
    checkin: dict[str, Any] = Field(description=(
        "The weekly check-in (spec 004 §7.1 canonical names): weight_kg, waist_cm, hip_cm, cycle_phase, "
        "training_log, subjective_markers, minimum_viable_days_count, notes, as the member reported them."))


class CheckinOut(BaseModel):
    id: str
    runId: str
    version: int
    adjustment: dict[str, Any]


@nutrition.agent_tool(action="submit_checkin", summary="Submit a member's weekly check-in to their current plan; "
                      "answers the adjustment (and re-plans in the background when a trigger fired).",
                      input=CheckinInput, roles=HEALTH_DATA, side_effects="write")
async def submit_checkin(ctx: ToolContext, input: CheckinInput) -> CheckinOut:
    out = await nutrition_port().submit_checkin(ctx.session, ctx.org_id, input.membershipId, input.checkin,
                                                submitted_by=ctx.caller.user_id)
    return CheckinOut.model_validate(out)


class ClearanceInput(BaseModel):
    membershipId: uuid.UUID = Field(description=MEMBER)
    note: str = Field("", max_length=2_000, description="Who cleared the member and when, as the user said it.")


class ClearanceOut(BaseModel):
    id: str
    membershipId: str


@nutrition.agent_tool(action="record_medical_clearance", summary="Record that a member has medical clearance, "
                      "so a new plan can start after a physician abort. Needs the user's confirmation.",
                      input=ClearanceInput, roles=OWNER_ADMIN, side_effects="write", confirm="always",
                      audit=Audit("medical_clearance", "nutrition.clearance.record"))
async def record_medical_clearance(ctx: ToolContext, input: ClearanceInput) -> ClearanceOut:
    out = await nutrition_port().record_clearance(ctx.session, ctx.org_id, input.membershipId, input.note,
                                                  recorded_by=ctx.caller.user_id)
    return ClearanceOut.model_validate(out)
