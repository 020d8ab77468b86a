"""bookings: the caller's own class bookings and the gym's attendance numbers (all read-only).

Periods are local to the gym's timezone; every number is computed in SQL by gym.classes.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from core.i18n import translate
from core.member_text import MemberWritten
from gym import attendance
from gym import classes as service
from gym.members import get_member
from gym.periods import Period, resolve_period
from gym.training.profiles import member_for_user
from tools.context import ToolContext
from tools.dates import ToolDate
from tools.errors import ToolFailed, not_found
from tools.registry import OWNER_ADMIN, STAFF, ToolRouter

bookings = ToolRouter("bookings")

PeriodName = Literal["today", "yesterday", "this_week", "last_week", "last_7_days", "last_30_days",
                     "last_90_days", "this_month", "last_month", "this_quarter", "last_quarter", "this_year",
                     "last_year", "last_12_months"]
MAX_POINTS = 120


class PeriodInput(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    period: PeriodName | None = Field(None, description="Named period in the gym's timezone (default "
                                                        "last_30_days); from/to win when given.")
    from_: ToolDate | None = Field(None, alias="from", description="First local day (YYYY-MM-DD), inclusive.")
    to: ToolDate | None = Field(None, description="Last local day (YYYY-MM-DD), inclusive.")

    @model_validator(mode="after")
    def _ordered(self) -> PeriodInput:
        if self.from_ and self.to and self.to < self.from_:
            raise ValueError("'to' must be on or after 'from'")
        return self


def _period(ctx: ToolContext, input: PeriodInput) -> Period:
    return resolve_period(input.period, input.from_, input.to, ctx.tz, ctx.now)


class PeriodOut(BaseModel):
    label: str
    firstDay: dt.date
    lastDay: dt.date


def _period_out(period: Period) -> PeriodOut:
    return PeriodOut(label=period.label, firstDay=period.first_day, lastDay=period.last_day)


# --- list_mine -------------------------------------------------------------------------------------------

class ListMineInput(BaseModel):
    memberId: uuid.UUID | None = Field(None, description="Owners/admins only: read this member's bookings "
                                                         "instead of the caller's own.")
    when: Literal["upcoming", "past", "all"] = Field("upcoming", description="Sessions still ahead, already "
                                                                             "started, or both.")
    limit: int = Field(20, ge=1, le=50)


class BookingOut(BaseModel):
    id: uuid.UUID
    sessionId: uuid.UUID
    title: str
    date: str = Field(description="Local day, YYYY-MM-DD.")
    start: str = Field(description="Local HH:MM.")
    end: str
    status: str = Field(description="booked, attended, no_show or cancelled.")
    sessionCancelled: bool


class MyBookings(BaseModel):
    member: Annotated[str | None, MemberWritten("member_name")] = None
    memberId: uuid.UUID | None = None
    count: int
    bookings: list[BookingOut]
    note: str | None = None


@bookings.agent_tool(
    action="list_mine",
    summary="The caller's own class bookings as a member of this gym (upcoming by default), with local day, "
            "times and status. Owners and admins may pass memberId to read a member's bookings.",
    input=ListMineInput, roles=STAFF)
async def list_mine(ctx: ToolContext, input: ListMineInput) -> MyBookings:
    if input.memberId is not None:
        if ctx.org.role not in OWNER_ADMIN:
            raise ToolFailed("forbidden_for_role", "Only owners and admins may read another member's bookings.",
                             "Call without memberId to read the caller's own bookings.",
                             role=translate(f"console.roles.{ctx.org.role}", ctx.locale))
        member = await get_member(ctx.session, ctx.org_id, input.memberId)
        if member is None:
            raise not_found("member", input.memberId)
    else:
        member = await member_for_user(ctx.session, ctx.org_id, ctx.caller.user_id)
        if member is None:
            return MyBookings(count=0, bookings=[], note="The caller has no member profile in this gym, so no "
                                                         "bookings of their own.")
    start = ctx.now if input.when == "upcoming" else None
    end = ctx.now if input.when == "past" else None
    rows = await service.list_member_bookings(ctx.session, ctx.org_id, member.id, start=start, end=end,
                                              limit=input.limit)
    if input.when == "upcoming":
        rows.reverse()  # soonest first
    out = []
    for r in rows:
        begins, ends = r["starts_at"].astimezone(ctx.tz), r["ends_at"].astimezone(ctx.tz)
        out.append(BookingOut(id=r["id"], sessionId=r["session_id"], title=r["title"],
                              date=begins.date().isoformat(), start=begins.strftime("%H:%M"),
                              end=ends.strftime("%H:%M"), status=r["status"],
                              sessionCancelled=r["cancelled_at"] is not None))
    return MyBookings(member=member.full_name, memberId=member.id, count=len(out), bookings=out)


# --- attendance ------------------------------------------------------------------------------------------

class AttendanceSummary(BaseModel):
    period: PeriodOut
    visits: int = Field(description="Attended bookings.")
    noShows: int
    cancellations: int
    bookings: int
    uniqueMembers: int = Field(description="Distinct members with at least one visit.")
    sessions: int = Field(description="Sessions held (not cancelled).")
    avgVisitsPerSession: float
    noShowRate: float = Field(description="no-shows / (visits + no-shows).")


@bookings.agent_tool(
    action="attendance_summary",
    summary="Attendance over a period in the gym's timezone: visits, no-shows, cancellations, unique visiting "
            "members, sessions held, average visits per session and no-show rate.",
    input=PeriodInput, roles=STAFF,
                     loaded=True)
async def attendance_summary(ctx: ToolContext, input: PeriodInput) -> AttendanceSummary:
    period = _period(ctx, input)
    s = await attendance.attendance_summary(ctx.session, ctx.org_id, period.start, period.end)
    return AttendanceSummary(period=_period_out(period), visits=s["visits"], noShows=s["no_shows"],
                             cancellations=s["cancellations"], bookings=s["bookings"],
                             uniqueMembers=s["unique_members"], sessions=s["sessions"],
                             avgVisitsPerSession=s["avg_visits_per_session"], noShowRate=s["no_show_rate"])


class TrendInput(PeriodInput):
    bucket: Literal["day", "week", "month"] = Field("week", description="Points per local day, week (Monday) or "
                                                                        "month.")


class TrendPoint(BaseModel):
    start: dt.date
    visits: int
    noShows: int
    uniqueMembers: int


class AttendanceTrend(BaseModel):
    period: PeriodOut
    bucket: str
    totalVisits: int
    totalNoShows: int
    points: list[TrendPoint]


@bookings.agent_tool(
    action="attendance_trend",
    summary="Attendance as a series over a period in the gym's timezone: visits, no-shows and unique members "
            "per day, week or month (zero-filled), plus totals.",
    input=TrendInput, roles=STAFF)
async def attendance_trend(ctx: ToolContext, input: TrendInput) -> AttendanceTrend:
    period = _period(ctx, input)
    series = await attendance.attendance_trend(ctx.session, ctx.org_id, period, ctx.tz, bucket=input.bucket)
    if len(series) > MAX_POINTS:
        raise ToolFailed("too_many_points", f"{len(series)} {input.bucket} points is too many for one answer.",
                         "Use a larger bucket (week or month) or a shorter period.")
    points = [TrendPoint(start=p["period_start"], visits=p["visits"], noShows=p["no_shows"],
                         uniqueMembers=p["unique_members"]) for p in series]
    return AttendanceTrend(period=_period_out(period), bucket=input.bucket,
                           totalVisits=sum(p.visits for p in points), totalNoShows=sum(p.noShows for p in points),
                           points=points)
