"""analytics: revenue, members, classes, coaches and workouts over a period; every number computed in SQL.

All actions read, never confirm. A period is a named period or explicit local dates in the gym's timezone
(default this_month); every output echoes the resolved period. Money comes as cents plus a display string.
"""

from __future__ import annotations

import uuid
from datetime import date
from typing import Literal, Self

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, model_validator

from gym import analytics as service
from gym import billing
from gym.periods import Period, bucket_starts, resolve_period
from tools.context import ToolContext
from tools.dates import ToolDate
from tools.errors import ToolFailed, not_found
from tools.money import Money, money
from tools.output import ToolOut
from tools.registry import OWNER_ADMIN, ToolRouter

analytics = ToolRouter("analytics")

PeriodName = Literal["this_week", "last_7_days", "last_30_days", "this_month", "last_month", "this_quarter",
                     "this_year"]
Bucket = Literal["day", "week", "month"]
DEFAULT_PERIOD = "this_month"
MAX_SPAN_DAYS = 3660
MAX_POINTS = 120
BUCKET_START = AliasChoices("period_start", "start")  # a service's bucket row names its first day period_start
PERIOD_HELP = (" Period: `period` (named, in the gym's timezone; default this_month) or explicit `from`/`to` "
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


class PeriodOut(ToolOut):
    label: str = Field(description="The named period, or from..to for explicit dates.")
    from_: date = Field(alias="from")
    to: date
    timezone: str


def period_of(ctx: ToolContext, input: PeriodInput) -> Period:
    return resolve_period(input.period or DEFAULT_PERIOD, input.from_, input.to, ctx.tz, ctx.now)


def period_out(ctx: ToolContext, period: Period | dict) -> PeriodOut:
    if isinstance(period, dict):
        return PeriodOut(label=period["label"], from_=date.fromisoformat(period["from"]),
                         to=date.fromisoformat(period["to"]), timezone=ctx.org.timezone)
    return PeriodOut(label=period.label, from_=period.first_day, to=period.last_day, timezone=ctx.org.timezone)


def monies(row: dict, currency: str | None, **cents_keys: str) -> dict[str, Money]:
    """Money outputs from a service row's cent amounts: `monies(row, "ILS", revenue="total_cents")`."""
    return {field: money(row[key], currency) for field, key in cents_keys.items()}


def pct(ratio: float | None) -> float | None:
    return None if ratio is None else round(ratio * 100, 1)


def bucket_of(period: Period, bucket: str | None) -> str:
    chosen = bucket or service.auto_bucket(period)
    if len(bucket_starts(period, chosen)) > MAX_POINTS:
        raise ToolFailed("too_many_points", f"{period.label} has more than {MAX_POINTS} {chosen} points.",
                         "Use a coarser bucket (week or month) or a shorter period.")
    return chosen


async def _currency(ctx: ToolContext, currency: str | None) -> str | None:
    return currency or await service.default_currency(ctx.session, ctx.org_id)


# --- revenue (owner/admin) --------------------------------------------------------------------------------

class CurrencyTotal(ToolOut):
    currency: str
    revenue: Money
    payments: int


class RevenueSummary(ToolOut):
    period: PeriodOut
    currency: str | None
    revenue: Money = Field(description="Paid in the period (by payment time), refunds not subtracted.")
    payments: int
    paying_members: int
    average_per_member: Money
    refunded: Money
    failed_attempts: int = Field(validation_alias=AliasChoices("failed_count", "failed_attempts"))
    failed_amount: Money
    other_currencies: list[CurrencyTotal] | None = None


@analytics.agent_tool(action="revenue_summary",
                      summary="Paid revenue in a period: total, number of payments, paying members, average per "
                              "member, refunds and failed charge attempts." + PERIOD_HELP,
                      input=PeriodInput, roles=OWNER_ADMIN)
async def revenue_summary(ctx: ToolContext, input: PeriodInput) -> RevenueSummary:
    period = period_of(ctx, input)
    data = await billing.revenue_summary(ctx.session, ctx.org_id, period.start, period.end)
    currency = await _currency(ctx, data["currency"])
    others = [CurrencyTotal.model_validate({**c, "revenue": money(c["total_cents"], c["currency"])})
              for c in data["by_currency"][1:]]
    return RevenueSummary.model_validate({
        **data, "period": period_out(ctx, period), "currency": currency, "other_currencies": others or None,
        **monies(data, currency, revenue="total_cents", average_per_member="average_per_member_cents",
                 refunded="refunded_cents", failed_amount="failed_cents")})


class RevenuePoint(ToolOut):
    start: date = Field(description="First local day of the bucket.", validation_alias=BUCKET_START)
    revenue: Money
    payments: int


class RevenueTrend(ToolOut):
    period: PeriodOut
    bucket: str
    currency: str | None
    total: Money
    points: list[RevenuePoint]


@analytics.agent_tool(action="revenue_trend",
                      summary="Paid revenue per day, week or month over a period (zero-filled), to show a trend."
                              + PERIOD_HELP, input=TrendInput, roles=OWNER_ADMIN)
async def revenue_trend(ctx: ToolContext, input: TrendInput) -> RevenueTrend:
    period = period_of(ctx, input)
    data = await billing.revenue_series(ctx.session, ctx.org_id, period, ctx.tz, bucket=bucket_of(period, input.bucket))
    currency = await _currency(ctx, data["currency"])
    points = [RevenuePoint.model_validate({**p, **monies(p, currency, revenue="amount_cents")}) for p in data["points"]]
    return RevenueTrend(period=period_out(ctx, period), bucket=data["bucket"], currency=currency,
                        total=money(sum(p.revenue.cents for p in points), currency), points=points)


class PlanInput(PeriodInput):
    limit: int = Field(10, ge=1, le=50, description="How many plans to list (most subscribed first).")


class PlanShare(ToolOut):
    id: uuid.UUID = Field(validation_alias=AliasChoices("plan_id", "id"))
    name: str
    interval: str
    price: Money
    active_subscriptions: int
    paused_subscriptions: int
    share_pct: float = Field(description="Share of all active subscriptions, in percent.")
    monthly_value: Money = Field(description="Estimated monthly value of the active subscriptions.")
    started_in_period: int


class PlanDistribution(ToolOut):
    period: PeriodOut
    active_subscriptions: int
    started_in_period: int
    count: int
    plans: list[PlanShare]


@analytics.agent_tool(action="plan_distribution",
                      summary="Membership plan mix now: active and paused subscriptions per plan, share, estimated "
                              "monthly value, and how many subscriptions each plan started in the period."
                              + PERIOD_HELP, input=PlanInput, roles=OWNER_ADMIN)
async def plan_distribution(ctx: ToolContext, input: PlanInput) -> PlanDistribution:
    period = period_of(ctx, input)
    data = await service.plan_distribution(ctx.session, ctx.org_id, period)
    plans = [PlanShare.model_validate({**p, "share_pct": pct(p["share"]),
                                       **monies(p, p["currency"], price="price_cents",
                                                monthly_value="monthly_value_cents")}) for p in data["plans"]]
    return PlanDistribution.model_validate({**data, "period": period_out(ctx, period), "count": len(plans),
                                            "plans": plans[:input.limit]})


# --- coaches (owner/admin) --------------------------------------------------------------------------------

class CoachInput(PeriodInput):
    coachUserId: uuid.UUID | None = Field(None, description="Only this staff member (user id); default all coaches.")
    limit: int = Field(10, ge=1, le=50)


class CoachRow(ToolOut):
    user_id: uuid.UUID
    name: str | None
    members: int = Field(description="Current members (active or frozen) this coach coaches.")
    sessions: int = Field(description="Classes coached in the period (cancelled ones excluded).")
    visits: int = Field(description="Attended bookings in those classes.")
    no_shows: int
    avg_visits_per_session: float
    assignments: int = Field(description="Workout assignments this coach has scheduled in the period.")
    unread_comments: int = Field(description="Member comments the coach has not read yet (now, any date).")


class CoachOverview(ToolOut):
    period: PeriodOut
    count: int
    coaches: list[CoachRow]


@analytics.agent_tool(action="coach_overview",
                      summary="Per coach: members coached, classes coached in the period with their attendance, "
                              "assignments scheduled, and unread member comments. Busiest coaches first."
                              + PERIOD_HELP, input=CoachInput, roles=OWNER_ADMIN)
async def coach_overview(ctx: ToolContext, input: CoachInput) -> CoachOverview:
    period = period_of(ctx, input)
    data = await service.coach_overview(ctx.session, ctx.org_id, period, coach_user_id=input.coachUserId,
                                        limit=input.limit)
    if input.coachUserId and not data["coaches"]:
        raise not_found("coach", input.coachUserId, "Use a staff user id of this gym, or leave coachUserId out.")
    return CoachOverview.model_validate({**data, "period": period_out(ctx, period)})
