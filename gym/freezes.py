"""Membership freezes: a member's membership paused from one local day to another, with its reason.

The recorded freezes decide: `frozen_on(day)` is the one rule the desk's bookings and check-ins ask, by date, so a
freeze that starts next week already refuses next week's classes and one that ended refuses nothing. The member's
`status` follows: a freeze that covers today makes them `frozen` at once (their status before it is kept), and the
worker's `membership_freezes` job, queued for the local midnights a freeze starts and ends, sets it when the day
comes (`sync_status`). Unfreezing lifts the freeze that holds today (or the next one) and gives the status back.
"""

from __future__ import annotations

import json
import uuid
from datetime import date, datetime, timedelta

from sqlalchemy import Date, DateTime, ForeignKey, String, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from core.database import Base
from core.mixins import CreatedAt, OrgRow
from gym.errors import GymError
from gym.job_queue import enqueue, session_entrypoint
from gym.members import Member
from gym.periods import Tz, local_midnight

ENTRYPOINT = "membership_freezes"  # the worker's job: set one member's status as their freezes say today
MAX_FREEZE_DAYS = 180
MAX_START_AHEAD_DAYS = 90
LEGACY_REFREEZE_DAYS = 30  # a member frozen before freezes were recorded: an undo of their unfreeze freezes this long


class MembershipFreeze(OrgRow, CreatedAt, Base):
    __tablename__ = "membership_freezes"

    member_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"))
    starts_on: Mapped[date] = mapped_column(Date)
    ends_on: Mapped[date] = mapped_column(Date)
    reason: Mapped[str | None] = mapped_column(String(300))
    previous_status: Mapped[str] = mapped_column(String(10))
    created_by: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    unfrozen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


async def freeze_on(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                    day: date) -> MembershipFreeze | None:
    """The standing freeze that covers the local `day`, if any."""
    return await session.scalar(select(MembershipFreeze).where(
        MembershipFreeze.org_id == org_id, MembershipFreeze.member_id == member_id,
        MembershipFreeze.unfrozen_at.is_(None), MembershipFreeze.starts_on <= day, MembershipFreeze.ends_on >= day))


