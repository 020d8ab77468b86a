"""analytics (members, classes, the dashboard, workouts): the second half of the analytics router.

Same conventions as `tools.leaves.analytics`: a named period or explicit local dates, every output echoes
the resolved period, every number is computed in SQL; outputs are snake_case models with camelCase JSON.
"""

from __future__ import annotations

import uuid
from datetime import date
from typing import Literal

from pydantic import AliasChoices, BaseModel, Field

from core.member_text import MemberName
from gym import analytics as service
from gym import attendance, classes, member_analytics
from gym.programs import get_program
from tools.context import ToolContext
from tools.errors import not_found
from tools.leaves.analytics import (
    BUCKET_START,
    PERIOD_HELP,
    PeriodInput,
    PeriodOut,
    TrendInput,
    bucket_of,
    monies,
    pct,
    period_of,
    period_out,
)
from tools.money import Money
from tools.output import ToolOut
from tools.registry import OWNER_ADMIN, OWNER_ADMIN_COACH, ToolRouter

analytics_activity = ToolRouter("analytics")
CHURNED = AliasChoices("cancelled", "churned")  # the services count cancellations; the model reads churned


# --- members (owner/admin/coach) --------------------------------------------------------------------------

class MembersSummaryInput(PeriodInput):
    atRiskDays: int = Field(21, ge=1, le=365, description="Days without a visit that make an active member at risk.")


class StatusCounts(ToolOut):
    lead: int
    active: int
    frozen: int
    cancelled: int


class MembersSummary(ToolOut):
    period: PeriodOut
    total: int = Field(description="All members now (any status).")
    by_status: StatusCounts
    joined: int = Field(description="Joined in the period (leads not counted).")
    churned: int = Field(description="Cancelled in the period.", validation_alias=CHURNED)
    at_risk: int = Field(description="Active members with no visit for atRiskDays days (as of now).")
    at_risk_days: int


@analytics_activity.agent_tool(action="members_summary",
                      summary="Member counts: by status now, joined and churned in the period, and how many active "
                              "members are at risk (no recent visit)." + PERIOD_HELP,
                      input=MembersSummaryInput, roles=OWNER_ADMIN_COACH)
async def members_summary(ctx: ToolContext, input: MembersSummaryInput) -> MembersSummary:
    period = period_of(ctx, input)
    data = await member_analytics.members_summary(ctx.session, ctx.org_id, period, ctx.now, at_risk_days=input.atRiskDays)
    return MembersSummary.model_validate({**data, "period": period_out(ctx, period), "at_risk_days": input.atRiskDays})


class GrowthPoint(ToolOut):
    start: date = Field(validation_alias=BUCKET_START)
    joined: int
    churned: int = Field(validation_alias=CHURNED)
    net: int


class MembersGrowth(ToolOut):
    period: PeriodOut
    bucket: str
    joined: int
    churned: int
    net: int
    points: list[GrowthPoint]


@analytics_activity.agent_tool(action="members_growth",
                      summary="Members joined, churned and net change per day, week or month over a period."
                              + PERIOD_HELP, input=TrendInput, roles=OWNER_ADMIN_COACH)
async def members_growth(ctx: ToolContext, input: TrendInput) -> MembersGrowth:
    period = period_of(ctx, input)
    bucket = bucket_of(period, input.bucket)
    points = [GrowthPoint.model_validate(p) for p in await member_analytics.members_growth(ctx.session, ctx.org_id, period, ctx.tz, bucket=bucket)]
    joined, churned = sum(p.joined for p in points), sum(p.churned for p in points)
    return MembersGrowth(period=period_out(ctx, period), bucket=bucket, joined=joined, churned=churned,
                         net=joined - churned, points=points)


class AtRiskInput(BaseModel):
    days: int = Field(21, ge=1, le=365, description="Inactivity threshold: days since the last visit.")
    limit: int = Field(10, ge=1, le=50, description="How many members to list (longest absent first).")


class AtRiskMember(ToolOut):
    id: uuid.UUID
    name: MemberName = Field(validation_alias=AliasChoices("full_name", "name"))
    email: str | None = None
    last_visit_on: date | None = Field(None, description="Local date of the last visit; absent = never visited.")
    days_since_last_visit: int | None = None
    joined_on: date = Field(validation_alias=AliasChoices("joined_at", "joined_on"))
    plan: str | None = Field(None, validation_alias=AliasChoices("plan_name", "plan"))
    coach: str | None = Field(None, validation_alias=AliasChoices("coach_name", "coach"))


class AtRiskMembers(ToolOut):
    as_of: date
    days: int
    count: int
    members: list[AtRiskMember]


@analytics_activity.agent_tool(action="at_risk_members",
                      summary="Active members with no visit in the last `days` days (default 21), longest absent "
                              "first, with plan and coach, so staff can reach out. Members who never visited count "
                              "once they joined that long ago.", input=AtRiskInput, roles=OWNER_ADMIN_COACH,
                               loaded=True)
