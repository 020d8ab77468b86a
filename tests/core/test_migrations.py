"""The schema comes from Alembic and survives upgrade → downgrade → upgrade on an empty database."""

import uuid

import asyncpg
import pytest

from core import migrations

CORE_TABLES = {"organizations", "users", "memberships", "conversations", "conversation_messages",
               "ai_tool_executions", "audit_logs", "ai_usage_daily"}


async def _tables(url: str) -> set[str]:
    conn = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
    try:
        rows = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        return {r["tablename"] for r in rows}
    finally:
        await conn.close()


@pytest.fixture
def empty_db_url(embedded_pg) -> str:
    return embedded_pg.ensure_database(f"mig_{uuid.uuid4().hex[:10]}")


async def test_upgrade_downgrade_upgrade_on_empty_database(empty_db_url: str) -> None:
    assert await _tables(empty_db_url) == set()
    migrations.upgrade(empty_db_url)
    assert CORE_TABLES <= await _tables(empty_db_url)
    migrations.downgrade(empty_db_url, "base")
    assert await _tables(empty_db_url) <= {"alembic_version"}
    migrations.upgrade(empty_db_url)
    assert CORE_TABLES <= await _tables(empty_db_url)


async def test_every_org_scoped_table_forces_row_level_security(embedded_pg) -> None:
    conn = await asyncpg.connect(embedded_pg.url().replace("postgresql+asyncpg", "postgresql"))
    try:
        rows = await conn.fetch("""
            SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity FROM pg_class c
            JOIN information_schema.columns col ON col.table_name = c.relname AND col.column_name = 'org_id'
            WHERE c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace""")
        assert {r["relname"] for r in rows} >= CORE_TABLES - {"organizations", "users"}
        assert all(r["relrowsecurity"] and r["relforcerowsecurity"] for r in rows), rows
        role = await conn.fetchrow("SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = 'spotter_app'")
        assert role is not None and not role["rolsuper"] and not role["rolbypassrls"]
    finally:
        await conn.close()
