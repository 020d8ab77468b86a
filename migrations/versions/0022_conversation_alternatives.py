"""Regenerate and Edit keep what they replace (issue 44): a conversation's messages may be alternatives.

A person who edits a message, or asks for an answer again, replaces a user message and everything after it; the
replaced rows stay, hidden: `hidden_by` names the user message whose alternative they belong to (NULL: on the
path the model and the console read). A user message written in place of another carries `fork_of`, the first
message of that place (its slot), so the console can flip between a slot's alternatives (agent/branches.py).

Revision ID: 0022_conversation_alternatives
Revises: 0021_member_app_sets
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import UUID

revision = "0022_conversation_alternatives"
down_revision = "0021_member_app_sets"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("conversation_messages", sa.Column("fork_of", UUID(as_uuid=True), nullable=True))
    op.add_column("conversation_messages", sa.Column("hidden_by", UUID(as_uuid=True), nullable=True))
    op.create_index("ix_conversation_messages_fork_of", "conversation_messages", ["fork_of"],
                    postgresql_where=sa.text("fork_of IS NOT NULL"))


def downgrade() -> None:
    op.drop_index("ix_conversation_messages_fork_of", table_name="conversation_messages")
    op.drop_column("conversation_messages", "hidden_by")
    op.drop_column("conversation_messages", "fork_of")
