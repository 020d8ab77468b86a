"""Check-ins: a member's visit now, into a session they booked (or one with room) or with no class at all.

A check-in moves the member's last visit forward and, with a session, marks the booking attended. Each is a row
that remembers what it changed (the last visit before it, the booking's status before it, whether it made the
booking), so an undo puts back exactly that.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Boolean, DateTime, ForeignKey, String, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from core.database import Base
from core.mixins import OrgRow
from gym.bookings import check_may_train, live_member, locked_session, taken_seats, when
from gym.classes import FILLED, Booking, ClassSession
from gym.errors import GymError
from gym.members import Member
from gym.periods import Tz, local_today

EARLY = timedelta(minutes=60)  # a session opens for check-in this long before it starts, and closes when it ends
REPEAT = timedelta(minutes=60)  # checked in again within this, with no class named, is the same visit


class CheckIn(OrgRow, Base):
    __tablename__ = "check_ins"

    member_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"))
    booking_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("bookings.id", ondelete="SET NULL"))
    checked_in_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    previous_last_visit_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    previous_booking_status: Mapped[str | None] = mapped_column(String(10))
    booking_created: Mapped[bool] = mapped_column(Boolean, default=False)
    created_by: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    undone_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class Visit:
    check_in: CheckIn
    member: Member
    session: ClassSession | None


def _open_for_check_in(row: ClassSession, now: datetime) -> bool:
    return row.cancelled_at is None and row.starts_at - EARLY <= now <= row.ends_at


async def _todays_booking(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                          now: datetime) -> tuple[Booking, ClassSession] | None:
    """The member's booked session open for check-in now (the one starting soonest)."""
    found = (await session.execute(select(Booking, ClassSession).join(ClassSession, ClassSession.id == Booking.session_id)
                                   .where(Booking.org_id == org_id, Booking.member_id == member_id,
                                          Booking.status == "booked", ClassSession.cancelled_at.is_(None),
                                          ClassSession.starts_at - EARLY <= now, ClassSession.ends_at >= now)
                                   .order_by(ClassSession.starts_at).limit(1))).first()
    return (found[0], found[1]) if found else None


async def check_in(session: AsyncSession, org_id: uuid.UUID, *, member_id: uuid.UUID, tz: Tz, now: datetime,
                   session_id: uuid.UUID | None = None, created_by: uuid.UUID | None = None) -> Visit:
    member = await live_member(session, org_id, member_id)
    await check_may_train(session, org_id, member, local_today(tz, now), tz, now)
    booking: Booking | None = None
    row: ClassSession | None = None
    if session_id is not None:
        row = await locked_session(session, org_id, session_id)
        if not _open_for_check_in(row, now):
            raise GymError("check_in_closed", f"{row.title} at {when(row, tz)} is not open for check-in.",
                           "A session opens for check-in an hour before it starts and closes when it ends; "
                           "check the member in without a session, or pick the right one.",
                           title=row.title, when=when(row, tz))
        booking = await session.scalar(select(Booking).where(Booking.org_id == org_id, Booking.session_id == row.id,
                                                             Booking.member_id == member.id))
    else:
        found = await _todays_booking(session, org_id, member.id, now)
        if found is not None:
            booking, row = found
    if booking is not None and booking.status == "attended":
        raise GymError("already_checked_in", f"{member.full_name} is already checked in.", status=409,
                       member=member.full_name)
    if row is None:
        recent = await session.scalar(select(CheckIn.id).where(
            CheckIn.org_id == org_id, CheckIn.member_id == member.id, CheckIn.undone_at.is_(None),
            CheckIn.checked_in_at > now - REPEAT))
        if recent is not None:
            raise GymError("already_checked_in", f"{member.full_name} is already checked in.", status=409,
                           member=member.full_name)
    previous_status = booking.status if booking is not None else None
    created = booking is None or booking.status not in FILLED
    if row is not None and created and await taken_seats(session, org_id, row.id) >= row.capacity:
        raise GymError("session_full", f"{row.title} at {when(row, tz)} is full ({row.capacity} places).",
                       "Check the member in without a session instead, or ask the user.", status=409,
                       title=row.title, when=when(row, tz), capacity=row.capacity, member=member.full_name)
    if row is not None:
        if booking is None:
            booking = Booking(id=uuid.uuid4(), org_id=org_id, session_id=row.id, member_id=member.id, booked_at=now)
            session.add(booking)
        booking.status, booking.checked_in_at = "attended", now
    visit = CheckIn(id=uuid.uuid4(), org_id=org_id, member_id=member.id, booking_id=booking.id if booking else None,
                    checked_in_at=now, previous_last_visit_at=member.last_visit_at,
                    previous_booking_status=previous_status, booking_created=row is not None and created,
                    created_by=created_by)
    session.add(visit)
    member.last_visit_at = max(member.last_visit_at, now) if member.last_visit_at else now
    await session.flush()
    return Visit(visit, member, row)


async def undo_check_in(session: AsyncSession, org_id: uuid.UUID, *, check_in_id: uuid.UUID,
                        now: datetime) -> Visit:
    """Put back what the check-in changed: the booking's status and the member's last visit."""
    visit = await session.scalar(select(CheckIn).where(CheckIn.org_id == org_id, CheckIn.id == check_in_id)
                                 .with_for_update())
    if visit is None or visit.undone_at is not None:
        raise GymError("check_in_not_found", f"No check-in with id {check_in_id} to undo.",
                       "Use the id a bookings__check_in returned.", status=404)
    member = await live_member(session, org_id, visit.member_id)
    row = None
    if visit.booking_id is not None:
        booking = await session.scalar(select(Booking).where(Booking.org_id == org_id, Booking.id == visit.booking_id))
        if booking is not None:
            row = await session.scalar(select(ClassSession).where(ClassSession.id == booking.session_id))
            if visit.booking_created and visit.previous_booking_status is None:
                visit.booking_id = None
                await session.delete(booking)
            else:
                booking.status = visit.previous_booking_status or "booked"
                booking.checked_in_at = None
    visit.undone_at = now
    await session.flush()
    later = await session.scalar(select(func.max(CheckIn.checked_in_at)).where(
        CheckIn.org_id == org_id, CheckIn.member_id == member.id, CheckIn.undone_at.is_(None)))
    candidates = [t for t in (visit.previous_last_visit_at, later) if t is not None]
    member.last_visit_at = max(candidates) if candidates else None
    await session.flush()
    return Visit(visit, member, row)
