"""Replays change nothing (issue 22): remembered `Idempotency-Key` answers, one check-in per run and date.

`idempotency_keys` keeps, per org, user and key, the fingerprint of the request that first used the key and
the answer it got (status and JSON body), written in the same transaction as the work, so a retry of the
same request gets the same answer and a different request under the same key is refused. FORCE'd RLS.
`nutrition_checkins` gains UNIQUE (run_id, checkin_date); duplicates an earlier replay stored are removed
first (the first check-in of a date stays, as NUTRITION.md's rule keeps it).

Revision ID: 0016_idempotency
Revises: 0015_caller_lookup
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB, UUID

from core.rls import drop_tenant_table, run, tenant_table

revision = "0016_idempotency"
down_revision = "0015_caller_lookup"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "idempotency_keys",
        sa.Column("org_id", UUID(as_uuid=True), sa.ForeignKey("organizations.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("user_id", UUID(as_uuid=True), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("key", sa.String(255), primary_key=True),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("status_code", sa.Integer, nullable=True),
        sa.Column("response", JSONB, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )
    run(op, tenant_table("idempotency_keys"))
    op.execute("""
        DELETE FROM nutrition_checkins c USING nutrition_checkins first
        WHERE c.run_id = first.run_id AND c.checkin_date = first.checkin_date
          AND (first.created_at, first.id) < (c.created_at, c.id)""")
    op.create_unique_constraint("uq_nutrition_checkins_run_date", "nutrition_checkins", ["run_id", "checkin_date"])


def downgrade() -> None:
    op.drop_constraint("uq_nutrition_checkins_run_date", "nutrition_checkins", type_="unique")
    run(op, drop_tenant_table("idempotency_keys"))
