"""Class types, scheduled class sessions, bookings, and the attendance numbers analytics reads.

Times are aware instants; "a day" always means a local day in the gym's timezone. Bulk operations pick
their ids once from a `SessionFilter` and then act on exactly those ids, so the preview and the change
cover the same set.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import DateTime, ForeignKey, String, UniqueConstraint, and_, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from core.database import Base
from core.mixins import CreatedAt, OrgRow
from core.tenancy import User
from gym.errors import GymError
from gym.fingerprint import fingerprint
from gym.members import Member
from gym.periods import Tz, day_range
from gym.repository import OrgRepository

BOOKING_STATUSES: tuple[str, ...] = ("booked", "attended", "no_show", "cancelled")
SAME_DAY_HINT = "A session must end after it starts on the same local day; check start and end."
FILLED = ("booked", "attended")  # what occupies a spot for utilization
SESSION_FIELDS = frozenset({"title", "starts_at", "ends_at", "capacity", "coach_user_id", "published",
                            "class_type_id", "program_id"})


class ClassType(OrgRow, CreatedAt, Base):
    __tablename__ = "class_types"

    program_id: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("programs.id", ondelete="SET NULL", name="fk_class_types_program_id_programs"))
    name: Mapped[str] = mapped_column(String(120))
    default_duration_min: Mapped[int] = mapped_column(default=60)
    default_capacity: Mapped[int] = mapped_column(default=16)
    color: Mapped[str | None] = mapped_column(String(9))


class ClassSession(OrgRow, CreatedAt, Base):
    __tablename__ = "class_sessions"

    class_type_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("class_types.id", ondelete="RESTRICT"))
    program_id: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("programs.id", ondelete="SET NULL", name="fk_class_sessions_program_id_programs"))
    title: Mapped[str] = mapped_column(String(200))
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ends_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    capacity: Mapped[int]
    coach_user_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    published: Mapped[bool] = mapped_column(default=False)
    cancelled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_by: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))


class Booking(OrgRow, Base):
    __tablename__ = "bookings"
    __table_args__ = (UniqueConstraint("session_id", "member_id", name="uq_bookings_session_member"),)

    session_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("class_sessions.id", ondelete="CASCADE"))
    member_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"))
    status: Mapped[str] = mapped_column(String(10), default="booked")
    booked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    checked_in_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class SessionRow:
    id: uuid.UUID
    title: str
    class_type_id: uuid.UUID
    class_type_name: str
    program_id: uuid.UUID | None
    starts_at: datetime
    ends_at: datetime
    capacity: int
    booked: int
    coach_user_id: uuid.UUID | None
    coach_name: str | None
    published: bool
    cancelled_at: datetime | None


@dataclass(frozen=True)
class SessionFilter:
    """Which sessions a bulk operation hits: local dates (inclusive) plus optional narrowing."""

    date_from: date | None = None
    date_to: date | None = None
    class_type_id: uuid.UUID | None = None
    program_id: uuid.UUID | None = None
    published: bool | None = None
    coach_user_id: uuid.UUID | None = None
    include_cancelled: bool = False


# --- class types ----------------------------------------------------------------------------------------

async def list_class_types(session: AsyncSession, org_id: uuid.UUID, *,
                           program_id: uuid.UUID | None = None) -> list[ClassType]:
    query = select(ClassType).where(ClassType.org_id == org_id)
    if program_id:
        query = query.where(ClassType.program_id == program_id)
    return list((await session.scalars(query.order_by(ClassType.name))).all())


async def get_class_type(session: AsyncSession, org_id: uuid.UUID, class_type_id: uuid.UUID) -> ClassType | None:
    return await session.scalar(select(ClassType).where(ClassType.org_id == org_id, ClassType.id == class_type_id))


async def create_class_type(session: AsyncSession, org_id: uuid.UUID, *, name: str, default_duration_min: int = 60,
                            default_capacity: int = 16, color: str | None = None,
                            program_id: uuid.UUID | None = None) -> ClassType:
    class_type = ClassType(id=uuid.uuid4(), org_id=org_id, name=name.strip(), program_id=program_id, color=color,
                           default_duration_min=default_duration_min, default_capacity=default_capacity)
    session.add(class_type)
    await session.flush()
    return class_type


# --- sessions -------------------------------------------------------------------------------------------

def _rows_query(org_id: uuid.UUID):
    booked = (select(func.count()).where(Booking.session_id == ClassSession.id, Booking.org_id == org_id,
                                         Booking.status.in_(FILLED))
              .correlate(ClassSession).scalar_subquery())
    return (select(ClassSession, ClassType.name, User.name, booked)
            .join(ClassType, ClassType.id == ClassSession.class_type_id)
            .outerjoin(User, User.id == ClassSession.coach_user_id)
            .where(ClassSession.org_id == org_id))


def _row(cs: ClassSession, type_name: str, coach_name: str | None, booked: int) -> SessionRow:
    return SessionRow(cs.id, cs.title, cs.class_type_id, type_name, cs.program_id, cs.starts_at, cs.ends_at,
                      cs.capacity, booked, cs.coach_user_id, coach_name, cs.published, cs.cancelled_at)


async def session_rows(session: AsyncSession, org_id: uuid.UUID, ids: Sequence[uuid.UUID]) -> list[SessionRow]:
    rows = (await session.execute(_rows_query(org_id).where(ClassSession.id.in_(list(ids)))
                                  .order_by(ClassSession.starts_at, ClassSession.title))).all()
    return [_row(*r) for r in rows]


async def list_sessions_for_date(session: AsyncSession, org_id: uuid.UUID, local_date: date, tz: Tz, *,
                                 include_cancelled: bool = True) -> list[SessionRow]:
    """Every session starting on the gym-local `local_date`, in start order, with booked counts."""
    day = day_range(local_date, local_date, tz, local_date.isoformat())
    query = _rows_query(org_id).where(ClassSession.starts_at >= day.start, ClassSession.starts_at < day.end)
    if not include_cancelled:
        query = query.where(ClassSession.cancelled_at.is_(None))
    rows = (await session.execute(query.order_by(ClassSession.starts_at, ClassSession.title))).all()
    return [_row(*r) for r in rows]


SESSIONS = OrgRepository(ClassSession, "class session", SESSION_FIELDS, unknown_code="unknown_session_field",
                         deleted=None)  # a session is cancelled, never deleted


async def get_session(session: AsyncSession, org_id: uuid.UUID, class_session_id: uuid.UUID) -> ClassSession | None:
    return await SESSIONS.get(session, org_id, class_session_id)


def _check_times(starts_at: datetime, ends_at: datetime, capacity: int) -> None:
    if starts_at.tzinfo is None or ends_at.tzinfo is None:
        raise GymError("naive_datetime", "session times must carry a timezone")
    if ends_at <= starts_at:
        raise GymError("invalid_time_range", "a session must end after it starts", SAME_DAY_HINT)
    if capacity < 1:
        raise GymError("invalid_capacity", "capacity must be at least 1")


async def _refuse_overlap(session: AsyncSession, org_id: uuid.UUID, class_type: Any, starts_at: datetime,
                          ends_at: datetime) -> None:
    clash = (await session.scalars(select(ClassSession.starts_at).where(
        ClassSession.org_id == org_id, ClassSession.class_type_id == class_type.id,
        ClassSession.cancelled_at.is_(None), ClassSession.starts_at < ends_at, ClassSession.ends_at > starts_at))).all()
    if clash:
        raise GymError("session_overlap", f"{len(clash)} {class_type.name} session(s) already overlap that time.",
                       "Tell the user it would overlap the existing session(s) and ask whether to schedule it "
                       "anyway; only if they agree, call class_sessions__create again with allowOverlap=true.",
                       count=len(clash), type=class_type.name, next_step="schedule_anyway")


async def create_session(session: AsyncSession, org_id: uuid.UUID, *, class_type_id: uuid.UUID, starts_at: datetime,
                         ends_at: datetime | None = None, capacity: int | None = None,
                         coach_user_id: uuid.UUID | None = None, published: bool = False, title: str | None = None,
                         program_id: uuid.UUID | None = None, created_by: uuid.UUID | None = None,
                         allow_overlap: bool = True) -> ClassSession | None:
    """Schedule a session; length, capacity, title and program default from the class type.

    None when the class type is not in this org. Without `allow_overlap`, a live session of the same class
    type overlapping that time is refused (`session_overlap`), so the agent says so and asks first.
    """
    class_type = await get_class_type(session, org_id, class_type_id)
    if class_type is None:
        return None
    ends_at = ends_at or starts_at + timedelta(minutes=class_type.default_duration_min)
    capacity = capacity or class_type.default_capacity
    _check_times(starts_at, ends_at, capacity)
    if not allow_overlap:
        await _refuse_overlap(session, org_id, class_type, starts_at, ends_at)
    row = ClassSession(id=uuid.uuid4(), org_id=org_id, class_type_id=class_type.id, title=title or class_type.name,
                       program_id=program_id or class_type.program_id, starts_at=starts_at, ends_at=ends_at,
                       capacity=capacity, coach_user_id=coach_user_id, published=published, created_by=created_by)
    session.add(row)
    await session.flush()
    return row


async def update_session(session: AsyncSession, org_id: uuid.UUID, class_session_id: uuid.UUID, /,
                         **changes: Any) -> ClassSession | None:
    """Patch fields in SESSION_FIELDS; refuses an end before the start or capacity below current bookings."""
    async def rules(row: ClassSession) -> None:
        if "class_type_id" in changes and await get_class_type(session, org_id, changes["class_type_id"]) is None:
            raise GymError("class_type_not_found", "no such class type in this gym", status=404)
        _check_times(changes.get("starts_at", row.starts_at), changes.get("ends_at", row.ends_at),
                     changes.get("capacity", row.capacity))
        if "capacity" in changes:
            booked = await session.scalar(select(func.count()).where(
                Booking.org_id == org_id, Booking.session_id == row.id, Booking.status.in_(FILLED)))
            if changes["capacity"] < (booked or 0):
                raise GymError("capacity_below_bookings", f"{booked} spots are already booked",
                               "Capacity cannot go below the spots already booked; pick a larger number.",
                               booked=booked)

    return await SESSIONS.patch(session, org_id, class_session_id, changes, before=rules)


async def set_published(session: AsyncSession, org_id: uuid.UUID, class_session_id: uuid.UUID,
                        published: bool) -> ClassSession | None:
    row = await get_session(session, org_id, class_session_id)
    if row is None:
        return None
    if row.cancelled_at is not None and published:
        raise GymError("session_cancelled", "a cancelled session cannot be published",
                       "This session was cancelled; create a new session instead.")
    row.published = published
    await session.flush()
    return row


async def cancel_session(session: AsyncSession, org_id: uuid.UUID, class_session_id: uuid.UUID,
                         now: datetime) -> ClassSession | None:
    """Soft-cancel (sets cancelled_at once; cancelling again keeps the first time)."""
    row = await get_session(session, org_id, class_session_id)
    if row is None:
        return None
    row.cancelled_at = row.cancelled_at or now
    await session.flush()
    return row


# --- bulk -----------------------------------------------------------------------------------------------

async def select_session_ids(session: AsyncSession, org_id: uuid.UUID, flt: SessionFilter, tz: Tz, *,
                             lock: bool = False) -> list[uuid.UUID]:
    """The ids a filter hits, in start order (with `lock`, each row locked FOR UPDATE until the transaction
    ends). A filter needs at least one date bound."""
    if flt.date_from is None and flt.date_to is None:
        raise GymError("session_filter_needs_dates", "give a date range for a bulk operation")
    first, last = flt.date_from or flt.date_to, flt.date_to or flt.date_from
    assert first is not None and last is not None  # one bound at least, checked above
    span = day_range(first, last, tz, "filter")
    where = [ClassSession.org_id == org_id, ClassSession.starts_at >= span.start, ClassSession.starts_at < span.end]
    if not flt.include_cancelled:
        where.append(ClassSession.cancelled_at.is_(None))
    for column, value in ((ClassSession.class_type_id, flt.class_type_id), (ClassSession.program_id, flt.program_id),
                          (ClassSession.published, flt.published), (ClassSession.coach_user_id, flt.coach_user_id)):
        if value is not None:
            where.append(column == value)
    query = select(ClassSession.id).where(*where).order_by(ClassSession.starts_at, ClassSession.id)
    return list((await session.scalars(query.with_for_update() if lock else query)).all())


async def confirmed_session_ids(session: AsyncSession, org_id: uuid.UUID, flt: SessionFilter, tz: Tz, *,
                                expected_ids: Collection[uuid.UUID] | None = None,
                                expected_fingerprint: str | None = None) -> list[uuid.UUID]:
    """The filter's ids, locked while they are compared with the preview and changed: refused
    (`bulk_set_changed`) when they differ from the ids or fingerprint the preview showed."""
    ids = await select_session_ids(session, org_id, flt, tz, lock=True)
    if ((expected_fingerprint is not None and expected_fingerprint != fingerprint(ids))
            or (expected_ids is not None and set(expected_ids) != set(ids))):
        raise GymError("bulk_set_changed",
                       f"The sessions matching this filter changed since the preview (now {len(ids)}); "
                       "nothing was changed.",
                       "Run class_sessions__bulk_preview again with the same filter, tell the user what "
                       "changed, and retry with the new fingerprint once they agree.")
    return ids


async def preview_sessions(session: AsyncSession, org_id: uuid.UUID, flt: SessionFilter, tz: Tz, *,
                           sample: int = 20) -> dict[str, Any]:
    """Dry run: how many sessions and which ids a bulk operation with this filter would touch."""
    ids = await select_session_ids(session, org_id, flt, tz)
    return {"count": len(ids), "ids": ids, "sessions": await session_rows(session, org_id, ids[:sample])}


async def _bulk_update(session: AsyncSession, org_id: uuid.UUID, ids: Sequence[uuid.UUID] | None,
                       flt: SessionFilter | None, tz: Tz | None, values: dict[str, Any]) -> list[uuid.UUID]:
    """Resolve the target ids once (given, or what the filter selects), update those that are not cancelled,
    and return the touched ids in target order."""
    if (ids is None) == (flt is None) or (flt is not None and tz is None):
        raise GymError("bulk_target_required", "give either ids, or a filter with the gym's timezone")
    target = await select_session_ids(session, org_id, flt, tz) if flt is not None and tz is not None \
        else list(ids or [])
    if not target:
        return []
    touched = (await session.scalars(
        update(ClassSession).where(ClassSession.org_id == org_id, ClassSession.id.in_(target),
                                   ClassSession.cancelled_at.is_(None))
        .values(**values).returning(ClassSession.id).execution_options(synchronize_session=False))).all()
    position = {session_id: i for i, session_id in enumerate(target)}
    return sorted(touched, key=position.__getitem__)


async def bulk_publish(session: AsyncSession, org_id: uuid.UUID, *, ids: Sequence[uuid.UUID] | None = None,
                       flt: SessionFilter | None = None, tz: Tz | None = None,
                       published: bool = True) -> list[uuid.UUID]:
    """Publish (or unpublish) exactly the given ids, or the ids the filter selects once; returns those touched."""
    return await _bulk_update(session, org_id, ids, flt, tz, {"published": published})


async def bulk_delete(session: AsyncSession, org_id: uuid.UUID, *, now: datetime,
                      ids: Sequence[uuid.UUID] | None = None, flt: SessionFilter | None = None,
                      tz: Tz | None = None) -> list[uuid.UUID]:
    """Soft-delete (cancel) exactly the given ids or the filter's ids; returns those newly cancelled."""
    return await _bulk_update(session, org_id, ids, flt, tz, {"cancelled_at": now})


