"""The job queue the nutrition pipeline's runs ride on: PgQueuer's schema (tables, status enum, notify
trigger), rendered by the pinned pgqueuer release so the schema still comes only from Alembic.

Queue rows are infrastructure, not tenant data: a job's payload is `{org_id, run_id}` and nothing a
user wrote; the worker and the enqueuer use the owner connection. See README, "Durable runs".

Revision ID: 0009_job_queue
Revises: 0008_trainer_sessions
Create Date: 2026-11-23
"""

from alembic import op
from pgqueuer.adapters.persistence.qb import QueryBuilderEnvironment
from sqlalchemy.util import await_only

revision = "0009_job_queue"
down_revision = "0008_trainer_sessions"
branch_labels = None
depends_on = None


def _script(sql: str) -> None:
    """Run a multi-statement script over asyncpg's simple-query protocol (function bodies hold `;`)."""
    await_only(op.get_bind().connection.driver_connection.execute(sql))


def upgrade() -> None:
    _script(QueryBuilderEnvironment().build_install_query(create_schema=False))


def downgrade() -> None:
    _script(QueryBuilderEnvironment().build_uninstall_query())
