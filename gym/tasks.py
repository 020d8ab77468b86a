"""Staff tasks: a to-do list per gym (soft delete)."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Any

from sqlalchemy import ForeignKey, String, Text, select, text
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from core.database import Base
from core.mixins import OrgRow, Timestamps
from gym.repository import OrgRepository


class Task(OrgRow, Timestamps, Base):
    __tablename__ = "tasks"

    title: Mapped[str] = mapped_column(String(300))
    notes: Mapped[str | None] = mapped_column(Text)
    due_on: Mapped[date | None]
    priority: Mapped[str] = mapped_column(String(10), default="normal")
    status: Mapped[str] = mapped_column(String(10), default="open")
    assignee_user_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_by: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    completed_at: Mapped[datetime | None]
    deleted_at: Mapped[datetime | None]


async def list_tasks(session: AsyncSession, org_id: uuid.UUID, *, status: str | None = "open",
                     limit: int = 50) -> list[Task]:
    query = select(Task).where(Task.org_id == org_id, Task.deleted_at.is_(None))
    if status:
        query = query.where(Task.status == status)
    query = query.order_by(Task.due_on.asc().nulls_last(), Task.created_at.desc()).limit(limit)
    return list((await session.scalars(query)).all())


REPOSITORY = OrgRepository(Task, "task", frozenset({"title", "notes", "due_on", "priority", "status",
                                                    "completed_at"}))


async def get_task(session: AsyncSession, org_id: uuid.UUID, task_id: uuid.UUID) -> Task | None:
    return await REPOSITORY.get(session, org_id, task_id)


async def task_title(session: AsyncSession, org_id: uuid.UUID, task_id: uuid.UUID) -> str | None:
    """The live task's title alone: the delete card's words, on the confirm round trip bench.turn times, so it keeps
    the one-column SELECT the card had rather than loading the entity (get_task); None when missing or deleted."""
    return await session.scalar(text("SELECT title FROM tasks WHERE org_id = :org AND id = :id AND deleted_at IS NULL"),
                                {"org": org_id, "id": task_id})


async def update_task(session: AsyncSession, org_id: uuid.UUID, task_id: uuid.UUID,
                      changes: dict[str, Any]) -> Task | None:
    return await REPOSITORY.patch(session, org_id, task_id, changes)


async def create_task(session: AsyncSession, org_id: uuid.UUID, *, title: str, created_by: uuid.UUID | None,
                      notes: str | None = None, due_on: date | None = None, priority: str = "normal",
                      assignee_user_id: uuid.UUID | None = None) -> Task:
    task = Task(id=uuid.uuid4(), org_id=org_id, title=title, notes=notes, due_on=due_on, priority=priority,
                assignee_user_id=assignee_user_id, created_by=created_by, status="open")
    session.add(task)
    await session.flush()
    return task


async def soft_delete_task(session: AsyncSession, org_id: uuid.UUID, task_id: uuid.UUID, now: datetime) -> Task | None:
    return await REPOSITORY.soft_delete(session, org_id, task_id, now)