async def at_risk_members(ctx: ToolContext, input: AtRiskInput) -> AtRiskMembers:
    data = await member_analytics.at_risk_members(ctx.session, ctx.org_id, ctx.now, days=input.days, limit=input.limit)
    rows = [AtRiskMember.model_validate({**m, "last_visit_on": m["last_visit_at"] and m["last_visit_at"].astimezone(
        ctx.tz).date()}) for m in data["members"]]
    return AtRiskMembers(as_of=ctx.local_now.date(), days=input.days, count=data["count"], members=rows)


class ActivationInput(PeriodInput):
    withinDays: int = Field(14, ge=1, le=90, description="A new member is activated by a class attended within "
                                                         "this many days of joining.")


class MembersActivation(ToolOut):
    period: PeriodOut
    joined: int
    activated: int
    not_activated: int
    activation_rate_pct: float | None
    within_days: int


@analytics_activity.agent_tool(action="members_activation",
                      summary="Of the members who joined in the period, how many attended a class within "
                              "`withinDays` days (default 14) of joining." + PERIOD_HELP,
                      input=ActivationInput, roles=OWNER_ADMIN_COACH)
async def members_activation(ctx: ToolContext, input: ActivationInput) -> MembersActivation:
    period = period_of(ctx, input)
    data = await member_analytics.members_activation(ctx.session, ctx.org_id, period, within_days=input.withinDays)
    return MembersActivation.model_validate({**data, "period": period_out(ctx, period),
                                             "not_activated": data["joined"] - data["activated"],
                                             "activation_rate_pct": pct(data["activation_rate"])})


# --- classes (owner/admin/coach) --------------------------------------------------------------------------

class PopularInput(PeriodInput):
    by: Literal["class_type", "slot"] = Field("class_type", description="Rank class types, or weekly slots "
                                                                        "(weekday + local start time + type).")
    limit: int = Field(5, ge=1, le=20)


class PopularClass(ToolOut):
    class_type_id: uuid.UUID
    name: str
    weekday: str | None = None
    time: str | None = Field(None, description="Local start time HH:MM (slot ranking only).")
    sessions: int
    visits: int
    avg_visits: float


class PopularClasses(ToolOut):
    period: PeriodOut
    by: str
    count: int
    classes: list[PopularClass]


@analytics_activity.agent_tool(action="popular_classes",
                      summary="Class types (or weekly time slots) ranked by visits in the period, with sessions "
                              "held and average visits per session. Cancelled classes excluded." + PERIOD_HELP,
                      input=PopularInput, roles=OWNER_ADMIN_COACH)
async def popular_classes(ctx: ToolContext, input: PopularInput) -> PopularClasses:
    period = period_of(ctx, input)
    rows = await attendance.popular_classes(ctx.session, ctx.org_id, period.start, period.end, tz=ctx.tz, by=input.by,
                                         limit=500)
    return PopularClasses(period=period_out(ctx, period), by=input.by, count=len(rows),
                          classes=[PopularClass.model_validate(r) for r in rows[:input.limit]])


class UtilizationInput(PeriodInput):
    classTypeId: uuid.UUID | None = Field(None, description="Only this class type (id from "
                                                            "class_types__list_for_program).")
    limit: int = Field(10, ge=1, le=50)


class TypeUtilization(ToolOut):
    class_type_id: uuid.UUID
    name: str
    sessions: int
    capacity: int
    filled: int
    utilization_pct: float


class ClassUtilization(ToolOut):
    period: PeriodOut
    sessions: int
    capacity: int
    filled: int = Field(description="Spots taken: booked plus attended (no-shows and cancellations free a spot).")
    utilization_pct: float
    count: int
    class_types: list[TypeUtilization]


@analytics_activity.agent_tool(action="class_utilization",
                      summary="How full classes were: spots filled / capacity over the period's classes (cancelled "
                              "ones excluded), overall and per class type, fullest first." + PERIOD_HELP,
                      input=UtilizationInput, roles=OWNER_ADMIN_COACH)
async def class_utilization(ctx: ToolContext, input: UtilizationInput) -> ClassUtilization:
    period = period_of(ctx, input)
    if input.classTypeId and await classes.get_class_type(ctx.session, ctx.org_id, input.classTypeId) is None:
        raise not_found("class_type", input.classTypeId)
    data = await attendance.class_utilization(ctx.session, ctx.org_id, period.start, period.end,
                                           class_type_id=input.classTypeId)
    types = [TypeUtilization.model_validate({**t, "utilization_pct": pct(t["utilization"])})
             for t in data["by_class_type"]]
    return ClassUtilization.model_validate({**data, "period": period_out(ctx, period), "count": len(types),
                                            "utilization_pct": pct(data["utilization"]),
                                            "class_types": types[:input.limit]})


