"""A run's plan stays current until a newer one is ready (issue 25): `nutrition_runs.ready_version` is the version
of the run that last reached `output_ready` (NULL: never). A new run no longer supersedes the member's plan when it
starts: it does when it first reaches `output_ready`, and a run erroring or aborted leaves the previous plan current.
A run's detail shows the outputs of its ready version while a newer version is under way or failed.

Existing rows: a run resting in `output_ready` is ready at its version; one that reached it before and is re-running
or failed since is ready at the version before (its first version at least).

Revision ID: 0020_nutrition_ready_version
Revises: 0019_trainer_rules
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0020_nutrition_ready_version"
down_revision = "0019_trainer_rules"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("nutrition_runs", sa.Column("ready_version", sa.Integer, nullable=True))
    op.execute("""
        UPDATE nutrition_runs r SET ready_version = CASE WHEN r.state = 'output_ready' THEN r.version
                                                         ELSE GREATEST(r.version - 1, 1) END
        WHERE r.state = 'output_ready' OR EXISTS (
            SELECT 1 FROM nutrition_events e
            WHERE e.run_id = r.id AND e.kind = 'state' AND e.data->>'to' = 'output_ready')
    """)
    op.create_check_constraint("ready_version_le_version", "nutrition_runs",
                               "ready_version IS NULL OR (ready_version >= 1 AND ready_version <= version)")


def downgrade() -> None:
    op.drop_constraint("ready_version_le_version", "nutrition_runs", type_="check")
    op.drop_column("nutrition_runs", "ready_version")
