"""Hardening, third round (issue 39): threads record their persona.

`conversations.persona` says which persona a thread belongs to (`staff_copilot`, `trainer`); every lookup of a
thread checks it with the owner (agent.conversations.OWNED), so a staff endpoint never lists, reads, posts into or
resolves a member's trainer session, nor the reverse. Existing trainer sessions (a `trainer_sessions` row shares
its conversation's id) are marked `trainer`; the owner index leads with the persona's columns.

Idempotency keys are swept a day after they were written (core/idempotency.py): `created_at` is indexed for it.

`exercise_sets.client_set_id` is the member app's own id for a set: a set sent again under a new Idempotency-Key
(an offline queue) is the set already logged, one per member (gym/training/workout_sets.py).

Revision ID: 0027_hardening
Revises: 0025_workout_left_out
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import UUID

revision = "0027_hardening"
down_revision = "0026_fair_queue"
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
    op.add_column("exercise_sets", sa.Column("client_set_id", UUID(as_uuid=True), nullable=True))
    op.create_index("uq_exercise_sets_client_id", "exercise_sets", ["member_id", "client_set_id"], unique=True,
                    postgresql_where=sa.text("client_set_id IS NOT NULL"))


def downgrade() -> None:
    op.drop_index("uq_exercise_sets_client_id", table_name="exercise_sets")
    op.drop_column("exercise_sets", "client_set_id")
    op.drop_index("ix_idempotency_keys_created", table_name="idempotency_keys")
    op.drop_index("ix_conversations_owner", table_name="conversations")
    op.create_index("ix_conversations_owner", "conversations", ["org_id", "user_id", sa.text("updated_at DESC")])
    op.drop_column("conversations", "persona")