# --- dashboard and workouts (owner/admin/coach) -----------------------------------------------------------

class InsightsInput(PeriodInput):
    atRiskDays: int = Field(21, ge=1, le=365)


class MemberNumbers(ToolOut):
    active: int = Field(description="Active members now.")
    frozen: int
    joined: int
    churned: int
    at_risk: int
    at_risk_days: int


class AttendanceNumbers(ToolOut):
    visits: int
    unique_members: int
    sessions: int
    no_shows: int
    avg_visits_per_session: float
    no_show_rate_pct: float


class RevenueComparison(ToolOut):
    basis: Literal["to_date", "full_period"] = Field(description="to_date: a running period's days so far vs the "
                                                                 "same number of days of the previous period.")
    current: PeriodOut
    previous: PeriodOut
    revenue: Money
    previous_revenue: Money
    change_pct: float | None = Field(description="Absent when the previous period had no revenue.")


class FailedPayments(ToolOut):
    count: int
    amount: Money
    recovered: int
    unrecovered: int


class OrgInsights(ToolOut):
    period: PeriodOut
    members: MemberNumbers
    attendance: AttendanceNumbers
    revenue: RevenueComparison | None = None
    failed_payments: FailedPayments | None = None
    note: str | None = None


@analytics_activity.agent_tool(action="org_insights",
                      summary="The gym at a glance for a period: active members, new, churned, at risk, attendance, "
                              "and (owners/admins only) revenue vs the previous period with % change and failed "
                              "payments." + PERIOD_HELP, input=InsightsInput, roles=OWNER_ADMIN_COACH,
                               loaded=True)
async def org_insights(ctx: ToolContext, input: InsightsInput) -> OrgInsights:
    period = period_of(ctx, input)
    show_money = ctx.org.role in OWNER_ADMIN
    data = await service.org_insights(ctx.session, ctx.org_id, period, ctx.tz, ctx.now, include_money=show_money,
                                      at_risk_days=input.atRiskDays)
    seen = data["attendance"]
    out = OrgInsights(period=period_out(ctx, period), members=MemberNumbers.model_validate(data["members"]),
                      attendance=AttendanceNumbers.model_validate({**seen, "no_show_rate_pct": pct(seen["no_show_rate"])}))
    if not show_money:
        out.note = "Revenue and payment figures are shown to owners and admins only."
        return out
    revenue, failed = data["revenue"], data["failed_payments"]
    currency = revenue["currency"]
    out.revenue = RevenueComparison.model_validate({
        **revenue, "current": period_out(ctx, revenue["current"]), "previous": period_out(ctx, revenue["previous"]),
        **monies(revenue, currency, revenue="current_cents", previous_revenue="previous_cents")})
    out.failed_payments = FailedPayments.model_validate({**failed, **monies(failed, currency, amount="amount_cents")})
    return out


class WorkoutsInput(PeriodInput):
    programId: uuid.UUID | None = Field(None, description="Only this program (id from read__programs_list).")
    limit: int = Field(10, ge=1, le=50, description="How many programs and exercises to list.")


class WorkoutCounts(ToolOut):
    workouts: int = Field(description="Workouts created or scheduled in the period.")
    created: int
    scheduled: int = Field(description="Dated in the period, or assigned to someone on a day in it.")
    structured: int
    freeform: int
    assignments: int = Field(description="Assignments scheduled in the period.")


class ProgramWorkouts(WorkoutCounts):
    program_id: uuid.UUID | None = None
    name: str = Field(description="Program name; 'No program' for workouts outside any program.")


class ExerciseUse(ToolOut):
    exercise_id: uuid.UUID | None = Field(None, description="Absent when the movement names no library exercise.")
    name: str
    workouts: int
    uses: int


class WorkoutsSummary(ToolOut):
    period: PeriodOut
    totals: WorkoutCounts
    program_count: int
    programs: list[ProgramWorkouts]
    exercise_count: int
    top_exercises: list[ExerciseUse]


@analytics_activity.agent_tool(action="workouts_summary",
                      summary="Workouts created or scheduled in the period per program (structured vs freeform, "
                              "assignments) and the most-used exercises in them." + PERIOD_HELP,
                      input=WorkoutsInput, roles=OWNER_ADMIN_COACH)
async def workouts_summary(ctx: ToolContext, input: WorkoutsInput) -> WorkoutsSummary:
    period = period_of(ctx, input)
    if input.programId and await get_program(ctx.session, ctx.org_id, input.programId) is None:
        raise not_found("program", input.programId)
    data = await service.workouts_summary(ctx.session, ctx.org_id, period, program_id=input.programId,
                                          limit=input.limit)
    programs = [{**p, "name": p["name"] or "No program"} for p in data["programs"]]
    return WorkoutsSummary.model_validate({**data, "period": period_out(ctx, period), "programs": programs})
