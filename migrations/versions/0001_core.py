"""Core tables: tenancy, conversations, tool executions, audit, daily AI usage; RLS on every org table.

Revision ID: 0001_core
Revises:
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB, UUID

from core.rls import APP_ROLE_SQL, FUNCTIONS_SQL, drop_tenant_table, grant_table, run, tenant_table

revision = "0001_core"
down_revision = None
branch_labels = None
depends_on = None

ORG_TABLES = ("memberships", "conversations", "conversation_messages", "audit_logs",
              "ai_tool_executions", "ai_usage_daily")


def _id() -> sa.Column:
    return sa.Column("id", UUID(as_uuid=True), primary_key=True, server_default=sa.text("gen_random_uuid()"))


def _org() -> sa.Column:
    return sa.Column("org_id", UUID(as_uuid=True), sa.ForeignKey("organizations.id", ondelete="CASCADE"),
                     nullable=False)


def _created() -> sa.Column:
    return sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now())


def upgrade() -> None:
    op.execute("CREATE EXTENSION IF NOT EXISTS vector")
    op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    run(op, APP_ROLE_SQL)
    run(op, FUNCTIONS_SQL)

    op.create_table(
        "organizations", _id(),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("slug", sa.String(100), nullable=False, unique=True),
        sa.Column("tier", sa.String(10), nullable=False, server_default="lite"),
        sa.Column("ai_daily_budget_usd_micros", sa.BigInteger, nullable=True),
        sa.Column("timezone", sa.String(64), nullable=False, server_default="UTC"),
        sa.Column("locale", sa.String(8), nullable=False, server_default="en"),
        _created(),
        sa.CheckConstraint("tier IN ('lite','pro','elite')", name="tier"),
        sa.CheckConstraint("ai_daily_budget_usd_micros IS NULL OR ai_daily_budget_usd_micros >= -1",
                           name="budget"),
    )
    op.create_table(
        "users", _id(),
        sa.Column("clerk_id", sa.String(200), nullable=False, unique=True),
        sa.Column("email", sa.String(320), nullable=False, unique=True),
        sa.Column("name", sa.String(200), nullable=False),
        _created(),
    )
    op.create_table(
        "memberships", _id(), _org(),
        sa.Column("user_id", UUID(as_uuid=True), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("status", sa.String(20), nullable=False, server_default="active"),
        _created(),
        sa.UniqueConstraint("org_id", "user_id", name="uq_memberships_org_user"),
        sa.CheckConstraint("role IN ('owner','admin','coach','front_desk','member')", name="role"),
        sa.CheckConstraint("status IN ('active','invited','disabled')", name="status"),
    )
    op.create_index("ix_memberships_user", "memberships", ["user_id"])

    op.create_table(
        "conversations", _id(), _org(),
        sa.Column("user_id", UUID(as_uuid=True), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("title", sa.String(200), nullable=True),
        _created(),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )
    op.create_index("ix_conversations_owner", "conversations", ["org_id", "user_id", sa.text("updated_at DESC")])

    op.create_table(
        "conversation_messages", _id(), _org(),
        sa.Column("conversation_id", UUID(as_uuid=True), sa.ForeignKey("conversations.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("content", JSONB, nullable=False),
        sa.Column("page_context", JSONB, nullable=True),
        sa.Column("stop_reason", sa.String(40), nullable=True),
        sa.Column("usage", JSONB, nullable=True),
        _created(),
        sa.UniqueConstraint("conversation_id", "seq", name="uq_conversation_messages_seq"),
        sa.CheckConstraint("role IN ('user','assistant','system_note')", name="role"),
    )

    op.create_table(
        "audit_logs", _id(), _org(),
        sa.Column("actor_user_id", UUID(as_uuid=True), sa.ForeignKey("users.id", ondelete="SET NULL"),
                  nullable=True),
        sa.Column("actor_clerk_id", sa.String(200), nullable=True),
        sa.Column("action", sa.String(100), nullable=False),
        sa.Column("resource", sa.String(100), nullable=False),
        sa.Column("resource_id", sa.String(100), nullable=True),
        sa.Column("metadata", JSONB, nullable=False, server_default=sa.text("'{}'::jsonb")),
        _created(),
    )
    op.create_index("ix_audit_logs_org_created", "audit_logs", ["org_id", sa.text("created_at DESC")])

    op.create_table(
        "ai_tool_executions", _id(), _org(),
        sa.Column("conversation_id", UUID(as_uuid=True), sa.ForeignKey("conversations.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("message_id", UUID(as_uuid=True),
                  sa.ForeignKey("conversation_messages.id", ondelete="CASCADE"), nullable=True),
        sa.Column("tool_use_id", sa.String(100), nullable=False),
        sa.Column("position", sa.Integer, nullable=False, server_default="0"),
        sa.Column("router", sa.String(60), nullable=False),
        sa.Column("action", sa.String(60), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False, server_default="normal"),
        sa.Column("confirm", sa.String(20), nullable=False, server_default="never"),
        sa.Column("input", JSONB, nullable=False, server_default=sa.text("'{}'::jsonb")),
        sa.Column("output", JSONB, nullable=True),
        sa.Column("error", JSONB, nullable=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("actor_user_id", UUID(as_uuid=True), sa.ForeignKey("users.id", ondelete="SET NULL"),
                  nullable=True),
        sa.Column("audit_log_id", UUID(as_uuid=True), sa.ForeignKey("audit_logs.id", ondelete="SET NULL"),
                  nullable=True),
        sa.Column("undone_by", UUID(as_uuid=True), sa.ForeignKey("ai_tool_executions.id", ondelete="SET NULL"),
                  nullable=True),
        sa.Column("undoes", UUID(as_uuid=True), sa.ForeignKey("ai_tool_executions.id", ondelete="SET NULL"),
                  nullable=True),
        sa.Column("duration_ms", sa.Integer, nullable=True),
        _created(),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("conversation_id", "tool_use_id", name="uq_ai_tool_executions_tool_use"),
        sa.CheckConstraint(
            "status IN ('pending','running','succeeded','failed','rejected_by_user','superseded','expired')",
            name="status"),
    )
    op.create_index("ix_ai_tool_executions_message", "ai_tool_executions", ["message_id", "position"])
    op.create_index("ix_ai_tool_executions_pending", "ai_tool_executions", ["conversation_id"],
                    postgresql_where=sa.text("status = 'pending'"))

    op.create_table(
        "ai_usage_daily", _org(),
        sa.Column("user_id", UUID(as_uuid=True), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("input_tokens", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("output_tokens", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("cache_read_tokens", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("cache_creation_5m_tokens", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("cache_creation_1h_tokens", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("cost_usd_micros", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("turns", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.PrimaryKeyConstraint("org_id", "user_id", "day", name="pk_ai_usage_daily"),
    )
    op.create_index("ix_ai_usage_daily_org_day", "ai_usage_daily", ["org_id", "day"])

    # Users are global (auth looks them up by clerk_id before any org is known).
    run(op, grant_table("users"))
    # Organizations: visible when it is the current org or one the current user belongs to.
    run(op, [
        *grant_table("organizations"),
        "ALTER TABLE organizations ENABLE ROW LEVEL SECURITY",
        "ALTER TABLE organizations FORCE ROW LEVEL SECURITY",
        """CREATE POLICY organizations_visible ON organizations USING (
          id = app_current_org()
          OR id IN (SELECT m.org_id FROM memberships m WHERE m.user_id = app_current_user()))""",
    ])
    for table in ORG_TABLES:
        run(op, tenant_table(table))
    # A user may read their own memberships in any org (GET /me lists them).
    op.execute("CREATE POLICY memberships_own ON memberships FOR SELECT USING (user_id = app_current_user())")


def downgrade() -> None:
    op.execute("DROP POLICY IF EXISTS memberships_own ON memberships")
    for table in reversed(ORG_TABLES):
        run(op, drop_tenant_table(table))
    op.execute("DROP POLICY IF EXISTS organizations_visible ON organizations")
    op.drop_table("users")
    op.drop_table("organizations")
    run(op, ["DROP FUNCTION IF EXISTS app_current_org()", "DROP FUNCTION IF EXISTS app_current_user()"])
