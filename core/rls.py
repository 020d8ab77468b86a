"""Row-level security DDL shared by migrations: one policy shape for every org-scoped table.

`app_current_org()` reads `SET LOCAL app.org_id`; unset means NULL, and NULL matches no row.
Tables FORCE RLS so even their owner is bound unless it is a superuser; the service itself connects
as `spotter_app`, which owns nothing and is never a superuser.
"""

from __future__ import annotations

from core.database import APP_ROLE

FUNCTIONS_SQL = [
    """CREATE OR REPLACE FUNCTION app_current_org() RETURNS uuid LANGUAGE sql STABLE AS
$$ SELECT nullif(current_setting('app.org_id', true), '')::uuid $$""",
    """CREATE OR REPLACE FUNCTION app_current_user() RETURNS uuid LANGUAGE sql STABLE AS
$$ SELECT nullif(current_setting('app.user_id', true), '')::uuid $$""",
]

APP_ROLE_SQL = [f"""
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{APP_ROLE}') THEN
    CREATE ROLE {APP_ROLE} NOLOGIN NOSUPERUSER NOBYPASSRLS;
  END IF;
  BEGIN
    EXECUTE format('GRANT {APP_ROLE} TO %I', current_user);
  EXCEPTION WHEN others THEN NULL;  -- superusers need no grant; others must have been granted by an admin
  END;
END $$""", f"GRANT USAGE ON SCHEMA public TO {APP_ROLE}"]


def grant_table(table: str) -> list[str]:
    return [f"GRANT SELECT, INSERT, UPDATE, DELETE ON {table} TO {APP_ROLE}"]


def tenant_table(table: str, org_column: str = "org_id") -> list[str]:
    """Grant the app role DML on `table` and bind every row to the current org."""
    return [
        *grant_table(table),
        f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY",
        f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY",
        f"CREATE POLICY {table}_tenant ON {table} "
        f"USING ({org_column} = app_current_org()) WITH CHECK ({org_column} = app_current_org())",
    ]


def drop_tenant_table(table: str) -> list[str]:
    return [f"DROP POLICY IF EXISTS {table}_tenant ON {table}", f"DROP TABLE IF EXISTS {table} CASCADE"]


def run(op, statements: list[str]) -> None:
    """Execute statements one at a time (asyncpg refuses several commands in one prepared statement)."""
    for statement in statements:
        op.execute(statement)
