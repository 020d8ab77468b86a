"""Counts over members: at-risk (no recent visit), status summary, growth per bucket, activation."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Date, DateTime, and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from core.tenancy import User
from gym.billing import MemberSubscription, current_plan_name
from gym.classes import Booking
from gym.members import MEMBER_STATUSES, Member
from gym.periods import Period, Tz, bucket_starts, zone


async def at_risk_members(session: AsyncSession, org_id: uuid.UUID, now: datetime, *, days: int = 21,
                          limit: int = 50) -> dict[str, Any]:
    """Active members with no visit for `days`+ days (never-visited ones count once they joined that long ago)."""
    cutoff = now - timedelta(days=days)
    quiet = and_(Member.org_id == org_id, Member.deleted_at.is_(None), Member.status == "active",
                 or_(Member.last_visit_at < cutoff,
                     and_(Member.last_visit_at.is_(None), Member.joined_at <= cutoff.date())))
    total = await session.scalar(select(func.count()).where(quiet))
    rows = (await session.execute(
        select(Member.id, Member.full_name, Member.email, Member.last_visit_at, Member.joined_at,
               current_plan_name().label("plan_name"), User.name.label("coach_name"))
        .outerjoin(User, User.id == Member.coach_user_id).where(quiet)
        .order_by(Member.last_visit_at.asc().nulls_first(), Member.full_name).limit(limit))).all()
    return {"count": total or 0, "days": days, "members": [
        {"id": r.id, "full_name": r.full_name, "email": r.email, "last_visit_at": r.last_visit_at,
         "days_since_last_visit": (now - r.last_visit_at).days if r.last_visit_at else None,
         "joined_at": r.joined_at, "plan_name": r.plan_name, "coach_name": r.coach_name} for r in rows]}


async def members_summary(session: AsyncSession, org_id: uuid.UUID, period: Period, now: datetime, *,
                          at_risk_days: int = 21) -> dict[str, Any]:
    """Counts by current status, members who joined or cancelled in the period, and today's at-risk count."""
    live = and_(Member.org_id == org_id, Member.deleted_at.is_(None))
    by_status = dict((await session.execute(
        select(Member.status, func.count()).where(live).group_by(Member.status))).all())
    joined = await session.scalar(select(func.count()).where(
        live, Member.status != "lead", Member.joined_at.between(period.first_day, period.last_day)))
    cancelled = await session.scalar(
        select(func.count(func.distinct(MemberSubscription.member_id)))
        .join(Member, Member.id == MemberSubscription.member_id)
        .where(live, Member.status == "cancelled", MemberSubscription.org_id == org_id,
               MemberSubscription.cancelled_at >= period.start, MemberSubscription.cancelled_at < period.end))
    at_risk = await at_risk_members(session, org_id, now, days=at_risk_days, limit=0)
    return {"period": period.as_dict(), "total": sum(by_status.values()),
            "by_status": {s: by_status.get(s, 0) for s in MEMBER_STATUSES}, "joined": joined or 0,
            "cancelled": cancelled or 0, "at_risk": at_risk["count"]}


async def members_growth(session: AsyncSession, org_id: uuid.UUID, period: Period, tz: Tz, *,
                         bucket: str = "month") -> list[dict[str, Any]]:
    """Joins, cancellations and net change per local day/week/month bucket of the period."""
    live = and_(Member.org_id == org_id, Member.deleted_at.is_(None))
    joined_bucket = func.date_trunc(bucket, Member.joined_at.cast(DateTime)).cast(Date)
    joined = dict((await session.execute(
        select(joined_bucket, func.count()).where(
            live, Member.status != "lead", Member.joined_at.between(period.first_day, period.last_day))
        .group_by(joined_bucket))).all())
    cancel_bucket = func.date_trunc(bucket, func.timezone(zone(tz).key, MemberSubscription.cancelled_at)).cast(Date)
    cancelled = dict((await session.execute(
        select(cancel_bucket, func.count(func.distinct(MemberSubscription.member_id)))
        .join(Member, Member.id == MemberSubscription.member_id)
        .where(live, Member.status == "cancelled", MemberSubscription.org_id == org_id,
               MemberSubscription.cancelled_at >= period.start, MemberSubscription.cancelled_at < period.end)
        .group_by(cancel_bucket))).all())
    return [{"period_start": day, "joined": joined.get(day, 0), "cancelled": cancelled.get(day, 0),
             "net": joined.get(day, 0) - cancelled.get(day, 0)} for day in bucket_starts(period, bucket)]


async def members_activation(session: AsyncSession, org_id: uuid.UUID, period: Period, *,
                             within_days: int = 14) -> dict[str, Any]:
    """Of the members who joined in the period, how many attended a class within `within_days` of joining."""
    first_visit = (select(func.min(Booking.checked_in_at))
                   .where(Booking.member_id == Member.id, Booking.org_id == Member.org_id,
                          Booking.status == "attended")
                   .correlate(Member).scalar_subquery())
    rows = (await session.execute(
        select(Member.joined_at, first_visit.label("first_visit")).where(
            Member.org_id == org_id, Member.deleted_at.is_(None), Member.status != "lead",
            Member.joined_at.between(period.first_day, period.last_day)))).all()
    activated = sum(1 for r in rows if r.first_visit is not None
                    and r.first_visit.date() <= r.joined_at + timedelta(days=within_days))
    return {"period": period.as_dict(), "joined": len(rows), "activated": activated,
            "activation_rate": round(activated / len(rows), 3) if rows else None, "within_days": within_days}
