"""The service enqueues a nutrition run's job in the transaction that records the run (issue 23).

The service's sessions run as the app role, so the app role may now do what PgQueuer's enqueue statement
does (`Queries.enqueue`): insert a job and its `queued` log row, draw the job id from the queue's sequence,
and read back the columns that statement returns. Nothing else: it cannot read payloads, pick, update or
delete jobs (the workers do that on the owner connection). Queue rows carry only `{org_id, run_id}`.

Revision ID: 0018_app_enqueues_runs
Revises: 0017_tool_trace_parent
Create Date: 2026-11-26
"""

from alembic import op

from core.database import APP_ROLE
from core.rls import run

revision = "0018_app_enqueues_runs"
down_revision = "0017_tool_trace_parent"
branch_labels = None
depends_on = None

RETURNED = "id, entrypoint, priority, dedupe_key"  # what PgQueuer's enqueue statement returns


def upgrade() -> None:
    run(op, [f"GRANT INSERT ON pgqueuer, pgqueuer_log TO {APP_ROLE}",
             f"GRANT SELECT ({RETURNED}) ON pgqueuer TO {APP_ROLE}",
             f"GRANT USAGE ON SEQUENCE pgqueuer_id_seq TO {APP_ROLE}"])


def downgrade() -> None:
    run(op, [f"REVOKE USAGE ON SEQUENCE pgqueuer_id_seq FROM {APP_ROLE}",
             f"REVOKE SELECT ({RETURNED}) ON pgqueuer FROM {APP_ROLE}",
             f"REVOKE INSERT ON pgqueuer, pgqueuer_log FROM {APP_ROLE}"])
