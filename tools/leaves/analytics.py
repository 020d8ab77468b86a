"""analytics: revenue, members, classes, coaches and workouts over a period; every number computed in SQL.

All actions read, never confirm. A period is a named period or explicit local dates in the gym's timezone
(default this_month); every output echoes the resolved period. Money comes as cents plus a display string.
"""

from __future__ import annotations

import uuid
from datetime import date
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from gym import analytics as service
from gym import attendance, billing, classes, member_analytics
from gym.periods import Period, bucket_starts, resolve_period
from gym.programs import get_program
from tools.context import ToolContext
from tools.dates import ToolDate
from tools.errors import ToolFailed, not_found
from tools.money import Money, money
from tools.registry import OWNER_ADMIN, OWNER_ADMIN_COACH, ToolRouter

analytics = ToolRouter("analytics")

PeriodName = Literal["this_week", "last_7_days", "last_30_days", "this_month", "last_month", "this_quarter",
                     "this_year"]
Bucket = Literal["day", "week", "month"]
DEFAULT_PERIOD = "this_month"
MAX_SPAN_DAYS = 3660
MAX_POINTS = 120
_PERIOD_HELP = (" Period: `period` (named, in the gym's timezone; default this_month) or explicit `from`/`to` "
                "local dates (inclusive), which win over `period`.")


# --- shared input and output pieces -----------------------------------------------------------------------

