"""Staff tasks (the first real tool router).

Revision ID: 0002_tasks
Revises: 0001_core
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import UUID

from core.rls import drop_tenant_table, run, tenant_table

revision = "0002_tasks"
down_revision = "0001_core"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tasks",
        sa.Column("id", UUID(as_uuid=True), primary_key=True, server_default=sa.text("gen_random_uuid()")),
        sa.Column("org_id", UUID(as_uuid=True), sa.ForeignKey("organizations.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("title", sa.String(300), nullable=False),
        sa.Column("notes", sa.Text, nullable=True),
        sa.Column("due_on", sa.Date, nullable=True),
        sa.Column("priority", sa.String(10), nullable=False, server_default="normal"),
        sa.Column("status", sa.String(10), nullable=False, server_default="open"),
        sa.Column("assignee_user_id", UUID(as_uuid=True), sa.ForeignKey("users.id", ondelete="SET NULL"),
                  nullable=True),
        sa.Column("created_by", UUID(as_uuid=True), sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
        sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.CheckConstraint("priority IN ('low','normal','high')", name="priority"),
        sa.CheckConstraint("status IN ('open','done')", name="status"),
    )
    op.create_index("ix_tasks_org_open", "tasks", ["org_id", "status", "due_on"],
                    postgresql_where=sa.text("deleted_at IS NULL"))
    run(op, tenant_table("tasks"))


def downgrade() -> None:
    run(op, drop_tenant_table("tasks"))