async def _recorded(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> MembershipFreeze | None:
    """The member's latest recorded freeze, lifted or not."""
    return await session.scalar(select(MembershipFreeze).where(
        MembershipFreeze.org_id == org_id, MembershipFreeze.member_id == member_id)
        .order_by(MembershipFreeze.starts_on.desc(), MembershipFreeze.created_at.desc()).limit(1))


async def frozen_on(session: AsyncSession, org_id: uuid.UUID, member: Member, day: date, today: date) -> bool:
    """Whether the member may not train on `day`: a standing freeze covers it; or they are `frozen` with no freeze
    recorded at all (frozen before freezes were recorded: until someone unfreezes them)."""
    if await freeze_on(session, org_id, member.id, day) is not None:
        return True
    return member.status == "frozen" and await _recorded(session, org_id, member.id) is None


async def sync_status(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, today: date) -> str | None:
    """The member's status as their freezes say today (the worker runs it on the days a freeze starts and ends);
    returns the status, or None for a member who is gone."""
    member = await session.scalar(select(Member).where(Member.org_id == org_id, Member.id == member_id,
                                                       Member.deleted_at.is_(None)).with_for_update())
    if member is None:
        return None
    current = await freeze_on(session, org_id, member.id, today)
    if current is not None and member.status not in ("frozen", "cancelled"):
        member.status = "frozen"
    elif current is None and member.status == "frozen":
        latest = await _recorded(session, org_id, member.id)
        if latest is not None:
            member.status = latest.previous_status if latest.previous_status != "frozen" else "active"
    await session.flush()
    return member.status


def payload_of(org_id: uuid.UUID, member_id: uuid.UUID) -> bytes:
    return json.dumps({"org_id": str(org_id), "member_id": str(member_id)}).encode()


def member_of(payload: bytes | None) -> tuple[uuid.UUID, uuid.UUID]:
    data = json.loads(payload or b"{}")
    return uuid.UUID(data["org_id"]), uuid.UUID(data["member_id"])


async def _wake_at(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, days: list[date], tz: Tz,
                   now: datetime) -> None:
    """Queue the status job for each local midnight in `days` (in this transaction)."""
    for day in days:
        await enqueue(session, session_entrypoint(session, ENTRYPOINT), payload_of(org_id, member_id),
                      org_id=org_id, execute_after=max(local_midnight(day, tz) - now, timedelta(0)))


async def _member(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> Member:
    member = await session.scalar(select(Member).where(Member.org_id == org_id, Member.id == member_id,
                                                       Member.deleted_at.is_(None)).with_for_update())
    if member is None:
        raise GymError("member_not_found", f"No member with id {member_id} in this gym.",
                       "Search for the member first and use an id from the results.", status=404)
    return member


async def freeze(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, *, starts_on: date, ends_on: date,
                 reason: str | None, today: date, created_by: uuid.UUID | None, tz: Tz,
                 now: datetime) -> tuple[MembershipFreeze, Member]:
    """Record a freeze; one that covers today makes the member `frozen` now, and the worker is woken for the days
    it starts (when later) and ends."""
    member = await _member(session, org_id, member_id)
    if member.status == "cancelled":
        raise GymError("member_cancelled", f"{member.full_name}'s membership is cancelled.",
                       "A cancelled membership cannot be frozen; tell the user.", member=member.full_name)
    if ends_on < starts_on:
        raise GymError("freeze_dates", "A freeze must end on or after the day it starts.",
                       "Give an end day on or after the start day.")
    if starts_on < today:
        raise GymError("freeze_in_past", "A freeze cannot start before today.", "Start it today or later.")
    if starts_on > today + timedelta(days=MAX_START_AHEAD_DAYS):
        raise GymError("freeze_too_far", f"A freeze can start at most {MAX_START_AHEAD_DAYS} days ahead.",
                       "Pick a nearer start day.", days=MAX_START_AHEAD_DAYS)
    if (ends_on - starts_on).days + 1 > MAX_FREEZE_DAYS:
        raise GymError("freeze_too_long", f"A freeze can last at most {MAX_FREEZE_DAYS} days.",
                       "Shorten it, or ask whether the membership should be cancelled instead.", days=MAX_FREEZE_DAYS)
    clash = await session.scalar(select(MembershipFreeze).where(
        MembershipFreeze.org_id == org_id, MembershipFreeze.member_id == member.id,
        MembershipFreeze.unfrozen_at.is_(None), MembershipFreeze.starts_on <= ends_on,
        MembershipFreeze.ends_on >= starts_on))
    if clash is not None or (member.status == "frozen" and starts_on <= today):
        raise GymError("already_frozen", f"{member.full_name} is already frozen for some of those days.",
                       "Tell the user; unfreeze first if the dates should change.", member=member.full_name)
    row = MembershipFreeze(id=uuid.uuid4(), org_id=org_id, member_id=member.id, starts_on=starts_on, ends_on=ends_on,
                           reason=(reason or "").strip()[:300] or None, previous_status=member.status,
                           created_by=created_by)
    session.add(row)
    if starts_on <= today:
        member.status = "frozen"
    await session.flush()
    await _wake_at(session, org_id, member.id, [d for d in (starts_on, ends_on + timedelta(days=1)) if d > today],
                   tz, now)
    return row, member


async def freeze_to_lift(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, today: date, *,
                         lock: bool = False) -> MembershipFreeze | None:
    """The freeze an unfreeze lifts: the one that holds today, else the next one (locked when `lock`)."""
    query = select(MembershipFreeze).where(
        MembershipFreeze.org_id == org_id, MembershipFreeze.member_id == member_id,
        MembershipFreeze.unfrozen_at.is_(None), MembershipFreeze.ends_on >= today).order_by(
        MembershipFreeze.starts_on).limit(1)
    return await session.scalar(query.with_for_update() if lock else query)


async def unfreeze(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, *, today: date,
                   now: datetime, created_by: uuid.UUID | None = None) -> tuple[MembershipFreeze, Member]:
    """Lift the freeze that holds today (else the next one); the member's status before it comes back."""
    member = await _member(session, org_id, member_id)
    row = await freeze_to_lift(session, org_id, member.id, today, lock=True)
    if row is None and member.status == "frozen":  # frozen before freezes were recorded: record the one lifted now
        row = MembershipFreeze(id=uuid.uuid4(), org_id=org_id, member_id=member.id, starts_on=today,
                               ends_on=today + timedelta(days=LEGACY_REFREEZE_DAYS - 1), reason=None,
                               previous_status="active", created_by=created_by)
        session.add(row)
    if row is None:
        raise GymError("not_frozen", f"{member.full_name} has no freeze to lift.",
                       "Tell the user the membership is not frozen.", member=member.full_name)
    row.unfrozen_at = now
    if member.status == "frozen" and row.starts_on <= today:
        member.status = row.previous_status if row.previous_status != "frozen" else "active"
    await session.flush()
    return row, member