# --- bookings -------------------------------------------------------------------------------------------

async def book(session: AsyncSession, org_id: uuid.UUID, *, class_session_id: uuid.UUID, member_id: uuid.UUID,
               now: datetime) -> Booking | None:
    """Write a seat (re-opens a cancelled booking); None if either is not in this org. Only the basic checks, for
    seeding and fixtures (it books past sessions too): the desk's booking, with every rule, is gym.bookings.book."""
    row = await get_session(session, org_id, class_session_id)
    member = await session.scalar(select(Member.id).where(Member.org_id == org_id, Member.id == member_id,
                                                          Member.deleted_at.is_(None)))
    if row is None or member is None:
        return None
    if row.cancelled_at is not None:
        raise GymError("session_cancelled", "this session was cancelled", "Book the member into another session.")
    existing = await session.scalar(select(Booking).where(Booking.org_id == org_id, Booking.session_id == row.id,
                                                          Booking.member_id == member_id))
    if existing is not None and existing.status != "cancelled":
        raise GymError("already_booked", "the member is already booked", status=409)
    taken = await session.scalar(select(func.count()).where(Booking.org_id == org_id, Booking.session_id == row.id,
                                                            Booking.status.in_(FILLED)))
    if (taken or 0) >= row.capacity:
        raise GymError("session_full", "the session is full", status=409, capacity=row.capacity)
    booking = existing or Booking(id=uuid.uuid4(), org_id=org_id, session_id=row.id, member_id=member_id)
    booking.status, booking.booked_at, booking.checked_in_at = "booked", now, None
    session.add(booking)
    await session.flush()
    return booking


