"""Audit rows for successful audited writes; agent writes carry `metadata.agent = true`."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import ForeignKey, Insert, String, insert
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from core import row_inserts
from core.database import Base
from core.mixins import CreatedAt, OrgRow
from core.row_inserts import Row, binds
from core.tenancy import Caller


class AuditLog(OrgRow, CreatedAt, Base):
    __tablename__ = "audit_logs"

    actor_user_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    actor_clerk_id: Mapped[str | None] = mapped_column(String(200))
    action: Mapped[str] = mapped_column(String(100))
    resource: Mapped[str] = mapped_column(String(100))
    resource_id: Mapped[str | None] = mapped_column(String(100))
    metadata_: Mapped[dict[str, Any]] = mapped_column("metadata", JSONB(none_as_null=True), default=dict)


_COLUMNS = ("id", "org_id", "actor_user_id", "actor_clerk_id", "action", "resource", "resource_id", "metadata")


def _audit_insert(prefix: str, ordinal: int) -> Insert:
    return insert(AuditLog.__table__).values(binds(AuditLog.__table__, prefix, _COLUMNS))  # type: ignore[arg-type]


def audit_row(*, org_id: uuid.UUID, caller: Caller, action: str, resource: str, resource_id: object | None,
              metadata: dict[str, Any]) -> Row:
    """An audit row for a caller that sends it with its own write (core.row_inserts); its id is `values["id"]`."""
    return Row(_audit_insert, {"id": uuid.uuid4(), "org_id": org_id, "actor_user_id": caller.user_id,
                               "actor_clerk_id": caller.clerk_id, "action": action, "resource": resource,
                               "resource_id": None if resource_id is None else str(resource_id),
                               "metadata": metadata})


async def write_audit(session: AsyncSession, row: Row) -> uuid.UUID:
    await session.execute(*row_inserts.statements.get([row]))
    return row.values["id"]
