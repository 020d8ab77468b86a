"""The desk's bookings: a member into a class session, out of it, onto its waitlist and off it.

`check_bookable` is the one rule for "may this member take a seat in this session now": the session is live and
has not started, the member is neither cancelled nor frozen on that day, and is not already booked into it or into
another session at the same time. A full session is refused with the waitlist offered; when a seat frees, the
waitlist is promoted in the order people joined (`promote`), skipping anyone the rule now refuses.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import DateTime, ForeignKey, UniqueConstraint, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from core.database import Base
from core.mixins import OrgRow
from gym.classes import FILLED, Booking, ClassSession, list_member_bookings
from gym.errors import GymError
from gym.freezes import frozen_on
from gym.members import Member
from gym.periods import Tz, local_today, zone


class WaitlistEntry(OrgRow, Base):
    __tablename__ = "waitlist_entries"
    __table_args__ = (UniqueConstraint("session_id", "member_id", name="uq_waitlist_entries_session_member"),)

    session_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("class_sessions.id", ondelete="CASCADE"))
    member_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"))
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    left_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    promoted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    booking_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("bookings.id", ondelete="SET NULL"))
    created_by: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))


@dataclass(frozen=True)
class Seat:
    """What a booking or waitlist change did, for the tool's answer."""

    booking: Booking | None
    entry: WaitlistEntry | None
    member: Member
    session: ClassSession
    taken: int
    promoted: list[tuple[Member, Booking]]


def when(session: ClassSession, tz: Tz) -> str:
    """'2026-11-24 17:30': a session's local start, for people's words."""
    return session.starts_at.astimezone(zone(tz)).strftime("%Y-%m-%d %H:%M")


