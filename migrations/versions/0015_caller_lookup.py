"""The caller lookup every authenticated request makes, as one statement: `app_caller(clerk_id, org_id)`.

The request guards read the user behind a verified session token and their active membership in the path's
org. As a transaction that was three round trips to Postgres (BEGIN with the tenancy settings, the SELECT,
COMMIT) on every request; this function is called as a single statement outside any transaction. It is
SECURITY DEFINER (as the candidate functions of 0005, 0010, 0014) and scopes itself: it sets `app.org_id` to
the org it was asked about for its own query, so row-level security still binds memberships and
organizations when the owner is not a superuser, and puts back whatever setting was there before (called
inside a transaction, it leaves that transaction's tenancy as it found it). With `org` NULL it returns the
user alone; an unknown clerk id returns no row.

Revision ID: 0015_caller_lookup
Revises: 0014_name_candidates
Create Date: 2026-11-24
"""

from alembic import op

from core.database import APP_ROLE
from core.rls import run

revision = "0015_caller_lookup"
down_revision = "0014_name_candidates"
branch_labels = None
depends_on = None

SIGNATURE = "app_caller(text, uuid)"

FUNCTION = """
CREATE OR REPLACE FUNCTION app_caller(clerk text, org uuid)
RETURNS TABLE (user_id uuid, clerk_id text, email text, name text, org_id uuid, org_name text, tier text,
               timezone text, locale text, ai_daily_budget_usd_micros bigint, role text)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  before text := current_setting('app.org_id', true);
BEGIN
  PERFORM set_config('app.org_id', coalesce(org::text, ''), true);
  RETURN QUERY
    SELECT u.id, u.clerk_id::text, u.email::text, u.name::text, o.id, o.name::text, o.tier::text,
           o.timezone::text, o.locale::text, o.ai_daily_budget_usd_micros, m.role::text
    FROM users u
    LEFT JOIN memberships m ON m.user_id = u.id AND m.org_id = org AND m.status = 'active'
    LEFT JOIN organizations o ON o.id = m.org_id
    WHERE u.clerk_id = clerk;
  PERFORM set_config('app.org_id', coalesce(before, ''), true);
END $$"""


def upgrade() -> None:
    op.execute(FUNCTION)
    run(op, [f"REVOKE ALL ON FUNCTION {SIGNATURE} FROM PUBLIC", f"GRANT EXECUTE ON FUNCTION {SIGNATURE} TO {APP_ROLE}"])


def downgrade() -> None:
    op.execute(f"DROP FUNCTION IF EXISTS {SIGNATURE}")
