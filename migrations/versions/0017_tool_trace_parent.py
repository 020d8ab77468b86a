"""A pending tool use remembers the turn that suspended it (issue 28): `ai_tool_executions.trace_parent`, the
W3C traceparent of that turn's `invoke_agent` span, so the span of its resolution links back to it.

Revision ID: 0017_tool_trace_parent
Revises: 0016_idempotency
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0017_tool_trace_parent"
down_revision = "0016_idempotency"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("ai_tool_executions", sa.Column("trace_parent", sa.String(55), nullable=True))


def downgrade() -> None:
    op.drop_column("ai_tool_executions", "trace_parent")
