"""Forms members must sign (waiver, PAR-Q, health declaration, custom) and who still owes which."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, String, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from core.database import Base
from core.mixins import CreatedAt, OrgRow
from gym.errors import GymError
from gym.members import Member

FORM_TYPES: tuple[str, ...] = ("waiver", "parq", "health", "custom")
ASSIGNMENT_STATUSES: tuple[str, ...] = ("pending", "completed", "expired")


class Form(OrgRow, CreatedAt, Base):
    __tablename__ = "forms"

    name: Mapped[str] = mapped_column(String(200))
    type_key: Mapped[str] = mapped_column(String(10))
    active: Mapped[bool] = mapped_column(default=True)


class FormAssignment(OrgRow, Base):
    __tablename__ = "form_assignments"

    form_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("forms.id", ondelete="CASCADE"))
    member_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"))
    status: Mapped[str] = mapped_column(String(10), default="pending")
    assigned_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    due_on: Mapped[date | None]
    completed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


async def list_forms(session: AsyncSession, org_id: uuid.UUID, *, active_only: bool = True) -> list[Form]:
    query = select(Form).where(Form.org_id == org_id)
    if active_only:
        query = query.where(Form.active.is_(True))
    return list((await session.scalars(query.order_by(Form.type_key, Form.name))).all())


async def create_form(session: AsyncSession, org_id: uuid.UUID, *, name: str, type_key: str,
                      active: bool = True) -> Form:
    if type_key not in FORM_TYPES:
        raise GymError("invalid_form_type", f"type must be one of {', '.join(FORM_TYPES)}")
    form = Form(id=uuid.uuid4(), org_id=org_id, name=name.strip(), type_key=type_key, active=active)
    session.add(form)
    await session.flush()
    return form


async def assign_form(session: AsyncSession, org_id: uuid.UUID, *, form_id: uuid.UUID, member_id: uuid.UUID,
                      now: datetime, due_on: date | None = None) -> FormAssignment | None:
    """Ask a member to fill a form; None when the form or member is not in this org."""
    form = await session.scalar(select(Form.id).where(Form.org_id == org_id, Form.id == form_id))
    member = await session.scalar(select(Member.id).where(Member.org_id == org_id, Member.id == member_id,
                                                          Member.deleted_at.is_(None)))
    if form is None or member is None:
        return None
    assignment = FormAssignment(id=uuid.uuid4(), org_id=org_id, form_id=form_id, member_id=member_id,
                                status="pending", assigned_at=now, due_on=due_on)
    session.add(assignment)
    await session.flush()
    return assignment


async def set_assignment_status(session: AsyncSession, org_id: uuid.UUID, assignment_id: uuid.UUID, status: str,
                                *, now: datetime) -> FormAssignment | None:
    if status not in ASSIGNMENT_STATUSES:
        raise GymError("invalid_form_status", f"status must be one of {', '.join(ASSIGNMENT_STATUSES)}")
    assignment = await session.scalar(select(FormAssignment).where(FormAssignment.org_id == org_id,
                                                                   FormAssignment.id == assignment_id))
    if assignment is None:
        return None
    assignment.status = status
    assignment.completed_at = now if status == "completed" else None
    await session.flush()
    return assignment


async def list_pending_for_org(session: AsyncSession, org_id: uuid.UUID, *, type_key: str | None = None,
                               today: date | None = None, limit: int = 50) -> dict[str, Any]:
    """Pending assignments of live members, soonest due first; `overdue` counts those due before `today`."""
    where = [FormAssignment.org_id == org_id, FormAssignment.status == "pending", Member.deleted_at.is_(None)]
    if type_key:
        where.append(Form.type_key == type_key)
    base = (select(FormAssignment.id).join(Form, Form.id == FormAssignment.form_id)
            .join(Member, Member.id == FormAssignment.member_id).where(*where))
    count = await session.scalar(select(func.count()).select_from(base.subquery()))
    overdue = 0
    if today is not None:
        overdue = await session.scalar(select(func.count()).select_from(
            base.where(FormAssignment.due_on < today).subquery())) or 0
    rows = (await session.execute(
        select(FormAssignment.id, FormAssignment.due_on, FormAssignment.assigned_at, Form.id.label("form_id"),
               Form.name.label("form_name"), Form.type_key, Member.id.label("member_id"), Member.full_name)
        .join(Form, Form.id == FormAssignment.form_id).join(Member, Member.id == FormAssignment.member_id)
        .where(*where).order_by(FormAssignment.due_on.asc().nulls_last(), Member.full_name).limit(limit))).all()
    return {"count": count or 0, "overdue": overdue, "assignments": [dict(r._mapping) for r in rows]}


async def pending_count_for_member(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> int:
    return await session.scalar(select(func.count()).where(
        FormAssignment.org_id == org_id, FormAssignment.member_id == member_id,
        FormAssignment.status == "pending")) or 0


async def compliance_status_for_member(session: AsyncSession, org_id: uuid.UUID,
                                       member_id: uuid.UUID) -> dict[str, Any] | None:
    """Per type_key: the latest assignment's state (completed / pending / expired), or missing.

    `required` is false when the gym has no active form of that type (nothing to sign, so nothing missing).
    None when the member is not in this org.
    """
    member = await session.scalar(select(Member.id).where(Member.org_id == org_id, Member.id == member_id,
                                                          Member.deleted_at.is_(None)))
    if member is None:
        return None
    active_types = set((await session.scalars(select(Form.type_key).where(
        Form.org_id == org_id, Form.active.is_(True)).distinct())).all())
    rows = (await session.execute(
        select(Form.type_key, Form.name, FormAssignment.status, FormAssignment.assigned_at, FormAssignment.due_on,
               FormAssignment.completed_at)
        .join(Form, Form.id == FormAssignment.form_id)
        .where(FormAssignment.org_id == org_id, FormAssignment.member_id == member_id)
        .order_by(Form.type_key, FormAssignment.assigned_at.desc()))).all()
    latest: dict[str, Any] = {}
    for row in rows:
        latest.setdefault(row.type_key, row)
    statuses = {}
    for type_key in FORM_TYPES:
        found = latest.get(type_key)
        statuses[type_key] = {
            "status": found.status if found else "missing", "required": type_key in active_types,
            "form_name": found.name if found else None, "assigned_at": found.assigned_at if found else None,
            "due_on": found.due_on if found else None, "completed_at": found.completed_at if found else None}
    compliant = all(s["status"] == "completed" for s in statuses.values() if s["required"])
    return {"member_id": member_id, "compliant": compliant, "by_type": statuses}
