"""The columns most tables share, declared once (advanced-alchemy's `UUIDPrimaryKey` and audit columns, our own):
a table's class lists the mixins it has and then only its own columns.

Each mixin declares exactly what the migrations create, so using one changes no schema
(tests/core/test_models_match_migrations.py): a table whose column differs (a primary key without a Python
default, an `updated_at` without `onupdate`, a `created_at` without a server default) declares its own. In the
mapped table `id` and `org_id` come first and the timestamps last (`sort_order`).
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import ForeignKey, func
from sqlalchemy.orm import Mapped, mapped_column


class UUIDPrimaryKey:
    """`id`: a UUID primary key the application generates (uuid4) when a row is created."""

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4, sort_order=-10)


class OrgScoped:
    """`org_id`: the tenant a row belongs to, deleted with its organization; every query filters by it and
    row-level security filters by it again (core/rls.py)."""

    org_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("organizations.id", ondelete="CASCADE"), sort_order=-9)


class OrgRow(UUIDPrimaryKey, OrgScoped):
    """The usual org-scoped table: a UUID `id` and its `org_id`."""


class CreatedAt:
    """`created_at`: set by the database when the row is inserted."""

    created_at: Mapped[datetime] = mapped_column(server_default=func.now(), sort_order=10)


class Timestamps(CreatedAt):
    """`created_at` and `updated_at`: both set by the database at insert; the ORM sets `updated_at` again on every
    update it flushes."""

    updated_at: Mapped[datetime] = mapped_column(server_default=func.now(), onupdate=func.now(), sort_order=11)
