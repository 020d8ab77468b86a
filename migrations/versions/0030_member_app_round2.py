"""The member app's second round (issue 43 item 3): a set can be a warm-up (`exercise_sets.warmup`: kept and shown,
never counted in the exercise's log, its volume or its records), and a member keeps a note per library exercise
(`member_exercise_notes`, one per member and exercise key, shown again the next time), under tenant RLS; a gym
can say which bar and plates it has (`organizations.plates`, {unit, bar, plates}) for the plate calculator.

Revision ID: 0030_member_app_round2
Revises: 0025_workout_left_out
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB, UUID

from core.rls import drop_tenant_table, run, tenant_table

revision = "0030_member_app_round2"
down_revision = "0029_food_log"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("exercise_sets", sa.Column("warmup", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "member_exercise_notes",
        sa.Column("id", UUID(as_uuid=True), primary_key=True, server_default=sa.text("gen_random_uuid()")),
        sa.Column("org_id", UUID(as_uuid=True), sa.ForeignKey("organizations.id", ondelete="CASCADE"), nullable=False),
        sa.Column("member_id", UUID(as_uuid=True), sa.ForeignKey("members.id", ondelete="CASCADE"), nullable=False),
        sa.Column("exercise_key", sa.String(120), nullable=False),
        sa.Column("note", sa.String(1000), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.text("now()")),
        sa.UniqueConstraint("member_id", "exercise_key", name="uq_member_exercise_notes_member_exercise"),
    )
    op.create_index("ix_member_exercise_notes_org_member", "member_exercise_notes", ["org_id", "member_id"])
    run(op, tenant_table("member_exercise_notes"))
    op.add_column("organizations", sa.Column("plates", JSONB, nullable=True))


def downgrade() -> None:
    op.drop_column("organizations", "plates")
    run(op, drop_tenant_table("member_exercise_notes"))
    op.drop_column("exercise_sets", "warmup")
