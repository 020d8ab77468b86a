"""One org-scoped repository for a model: get a live row, patch the fields a service allows, soft delete.

The repository idea of advanced-alchemy, kept small: each service declares one `OrgRepository` and keeps
only its own rules (checks that run in `before`, between the lookup and the write).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import Any, Generic, TypeVar
from uuid import UUID

from sqlalchemy import Executable, Select, bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from gym.errors import GymError

M = TypeVar("M")


class OrgRepository(Generic[M]):
    def __init__(self, model: type[M], entity: str, updatable: frozenset[str], *, unknown_code: str = "invalid_field",
                 hint: str = "", deleted: str | None = "deleted_at") -> None:
        self.model, self.entity, self.updatable = model, entity, updatable
        self.unknown_code, self.hint = unknown_code, hint
        self._get = _get_statement(model, deleted)
        self._soft_delete = _soft_delete_statement(model, deleted) if deleted else None

    async def get(self, session: AsyncSession, org_id: UUID, row_id: UUID) -> M | None:
        """The row in this org, None when missing or soft-deleted."""
        return await session.scalar(self._get, {"r_org_id": org_id, "r_row_id": row_id})

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
        deleted. A row this session already holds is refreshed from what the UPDATE returned."""
        if self._soft_delete is None:
            raise TypeError(f"a {self.entity} is never deleted")
        return await session.scalar(self._soft_delete, {"r_org_id": org_id, "r_row_id": row_id, "r_now": now})


# Built once per repository with bind parameters (a service calls them per request).

def _where(table: Any, deleted: str | None) -> list[Any]:
    where = [table.c.org_id == bindparam("r_org_id"), table.c.id == bindparam("r_row_id")]
    return [*where, table.c[deleted].is_(None)] if deleted else where


def _get_statement(model: Any, deleted: str | None) -> Select:
    return select(model).where(*_where(model.__table__, deleted))


def _soft_delete_statement(model: Any, deleted: str) -> Executable:
    """A Core UPDATE ... RETURNING loaded as entities: an ORM-enabled UPDATE runs SQLAlchemy's bulk-update
    machinery around the same statement (~0.5 ms a call, measured)."""
    table = model.__table__
    return (select(model)
            .from_statement(update(table).where(*_where(table, deleted)).values({table.c[deleted]: bindparam("r_now")})
                            .returning(*table.c))
            .execution_options(populate_existing=True))