async def live_member(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> Member:
    member = await session.scalar(select(Member).where(Member.org_id == org_id, Member.id == member_id,
                                                       Member.deleted_at.is_(None)))
    if member is None:
        raise GymError("member_not_found", f"No member with id {member_id} in this gym.",
                       "Search for the member first and use an id from the results.", status=404)
    return member


async def locked_session(session: AsyncSession, org_id: uuid.UUID, session_id: uuid.UUID) -> ClassSession:
    """The session, locked until the transaction ends, so two desks never sell its last seat twice."""
    row = await session.scalar(select(ClassSession).where(ClassSession.org_id == org_id,
                                                          ClassSession.id == session_id).with_for_update())
    if row is None:
        raise GymError("class_session_not_found", f"No class session with id {session_id} in this gym.",
                       "Call class_sessions__list_for_date for that day and use a session id from it.", status=404)
    return row


async def taken_seats(session: AsyncSession, org_id: uuid.UUID, session_id: uuid.UUID) -> int:
    return await session.scalar(select(func.count()).where(
        Booking.org_id == org_id, Booking.session_id == session_id, Booking.status.in_(FILLED))) or 0


def check_open(row: ClassSession, tz: Tz, now: datetime) -> None:
    """A session the desk can still change bookings of: not cancelled, not started."""
    if row.cancelled_at is not None:
        raise GymError("session_cancelled", "this session was cancelled", "Pick another session.",
                       title=row.title, when=when(row, tz))
    if row.starts_at <= now:
        raise GymError("session_past", f"{row.title} at {when(row, tz)} has already started.",
                       "Bookings of a session that started cannot change; pick a later session.",
                       title=row.title, when=when(row, tz))


async def check_may_train(session: AsyncSession, org_id: uuid.UUID, member: Member, day: date, tz: Tz,
                          now: datetime) -> None:
    """A member may come on the local `day`: not cancelled, not frozen that day (bookings and check-ins alike)."""
    if member.status == "cancelled":
        raise GymError("member_cancelled", f"{member.full_name}'s membership is cancelled.",
                       "Tell the user; a cancelled member cannot book or check in.", member=member.full_name)
    if await frozen_on(session, org_id, member, day, local_today(tz, now)):
        raise GymError("member_frozen", f"{member.full_name}'s membership is frozen on {day.isoformat()}.",
                       "Tell the user; unfreeze the membership first if they should come.",
                       member=member.full_name, day=day.isoformat())


async def check_bookable(session: AsyncSession, org_id: uuid.UUID, member: Member, row: ClassSession, tz: Tz,
                         now: datetime) -> None:
    """Every reason this member may not take a seat in this session (but a full session): refused in words."""
    check_open(row, tz, now)
    await check_may_train(session, org_id, member, row.starts_at.astimezone(zone(tz)).date(), tz, now)
    existing = await session.scalar(select(Booking.status).where(
        Booking.org_id == org_id, Booking.session_id == row.id, Booking.member_id == member.id))
    if existing in FILLED:
        raise GymError("already_booked", "the member is already booked", status=409, member=member.full_name,
                       title=row.title, when=when(row, tz))
    clash = await session.scalar(
        select(ClassSession).join(Booking, Booking.session_id == ClassSession.id).where(
            Booking.org_id == org_id, Booking.member_id == member.id, Booking.status.in_(FILLED),
            ClassSession.id != row.id, ClassSession.cancelled_at.is_(None),
            ClassSession.starts_at < row.ends_at, ClassSession.ends_at > row.starts_at).limit(1))
    if clash is not None:
        raise GymError("booking_overlap", f"{member.full_name} is booked into {clash.title} at {when(clash, tz)}.",
                       "Tell the user about the other booking; cancel it first if they want this one.", status=409,
                       member=member.full_name, title=clash.title, when=when(clash, tz))


async def _take_seat(session: AsyncSession, org_id: uuid.UUID, row: ClassSession, member: Member,
                     now: datetime) -> Booking:
    booking = await session.scalar(select(Booking).where(Booking.org_id == org_id, Booking.session_id == row.id,
                                                         Booking.member_id == member.id))
    booking = booking or Booking(id=uuid.uuid4(), org_id=org_id, session_id=row.id, member_id=member.id)
    booking.status, booking.booked_at, booking.checked_in_at = "booked", now, None
    session.add(booking)
    await session.flush()
    return booking


async def book(session: AsyncSession, org_id: uuid.UUID, *, session_id: uuid.UUID, member_id: uuid.UUID, tz: Tz,
               now: datetime) -> Seat:
    """A member into a session (a cancelled booking of theirs is re-opened); a full one offers the waitlist."""
    row = await locked_session(session, org_id, session_id)
    member = await live_member(session, org_id, member_id)
    await check_bookable(session, org_id, member, row, tz, now)
    taken = await taken_seats(session, org_id, row.id)
    if taken >= row.capacity:
        raise GymError("session_full", f"{row.title} at {when(row, tz)} is full ({row.capacity} places).",
                       "Offer the waitlist (bookings__join_waitlist) and add them only if the user agrees.",
                       status=409, title=row.title, when=when(row, tz), capacity=row.capacity,
                       member=member.full_name, next_step="join_waitlist")
    booking = await _take_seat(session, org_id, row, member, now)
    entry = await session.scalar(select(WaitlistEntry).where(
        WaitlistEntry.org_id == org_id, WaitlistEntry.session_id == row.id, WaitlistEntry.member_id == member.id,
        WaitlistEntry.left_at.is_(None), WaitlistEntry.promoted_at.is_(None)))
    if entry is not None:  # booked by hand while waiting: they no longer wait
        entry.promoted_at, entry.booking_id = now, booking.id
    return Seat(booking, None, member, row, taken + 1, [])


async def cancel(session: AsyncSession, org_id: uuid.UUID, *, booking_id: uuid.UUID, tz: Tz, now: datetime) -> Seat:
    """Cancel a booking of a session not started yet; the freed seat goes to the waitlist, in order."""
    booking = await session.scalar(select(Booking).where(Booking.org_id == org_id, Booking.id == booking_id))
    if booking is None:
        raise GymError("booking_not_found", f"No booking with id {booking_id} in this gym.",
                       "List the member's bookings (bookings__list_mine with memberId) and use an id from it.",
                       status=404)
    row = await locked_session(session, org_id, booking.session_id)
    member = await live_member(session, org_id, booking.member_id)
    check_open(row, tz, now)
    if booking.status not in FILLED:
        raise GymError("booking_not_active", f"{member.full_name}'s booking is already {booking.status}.",
                       "Nothing to cancel; tell the user.", member=member.full_name, title=row.title,
                       when=when(row, tz))
    booking.status, booking.checked_in_at = "cancelled", None
    await session.flush()
    promoted = await promote(session, org_id, row, tz, now)
    return Seat(booking, None, member, row, await taken_seats(session, org_id, row.id), promoted)


async def promote(session: AsyncSession, org_id: uuid.UUID, row: ClassSession, tz: Tz,
                  now: datetime) -> list[tuple[Member, Booking]]:
    """Fill free seats from the waitlist in the order people joined; anyone the rules now refuse keeps waiting."""
    promoted: list[tuple[Member, Booking]] = []
    entries = (await session.scalars(select(WaitlistEntry).where(
        WaitlistEntry.org_id == org_id, WaitlistEntry.session_id == row.id, WaitlistEntry.left_at.is_(None),
        WaitlistEntry.promoted_at.is_(None)).order_by(WaitlistEntry.joined_at, WaitlistEntry.id))).all()
    for entry in entries:
        if await taken_seats(session, org_id, row.id) >= row.capacity:
            break
        member = await live_member(session, org_id, entry.member_id)
        try:
            await check_bookable(session, org_id, member, row, tz, now)
        except GymError:
            continue
        booking = await _take_seat(session, org_id, row, member, now)
        entry.promoted_at, entry.booking_id = now, booking.id
        promoted.append((member, booking))
    await session.flush()
    return promoted


async def join_waitlist(session: AsyncSession, org_id: uuid.UUID, *, session_id: uuid.UUID, member_id: uuid.UUID,
                        tz: Tz, now: datetime, created_by: uuid.UUID | None,
                        restore: uuid.UUID | None = None) -> Seat:
    """Put a member at the end of a full session's waitlist (`restore`: an entry they left, back in its place)."""
    row = await locked_session(session, org_id, session_id)
    member = await live_member(session, org_id, member_id)
    await check_bookable(session, org_id, member, row, tz, now)
    taken = await taken_seats(session, org_id, row.id)
    if taken < row.capacity:
        raise GymError("session_has_room", f"{row.title} at {when(row, tz)} still has {row.capacity - taken} free "
                       "place(s).", "Book the member instead (bookings__book_member).",
                       title=row.title, when=when(row, tz), free=row.capacity - taken)
    entry = await session.scalar(select(WaitlistEntry).where(
        WaitlistEntry.org_id == org_id, WaitlistEntry.session_id == row.id, WaitlistEntry.member_id == member.id))
    if entry is not None and entry.left_at is None and entry.promoted_at is None:
        raise GymError("already_waiting", f"{member.full_name} is already on the waitlist.", status=409,
                       member=member.full_name, title=row.title, when=when(row, tz))
    if entry is None:
        entry = WaitlistEntry(id=uuid.uuid4(), org_id=org_id, session_id=row.id, member_id=member.id,
                              created_by=created_by)
        session.add(entry)
    if restore is None or entry.id != restore:
        entry.joined_at = now
    entry.left_at = entry.promoted_at = entry.booking_id = None
    await session.flush()
    return Seat(None, entry, member, row, taken, [])


async def leave_waitlist(session: AsyncSession, org_id: uuid.UUID, *, entry_id: uuid.UUID, tz: Tz,
                         now: datetime) -> Seat:
    entry = await session.scalar(select(WaitlistEntry).where(WaitlistEntry.org_id == org_id,
                                                             WaitlistEntry.id == entry_id))
    if entry is None or entry.left_at is not None or entry.promoted_at is not None:
        raise GymError("waitlist_entry_not_found", f"No one waiting with entry id {entry_id}.",
                       "List the session's waitlist and use an entry id from it.", status=404)
    row = await locked_session(session, org_id, entry.session_id)
    member = await live_member(session, org_id, entry.member_id)
    entry.left_at = now
    await session.flush()
    return Seat(None, entry, member, row, await taken_seats(session, org_id, row.id), [])


async def waitlist_position(session: AsyncSession, org_id: uuid.UUID, entry: WaitlistEntry) -> int:
    """1 for the first in line."""
    ahead = await session.scalar(select(func.count()).where(
        WaitlistEntry.org_id == org_id, WaitlistEntry.session_id == entry.session_id, WaitlistEntry.left_at.is_(None),
        WaitlistEntry.promoted_at.is_(None), WaitlistEntry.joined_at < entry.joined_at))
    return (ahead or 0) + 1


async def find_booking(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                       session_id: uuid.UUID) -> Booking | None:
    return await session.scalar(select(Booking).where(Booking.org_id == org_id, Booking.member_id == member_id,
                                                      Booking.session_id == session_id))


async def find_entry(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                     session_id: uuid.UUID) -> WaitlistEntry | None:
    return await session.scalar(select(WaitlistEntry).where(
        WaitlistEntry.org_id == org_id, WaitlistEntry.member_id == member_id, WaitlistEntry.session_id == session_id,
        WaitlistEntry.left_at.is_(None), WaitlistEntry.promoted_at.is_(None)))


async def booked_members(session: AsyncSession, org_id: uuid.UUID, session_id: uuid.UUID) -> list[Member]:
    """Who holds a seat in the session (booked or already checked in), by name."""
    return list((await session.scalars(select(Member).join(Booking, Booking.member_id == Member.id).where(
        Booking.org_id == org_id, Booking.session_id == session_id, Booking.status.in_(FILLED),
        Member.deleted_at.is_(None)).order_by(Member.full_name))).all())


async def held_sessions(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, now: datetime, *,
                        limit: int = 40) -> list[ClassSession]:
    """The member's coming classes that go ahead and in which they hold a seat, soonest first."""
    return list((await session.execute(select(ClassSession).join(Booking, Booking.session_id == ClassSession.id).where(
        Booking.org_id == org_id, Booking.member_id == member_id, Booking.status.in_(FILLED),
        ClassSession.cancelled_at.is_(None), ClassSession.starts_at >= now).order_by(ClassSession.starts_at)
        .limit(limit))).scalars().all())


def local_day(row: ClassSession, tz: Tz) -> date:
    return row.starts_at.astimezone(zone(tz)).date()


async def member_bookings(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, tz: Tz, now: datetime, *,
                          upcoming: int = 20, past: int = 10) -> dict[str, list[dict]]:
    """A member's own classes: the coming ones (soonest first) and the latest past ones, with their waitlist places,
    in the gym's local day and time."""
    def shown(row: dict) -> dict:
        start, end = row["starts_at"].astimezone(zone(tz)), row["ends_at"].astimezone(zone(tz))
        return {"id": row["id"], "sessionId": row["session_id"], "title": row["title"],
                "date": start.date().isoformat(), "start": start.strftime("%H:%M"), "end": end.strftime("%H:%M"),
                "status": row["status"], "sessionCancelled": row["cancelled_at"] is not None}

    ahead = await list_member_bookings(session, org_id, member_id, start=now, limit=upcoming)
    behind = await list_member_bookings(session, org_id, member_id, end=now, limit=past)
    waiting = (await session.execute(
        select(WaitlistEntry, ClassSession).join(ClassSession, ClassSession.id == WaitlistEntry.session_id)
        .where(WaitlistEntry.org_id == org_id, WaitlistEntry.member_id == member_id, WaitlistEntry.left_at.is_(None),
               WaitlistEntry.promoted_at.is_(None), ClassSession.starts_at >= now)
        .order_by(ClassSession.starts_at))).all()
    waitlist = []
    for entry, row in waiting:
        start = row.starts_at.astimezone(zone(tz))
        waitlist.append({"id": entry.id, "sessionId": row.id, "title": row.title, "date": start.date().isoformat(),
                         "start": start.strftime("%H:%M"), "position": await waitlist_position(session, org_id, entry)})
    return {"upcoming": [shown(r) for r in reversed(ahead)], "past": [shown(r) for r in behind],
            "waitlist": waitlist}
