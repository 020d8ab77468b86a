"""Gym members: the model, the one-member lookup, and create / update / soft delete with their rules.

Search lives in `gym.member_search`, the cross-domain profile in `gym.member_profile`, the counts over
members in `gym.member_analytics`: each builds on this module, which imports none of them.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, String, Text, func, literal, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from core.database import Base
from core.mixins import OrgRow, Timestamps
from gym.errors import GymError
from gym.repository import OrgRepository

MEMBER_STATUSES: tuple[str, ...] = ("lead", "active", "frozen", "cancelled")
EDITABLE_FIELDS = frozenset({"first_name", "last_name", "email", "phone", "status", "joined_at", "coach_user_id",
                             "user_id", "notes"})


class Member(OrgRow, Timestamps, Base):
    __tablename__ = "members"

    first_name: Mapped[str] = mapped_column(String(100))
    last_name: Mapped[str] = mapped_column(String(100), default="")
    full_name: Mapped[str] = mapped_column(String(201))
    email: Mapped[str | None] = mapped_column(String(320))
    phone: Mapped[str | None] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(10), default="active")
    joined_at: Mapped[date]
    coach_user_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    last_visit_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    user_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    notes: Mapped[str | None] = mapped_column(Text)
    messages_opted_out_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))  # no messages, ever
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class MemberOwned(OrgRow):
    """A member's own row: `id`, `org_id` and the member it belongs to, deleted with them (the training record,
    the food log)."""

    member_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"))


def full_name_of(first_name: str, last_name: str) -> str:
    return " ".join(part for part in (first_name.strip(), last_name.strip()) if part)


REPOSITORY = OrgRepository(Member, "member", EDITABLE_FIELDS, unknown_code="unknown_member_field")


async def get_member(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> Member | None:
    return await REPOSITORY.get(session, org_id, member_id)


async def member_name(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> str | None:
    """The member's full name, deleted or not (what a card or a past row names); None when unknown here."""
    return await session.scalar(select(Member.full_name).where(Member.org_id == org_id, Member.id == member_id))


async def live_members(session: AsyncSession, org_id: uuid.UUID, ids: Sequence[uuid.UUID]) -> list[Member]:
    """The live members among `ids`, in no order; the caller checks that every one was found."""
    return list((await session.scalars(select(Member).where(Member.org_id == org_id, Member.id.in_(ids),
                                                            Member.deleted_at.is_(None)))).all())


def _check_status(status: str) -> None:
    if status not in MEMBER_STATUSES:
        raise GymError("invalid_member_status", f"status must be one of {', '.join(MEMBER_STATUSES)}",
                       given=status)


async def _check_email_free(session: AsyncSession, org_id: uuid.UUID, email: str | None,
                            member_id: uuid.UUID | None = None) -> None:
    if not email:
        return
    taken = await session.scalar(select(Member.id).where(
        Member.org_id == org_id, func.lower(Member.email) == email.lower(), Member.deleted_at.is_(None),
        Member.id != member_id if member_id else literal(True)))
    if taken:
        raise GymError("member_email_taken", f"{email} already belongs to a member", status=409,
                       member_id=str(taken))


async def create_member(session: AsyncSession, org_id: uuid.UUID, *, first_name: str, last_name: str = "",
                        email: str | None = None, phone: str | None = None, status: str = "active",
                        joined_at: date | None = None, coach_user_id: uuid.UUID | None = None,
                        user_id: uuid.UUID | None = None, notes: str | None = None) -> Member:
    if not first_name.strip():
        raise GymError("member_name_required", "a member needs a first name")
    _check_status(status)
    await _check_email_free(session, org_id, email)
    member = Member(id=uuid.uuid4(), org_id=org_id, first_name=first_name.strip(), last_name=last_name.strip(),
                    full_name=full_name_of(first_name, last_name), email=email, phone=phone, status=status,
                    joined_at=joined_at or datetime.now(UTC).date(), coach_user_id=coach_user_id, user_id=user_id,
                    notes=notes)
    session.add(member)
    await session.flush()
    return member


async def update_member(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, /,
                        **changes: Any) -> Member | None:
    """Patch the given fields (see EDITABLE_FIELDS); keeps `full_name` in step with the name parts."""
    for name in ("first_name", "last_name"):
        if name in changes:
            changes[name] = (changes[name] or "").strip()

    async def rules(member: Member) -> None:
        if "status" in changes:
            _check_status(changes["status"])
        if changes.get("email") and changes["email"] != member.email:
            await _check_email_free(session, org_id, changes["email"], member.id)
        if "first_name" in changes and not changes["first_name"]:
            raise GymError("member_name_required", "a member needs a first name")
        member.full_name = full_name_of(changes.get("first_name", member.first_name),
                                        changes.get("last_name", member.last_name))

    return await REPOSITORY.patch(session, org_id, member_id, changes, before=rules)


async def soft_delete_member(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                             now: datetime) -> Member | None:
    return await REPOSITORY.soft_delete(session, org_id, member_id, now)
