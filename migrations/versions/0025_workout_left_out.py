"""What the rules left out of a workout (issue 38 item 5): `trainer_workouts.left_out` holds each exercise the
member's injuries or "never" rules refused while the workout was being built, with the rule that refused it, so
the workout card names them ("Dumbbell Shoulder Press left out: no overhead pressing — left shoulder").

Revision ID: 0025_workout_left_out
Revises: 0024_front_desk
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0025_workout_left_out"
down_revision = "0024_front_desk"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("trainer_workouts", sa.Column("left_out", JSONB, nullable=False,
                                                server_default=sa.text("'[]'::jsonb")))


def downgrade() -> None:
    op.drop_column("trainer_workouts", "left_out")
