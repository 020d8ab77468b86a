"""The member's training app (issue 26): a workout logged set by set writes the same record the trainer reads.

`exercise_sets` holds each set a member logs of an exercise of their current workout (reps, load in kg, seconds,
RPE), tied to that exercise's one log in `exercise_logs`, which is rebuilt from its live sets (a set undone stops
counting: the log's sets, reps per set and load follow; the last live set undone undoes the log). One live set per
number per exercise of a workout (a partial unique index). `exercise_logs` gains `load_per_set_kg` (what each set
lifted, so volume and records are exact when the sets differ); `trainer_workouts` gains `started_at` (the member
pressed Start).

Revision ID: 0021_member_app_sets
Revises: 0020_nutrition_ready_version
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import ARRAY, UUID

from core.rls import drop_tenant_table, run, tenant_table

revision = "0021_member_app_sets"
down_revision = "0020_nutrition_ready_version"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "exercise_sets",
        sa.Column("id", UUID(as_uuid=True), primary_key=True, server_default=sa.text("gen_random_uuid()")),
        sa.Column("org_id", UUID(as_uuid=True), sa.ForeignKey("organizations.id", ondelete="CASCADE"), nullable=False),
        sa.Column("member_id", UUID(as_uuid=True), sa.ForeignKey("members.id", ondelete="CASCADE"), nullable=False),
        sa.Column("workout_id", UUID(as_uuid=True), sa.ForeignKey("trainer_workouts.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("log_id", UUID(as_uuid=True), sa.ForeignKey("exercise_logs.id", ondelete="CASCADE"), nullable=False),
        sa.Column("exercise_key", sa.String(20), nullable=False),
        sa.Column("set_number", sa.Integer, nullable=False),
        sa.Column("reps", sa.Integer, nullable=True),
        sa.Column("load_kg", sa.Numeric(10, 2), nullable=True),
        sa.Column("duration_sec", sa.Integer, nullable=True),
        sa.Column("distance_km", sa.Numeric(10, 3), nullable=True),
        sa.Column("rpe", sa.Numeric(3, 1), nullable=True),
        sa.Column("performed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("undone_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.text("now()")),
        sa.CheckConstraint("set_number BETWEEN 1 AND 100", name="set_number"),
        sa.CheckConstraint("reps IS NULL OR reps BETWEEN 1 AND 1000", name="reps"),
        sa.CheckConstraint("load_kg IS NULL OR load_kg BETWEEN 0 AND 1000", name="load"),
        sa.CheckConstraint("duration_sec IS NULL OR duration_sec BETWEEN 1 AND 86400", name="duration"),
        sa.CheckConstraint("distance_km IS NULL OR distance_km > 0", name="distance"),
        sa.CheckConstraint("rpe IS NULL OR rpe BETWEEN 1 AND 10", name="rpe"),
    )
    op.create_index("uq_exercise_sets_live_number", "exercise_sets", ["workout_id", "exercise_key", "set_number"],
                    unique=True, postgresql_where=sa.text("undone_at IS NULL"))
    op.create_index("ix_exercise_sets_log", "exercise_sets", ["log_id"])
    op.create_index("ix_exercise_sets_member_time", "exercise_sets", ["org_id", "member_id", "performed_at"])
    run(op, tenant_table("exercise_sets"))

    op.add_column("exercise_logs", sa.Column("load_per_set_kg", ARRAY(sa.Numeric(10, 2)), nullable=True))
    op.add_column("trainer_workouts", sa.Column("started_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("trainer_workouts", "started_at")
    op.drop_column("exercise_logs", "load_per_set_kg")
    run(op, drop_tenant_table("exercise_sets"))
