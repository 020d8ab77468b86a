"""nutrition: the staff side of the nutrition pipeline (NUTRITION.md "Staff and trainer tools"): start a
run (confirm: always), read the current plan, submit a weekly check-in, record a medical clearance
(owner, admin; confirm: always; audited). They call the nutrition domain's service (gym/nutrition/service.py)
in the tool's own transaction, as the HTTP endpoints do: a started run's job is queued in that transaction."""

from __future__ import annotations

import uuid
from typing import Any

from pydantic import BaseModel, Field

from core.errors import Conflict
from gym.nutrition import views
from gym.nutrition.envelope import validate_intake
from gym.nutrition.service import NutritionService
from tools.context import ToolContext
from tools.registry import HEALTH_DATA, OWNER_ADMIN, Audit, ToolRouter

nutrition = ToolRouter("nutrition")
MEMBER = "Member id (membershipId) from read__members_search."


class StartRunInput(BaseModel):
    membershipId: uuid.UUID = Field(description=MEMBER)
    intake: dict[str, Any] = Field(description=(
        "The intake (spec 004 §4.1 canonical names): sex, age, height_cm, current_weight_kg, target_weight_kg, "
        "training_phase, avg_daily_steps, training_experience, appetite_level, menstrual_status, "
        "medical_history, ... (or height_in, current_weight_lb, target_weight_lb in imperial units). Ask the user "
        "for what you do not know; never guess numbers."))


class RunStarted(BaseModel):
    id: str
    state: str
    version: int


@nutrition.agent_tool(action="start_run", summary="Start a nutrition and training plan run for a member from their "
                      "intake. The run continues in the background. Needs the user's confirmation.",
                      input=StartRunInput, roles=HEALTH_DATA, side_effects="write", confirm="always",
                      audit=Audit("nutrition_run", "nutrition.run.start"))
async def start_run(ctx: ToolContext, input: StartRunInput) -> RunStarted:
    run = await NutritionService(ctx.session, ctx.org_id).start_run(
        input.membershipId, validate_intake(input.intake), started_by=ctx.caller.user_id)
    return RunStarted(id=str(run.id), state=run.state, version=run.version)


class MemberInput(BaseModel):
    membershipId: uuid.UUID = Field(description=MEMBER)


class PlanOut(BaseModel):
    found: bool
    plan: dict[str, Any] | None = None
    newerRun: dict[str, Any] | None = None  # a newer run that is not (yet) the plan: under way, failed or aborted
    medicalHold: bool = False


@nutrition.agent_tool(action="get_plan", summary="The member's current nutrition and training plan (the last run "
                      "that reached output_ready): run state, macros, strategy, weekly meal plan, recipes, training "
                      "program, adjustments; and a newer run that is under way, failed or was aborted, if any.",
                      input=MemberInput, roles=HEALTH_DATA)
async def get_plan(ctx: ToolContext, input: MemberInput) -> PlanOut:
    nutrition = NutritionService(ctx.session, ctx.org_id)
    run = await nutrition.current_run(input.membershipId)
    latest = await nutrition.latest_run(input.membershipId)
    newer = views.run_summary(latest) if latest is not None and (run is None or latest.id != run.id) else None
    hold = await nutrition.medical_hold(input.membershipId)
    if run is None:
        return PlanOut(found=False, newerRun=newer, medicalHold=hold)
    return PlanOut(found=True, plan=await nutrition.detail(run), newerRun=newer, medicalHold=hold)


class CheckinInput(BaseModel):
    membershipId: uuid.UUID = Field(description=MEMBER)
    checkin: dict[str, Any] = Field(description=(
        "The weekly check-in (spec 004 §7.1 canonical names): weight_kg, waist_cm, hip_cm, cycle_phase, "
        "training_log, subjective_markers, minimum_viable_days_count, notes, training_phase (when it changed), as the "
        "member reported them."))


class CheckinOut(BaseModel):
    id: str
    runId: str
    version: int
    adjustment: dict[str, Any]


@nutrition.agent_tool(action="submit_checkin", summary="Submit a member's weekly check-in to their current plan; "
                      "answers the adjustment (and re-plans in the background when a trigger fired).",
                      input=CheckinInput, roles=HEALTH_DATA, side_effects="write")
async def submit_checkin(ctx: ToolContext, input: CheckinInput) -> CheckinOut:
    nutrition = NutritionService(ctx.session, ctx.org_id)
    run = await nutrition.current_run(input.membershipId)
    if run is None:
        raise Conflict("run_not_ready", detail="the member has no nutrition plan yet")
    out = await nutrition.submit_checkin(run.id, input.checkin, submitted_by=ctx.caller.user_id)
    return CheckinOut(id=str(out.checkin_id), runId=str(run.id), version=out.version, adjustment=out.adjustment)


class ClearanceInput(BaseModel):
    membershipId: uuid.UUID = Field(description=MEMBER)
    note: str = Field(min_length=1, max_length=2_000, description=(
        "The clinician's note the clearance rests on: who cleared the member and when, as the user said it. "
        "Required: ask for it; never record a clearance without one."))


class ClearanceOut(BaseModel):
    id: str
    membershipId: str


@nutrition.agent_tool(action="record_medical_clearance", summary="Record that a clinician has cleared a member, from "
                      "the clinician's note, so a new plan can start after a physician abort. Owner or admin; needs "
                      "the user's confirmation.",
                      input=ClearanceInput, roles=OWNER_ADMIN, side_effects="write", confirm="always",
                      audit=Audit("medical_clearance", "nutrition.clearance.record"))
async def record_medical_clearance(ctx: ToolContext, input: ClearanceInput) -> ClearanceOut:
    clearance = await NutritionService(ctx.session, ctx.org_id).record_clearance(
        input.membershipId, input.note, recorded_by=ctx.caller.user_id)
    return ClearanceOut(id=str(clearance.id), membershipId=str(input.membershipId))
