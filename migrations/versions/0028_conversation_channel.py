"""Where a conversation came from (issue 41): `conversations.channel` is `console` (the staff console's chat) or
`mcp` (the actions an assistant took through the MCP server, one conversation per MCP session), so the console
can label what an assistant did "via MCP" and keep people from typing into a record that no model continues.

Revision ID: 0028_conversation_channel
Revises: 0025_workout_left_out
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0028_conversation_channel"
down_revision = "0027_hardening"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("conversations", sa.Column("channel", sa.String(20), nullable=False, server_default="console"))
    op.create_check_constraint("channel", "conversations", "channel IN ('console', 'mcp')")


def downgrade() -> None:
    op.drop_constraint("channel", "conversations", type_="check")
    op.drop_column("conversations", "channel")
