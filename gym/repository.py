"""One org-scoped repository for a model: get a live row, patch the fields a service allows, soft delete.

The repository idea of advanced-alchemy, kept small: each service declares one `OrgRepository` and keeps
only its own rules (checks that run in `before`, between the lookup and the write).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import Any, Generic, TypeVar
from uuid import UUID

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from gym.errors import GymError

M = TypeVar("M")


class OrgRepository(Generic[M]):
    def __init__(self, model: type[M], entity: str, updatable: frozenset[str], *, unknown_code: str = "invalid_field",
                 hint: str = "", deleted: str | None = "deleted_at") -> None:
        self.model, self.entity, self.updatable = model, entity, updatable
        self.unknown_code, self.hint, self.deleted = unknown_code, hint, deleted

    async def get(self, session: AsyncSession, org_id: UUID, row_id: UUID) -> M | None:
        """The row in this org, None when missing or soft-deleted."""
        model: Any = self.model
        query = select(model).where(model.org_id == org_id, model.id == row_id)
        if self.deleted:
            query = query.where(getattr(model, self.deleted).is_(None))
        return await session.scalar(query)

    def check_fields(self, changes: Mapping[str, Any]) -> None:
        unknown = set(changes) - self.updatable
        if unknown:
            raise GymError(self.unknown_code, f"Cannot change {', '.join(sorted(unknown))} on a {self.entity}.",
                           f"Changeable fields: {', '.join(sorted(self.updatable))}.{self.hint}")

    async def patch(self, session: AsyncSession, org_id: UUID, row_id: UUID, changes: Mapping[str, Any], *,
                    before: Callable[[M], Awaitable[None]] | None = None) -> M | None:
        """Set the allowed `changes` after `before(row)` (the service's own checks); None when missing."""
        self.check_fields(changes)
        row = await self.get(session, org_id, row_id)
        if row is None:
            return None
        if before is not None:
            await before(row)
        for field, value in changes.items():
            setattr(row, field, value)
        await session.flush()
        return row

    async def soft_delete(self, session: AsyncSession, org_id: UUID, row_id: UUID, now: datetime) -> M | None:
        """Mark the live row deleted and return it (one UPDATE ... RETURNING); None when missing or already
        deleted."""
        model: Any = self.model
        column = getattr(model, self.deleted or "deleted_at")
        query = update(model).where(model.org_id == org_id, model.id == row_id)
        if self.deleted:
            query = query.where(column.is_(None))
        return await session.scalar(query.values({column: now}).returning(model))