class PeriodInput(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    period: PeriodName | None = Field(None, description="Named period in the gym's timezone; default this_month. "
                                                        "Calendar periods (this_week from Monday, this_month, ...) "
                                                        "include the days still ahead.")
    from_: ToolDate | None = Field(None, alias="from", description="First local day, YYYY-MM-DD (inclusive). With "
                               "only `from`, the period runs to today.")
    to: ToolDate | None = Field(None, description="Last local day, YYYY-MM-DD (inclusive). With only `to`, the period "
                                              "is the 30 days ending then.")

    @model_validator(mode="after")
    def _check_range(self) -> Self:
        if self.from_ and self.to:
            if self.from_ > self.to:
                raise ValueError("`from` is after `to`")
            if (self.to - self.from_).days > MAX_SPAN_DAYS:
                raise ValueError(f"a period spans at most {MAX_SPAN_DAYS} days")
        return self


class TrendInput(PeriodInput):
    bucket: Bucket | None = Field(None, description="Point size; default: day up to 14 days, week up to 92, "
                                                    "else month.")


class PeriodOut(BaseModel):
    label: str = Field(description="The named period, or from..to for explicit dates.")
    from_: date = Field(serialization_alias="from")
    to: date
    timezone: str


def _period(ctx: ToolContext, input: PeriodInput) -> Period:
    return resolve_period(input.period or DEFAULT_PERIOD, input.from_, input.to, ctx.tz, ctx.now)


def _period_out(ctx: ToolContext, period: Period | dict) -> PeriodOut:
    if isinstance(period, dict):
        return PeriodOut(label=period["label"], from_=date.fromisoformat(period["from"]),
                         to=date.fromisoformat(period["to"]), timezone=ctx.org.timezone)
    return PeriodOut(label=period.label, from_=period.first_day, to=period.last_day, timezone=ctx.org.timezone)


def pct(ratio: float | None) -> float | None:
    return None if ratio is None else round(ratio * 100, 1)


def _bucket(period: Period, bucket: str | None) -> str:
    chosen = bucket or service.auto_bucket(period)
    if len(bucket_starts(period, chosen)) > MAX_POINTS:
        raise ToolFailed("too_many_points", f"{period.label} has more than {MAX_POINTS} {chosen} points.",
                         "Use a coarser bucket (week or month) or a shorter period.")
    return chosen


async def _currency(ctx: ToolContext, currency: str | None) -> str | None:
    return currency or await service.default_currency(ctx.session, ctx.org_id)


# --- revenue (owner/admin) --------------------------------------------------------------------------------

class CurrencyTotal(BaseModel):
    currency: str
    revenue: Money
    payments: int


class RevenueSummary(BaseModel):
    period: PeriodOut
    currency: str | None
    revenue: Money = Field(description="Paid in the period (by payment time), refunds not subtracted.")
    payments: int
    payingMembers: int
    averagePerMember: Money
    refunded: Money
    failedAttempts: int
    failedAmount: Money
    otherCurrencies: list[CurrencyTotal] | None = None


@analytics.agent_tool(action="revenue_summary",
                      summary="Paid revenue in a period: total, number of payments, paying members, average per "
                              "member, refunds and failed charge attempts." + _PERIOD_HELP,
                      input=PeriodInput, roles=OWNER_ADMIN)
async def revenue_summary(ctx: ToolContext, input: PeriodInput) -> RevenueSummary:
    period = _period(ctx, input)
    data = await billing.revenue_summary(ctx.session, ctx.org_id, period.start, period.end)
    currency = await _currency(ctx, data["currency"])
    others = [CurrencyTotal(currency=c["currency"], revenue=money(c["total_cents"], c["currency"]),
                            payments=c["payments"]) for c in data["by_currency"][1:]]
    return RevenueSummary(
        period=_period_out(ctx, period), currency=currency, revenue=money(data["total_cents"], currency),
        payments=data["payments"], payingMembers=data["paying_members"],
        averagePerMember=money(data["average_per_member_cents"], currency),
        refunded=money(data["refunded_cents"], currency), failedAttempts=data["failed_count"],
        failedAmount=money(data["failed_cents"], currency), otherCurrencies=others or None)


class RevenuePoint(BaseModel):
    start: date = Field(description="First local day of the bucket.")
    revenue: Money
    payments: int


class RevenueTrend(BaseModel):
    period: PeriodOut
    bucket: str
    currency: str | None
    total: Money
    points: list[RevenuePoint]


@analytics.agent_tool(action="revenue_trend",
                      summary="Paid revenue per day, week or month over a period (zero-filled), to show a trend."
                              + _PERIOD_HELP, input=TrendInput, roles=OWNER_ADMIN)
async def revenue_trend(ctx: ToolContext, input: TrendInput) -> RevenueTrend:
    period = _period(ctx, input)
    data = await billing.revenue_series(ctx.session, ctx.org_id, period, ctx.tz, bucket=_bucket(period, input.bucket))
    currency = await _currency(ctx, data["currency"])
    points = [RevenuePoint(start=p["period_start"], revenue=money(p["amount_cents"], currency), payments=p["payments"])
              for p in data["points"]]
    return RevenueTrend(period=_period_out(ctx, period), bucket=data["bucket"], currency=currency,
                        total=money(sum(p.revenue.cents for p in points), currency), points=points)


class PlanInput(PeriodInput):
    limit: int = Field(10, ge=1, le=50, description="How many plans to list (most subscribed first).")


class PlanShare(BaseModel):
    id: uuid.UUID
    name: str
    interval: str
    price: Money
    activeSubscriptions: int
    pausedSubscriptions: int
    sharePct: float = Field(description="Share of all active subscriptions, in percent.")
    monthlyValue: Money = Field(description="Estimated monthly value of the active subscriptions.")
    startedInPeriod: int


class PlanDistribution(BaseModel):
    period: PeriodOut
    activeSubscriptions: int
    startedInPeriod: int
    count: int
    plans: list[PlanShare]


@analytics.agent_tool(action="plan_distribution",
                      summary="Membership plan mix now: active and paused subscriptions per plan, share, estimated "
                              "monthly value, and how many subscriptions each plan started in the period."
                              + _PERIOD_HELP, input=PlanInput, roles=OWNER_ADMIN)
async def plan_distribution(ctx: ToolContext, input: PlanInput) -> PlanDistribution:
    period = _period(ctx, input)
    data = await service.plan_distribution(ctx.session, ctx.org_id, period)
    plans = [PlanShare(id=p["plan_id"], name=p["name"], interval=p["interval"], price=money(p["price_cents"], p["currency"]),
                       activeSubscriptions=p["active_subscriptions"], pausedSubscriptions=p["paused_subscriptions"],
                       sharePct=pct(p["share"]), monthlyValue=money(p["monthly_value_cents"], p["currency"]),
                       startedInPeriod=p["started_in_period"]) for p in data["plans"]]
    return PlanDistribution(period=_period_out(ctx, period), activeSubscriptions=data["active_subscriptions"],
                            startedInPeriod=data["started_in_period"], count=len(plans), plans=plans[:input.limit])


# --- coaches (owner/admin) --------------------------------------------------------------------------------

class CoachInput(PeriodInput):
    coachUserId: uuid.UUID | None = Field(None, description="Only this staff member (user id); default all coaches.")
    limit: int = Field(10, ge=1, le=50)


class CoachRow(BaseModel):
    userId: uuid.UUID
    name: str | None
    members: int = Field(description="Current members (active or frozen) this coach coaches.")
    sessions: int = Field(description="Classes coached in the period (cancelled ones excluded).")
    visits: int = Field(description="Attended bookings in those classes.")
    noShows: int
    avgVisitsPerSession: float
    assignments: int = Field(description="Workout assignments this coach has scheduled in the period.")
    unreadComments: int = Field(description="Member comments the coach has not read yet (now, any date).")


class CoachOverview(BaseModel):
    period: PeriodOut
    count: int
    coaches: list[CoachRow]


@analytics.agent_tool(action="coach_overview",
                      summary="Per coach: members coached, classes coached in the period with their attendance, "
                              "assignments scheduled, and unread member comments. Busiest coaches first."
                              + _PERIOD_HELP, input=CoachInput, roles=OWNER_ADMIN)
async def coach_overview(ctx: ToolContext, input: CoachInput) -> CoachOverview:
    period = _period(ctx, input)
    data = await service.coach_overview(ctx.session, ctx.org_id, period, coach_user_id=input.coachUserId,
                                        limit=input.limit)
    if input.coachUserId and not data["coaches"]:
        raise not_found("coach", input.coachUserId, "Use a staff user id of this gym, or leave coachUserId out.")
    rows = [CoachRow(userId=c["user_id"], name=c["name"], members=c["members"], sessions=c["sessions"],
                     visits=c["visits"], noShows=c["no_shows"], avgVisitsPerSession=c["avg_visits_per_session"],
                     assignments=c["assignments"], unreadComments=c["unread_comments"]) for c in data["coaches"]]
    return CoachOverview(period=_period_out(ctx, period), count=data["count"], coaches=rows)


# --- members (owner/admin/coach) --------------------------------------------------------------------------

class MembersSummaryInput(PeriodInput):
    atRiskDays: int = Field(21, ge=1, le=365, description="Days without a visit that make an active member at risk.")


class StatusCounts(BaseModel):
    lead: int
    active: int
    frozen: int
    cancelled: int


class MembersSummary(BaseModel):
    period: PeriodOut
    total: int = Field(description="All members now (any status).")
    byStatus: StatusCounts
    joined: int = Field(description="Joined in the period (leads not counted).")
    churned: int = Field(description="Cancelled in the period.")
    atRisk: int = Field(description="Active members with no visit for atRiskDays days (as of now).")
    atRiskDays: int


@analytics.agent_tool(action="members_summary",
                      summary="Member counts: by status now, joined and churned in the period, and how many active "
                              "members are at risk (no recent visit)." + _PERIOD_HELP,
                      input=MembersSummaryInput, roles=OWNER_ADMIN_COACH)
async def members_summary(ctx: ToolContext, input: MembersSummaryInput) -> MembersSummary:
    period = _period(ctx, input)
    data = await member_analytics.members_summary(ctx.session, ctx.org_id, period, ctx.now, at_risk_days=input.atRiskDays)
    return MembersSummary(period=_period_out(ctx, period), total=data["total"],
                          byStatus=StatusCounts(**data["by_status"]), joined=data["joined"],
                          churned=data["cancelled"], atRisk=data["at_risk"], atRiskDays=input.atRiskDays)


class GrowthPoint(BaseModel):
    start: date
    joined: int
    churned: int
    net: int


class MembersGrowth(BaseModel):
    period: PeriodOut
    bucket: str
    joined: int
    churned: int
    net: int
    points: list[GrowthPoint]


@analytics.agent_tool(action="members_growth",
                      summary="Members joined, churned and net change per day, week or month over a period."
                              + _PERIOD_HELP, input=TrendInput, roles=OWNER_ADMIN_COACH)
async def members_growth(ctx: ToolContext, input: TrendInput) -> MembersGrowth:
    period = _period(ctx, input)
    bucket = _bucket(period, input.bucket)
    points = [GrowthPoint(start=p["period_start"], joined=p["joined"], churned=p["cancelled"], net=p["net"])
              for p in await member_analytics.members_growth(ctx.session, ctx.org_id, period, ctx.tz, bucket=bucket)]
    joined, churned = sum(p.joined for p in points), sum(p.churned for p in points)
    return MembersGrowth(period=_period_out(ctx, period), bucket=bucket, joined=joined, churned=churned,
                         net=joined - churned, points=points)


class AtRiskInput(BaseModel):
    days: int = Field(21, ge=1, le=365, description="Inactivity threshold: days since the last visit.")
    limit: int = Field(10, ge=1, le=50, description="How many members to list (longest absent first).")


class AtRiskMember(BaseModel):
    id: uuid.UUID
    name: str
    email: str | None = None
    lastVisitOn: date | None = Field(None, description="Local date of the last visit; absent = never visited.")
    daysSinceLastVisit: int | None = None
    joinedOn: date
    plan: str | None = None
    coach: str | None = None


class AtRiskMembers(BaseModel):
    asOf: date
    days: int
    count: int
    members: list[AtRiskMember]


@analytics.agent_tool(action="at_risk_members",
                      summary="Active members with no visit in the last `days` days (default 21), longest absent "
                              "first, with plan and coach, so staff can reach out. Members who never visited count "
                              "once they joined that long ago.", input=AtRiskInput, roles=OWNER_ADMIN_COACH)
async def at_risk_members(ctx: ToolContext, input: AtRiskInput) -> AtRiskMembers:
    data = await member_analytics.at_risk_members(ctx.session, ctx.org_id, ctx.now, days=input.days, limit=input.limit)
    rows = [AtRiskMember(id=m["id"], name=m["full_name"], email=m["email"],
                         lastVisitOn=m["last_visit_at"].astimezone(ctx.tz).date() if m["last_visit_at"] else None,
                         daysSinceLastVisit=m["days_since_last_visit"], joinedOn=m["joined_at"],
                         plan=m["plan_name"], coach=m["coach_name"]) for m in data["members"]]
    return AtRiskMembers(asOf=ctx.local_now.date(), days=input.days, count=data["count"], members=rows)


class ActivationInput(PeriodInput):
    withinDays: int = Field(14, ge=1, le=90, description="A new member is activated by a class attended within "
                                                         "this many days of joining.")


class MembersActivation(BaseModel):
    period: PeriodOut
    joined: int
    activated: int
    notActivated: int
    activationRatePct: float | None
    withinDays: int


@analytics.agent_tool(action="members_activation",
                      summary="Of the members who joined in the period, how many attended a class within "
                              "`withinDays` days (default 14) of joining." + _PERIOD_HELP,
                      input=ActivationInput, roles=OWNER_ADMIN_COACH)
async def members_activation(ctx: ToolContext, input: ActivationInput) -> MembersActivation:
    period = _period(ctx, input)
    data = await member_analytics.members_activation(ctx.session, ctx.org_id, period, within_days=input.withinDays)
    return MembersActivation(period=_period_out(ctx, period), joined=data["joined"], activated=data["activated"],
                             notActivated=data["joined"] - data["activated"],
                             activationRatePct=pct(data["activation_rate"]), withinDays=input.withinDays)


# --- classes (owner/admin/coach) --------------------------------------------------------------------------

class PopularInput(PeriodInput):
    by: Literal["class_type", "slot"] = Field("class_type", description="Rank class types, or weekly slots "
                                                                        "(weekday + local start time + type).")
    limit: int = Field(5, ge=1, le=20)


class PopularClass(BaseModel):
    classTypeId: uuid.UUID
    name: str
    weekday: str | None = None
    time: str | None = Field(None, description="Local start time HH:MM (slot ranking only).")
    sessions: int
    visits: int
    avgVisits: float


class PopularClasses(BaseModel):
    period: PeriodOut
    by: str
    count: int
    classes: list[PopularClass]


@analytics.agent_tool(action="popular_classes",
                      summary="Class types (or weekly time slots) ranked by visits in the period, with sessions "
                              "held and average visits per session. Cancelled classes excluded." + _PERIOD_HELP,
                      input=PopularInput, roles=OWNER_ADMIN_COACH)
async def popular_classes(ctx: ToolContext, input: PopularInput) -> PopularClasses:
    period = _period(ctx, input)
    rows = await attendance.popular_classes(ctx.session, ctx.org_id, period.start, period.end, tz=ctx.tz, by=input.by,
                                         limit=500)
    return PopularClasses(period=_period_out(ctx, period), by=input.by, count=len(rows), classes=[
        PopularClass(classTypeId=r["class_type_id"], name=r["name"], weekday=r.get("weekday"), time=r.get("time"),
                     sessions=r["sessions"], visits=r["visits"], avgVisits=r["avg_visits"])
        for r in rows[:input.limit]])


class UtilizationInput(PeriodInput):
    classTypeId: uuid.UUID | None = Field(None, description="Only this class type (id from "
                                                            "class_types__list_for_program).")
    limit: int = Field(10, ge=1, le=50)


class TypeUtilization(BaseModel):
    classTypeId: uuid.UUID
    name: str
    sessions: int
    capacity: int
    filled: int
    utilizationPct: float


class ClassUtilization(BaseModel):
    period: PeriodOut
    sessions: int
    capacity: int
    filled: int = Field(description="Spots taken: booked plus attended (no-shows and cancellations free a spot).")
    utilizationPct: float
    count: int
    classTypes: list[TypeUtilization]


@analytics.agent_tool(action="class_utilization",
                      summary="How full classes were: spots filled / capacity over the period's classes (cancelled "
                              "ones excluded), overall and per class type, fullest first." + _PERIOD_HELP,
                      input=UtilizationInput, roles=OWNER_ADMIN_COACH)
async def class_utilization(ctx: ToolContext, input: UtilizationInput) -> ClassUtilization:
    period = _period(ctx, input)
    if input.classTypeId and await classes.get_class_type(ctx.session, ctx.org_id, input.classTypeId) is None:
        raise not_found("class_type", input.classTypeId)
    data = await attendance.class_utilization(ctx.session, ctx.org_id, period.start, period.end,
                                           class_type_id=input.classTypeId)
    types = [TypeUtilization(classTypeId=t["class_type_id"], name=t["name"], sessions=t["sessions"],
                             capacity=t["capacity"], filled=t["filled"], utilizationPct=pct(t["utilization"]))
             for t in data["by_class_type"]]
    return ClassUtilization(period=_period_out(ctx, period), sessions=data["sessions"], capacity=data["capacity"],
                            filled=data["filled"], utilizationPct=pct(data["utilization"]), count=len(types),
                            classTypes=types[:input.limit])


# --- dashboard and workouts (owner/admin/coach) -----------------------------------------------------------

class InsightsInput(PeriodInput):
    atRiskDays: int = Field(21, ge=1, le=365)


class MemberNumbers(BaseModel):
    active: int = Field(description="Active members now.")
    frozen: int
    joined: int
    churned: int
    atRisk: int
    atRiskDays: int


class AttendanceNumbers(BaseModel):
    visits: int
    uniqueMembers: int
    sessions: int
    noShows: int
    avgVisitsPerSession: float
    noShowRatePct: float


class RevenueComparison(BaseModel):
    basis: Literal["to_date", "full_period"] = Field(description="to_date: a running period's days so far vs the "
                                                                 "same number of days of the previous period.")
    current: PeriodOut
    previous: PeriodOut
    revenue: Money
    previousRevenue: Money
    changePct: float | None = Field(description="Absent when the previous period had no revenue.")


class FailedPayments(BaseModel):
    count: int
    amount: Money
    recovered: int
    unrecovered: int


class OrgInsights(BaseModel):
    period: PeriodOut
    members: MemberNumbers
    attendance: AttendanceNumbers
    revenue: RevenueComparison | None = None
    failedPayments: FailedPayments | None = None
    note: str | None = None


@analytics.agent_tool(action="org_insights",
                      summary="The gym at a glance for a period: active members, new, churned, at risk, attendance, "
                              "and (owners/admins only) revenue vs the previous period with % change and failed "
                              "payments." + _PERIOD_HELP, input=InsightsInput, roles=OWNER_ADMIN_COACH)
async def org_insights(ctx: ToolContext, input: InsightsInput) -> OrgInsights:
    period = _period(ctx, input)
    show_money = ctx.org.role in OWNER_ADMIN
    data = await service.org_insights(ctx.session, ctx.org_id, period, ctx.tz, ctx.now, include_money=show_money,
                                      at_risk_days=input.atRiskDays)
    people, seen = data["members"], data["attendance"]
    out = OrgInsights(
        period=_period_out(ctx, period),
        members=MemberNumbers(active=people["active"], frozen=people["frozen"], joined=people["joined"],
                              churned=people["churned"], atRisk=people["at_risk"], atRiskDays=people["at_risk_days"]),
        attendance=AttendanceNumbers(visits=seen["visits"], uniqueMembers=seen["unique_members"],
                                     sessions=seen["sessions"], noShows=seen["no_shows"],
                                     avgVisitsPerSession=seen["avg_visits_per_session"],
                                     noShowRatePct=pct(seen["no_show_rate"])))
    if not show_money:
        out.note = "Revenue and payment figures are shown to owners and admins only."
        return out
    revenue, failed = data["revenue"], data["failed_payments"]
    currency = revenue["currency"]
    out.revenue = RevenueComparison(basis=revenue["basis"], current=_period_out(ctx, revenue["current"]),
                                    previous=_period_out(ctx, revenue["previous"]),
                                    revenue=money(revenue["current_cents"], currency),
                                    previousRevenue=money(revenue["previous_cents"], currency),
                                    changePct=revenue["change_pct"])
    out.failedPayments = FailedPayments(count=failed["count"], amount=money(failed["amount_cents"], currency),
                                        recovered=failed["recovered"], unrecovered=failed["unrecovered"])
    return out


class WorkoutsInput(PeriodInput):
    programId: uuid.UUID | None = Field(None, description="Only this program (id from read__programs_list).")
    limit: int = Field(10, ge=1, le=50, description="How many programs and exercises to list.")


class WorkoutCounts(BaseModel):
    workouts: int = Field(description="Workouts created or scheduled in the period.")
    created: int
    scheduled: int = Field(description="Dated in the period, or assigned to someone on a day in it.")
    structured: int
    freeform: int
    assignments: int = Field(description="Assignments scheduled in the period.")


class ProgramWorkouts(WorkoutCounts):
    programId: uuid.UUID | None = None
    name: str = Field(description="Program name; 'No program' for workouts outside any program.")


class ExerciseUse(BaseModel):
    exerciseId: uuid.UUID | None = Field(None, description="Absent when the movement names no library exercise.")
    name: str
    workouts: int
    uses: int


class WorkoutsSummary(BaseModel):
    period: PeriodOut
    totals: WorkoutCounts
    programCount: int
    programs: list[ProgramWorkouts]
    exerciseCount: int
    topExercises: list[ExerciseUse]


@analytics.agent_tool(action="workouts_summary",
                      summary="Workouts created or scheduled in the period per program (structured vs freeform, "
                              "assignments) and the most-used exercises in them." + _PERIOD_HELP,
                      input=WorkoutsInput, roles=OWNER_ADMIN_COACH)
async def workouts_summary(ctx: ToolContext, input: WorkoutsInput) -> WorkoutsSummary:
    period = _period(ctx, input)
    if input.programId and await get_program(ctx.session, ctx.org_id, input.programId) is None:
        raise not_found("program", input.programId)
    data = await service.workouts_summary(ctx.session, ctx.org_id, period, program_id=input.programId,
                                          limit=input.limit)
    programs = [ProgramWorkouts(programId=p["program_id"], name=p["name"] or "No program",
                                **{k: p[k] for k in service.COUNT_KEYS}) for p in data["programs"]]
    return WorkoutsSummary(period=_period_out(ctx, period), totals=WorkoutCounts(**data["totals"]),
                           programCount=data["program_count"], programs=programs,
                           exerciseCount=data["exercise_count"],
                           topExercises=[ExerciseUse(exerciseId=e["exercise_id"], name=e["name"],
                                                     workouts=e["workouts"], uses=e["uses"])
                                         for e in data["top_exercises"]])
