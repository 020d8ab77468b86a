"""Hardening, third round (issue 39): threads record their persona.

`conversations.persona` says which persona a thread belongs to (`staff_copilot`, `trainer`); every lookup of a
thread checks it with the owner (agent.conversations.OWNED), so a staff endpoint never lists, reads, posts into or
resolves a member's trainer session, nor the reverse. Existing trainer sessions (a `trainer_sessions` row shares
its conversation's id) are marked `trainer`; the owner index leads with the persona's columns.

Idempotency keys are swept a day after they were written (core/idempotency.py): `created_at` is indexed for it.

Revision ID: 0026_hardening
Revises: 0021_member_app_sets
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0026_hardening"
down_revision = "0021_member_app_sets"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("conversations", sa.Column("persona", sa.String(20), nullable=False,
                                             server_default="staff_copilot"))
    op.execute("UPDATE conversations c SET persona = 'trainer' FROM trainer_sessions t WHERE t.id = c.id")
    op.drop_index("ix_conversations_owner", table_name="conversations")
    op.create_index("ix_conversations_owner", "conversations",
                    ["org_id", "user_id", "persona", sa.text("updated_at DESC")])
    op.create_index("ix_idempotency_keys_created", "idempotency_keys", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_idempotency_keys_created", table_name="idempotency_keys")
    op.drop_index("ix_conversations_owner", table_name="conversations")
    op.create_index("ix_conversations_owner", "conversations", ["org_id", "user_id", sa.text("updated_at DESC")])
    op.drop_column("conversations", "persona")
