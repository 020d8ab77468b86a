"""A logged set keeps the unit the member saw (issue 38 item 4): `exercise_sets.load_unit`, kg or lbs, next to the
load stored in kg. A set queued offline in kg and sent after a switch to lbs is read in kg and says so; sets logged
before this revision have none.

Revision ID: 0023_set_units
Revises: 0022_conversation_alternatives
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0023_set_units"
down_revision = "0022_conversation_alternatives"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("exercise_sets", sa.Column("load_unit", sa.String(3), nullable=True))
    op.create_check_constraint("load_unit", "exercise_sets", "load_unit IS NULL OR load_unit IN ('kg', 'lbs')")


def downgrade() -> None:
    op.drop_constraint("load_unit", "exercise_sets", type_="check")
    op.drop_column("exercise_sets", "load_unit")