async def set_booking_status(session: AsyncSession, org_id: uuid.UUID, booking_id: uuid.UUID, status: str, *,
                             now: datetime) -> Booking | None:
    """Check in (attended), mark a no-show or cancel; checking in moves the member's last visit forward."""
    if status not in BOOKING_STATUSES:
        raise GymError("invalid_booking_status", f"status must be one of {', '.join(BOOKING_STATUSES)}")
    booking = await session.scalar(select(Booking).where(Booking.org_id == org_id, Booking.id == booking_id))
    if booking is None:
        return None
    booking.status = status
    booking.checked_in_at = now if status == "attended" else None
    if status == "attended":
        await session.execute(update(Member).where(Member.org_id == org_id, Member.id == booking.member_id).values(
            last_visit_at=func.greatest(func.coalesce(Member.last_visit_at, now), now)))
    await session.flush()
    return booking


async def list_member_bookings(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, *,
                               start: datetime | None = None, end: datetime | None = None,
                               limit: int = 50) -> list[dict[str, Any]]:
    """One member's bookings (newest session first) with the session's title and times."""
    query = (select(Booking.id, Booking.status, Booking.checked_in_at, ClassSession.id.label("session_id"),
                    ClassSession.title, ClassSession.starts_at, ClassSession.ends_at, ClassSession.cancelled_at)
             .join(ClassSession, ClassSession.id == Booking.session_id)
             .where(Booking.org_id == org_id, Booking.member_id == member_id))
    if start:
        query = query.where(ClassSession.starts_at >= start)
    if end:
        query = query.where(ClassSession.starts_at < end)
    rows = (await session.execute(query.order_by(ClassSession.starts_at.desc()).limit(limit))).all()
    return [dict(r._mapping) for r in rows]


async def member_visit_counts(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                              now: datetime) -> dict[str, int]:
    """Visits in the last 30 days and upcoming (booked, not cancelled) sessions."""
    joined = and_(Booking.org_id == org_id, Booking.member_id == member_id, ClassSession.id == Booking.session_id)
    last_30, upcoming = (await session.execute(select(
        func.count().filter(Booking.status == "attended", ClassSession.starts_at >= now - timedelta(days=30),
                            ClassSession.starts_at < now),
        func.count().filter(Booking.status == "booked", ClassSession.starts_at >= now,
                            ClassSession.cancelled_at.is_(None)))
        .select_from(Booking).join(ClassSession, joined))).one()
    return {"last_30_days": last_30, "upcoming": upcoming}
