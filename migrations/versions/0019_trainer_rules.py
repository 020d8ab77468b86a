"""The trainer keeps its promises (issue 24): preferences and injuries carry structured exclusions enforced in code,
and a log records what each set reached against what it was prescribed, so progression can tell a miss.

`member_preferences` gains `exclusions` (exercises, movement patterns, muscles, equipment), `hard` (refused when
broken; every injury is) and `updated_at` (the same preference said again updates the first row). `exercise_logs`
gains `reps_per_set`, `target_reps` and `equipment`; `reps` stays the reps of every set and is NULL when the sets
differ (it was never able to say 10/8/8/6). `trainer_workouts.last_exercise_number` is the highest ex_NNN a
workout has issued, so an exercise added after one was removed never takes the removed one's id.

Revision ID: 0019_trainer_rules
Revises: 0018_app_enqueues_runs
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import ARRAY, JSONB

revision = "0019_trainer_rules"
down_revision = "0018_app_enqueues_runs"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("member_preferences", sa.Column("exclusions", JSONB, nullable=False,
                                                  server_default=sa.text("'{}'::jsonb")))
    op.add_column("member_preferences", sa.Column("hard", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("member_preferences", sa.Column("updated_at", sa.DateTime(timezone=True), nullable=True))
    op.create_check_constraint("exclusions_object", "member_preferences", "jsonb_typeof(exclusions) = 'object'")
    op.execute("UPDATE member_preferences SET hard = true WHERE type = 'injury'")

    op.add_column("exercise_logs", sa.Column("reps_per_set", ARRAY(sa.Integer), nullable=True))
    op.add_column("exercise_logs", sa.Column("target_reps", ARRAY(sa.Integer), nullable=True))
    op.add_column("exercise_logs", sa.Column("equipment", ARRAY(sa.Text), nullable=False,
                                             server_default=sa.text("'{}'::text[]")))
    op.add_column("trainer_workouts", sa.Column("last_exercise_number", sa.Integer, nullable=False,
                                                server_default="0"))
    op.execute("UPDATE trainer_workouts SET last_exercise_number = jsonb_array_length(exercises)")
    for column in ("reps_per_set", "target_reps"):
        op.create_check_constraint(
            column, "exercise_logs",
            f"{column} IS NULL OR (cardinality({column}) BETWEEN 1 AND 100 AND 0 < ALL({column}) "
            f"AND 1000 >= ALL({column}))")


def downgrade() -> None:
    op.drop_column("trainer_workouts", "last_exercise_number")
    for column in ("reps_per_set", "target_reps"):
        op.drop_constraint(column, "exercise_logs")
    for column in ("equipment", "target_reps", "reps_per_set"):
        op.drop_column("exercise_logs", column)
    op.drop_constraint("exclusions_object", "member_preferences")
    for column in ("updated_at", "hard", "exclusions"):
        op.drop_column("member_preferences", column)
