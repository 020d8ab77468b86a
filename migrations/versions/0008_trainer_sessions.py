"""The member's trainer sessions and their append-only event log (TRAINER.md "The loop").

`trainer_sessions` shares its id with a `conversations` row, so the engine's tool executions (pending
confirmations, undo) attach to it as they do for the staff copilot; it carries the member, status,
`knowledge_in_context`, the current workout key and the session's cost totals. `trainer_events` is
append-only: `UNIQUE(session_id, seq)`, an insert that loses the race is retried with the next seq. Both
are org-scoped with FORCE'd RLS.

Revision ID: 0008_trainer_sessions
Revises: 0007_nutrition_pipeline
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB, UUID

from core.database import APP_ROLE
from core.rls import drop_tenant_table, run, tenant_table

revision = "0008_trainer_sessions"
down_revision = "0007_nutrition_pipeline"
branch_labels = None
depends_on = None

TABLES = ("trainer_sessions", "trainer_events")
EVENT_TYPES = ("user_message", "tool_call", "tool_result", "knowledge", "knowledge_update", "workout", "checkpoint",
               "llm_request", "llm_response", "error")


def _org() -> sa.Column:
    return sa.Column("org_id", UUID(as_uuid=True), sa.ForeignKey("organizations.id", ondelete="CASCADE"),
                     nullable=False)


def upgrade() -> None:
    op.create_table(
        "trainer_sessions",
        sa.Column("id", UUID(as_uuid=True), sa.ForeignKey("conversations.id", ondelete="CASCADE"), primary_key=True),
        _org(),
        sa.Column("member_id", UUID(as_uuid=True), sa.ForeignKey("members.id", ondelete="CASCADE"), nullable=False),
        sa.Column("user_id", UUID(as_uuid=True), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("status", sa.String(12), nullable=False, server_default="active"),
        sa.Column("title", sa.String(200), nullable=True),
        sa.Column("knowledge_in_context", JSONB, nullable=False, server_default=sa.text("'{}'::jsonb")),
        sa.Column("current_workout_key", sa.String(20), nullable=True),
        sa.Column("total_tokens", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("cached_tokens", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("cost_usd_micros", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.Column("last_activity_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.CheckConstraint("status IN ('active','completed','expired')", name="status"),
    )
    op.create_index("ix_trainer_sessions_member", "trainer_sessions", ["org_id", "member_id", "last_activity_at"])
    op.create_table(
        "trainer_events",
        sa.Column("id", UUID(as_uuid=True), primary_key=True, server_default=sa.text("gen_random_uuid()")),
        _org(),
        sa.Column("session_id", UUID(as_uuid=True), sa.ForeignKey("trainer_sessions.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("type", sa.String(20), nullable=False),
        sa.Column("payload", JSONB, nullable=False, server_default=sa.text("'{}'::jsonb")),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.UniqueConstraint("session_id", "seq", name="uq_trainer_events_seq"),
        sa.CheckConstraint("type IN (" + ",".join(f"'{t}'" for t in EVENT_TYPES) + ")", name="type"),
    )
    for table in TABLES:
        run(op, tenant_table(table))
    op.execute(f"REVOKE UPDATE, DELETE ON trainer_events FROM {APP_ROLE}")  # append-only for the service


def downgrade() -> None:
    for table in reversed(TABLES):
        run(op, drop_tenant_table(table))
