"""Attendance numbers over class sessions: visits and no-shows, their trend, popular classes, utilization."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import Date, and_, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from gym.classes import FILLED, Booking, ClassSession, ClassType
from gym.errors import GymError
from gym.periods import Period, Tz, bucket_starts, zone


def _in_period(org_id: uuid.UUID, start: datetime, end: datetime):
    return and_(ClassSession.org_id == org_id, ClassSession.starts_at >= start, ClassSession.starts_at < end)


async def attendance_summary(session: AsyncSession, org_id: uuid.UUID, start: datetime,
                             end: datetime) -> dict[str, Any]:
    """Visits (attended bookings), no-shows, cancellations and unique visiting members for sessions in `[start, end)`."""
    visits, no_shows, cancelled, bookings, unique = (await session.execute(select(
        func.count().filter(Booking.status == "attended"), func.count().filter(Booking.status == "no_show"),
        func.count().filter(Booking.status == "cancelled"), func.count(),
        func.count(func.distinct(Booking.member_id)).filter(Booking.status == "attended"))
        .select_from(Booking).join(ClassSession, ClassSession.id == Booking.session_id)
        .where(Booking.org_id == org_id, _in_period(org_id, start, end)))).one()
    held = await session.scalar(select(func.count()).where(_in_period(org_id, start, end),
                                                           ClassSession.cancelled_at.is_(None)))
    settled = visits + no_shows
    return {"visits": visits, "no_shows": no_shows, "cancellations": cancelled, "bookings": bookings,
            "unique_members": unique, "sessions": held or 0,
            "avg_visits_per_session": round(visits / held, 2) if held else 0.0,
            "no_show_rate": round(no_shows / settled, 3) if settled else 0.0}


async def attendance_trend(session: AsyncSession, org_id: uuid.UUID, period: Period, tz: Tz, *,
                           bucket: str = "week") -> list[dict[str, Any]]:
    """Visits, no-shows and unique members per local day/week/month bucket (zero-filled)."""
    starts = bucket_starts(period, bucket)
    key = func.date_trunc(bucket, func.timezone(zone(tz).key, ClassSession.starts_at)).cast(Date)
    rows = (await session.execute(
        select(key, func.count().filter(Booking.status == "attended"), func.count().filter(Booking.status == "no_show"),
               func.count(func.distinct(Booking.member_id)).filter(Booking.status == "attended"))
        .select_from(Booking).join(ClassSession, ClassSession.id == Booking.session_id)
        .where(Booking.org_id == org_id, _in_period(org_id, period.start, period.end)).group_by(key))).all()
    found = {r[0]: r for r in rows}
    return [{"period_start": day, "visits": found[day][1] if day in found else 0,
             "no_shows": found[day][2] if day in found else 0,
             "unique_members": found[day][3] if day in found else 0} for day in starts]


async def popular_classes(session: AsyncSession, org_id: uuid.UUID, start: datetime, end: datetime, *,
                          tz: Tz = "UTC", by: str = "class_type", limit: int = 10) -> list[dict[str, Any]]:
    """Class types (or weekly slots: weekday + local start time + type) ranked by visits in `[start, end)`."""
    if by not in ("class_type", "slot"):
        raise GymError("invalid_grouping", "group by class_type or slot")
    visits = func.count(Booking.id).filter(Booking.status == "attended")
    local = func.timezone(zone(tz).key, ClassSession.starts_at)
    keys: list[Any] = [ClassType.id, ClassType.name]
    if by == "slot":
        keys += [func.extract("isodow", local).label("isodow"), func.to_char(local, "HH24:MI").label("time")]
    rows = (await session.execute(
        select(*keys, func.count(func.distinct(ClassSession.id)).label("sessions"), visits.label("visits"))
        .select_from(ClassSession).join(ClassType, ClassType.id == ClassSession.class_type_id)
        .outerjoin(Booking, and_(Booking.session_id == ClassSession.id, Booking.org_id == org_id))
        .where(_in_period(org_id, start, end), ClassSession.cancelled_at.is_(None))
        .group_by(*keys).order_by(visits.desc(), ClassType.name).limit(limit))).all()
    out = []
    for r in rows:
        item = {"class_type_id": r.id, "name": r.name, "sessions": r.sessions, "visits": r.visits,
                "avg_visits": round(r.visits / r.sessions, 2) if r.sessions else 0.0}
        if by == "slot":
            item["weekday"] = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                               "sunday")[int(r.isodow) - 1]
            item["time"] = r.time
        out.append(item)
    return out


async def class_utilization(session: AsyncSession, org_id: uuid.UUID, start: datetime, end: datetime, *,
                            class_type_id: uuid.UUID | None = None) -> dict[str, Any]:
    """(booked + attended) / capacity over non-cancelled sessions in `[start, end)`, overall and per class type."""
    filled = (select(func.count()).where(Booking.session_id == ClassSession.id, Booking.org_id == org_id,
                                         Booking.status.in_(FILLED))
              .correlate(ClassSession).scalar_subquery())
    where = [_in_period(org_id, start, end), ClassSession.cancelled_at.is_(None)]
    if class_type_id:
        where.append(ClassSession.class_type_id == class_type_id)
    per_session = (select(ClassSession.class_type_id, ClassSession.capacity, filled.label("filled"))
                   .where(*where).subquery())
    rows = (await session.execute(
        select(ClassType.id, ClassType.name, func.count(), func.sum(per_session.c.capacity),
               func.sum(per_session.c.filled))
        .select_from(per_session).join(ClassType, ClassType.id == per_session.c.class_type_id)
        .group_by(ClassType.id, ClassType.name))).all()

    def rate(used: int, capacity: int) -> float:
        return round(used / capacity, 3) if capacity else 0.0

    by_type = sorted(({"class_type_id": r[0], "name": r[1], "sessions": r[2], "capacity": int(r[3]),
                       "filled": int(r[4]), "utilization": rate(int(r[4]), int(r[3]))} for r in rows),
                     key=lambda t: -t["utilization"])
    capacity, used = sum(t["capacity"] for t in by_type), sum(t["filled"] for t in by_type)
    return {"sessions": sum(t["sessions"] for t in by_type), "capacity": capacity, "filled": used,
            "utilization": rate(used, capacity), "by_class_type": by_type}
